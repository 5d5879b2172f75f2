package results

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// Limits of every reader of beff's input files (results files, suite
// files, hints files, partial outputs): what they read is hostile until it
// has been parsed.
const (
	// MaxFileBytes is the largest input file read: a full run of the
	// three suites is about 1 MiB, a SKaMPI run of a hundred thousand
	// points about 20 MiB. Reading a results file takes about 8 times its
	// size in memory (its lines and their values), so at most about
	// 600 MiB.
	MaxFileBytes = 64 << 20
	// MaxProcs is the largest number of processes a file may give: above
	// every machine built (a folded run holds tables per pattern, not per
	// process, but rebuilds the patterns in time O(processes)).
	MaxProcs = 1 << 24
)

// ReadInput reads the input file path whole: a regular file (after
// symbolic links: a device or a pipe could be read for ever) of at most
// MaxFileBytes. Errors name the file.
func ReadInput(path string) ([]byte, error) {
	f, fi, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > MaxFileBytes {
		return nil, tooLarge(path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(data) > MaxFileBytes { // it grew while read
		return nil, tooLarge(path)
	}
	return data, nil
}

func tooLarge(path string) error {
	return &InputError{FileName: path, Msg: fmt.Sprintf("larger than %d MiB, the limit of an input file: not written by beff, or damaged", MaxFileBytes>>20)}
}

// OpenRegular opens path for reading if it is a regular file (after
// symbolic links) and refuses anything else at once with the path and
// its kind: the open does not wait for a writer of a named pipe, and
// nothing is read from a pipe, socket or device, which could block or
// never end.
func OpenRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &InputError{FileName: path, Msg: "not a regular file but " + kindOf(fi.Mode())}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// kindOf names the kind of a file that is not a regular one.
func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a block device"
	}
	return fmt.Sprintf("of kind %v", m.Type())
}
