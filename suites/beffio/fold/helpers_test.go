package fold

import (
	"strings"

	"github.com/beff-suite/beff/internal/results/resultstest"
)

// readText reads text with the b_eff_io suite.
func readText(text, name string) (*resultstest.Runs[*Run], error) {
	return resultstest.ReadRuns(text, name, New(), runOf)
}

// edit applies fn to every line of text.
func edit(text string, fn func(line string) []string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, fn(l)...)
	}
	return strings.Join(out, "\n")
}
