package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/beff-suite/beff/internal/results"
	befffold "github.com/beff-suite/beff/suites/beff/fold"
	beffiofold "github.com/beff-suite/beff/suites/beffio/fold"
	congestionfold "github.com/beff-suite/beff/suites/congestion/fold"
	linksfold "github.com/beff-suite/beff/suites/links/fold"
	skampifold "github.com/beff-suite/beff/suites/skampi/fold"
)

// TestGoldenJSON compares the output of fold -json with
// testdata/fold/NAME.json (paths relative to this package), for the
// variants beyond each suite's own file (TestSuitesConform). On a
// mismatch it writes NAME.json.got-stdout next to it; BEFF_UPDATE=1 rewrites
// NAME.json.
func TestGoldenJSON(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"skampi-types-np2", []string{"fold", "-json", "testdata/skampi-types-np2.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(tt.args...)
			require.Equal(t, 0, code, "stderr: %s", stderr)
			assert.Empty(t, stderr)
			require.True(t, json.Valid([]byte(stdout)), "not valid JSON")
			golden := filepath.Join("testdata", "fold", tt.name+".json")
			got := golden + ".got-stdout"
			checkGolden(t, golden, got, stdout)
		})
	}
}

// A jsonDoc is the document of fold -json with the details of the suites.
type jsonDoc struct {
	Schema string `json:"schema"`
	Files  []struct {
		Name string    `json:"name"`
		Runs []jsonRun `json:"runs"`
	} `json:"files"`
}

type jsonRun struct {
	results.JSONRun
	Beff   *befffold.JSONBeff     `json:"beff"`
	BeffIO *beffiofold.JSONBeffIO `json:"beff_io"`
	Skampi *skampifold.JSONSkampi `json:"skampi"`
}

// decodeDoc decodes the output of fold -json into the Go types, refusing
// unknown fields.
func decodeDoc(t *testing.T, stdout string) jsonDoc {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	var doc jsonDoc
	require.NoError(t, dec.Decode(&doc))
	return doc
}

// TestFoldJSON checks the document of two files, one with both benchmarks,
// against the fold's figures, and that -rmax reaches it.
func TestFoldJSON(t *testing.T) {
	// the b_eff run of another launch: the same run twice would count once
	both := writeTemp(t, "both.txt", anotherLaunch(fixture(t, "short-np2.txt"), 1)+fixture(t, "io-synthetic.txt"))
	code, stdout, stderr := run("fold", "-json", "-rmax", "50", "testdata/short-np2.txt", both)
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stderr)
	doc := decodeDoc(t, stdout)
	assert.Equal(t, "beff-fold/1", doc.Schema)
	require.Len(t, doc.Files, 2)
	assert.Equal(t, "testdata/short-np2.txt", doc.Files[0].Name)
	assert.Equal(t, both, doc.Files[1].Name)
	require.Len(t, doc.Files[0].Runs, 1)
	require.Len(t, doc.Files[1].Runs, 2)

	list := suites()
	list[0].(*befffold.Suite).Rmax = 50
	f, err := results.ReadFile(both, list)
	require.NoError(t, err)
	require.Len(t, f.Runs, 2)
	for i, r := range f.Runs {
		p, err := r.Suite.Fold(r)
		require.NoError(t, err)
		figs := p.Figures()
		jr := doc.Files[1].Runs[i]
		require.Len(t, jr.Figures, len(figs))
		for k, fig := range figs {
			got := jr.Figures[k]
			assert.Equal(t, fig, results.Figure{Name: got.Name, Label: got.Label, Value: float64(got.Value), Unit: got.Unit})
		}
	}
	b := doc.Files[1].Runs[0]
	assert.Equal(t, "b_eff", b.Benchmark)
	assert.Equal(t, results.Float(50), b.Beff.RmaxGflops)
	assert.Nil(t, b.BeffIO)
	assert.Equal(t, "balance", b.Figures[len(b.Figures)-1].Name)
	assert.False(t, b.Valid)
	assert.Equal(t, []string{"short run"}, b.Reasons)
	assert.Len(t, b.Experiments, 320)
	io := doc.Files[1].Runs[1]
	assert.Equal(t, "b_eff_io", io.Benchmark)
	assert.True(t, io.Valid)
	assert.Equal(t, 1, io.Index)
	assert.Equal(t, strings.Count(fixture(t, "short-np2.txt"), "\n")+23, io.Line)
	assert.Equal(t, results.Float(146.25), io.Figures[0].Value)
	assert.Nil(t, io.Beff)
	assert.Equal(t, 2, io.BeffIO.BestN)
	assert.Equal(t, "1800", io.Config["beffio-t-s"])

	// The protocol text and the benchfmt summary are not printed.
	assert.NotContains(t, stdout, "b_eff = ")
	assert.NotContains(t, stdout, "BenchmarkBeffFold")
}

// TestFoldJSONSkampi checks the SKaMPI detail of a real run against the
// points of its file: every line is a point, under its suite and
// operation in increasing length, with the line's own values.
func TestFoldJSONSkampi(t *testing.T) {
	const path = "testdata/skampi-short-np2.txt"
	code, stdout, stderr := run("fold", "-json", path)
	require.Equal(t, 0, code, stderr)
	doc := decodeDoc(t, stdout)
	require.Len(t, doc.Files, 1)
	require.Len(t, doc.Files[0].Runs, 1)
	r := doc.Files[0].Runs[0]
	assert.Equal(t, "SKaMPI", r.Benchmark)
	assert.False(t, r.Valid)
	assert.Equal(t, []string{"short run"}, r.Reasons)
	require.NotNil(t, r.Skampi)
	assert.Nil(t, r.Beff)
	assert.Equal(t, "default", r.Skampi.File)
	require.Len(t, r.Skampi.Suites, 7, "the default file's suites")
	ops := map[string]bool{}
	for _, su := range r.Skampi.Suites {
		assert.Equal(t, "window", su.Sync, su.Name)
		assert.Equal(t, "auto", su.Cache, su.Name)
		assert.Equal(t, 0.03, su.Eps, su.Name)
		for _, op := range su.Ops {
			ops[op] = true
		}
	}
	assert.Len(t, ops, 45, "every operation")

	lines := readBenchLines(t, path)
	var points []skampifold.JSONPoint
	for _, c := range r.Skampi.Curves {
		prefix := "suite=" + c.Suite + "/op=" + c.Op
		for i, pt := range c.Points {
			assert.True(t, strings.HasPrefix(pt.Name, prefix+"/") || pt.Name == prefix, pt.Name)
			if i > 0 && pt.Procs == c.Points[i-1].Procs {
				assert.Greater(t, pt.LenBytes, c.Points[i-1].LenBytes, "%s: in increasing length", pt.Name)
			}
			points = append(points, pt)
		}
	}
	require.Len(t, points, len(lines))
	byName := map[string]map[string]float64{}
	for _, l := range lines {
		byName[l.name] = l.metrics
	}
	for _, pt := range points {
		m, ok := byName[pt.Name]
		require.True(t, ok, pt.Name)
		assert.Equal(t, results.Float(m["us"]), pt.Us, pt.Name)
		assert.Equal(t, results.Float(m["p99-us"]), pt.P99Us, pt.Name)
		assert.Equal(t, int(m["n"]), pt.N, pt.Name)
		assert.Equal(t, m["stop"] == 1, pt.Converged, pt.Name)
	}
	assert.Len(t, r.Experiments, len(lines))
}

// A benchLine is a BenchmarkSkampi line's name (without the benchmark)
// and metrics.
type benchLine struct {
	name    string
	metrics map[string]float64
}

// readBenchLines reads the BenchmarkSkampi lines of a file with benchfmt,
// apart from the fold's own reader.
func readBenchLines(t *testing.T, path string) []benchLine {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []benchLine
	r := benchfmt.NewReader(bytes.NewReader(data), path)
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok || string(res.Name.Base()) != "Skampi" {
			continue
		}
		bl := benchLine{name: strings.TrimPrefix(string(res.Name), "Skampi/"), metrics: map[string]float64{}}
		for _, v := range res.Values {
			if v.OrigUnit != "" {
				bl.metrics[v.OrigUnit] = v.OrigValue
			} else {
				bl.metrics[v.Unit] = v.Value
			}
		}
		out = append(out, bl)
	}
	require.NoError(t, r.Err())
	return out
}

func TestFoldJSONUsage(t *testing.T) {
	path := writeTemp(t, "results.txt", fixture(t, "short-np2.txt"))
	for _, args := range [][]string{
		{"fold", "-json", "-append", path},
		{"fold", "-append", "-json", path},
	} {
		code, stdout, stderr := run(args...)
		assert.Equal(t, 2, code)
		assert.Empty(t, stdout)
		assert.True(t, strings.HasPrefix(stderr, "beff fold: -json and -append cannot be used together\nusage: beff fold"), stderr)
	}
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, fixture(t, "short-np2.txt"), string(after), "nothing appended")

	// A refused run: no JSON, the error as without -json.
	code, stdout, stderr := run("fold", "-json", writeTemp(t, "empty.txt", ""))
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "not beff output")
}

// TestFoldJSONNonFinite folds a b_eff_io file with a cache of 0 MiB (an
// infinite data-to-cache ratio) and a line with NaN and Inf metrics: the
// output is valid JSON with null in their place.
func TestFoldJSONNonFinite(t *testing.T) {
	text := strings.Replace(fixture(t, "io-synthetic.txt"), "beffio-cache-mib: 4\n", "beffio-cache-mib: 0\n", 1)
	text = strings.Replace(text, "\t2 decisions\t0.25 stop-ms\n", "\t2 decisions\t0.25 stop-ms\tNaN x-nan\t+Inf x-inf\n", 1)
	path := writeTemp(t, "nonfinite.txt", text)
	code, stdout, stderr := run("fold", "-json", path)
	require.Equal(t, 0, code, stderr)
	require.True(t, json.Valid([]byte(stdout)), "not valid JSON")
	assert.NotContains(t, stdout, "NaN")
	assert.NotContains(t, stdout, "Inf")
	assert.Equal(t, 3, strings.Count(stdout, `"cache_ratio": null`))
	assert.Contains(t, stdout, `"x-nan": null`)
	assert.Contains(t, stdout, `"x-inf": null`)
	decodeDoc(t, stdout)
	var v any
	require.NoError(t, json.NewDecoder(bytes.NewReader([]byte(stdout))).Decode(&v))
}

// jsonFields are the JSON names of the fields of t and of every struct it
// holds (through pointers, slices and maps), each with the Go type that
// has it.
func jsonFields(t reflect.Type, seen map[reflect.Type]bool, out map[string]string) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			jsonFields(f.Type, seen, out)
			continue
		}
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = t.Name()
		jsonFields(f.Type, seen, out)
	}
}

// TestFoldJSONDoc: docs/fold-json.md names every field of the JSON
// document, the envelope's and each suite's, as `name`.
func TestFoldJSONDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/fold-json.md")
	require.NoError(t, err)
	details := map[string]any{"beff": befffold.JSONBeff{}, "beff_io": beffiofold.JSONBeffIO{}, "skampi": skampifold.JSONSkampi{},
		"congestion": congestionfold.JSONCongestion{}, "links": linksfold.JSONLinks{}}
	var keys []string
	for _, s := range suites() {
		keys = append(keys, s.ID().JSONKey)
	}
	assert.ElementsMatch(t, keys, slices.Collect(maps.Keys(details)), "a details type for every suite")
	fields := map[string]string{}
	seen := map[reflect.Type]bool{}
	jsonFields(reflect.TypeOf(results.JSONDoc{}), seen, fields)
	for _, v := range details {
		jsonFields(reflect.TypeOf(v), seen, fields)
	}
	require.Greater(t, len(fields), 100, "the fields were found")
	for name, of := range fields {
		assert.Contains(t, string(doc), "`"+name+"`", "docs/fold-json.md does not name the field %s of %s", name, of)
	}
}
