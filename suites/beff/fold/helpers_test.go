package fold

import (
	"github.com/beff-suite/beff/internal/results/resultstest"
)

// readText reads text with the b_eff suite.
func readText(text, name string) (*resultstest.Runs[*Run], error) {
	return resultstest.ReadRuns(text, name, New(), runOf)
}
