package results

import (
	"fmt"
	"io"
	"os"
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
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, &Error{FileName: path, Msg: fmt.Sprintf("not a regular file (%s)", fi.Mode().Type())}
	case fi.Size() > MaxFileBytes:
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
	return &Error{FileName: path, Msg: fmt.Sprintf("larger than %d MiB, the limit of an input file: not written by beff, or damaged", MaxFileBytes>>20)}
}
