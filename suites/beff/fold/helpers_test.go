package fold

import (
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// A testFile is the b_eff runs of a results file.
type testFile struct {
	Runs []*Run
	file *results.File
}

// readText reads text with the b_eff suite.
func readText(text, name string) (*testFile, error) {
	f, err := results.Read(strings.NewReader(text), name, []results.Suite{New()})
	if err != nil {
		return nil, err
	}
	tf := &testFile{file: f}
	for _, run := range f.Runs {
		tf.Runs = append(tf.Runs, runOf(run))
	}
	return tf, nil
}
