package results

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxLine is the longest line a results file may have: benchfmt's reader
// (a bufio.Scanner with its default buffer) cannot take a line of 64 KiB
// or more, and says so without naming the file or the line.
const MaxLine = bufio.MaxScanTokenSize - 1

// LimitLines passes r through, counting its lines, and fails with an
// *Error naming file, line and the limit where a line grows longer than
// MaxLine: before benchfmt's reader hits its own limit, so that every
// reader of results files reports a long line (someone else's output, a
// damaged file) the same way.
func LimitLines(r io.Reader, file string) io.Reader {
	return &lineLimit{r: r, file: file, line: 1}
}

type lineLimit struct {
	r    io.Reader
	file string
	line int // number of the line being read
	cur  int // its bytes so far
	err  error
	// buf holds what was read from r and not yet passed on; Read passes
	// on at most one line per call, so that a bufio.Scanner over it (the
	// benchfmt reader) has read exactly through the line it returns.
	buf  []byte
	head []byte // the first bytes of the line being read
	// total is the number of bytes passed on; epoch counts the lines
	// that are not results (configuration lines among them), so that a
	// reader sees whether the configuration may have changed since its
	// last result without comparing it.
	total int64
	epoch int
}

func (l *lineLimit) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if len(l.buf) == 0 {
		if cap(l.buf) == 0 {
			l.buf = make([]byte, 0, 32<<10)
		}
		n, err := l.r.Read(l.buf[:cap(l.buf)])
		l.buf = l.buf[:n]
		if n == 0 {
			if err == nil {
				err = io.ErrNoProgress
			}
			l.err = err
			return 0, err
		}
	}
	line := l.buf
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i+1]
	}
	n := copy(p, line) // at most one line: the rest stays in buf
	for i, c := range p[:n] {
		if c == '\n' {
			l.endLine()
			continue
		}
		if len(l.head) < len(resultPrefix) {
			l.head = append(l.head, c)
		}
		if l.cur++; l.cur > MaxLine {
			l.err = &Error{FileName: l.file, Line: l.line, Msg: fmt.Sprintf("a line longer than %d bytes, the limit of benchmark output: not written by beff, or damaged", MaxLine)}
			return i, l.err
		}
	}
	l.buf = l.buf[n:]
	l.total += int64(n)
	return n, nil
}

// resultPrefix starts every result line.
const resultPrefix = "Benchmark"

// endLine counts a line that ends: one that is not a result moves the
// epoch (an empty line or a unit line too: an over-count costs a reader
// a comparison, never a wrong grouping).
func (l *lineLimit) endLine() {
	if string(l.head) != resultPrefix {
		l.epoch++
	}
	l.line++
	l.cur = 0
	l.head = l.head[:0]
}

// ReaderErr is the error a benchfmt reader over LimitLines reports: the
// *Error of a long line as LimitLines made it (benchfmt prefixes the
// errors of its input with the position of the last line it parsed, not
// the line that failed), any other error as it is.
func ReaderErr(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return err
}
