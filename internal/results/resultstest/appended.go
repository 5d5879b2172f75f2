package resultstest

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

// FoldResults reads data (a results file, with what fold -append or
// WriteAppendix added) as benchstat would and returns the result lines of
// the fold benchmark bench (a suite's ID.FoldBench()), in order, and the
// units' metadata (the Unit lines' directions). A line
// that does not parse, a reading error or a fold line that carries
// configuration fails the test.
func FoldResults(t testing.TB, data []byte, name, bench string) ([]*benchfmt.Result, benchfmt.UnitMetadataMap) {
	t.Helper()
	r := benchfmt.NewReader(bytes.NewReader(data), name)
	var out []*benchfmt.Result
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("%s does not parse: %v", name, rec)
		case *benchfmt.Result:
			if string(rec.Name.Base()) == bench {
				require.Empty(t, rec.Config, "%s carries configuration", rec.Name)
				out = append(out, rec.Clone())
			}
		}
	}
	require.NoError(t, r.Err())
	return out, r.Units()
}
