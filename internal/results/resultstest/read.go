package resultstest

import (
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// ReadRuns reads text as the results file name with suite s alone and
// returns the file and its runs as the suite's fold sees them (of).
func ReadRuns[R any](text, name string, s results.Suite, of func(*results.Run) R) (*results.File, []R, error) {
	f, err := results.Read(strings.NewReader(text), name, []results.Suite{s})
	if err != nil {
		return nil, nil, err
	}
	var runs []R
	for _, run := range f.Runs {
		runs = append(runs, of(run))
	}
	return f, runs, nil
}
