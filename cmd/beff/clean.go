package main

import (
	"io"
	"os"
	"unicode/utf8"
)

// What beff writes to a terminal may quote a results file (a host name,
// a configuration line, a line it refuses), and a file can carry terminal
// control sequences that retitle the window, clear the screen or write the
// clipboard. Every command writes through a cleanWriter, which lets no
// control character through but the newline and the tab.

// A cleanWriter passes what is written to w with every control character
// shown instead of obeyed: C0 controls as their Unicode pictures (ESC as
// ␛), DEL as ␡, C1 controls, bidirectional overrides and bytes that are
// not UTF-8 as U+FFFD. A rune split between two writes is held until it
// is whole (Flush writes what is left).
type cleanWriter struct {
	w    io.Writer
	rest []byte // the start of a rune the last write ended in
}

func newCleanWriter(w io.Writer) *cleanWriter { return &cleanWriter{w: w} }

// Unwrap is the writer it writes to (isTerminal looks through it).
func (c *cleanWriter) Unwrap() io.Writer { return c.w }

func (c *cleanWriter) Write(p []byte) (int, error) {
	buf := append(c.rest, p...)
	cut := len(buf)
	for i := max(0, len(buf)-utf8.UTFMax+1); i < len(buf); i++ {
		if utf8.RuneStart(buf[i]) && !utf8.FullRune(buf[i:]) {
			cut = i
			break
		}
	}
	out := cleanBytes(buf[:cut])
	c.rest = append([]byte(nil), buf[cut:]...)
	if _, err := c.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what a last, unfinished rune left.
func (c *cleanWriter) Flush() error {
	if len(c.rest) == 0 {
		return nil
	}
	out := cleanBytes(c.rest)
	c.rest = nil
	_, err := c.w.Write(out)
	return err
}

// cleanBytes is b with every control character shown, not obeyed.
func cleanBytes(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == '\n' || r == '\t':
			out = append(out, byte(r))
		case r < 0x20:
			out = utf8.AppendRune(out, 0x2400+r) // ␀ … ␟
		case r == 0x7f:
			out = utf8.AppendRune(out, '␡')
		case r == utf8.RuneError && n == 1, r >= 0x80 && r < 0xa0, isBidiControl(r):
			out = utf8.AppendRune(out, utf8.RuneError)
		default:
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out
}

// isBidiControl reports whether r overrides the direction of text
// (U+202A–U+202E, U+2066–U+2069): it can make a line read as another.
func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// fileOf is the file w writes to, looking through a cleanWriter; nil for
// another writer.
func fileOf(w io.Writer) *os.File {
	for {
		switch x := w.(type) {
		case *os.File:
			return x
		case interface{ Unwrap() io.Writer }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}
