package resultstest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/perf/benchfmt"
)

// NoBenchfmtLines checks that a protocol text cannot disturb benchfmt
// output that follows it (fold -append puts protocols beside results): no
// line of text parses as a configuration, unit or benchmark line.
func NoBenchfmtLines(t *testing.T, text string) {
	t.Helper()
	r := benchfmt.NewReader(strings.NewReader(text+"BenchmarkX 1 1 ns/op\n"), "text")
	var results int
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			results++
			assert.Empty(t, rec.Config, "configuration read from the protocol text")
		default:
			t.Errorf("protocol text parses as %#v", rec)
		}
	}
	assert.Equal(t, 1, results)
}
