package fold

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
	"github.com/beff-suite/beff/suites/beffio"
)

// writeJSON folds the runs of text and writes their JSON document.
func writeJSON(t *testing.T, text, name string) ([]results.Folded, []byte) {
	t.Helper()
	f, err := readText(text, name)
	require.NoError(t, err)
	var folded []results.Folded
	for _, r := range f.Runs {
		p, err := Fold(r)
		require.NoError(t, err)
		folded = append(folded, p)
	}
	var b bytes.Buffer
	require.NoError(t, resultstest.WriteJSON(&b, []results.JSONFile{results.NewJSONFile(name, folded)}, nil))
	require.True(t, json.Valid(b.Bytes()))
	return folded, b.Bytes()
}

// TestJSON writes the JSON of the hand-computed run, decodes it strictly
// and checks it against the folded run; encoding the decoded document
// again gives the same bytes.
func TestJSON(t *testing.T) {
	folded, data := writeJSON(t, ioHand().text(), "io.txt")
	runs := resultstest.DecodeRuns(t, data, "beff_io")[0]
	require.Len(t, runs, 1)
	p := folded[0].(*Folded)
	resultstest.CheckCommon(t, runs[0], p)
	var jio JSONBeffIO
	resultstest.Strict(t, runs[0].Detail, &jio)
	assert.Equal(t, p.BestN, jio.BestN)
	assert.Equal(t, p.Errors, jio.Errors)
	require.Len(t, jio.Access, 3)
	for _, a := range beffio.Accesses {
		assert.Equal(t, a.String(), jio.Access[a].Access)
		assert.Equal(t, p.Access[a], float64(jio.Access[a].ValueMBps))
		assert.Equal(t, p.Data[a], float64(jio.Access[a].DataMB))
		assert.Equal(t, p.CacheRatio[a], float64(jio.Access[a].CacheRatio))
	}
	require.Len(t, jio.Partitions, len(p.Partitions))
	for j, part := range p.Partitions {
		jp := jio.Partitions[j]
		assert.Equal(t, part.N, jp.N)
		assert.Equal(t, part.Value, float64(jp.ValueMBps))
		assert.Equal(t, part.Reference, float64(jp.ReferenceMBps))
		for _, a := range beffio.Accesses {
			assert.Equal(t, part.Access[a], float64(jp.Access[a].ValueMBps))
			require.Len(t, jp.Access[a].Types, 5)
			for _, ty := range beffio.Types {
				assert.Equal(t, part.Totals[a][ty].MBps, float64(jp.Access[a].Types[ty].MBps))
			}
		}
	}
	r := runs[0].JSONRun
	r.Key, r.Detail = "beff_io", &jio
	var b bytes.Buffer
	require.NoError(t, resultstest.WriteJSON(&b, []results.JSONFile{{Name: "io.txt", Runs: []results.JSONRun{r}}}, nil))
	assert.Equal(t, string(data), b.String(), "encoding the decoded document again")
}

// TestJSONNonFinite: a cache of 0 MiB (an infinite data-to-cache ratio)
// and metrics NaN, +Inf and -Inf that the fold does not check become
// null; so do the ratio and the percentage without cache and total
// memory.
func TestJSONNonFinite(t *testing.T) {
	io := ioHand()
	io.cacheMiB = "0"
	text := edit(io.text(), func(l string) []string {
		if strings.HasPrefix(l, "BenchmarkBeffIO/n=1/acc=write/type=scatter/pat=0/") {
			l += "\tNaN x-nan\t+Inf x-inf\t-Inf x-neginf"
		}
		if strings.HasPrefix(l, "BenchmarkBeffIO/n=1/acc=write/type=all/pat=phase") {
			l = strings.Replace(l, " ns/op", " ns/op\t+Inf ns-extra", 1)
		}
		return []string{l}
	})
	folded, data := writeJSON(t, text, "nonfinite.txt")
	assert.True(t, math.IsInf(folded[0].(*Folded).CacheRatio[beffio.Write], 1))
	out := string(data)
	for _, bad := range []string{"NaN", "Inf"} {
		assert.NotContains(t, out, bad)
	}
	for _, null := range []string{`"cache_ratio": null`, `"x-nan": null`, `"x-inf": null`, `"x-neginf": null`} {
		assert.Contains(t, out, null)
	}
	run := resultstest.DecodeRuns(t, data, "beff_io")[0][0]
	assert.True(t, math.IsNaN(float64(run.Experiments[0].Metrics["x-inf"])))
	assert.Equal(t, results.Float(40), run.Experiments[0].Metrics["MB/s"])

	io.cacheMiB, io.totalMiB = "", ""
	_, data = writeJSON(t, io.text(), "unknown.txt")
	var jio JSONBeffIO
	resultstest.Strict(t, resultstest.DecodeRuns(t, data, "beff_io")[0][0].Detail, &jio)
	for _, a := range jio.Access {
		assert.True(t, math.IsNaN(float64(a.CacheRatio)))
		assert.True(t, math.IsNaN(float64(a.DataPct)))
	}
}

// TestJSONFloatFields checks that every floating-point field of the
// b_eff_io details is a results.Float.
func TestJSONFloatFields(t *testing.T) { resultstest.CheckFloats(t, JSONBeffIO{}) }
