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
	"github.com/beff-suite/beff/suites/beff"
)

// foldAll reads text and folds every run.
func foldAll(t *testing.T, text, name string) []results.Folded {
	t.Helper()
	f, err := readText(text, name)
	require.NoError(t, err)
	var out []results.Folded
	for _, r := range f.Runs {
		p, err := Fold(r)
		require.NoError(t, err)
		out = append(out, p)
	}
	return out
}

// writeJSON writes the JSON document of one file.
func writeJSON(t *testing.T, name string, folded []results.Folded) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, resultstest.WriteJSON(&b, []results.JSONFile{results.NewJSONFile(name, folded)}, nil))
	require.True(t, json.Valid(b.Bytes()))
	return b.Bytes()
}

// TestJSON writes the JSON of short-np2.txt and of the hand-computed run,
// decodes it strictly and checks it against the folded runs; encoding the
// decoded document again gives the same bytes.
func TestJSON(t *testing.T) {
	for _, in := range []struct{ name, text string }{
		{"short-np2.txt", readShortNP2(t)},
		{"hand.txt", handRun().text()},
	} {
		folded := foldAll(t, in.text, in.name)
		data := writeJSON(t, in.name, folded)
		runs := resultstest.DecodeRuns(t, data, "beff")[0]
		require.Len(t, runs, len(folded))
		var again []results.JSONRun
		for k, f := range folded {
			p := f.(*Folded)
			resultstest.CheckCommon(t, runs[k], p)
			var jb JSONBeff
			resultstest.Strict(t, runs[k].Detail, &jb)
			checkDetail(t, p, &jb)
			r := runs[k].JSONRun
			r.Key, r.Detail = "beff", &jb
			again = append(again, r)
		}
		var b bytes.Buffer
		require.NoError(t, resultstest.WriteJSON(&b, []results.JSONFile{{Name: in.name, Runs: again}}, nil))
		assert.Equal(t, string(data), b.String(), "encoding the decoded document again")
	}
}

func checkDetail(t *testing.T, p *Folded, jb *JSONBeff) {
	t.Helper()
	assert.Equal(t, p.TotalTime.Seconds(), float64(jb.TotalTimeS))
	assert.Equal(t, p.Shortcut, jb.Shortcut)
	require.Len(t, jb.Patterns, len(p.Patterns))
	for j, pt := range p.Patterns {
		jp := jb.Patterns[j]
		assert.Equal(t, pt.Name, jp.Name)
		assert.Equal(t, pt.Kind.String(), jp.Kind)
		assert.Equal(t, pt.Avg, float64(jp.AvgMBps))
		require.Len(t, jp.Rows, len(pt.Rows))
		for r, row := range pt.Rows {
			assert.Equal(t, row.L, jp.Rows[r].SizeBytes)
			assert.Equal(t, row.Best.Method.String(), jp.Rows[r].BestMethod)
			assert.Equal(t, row.Best.MBps, float64(jp.Rows[r].BestMBps))
			assert.Len(t, jp.Rows[r].MBps, len(row.Measured))
		}
	}
}

// TestJSONRmax: the Rmax of the configuration, or null without one.
func TestJSONRmax(t *testing.T) {
	runs := resultstest.DecodeRuns(t, writeJSON(t, "hand.txt", foldAll(t, handRun().text(), "hand.txt")), "beff")[0]
	assert.Equal(t, "20", runs[0].Config[beff.KeyRmax])
	var jb JSONBeff
	resultstest.Strict(t, runs[0].Detail, &jb)
	assert.Equal(t, results.Float(20), jb.RmaxGflops)
}

// TestJSONNonFinite: metrics NaN that the fold does not check, a run
// without Rmax and without 1 byte: null, and valid JSON.
func TestJSONNonFinite(t *testing.T) {
	text := edit(handRun().text(), func(l string) []string {
		if strings.HasPrefix(l, "BenchmarkBeff/") {
			l += "\tNaN x-nan"
		}
		return []string{l}
	})
	out := string(writeJSON(t, "nonfinite.txt", foldAll(t, text, "nonfinite.txt")))
	assert.NotContains(t, out, "NaN")
	assert.Contains(t, out, `"x-nan": null`)

	s := synth{n: 2, sizes: []int64{64, 65536}, random: 1, patterns: ringsAndRandom01,
		meas: func(pat string, l int64, m beff.Method) (meas, bool) {
			return meas{mbps: float64(l), msLoop: 1, looplen: 1}, true
		}}
	data := writeJSON(t, "unknown.txt", foldAll(t, s.text(), "unknown.txt"))
	var jb JSONBeff
	resultstest.Strict(t, resultstest.DecodeRuns(t, data, "beff")[0][0].Detail, &jb)
	assert.True(t, math.IsNaN(float64(jb.RmaxGflops)))
	assert.True(t, math.IsNaN(float64(jb.Patterns[0].LatencyUs)), "1 byte not measured")
	assert.Contains(t, string(data), `"latency_us": null`)
}

// TestJSONFloatFields checks that every floating-point field of the b_eff
// details is a results.Float.
func TestJSONFloatFields(t *testing.T) { resultstest.CheckFloats(t, JSONBeff{}) }
