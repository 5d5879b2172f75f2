package fold

import (
	"strings"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
)

// A testFile is the b_eff_io runs of a results file.
type testFile struct {
	Runs []*Run
	file *results.File
}

// readText reads text with the b_eff_io suite.
func readText(text, name string) (*testFile, error) {
	f, runs, err := resultstest.ReadRuns(text, name, New(), runOf)
	if err != nil {
		return nil, err
	}
	return &testFile{Runs: runs, file: f}, nil
}

// edit applies fn to every line of text.
func edit(text string, fn func(line string) []string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, fn(l)...)
	}
	return strings.Join(out, "\n")
}
