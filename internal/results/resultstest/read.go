package resultstest

import (
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// Runs is a results file read with one suite, and its runs as that
// suite's fold sees them.
type Runs[R any] struct {
	Runs []R
	File *results.File
}

// ReadRuns reads text as the results file name with suite s alone and
// returns the file and its runs as the suite's fold sees them (of).
func ReadRuns[R any](text, name string, s results.Suite, of func(*results.Run) R) (*Runs[R], error) {
	f, err := results.Read(strings.NewReader(text), name, []results.Suite{s})
	if err != nil {
		return nil, err
	}
	read := &Runs[R]{File: f}
	for _, run := range f.Runs {
		read.Runs = append(read.Runs, of(run))
	}
	return read, nil
}
