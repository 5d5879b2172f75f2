package results

import (
	"bufio"
	"fmt"
	"io"
)

// Limits of ScanFile: a reference code's output is read as hostile input.
const (
	MaxScanLine  = 1 << 20  // bytes of one line
	MaxScanBytes = 64 << 20 // bytes of one file
)

// ScanFile calls fn with each line of the file path (without the line
// end) and its number, in order, and stops at fn's first error. A line
// longer than MaxScanLine or a file longer than MaxScanBytes is an error
// naming the file and line; so is anything but a regular file (a device or
// a pipe could be read for ever).
func ScanFile(path string, fn func(line string, n int) error) error {
	f, _, err := OpenRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	lr := &io.LimitedReader{R: f, N: MaxScanBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 64<<10), MaxScanLine)
	n := 0
	for sc.Scan() {
		n++
		if err := fn(sc.Text(), n); err != nil {
			return &InputError{FileName: path, Line: n, Msg: err.Error()}
		}
	}
	switch {
	case sc.Err() == bufio.ErrTooLong:
		return &InputError{FileName: path, Line: n + 1, Msg: fmt.Sprintf("line longer than %d bytes", MaxScanLine)}
	case sc.Err() != nil:
		return fmt.Errorf("%s: %v", path, sc.Err())
	case lr.N <= 0:
		return fmt.Errorf("%s: longer than %d bytes", path, MaxScanBytes)
	}
	return nil
}
