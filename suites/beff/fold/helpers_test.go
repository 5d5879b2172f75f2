package fold

import (
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
)

// A testFile is the b_eff runs of a results file.
type testFile struct {
	Runs []*Run
	file *results.File
}

// readText reads text with the b_eff suite.
func readText(text, name string) (*testFile, error) {
	f, runs, err := resultstest.ReadRuns(text, name, New(), runOf)
	if err != nil {
		return nil, err
	}
	return &testFile{Runs: runs, file: f}, nil
}
