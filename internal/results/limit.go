package results

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
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
	// text is the line being read, without its end; block the values of
	// the configuration keys set since the last result line: a key set
	// twice to different values in one block is refused (benchfmt would
	// keep the last without a word).
	text  []byte
	block map[string]string
	// job counts the jobs begun after the first (the harness writes a
	// job's beff-version line first: after results, it begins the next
	// job, which owns the lines since those results too), setIn is the
	// job each configuration key was last set in: in a concatenation of
	// files a key the later job does not restate is not its own (Stale).
	job         int
	setIn       map[string]int
	afterResult bool
}

// Stale reports whether the configuration key was set by an earlier job
// than the one being read (a file that joins jobs, the later without the
// key), so that the later job's runs do not take it.
func (l *lineLimit) Stale(key string) bool { return l.setIn[key] < l.job }

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
		l.text = append(l.text, c)
		if l.cur++; l.cur > MaxLine {
			l.err = &InputError{FileName: l.file, Line: l.line, Msg: fmt.Sprintf("a line longer than %d bytes, the limit of benchmark output: not written by beff, or damaged", MaxLine)}
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
		l.takeKey()
	} else {
		clear(l.block)
		l.afterResult = true
	}
	l.line++
	l.cur = 0
	l.head = l.head[:0]
	l.text = l.text[:0]
}

// takeKey notes the key of a configuration line and refuses a second,
// different value of it in one block.
func (l *lineLimit) takeKey() {
	k, v, ok := configLine(l.text)
	if !ok {
		return
	}
	if l.block == nil {
		l.block, l.setIn = map[string]string{}, map[string]int{}
	}
	if k == KeyVersion && l.afterResult {
		l.job, l.afterResult = l.job+1, false
		for b := range l.block { // the lines since the last result: this job's
			l.setIn[b] = l.job
		}
	}
	l.setIn[k] = l.job
	if old, seen := l.block[k]; seen && old != v {
		l.err = &InputError{FileName: l.file, Line: l.line, Msg: fmt.Sprintf("configuration key %s given twice in one block (%s, then %s): one value per key; not written by beff, or edited",
			k, Shorten(old, 40), Shorten(v, 40))}
		return
	}
	l.block[k] = v
}

// configLine splits a benchfmt configuration line "key: value": the key
// starts with a lower-case letter and has neither spaces nor upper-case
// letters.
func configLine(b []byte) (key, value string, ok bool) {
	i := bytes.IndexByte(b, ':')
	if i <= 0 || b[0] < 'a' || b[0] > 'z' {
		return "", "", false
	}
	for _, c := range b[:i] {
		if c == ' ' || c == '\t' || c >= 'A' && c <= 'Z' {
			return "", "", false
		}
	}
	if rest := b[i+1:]; len(rest) > 0 && rest[0] != ' ' && rest[0] != '\t' {
		return "", "", false
	}
	return string(b[:i]), strings.TrimSpace(string(b[i+1:])), true
}

// ReaderErr is the error a benchfmt reader over LimitLines reports: the
// *Error of a long line as LimitLines made it (benchfmt prefixes the
// errors of its input with the position of the last line it parsed, not
// the line that failed), any other error as it is.
func ReaderErr(err error) error {
	var e *InputError
	if errors.As(err, &e) {
		return e
	}
	return err
}

// Shorten quotes s, cut to at most n bytes (at a character boundary)
// with "…" where it was cut: for values from a hostile file in messages.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strconv.Quote(s[:n]) + "…"
}
