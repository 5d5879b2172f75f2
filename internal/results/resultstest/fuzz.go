package resultstest

import (
	"bytes"
	"testing"

	"github.com/beff-suite/beff/internal/results"
)

// FoldEach is the body of a suite's fuzz target: it reads data as a
// results file of suite s and folds each of its runs; a run that folds
// writes its protocol, its figures and its JSON detail, then goes to more
// (the suite's own renderings). A file or a run refused is fine; a panic,
// or a protocol that cannot be written, fails t.
func FoldEach(t *testing.T, s results.Suite, data []byte, more func(results.Folded)) {
	file, err := results.Read(bytes.NewReader(data), "fuzz.txt", []results.Suite{s})
	if err != nil {
		return
	}
	for _, r := range file.RunsOf(s) {
		p, err := s.Fold(r)
		if err != nil {
			continue
		}
		var b bytes.Buffer
		if err := p.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		p.Figures()
		p.JSONDetail()
		if more != nil {
			more(p)
		}
	}
}
