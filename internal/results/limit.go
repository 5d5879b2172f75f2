package results

import (
	"bufio"
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
}

func (l *lineLimit) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for i, c := range p[:n] {
		if c == '\n' {
			l.line++
			l.cur = 0
			continue
		}
		if l.cur++; l.cur > MaxLine {
			l.err = &Error{FileName: l.file, Line: l.line, Msg: fmt.Sprintf("a line longer than %d bytes, the limit of benchmark output: not written by beff, or damaged", MaxLine)}
			return i, l.err
		}
	}
	return n, err
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
