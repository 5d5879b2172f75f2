package results_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
)

var toy = resultstest.Suite{}

func read(t *testing.T, text string) *results.File {
	t.Helper()
	f, err := results.Read(strings.NewReader(text), "toy.txt", []results.Suite{toy})
	require.NoError(t, err)
	return f
}

func value(run, k int) float64 { return float64(10*run + k) }

// TestReadRuns reads two runs of one configuration (as -test.count=2
// writes them), then a run of another configuration, lines of another
// benchmark and folded figures.
func TestReadRuns(t *testing.T) {
	text := resultstest.File(2, 3, 2, "full", value) +
		"BenchmarkOther 1 5 ns/op\n" +
		"toy-size: 1\nBenchmarkToy/x=1-8 \t1\t7 MB/s\n" +
		"BenchmarkToyFold/fig=toy 1 3 MB/s\nBenchmarkToyFold/fig=toy 1 4 MB/s\n"
	f := read(t, text)
	runs := f.RunsOf(toy)
	require.Len(t, runs, 3)
	assert.Equal(t, runs, f.Runs)
	for i, r := range runs {
		assert.Equal(t, i+1, r.Index)
		assert.Equal(t, "toy.txt", r.File)
		assert.Equal(t, results.Suite(toy), r.Suite, "the suite given")
	}
	assert.Len(t, runs[0].Lines, 3)
	assert.Equal(t, 6, runs[0].Line, "the first measurement")
	assert.Equal(t, 9, runs[1].Line)
	assert.Equal(t, 12.0, runs[1].Lookup("x=2").Value)
	assert.Equal(t, "2", runs[0].FileConfig[results.KeyProcs])
	assert.Equal(t, "1", runs[2].FileConfig["toy-size"], "the configuration in effect")
	l := runs[2].Lines[0]
	assert.Equal(t, "x=1", l.Name, "canonical, without the -8 suffix")
	assert.Equal(t, "Toy/x=1-8", l.Full)
	assert.Equal(t, []results.Part{{Key: "x", Value: "1"}}, l.Parts)
	assert.Equal(t, map[string]float64{"MB/s": 7}, l.Metrics, "the unit as written")
	assert.Equal(t, 2, f.FoldedLines(toy))
	assert.Equal(t, []string{"mpi-procs", "mpi-hosts", "date", "toy-size", "beff-mode"}, f.ConfigKeys)
	assert.Equal(t, []int{1, 1, 2}, []int{runs[0].Launch, runs[1].Launch, runs[2].Launch},
		"the two runs of one configuration block are one launch, the run after a new toy-size another")

	launches := read(t, resultstest.Launches(2, 1, 3, "full", value)).RunsOf(toy)
	require.Len(t, launches, 3)
	assert.Equal(t, []int{1, 2, 3}, []int{launches[0].Launch, launches[1].Launch, launches[2].Launch}, "a date line per launch")
}

func TestReadErrors(t *testing.T) {
	head := "mpi-procs: 1\ntoy-size: 1\nbeff-mode: full\n"
	for _, tt := range []struct{ name, text, want string }{
		{"syntax", head + "BenchmarkToy/x=1 x 5 MB/s\n", "toy.txt:4: "},
		{"name", head + "BenchmarkToy/y=1 1 5 MB/s\n", "toy.txt:4: Toy/y=1: not a toy name (want x=<k>)"},
		{"metric", head + "BenchmarkToy/x=01 1 5 ns/op\n", "toy.txt:4: x=1: missing metric MB/s"},
		{"config", "mpi-procs: 1\nbeff-mode: full\nBenchmarkToy/x=1 1 5 MB/s\n", "toy.txt:3: not toy output: no toy-size configuration line"},
		{"config value", "mpi-procs: many\ntoy-size: 1\nbeff-mode: full\nBenchmarkToy/x=1 1 5 MB/s\n", `toy.txt:4: mpi-procs: "many" is not a positive whole number`},
		{"mode", "mpi-procs: 1\ntoy-size: 1\nbeff-mode: slow\nBenchmarkToy/x=1 1 5 MB/s\n", `toy.txt:4: beff-mode: unknown mode "slow" (want full or short)`},
		{"no run", "BenchmarkOther 1 5 ns/op\n", "toy.txt: not beff output: no BenchmarkToy results"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := results.Read(strings.NewReader(tt.text), "toy.txt", []results.Suite{toy})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func fold(t *testing.T, text string) []results.Folded {
	t.Helper()
	var out []results.Folded
	for _, r := range read(t, text).Runs {
		p, err := toy.Fold(r)
		require.NoError(t, err)
		out = append(out, p)
	}
	return out
}

func TestPartial(t *testing.T) {
	text := strings.Replace(resultstest.File(1, 3, 1, "full", value), "toy-size: 3\n", "toy-size: 4\ntoy-restricted: yes\n", 1)
	_, err := toy.Fold(read(t, text).Runs[0])
	require.Error(t, err)
	assert.True(t, errors.Is(err, results.ErrRestricted))
	assert.Equal(t, "toy.txt:7: run 1: missing x=4", err.Error(), "prints as the fold error")
	_, err = toy.Fold(read(t, strings.Replace(text, "toy-restricted: yes\n", "", 1)).Runs[0])
	assert.False(t, errors.Is(err, results.ErrRestricted))
}

// TestProtocolHead: a protocol starts with its label and value, the
// verdict and a blank line.
func TestProtocolHead(t *testing.T) {
	var b bytes.Buffer
	none := func(io.Writer) {}
	require.NoError(t, results.WriteProtocol(&b, "b_x", 1234.56789, &results.Validity{}, none, none))
	assert.Equal(t, "b_x = 1234.6 MB/s\nVALID\n\n", b.String())
	b.Reset()
	require.NoError(t, results.WriteProtocol(&b, "b_x", 1, &results.Validity{Reasons: []string{"short run", "errors"}}, none, none))
	assert.Equal(t, "b_x = 1.0000 MB/s\nNOT VALID: short run; errors\n\n", b.String())
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	tx := results.Text{W: &b, Width: 10}
	tx.Info("mode", "full")
	tx.Info("empty", "")
	tx.Figure("b", "12.5", "MB/s")
	tx.Figure("n", "3", "")
	tx.Absent("lat", "not measured")
	tx.Notes(nil)
	tx.Notes([]string{"one"})
	assert.Equal(t, "  mode             full\n"+
		"  b                    12.5 MB/s\n"+
		"  n                       3\n"+
		"  lat                     - (not measured)\n"+
		"\nNotes\n  - one\n", b.String())
}

func TestNum(t *testing.T) {
	for _, tt := range []struct {
		v          float64
		digits, dp int
		want       string
	}{
		{1234.5, 5, 1, "1234.5"},
		{26575.73, 5, 1, "26575.7"},
		{5.16, 4, 0, "5.160"},
		{0.01641, 4, 0, "0.01641"},
		{12345.6, 4, 0, "12346"},
		{0, 4, 1, "0.0"},
		{math.Inf(1), 4, 1, "+Inf"},
	} {
		assert.Equal(t, tt.want, results.Num(tt.v, tt.digits, tt.dp), "Num(%v, %d, %d)", tt.v, tt.digits, tt.dp)
	}
	assert.Equal(t, "900", results.Seconds(900))
	assert.Equal(t, "2.500", results.Seconds(2.5))
	assert.Equal(t, "94.2", results.Sig3(94.15))
	assert.Equal(t, "1.01", results.Sig3(1.0078))
	assert.Equal(t, "12.9", results.Sig3(12.947))
	assert.Equal(t, "1,2,3", results.JoinInts([]int{1, 2, 3}))
	assert.Equal(t, "a, b, ...", results.List([]string{"a", "b", "c"}, 2))
	assert.Equal(t, "a, b", results.List([]string{"a", "b"}, 2))
	assert.Equal(t, "", results.Plural(1))
	assert.Equal(t, "s", results.Plural(2))
}

func TestTable(t *testing.T) {
	var b bytes.Buffer
	tab := results.TextTable{Left: 1}
	tab.Add("name", "MB/s")
	tab.Add("ringall", "1.5")
	tab.Add("µs", "12345")
	tab.Write(&b)
	assert.Equal(t, "  name      MB/s\n  ringall    1.5\n  µs       12345\n", b.String())
}

func TestOversubscribed(t *testing.T) {
	assert.Equal(t, "", results.Config{}.Oversubscribed())
	assert.Equal(t, "", results.Config{results.KeyOversub: "no"}.Oversubscribed())
	assert.Equal(t, "oversubscribed (4 processes on vm, which has 2 CPUs)",
		results.Config{results.KeyOversub: "yes: 4 processes on vm, which has 2 CPUs"}.Oversubscribed())
}

// TestSummary writes the summary of two runs, reads it back as folded
// lines and checks the unit lines.
func TestSummary(t *testing.T) {
	folded := fold(t, resultstest.File(1, 2, 2, "full", value))
	var b bytes.Buffer
	require.NoError(t, results.WriteSummary(&b, []results.Suite{toy}, folded))
	assert.Equal(t, "Unit MB/s better=higher\nBenchmarkToyFold/fig=toy 1 1.5 MB/s\nBenchmarkToyFold/fig=toy 1 11.5 MB/s\n", b.String())

	f := read(t, resultstest.File(1, 2, 1, "full", value))
	b.Reset()
	require.NoError(t, results.WriteAppendix(&b, f, []results.Suite{toy}, folded[:1]))
	assert.Equal(t, "\nmpi-procs:\nmpi-hosts:\ndate:\ntoy-size:\nbeff-mode:\nUnit MB/s better=higher\nBenchmarkToyFold/fig=toy 1 1.5 MB/s\n", b.String())
	f = read(t, resultstest.File(1, 2, 1, "full", value)+b.String())
	assert.Equal(t, 1, f.FoldedLines(toy), "the appended line is read back as folded")
	assert.Len(t, f.Runs, 1)
}

// TestJSON writes a run: the generic fields in order, then the suite's
// details under its key; text as written, no HTML escaping.
func TestJSON(t *testing.T) {
	text := strings.Replace(resultstest.File(1, 1, 1, "short (quick)", value), "mpi-hosts: toyhost (1)", "mpi-hosts: <b>&amp;", 1)
	p := fold(t, text)[0]
	var b bytes.Buffer
	require.NoError(t, resultstest.WriteJSON(&b, []results.JSONFile{results.NewJSONFile("toy.txt", []results.Folded{p})}, nil))
	got := b.String()
	assert.Contains(t, got, `"mpi-hosts": "<b>&amp;"`)
	for _, key := range []string{`"schema": "beff-fold/1"`, `"benchmark": "toy"`, `"index": 1`, `"line": 6`, `"valid": false`,
		`"reasons": [`, `"notes": []`, `"figures": [`, `"experiments": [`, `"toy": {`} {
		assert.Contains(t, got, key)
	}
	assert.Less(t, strings.Index(got, `"experiments"`), strings.Index(got, `"toy": {`), "the details come last")
	var doc struct {
		Files []struct {
			Runs []map[string]json.RawMessage
		}
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	assert.JSONEq(t, `{"mean": 1}`, string(doc.Files[0].Runs[0]["toy"]))
	assert.JSONEq(t, `[{"name":"x=1","line":6,"metrics":{"MB/s":1}}]`, string(doc.Files[0].Runs[0]["experiments"]))

	b.Reset()
	require.NoError(t, resultstest.WriteJSON(&b, nil, nil))
	assert.Equal(t, "{\n  \"schema\": \"beff-fold/1\",\n  \"files\": []\n}\n", b.String())
}

func TestFloatJSON(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{1.5, "1.5"},
		{9954.048712636575, "9954.048712636575"},
		{1e21, "1e+21"},
		{1e-7, "1e-7"},
		{math.NaN(), "null"},
		{math.Inf(1), "null"},
		{math.Inf(-1), "null"},
	} {
		b, err := json.Marshal(results.Float(tt.v))
		require.NoError(t, err)
		assert.Equal(t, tt.want, string(b), "%v", tt.v)
	}
	var v struct {
		A results.Float
		B []results.Float
	}
	require.NoError(t, json.Unmarshal([]byte(`{"A":null,"B":[null,2]}`), &v))
	assert.True(t, math.IsNaN(float64(v.A)))
	assert.True(t, math.IsNaN(float64(v.B[0])))
	assert.Equal(t, results.Float(2), v.B[1])
	assert.Error(t, json.Unmarshal([]byte(`{"A":"1"}`), &v))
	assert.True(t, math.IsNaN(float64(results.OrNull(0))))
	assert.Equal(t, results.Float(3), results.OrNull(3))
}

// TestJSONFloatFields checks that every floating-point field of the JSON
// envelope is a Float, so that NaN and Inf cannot make the output invalid.
func TestJSONFloatFields(t *testing.T) {
	resultstest.CheckFloats(t, results.JSONDoc{})
}

func TestJoinWith(t *testing.T) {
	assert.Equal(t, "", results.JoinWith(nil, "and"))
	assert.Equal(t, "a", results.JoinWith([]string{"a"}, "and"))
	assert.Equal(t, "a and b", results.JoinWith([]string{"a", "b"}, "and"))
	assert.Equal(t, "a, b or c", results.JoinWith([]string{"a", "b", "c"}, "or"))
}

// TestIncreasing: a list line of positive whole numbers, each larger than
// the one before, with its key named in every error.
func TestIncreasing(t *testing.T) {
	r := results.ConfigReader{Suite: "toy", Config: results.Config{"a": "1, 8,4096", "b": "1,0", "c": "2,2", "d": "3,x"}}
	got, err := r.Increasing("a")
	require.NoError(t, err)
	assert.Equal(t, []int64{1, 8, 4096}, got)
	for key, want := range map[string]string{
		"b": `b: "0" is not a positive whole number`,
		"c": "c: 2,2: the values must increase",
		"d": `d: "x" is not a positive whole number`,
		"e": "not toy output: no e configuration line",
	} {
		_, err := r.Increasing(key)
		assert.EqualError(t, err, want)
	}
}

func TestPreciseMBps(t *testing.T) {
	for _, c := range []struct{ printed, computed, want float64 }{
		{0, 0.0042, 0.0042},           // 0.0042 MB/s printed as 0.00
		{0.42, 0.4213, 0.4213},        // two significant digits
		{1, 1.004, 1},                 // three: the printed value stays
		{3793.62, 3793.7, 3793.62},    //
		{0, 0, 0},                     // nothing to compute from
		{0, math.Inf(1), 0},           // a loop time of 0
		{-3, 0.5, -3},                 // no rounding explains a negative value
		{math.NaN(), 0.5, math.NaN()}, //
	} {
		got := results.PreciseMBps(c.printed, c.computed)
		if math.IsNaN(c.want) {
			assert.True(t, math.IsNaN(got), "%v, %v", c.printed, c.computed)
			continue
		}
		assert.Equal(t, c.want, got, "%v, %v", c.printed, c.computed)
	}
}

func TestHostsProcs(t *testing.T) {
	for _, tc := range []struct {
		line      string
		n         int64
		exact, ok bool
	}{
		{"vm (2)", 2, true, true},
		{"a (2), b (3)", 5, true, true},
		{"n[0001-0064,0100] (64 each), x (1)", 65*64 + 1, true, true},
		{"node[00001,00003,… 15283 more] (64 each)", 15285 * 64, true, true},
		{"a (2), … 12 more entries (300 hosts in all)", 2, false, true},
		{"vm", 0, false, false},
		{"n[5-3] (2 each)", 0, false, false},
	} {
		n, exact, ok := results.HostsProcs(tc.line)
		assert.Equal(t, tc.ok, ok, tc.line)
		if tc.ok {
			assert.Equal(t, tc.n, n, tc.line)
			assert.Equal(t, tc.exact, exact, tc.line)
		}
	}
}

func TestHostsCount(t *testing.T) {
	for line, want := range map[string]int64{
		"vm (2)": 1, "a (2), b (3)": 2, "n[0001-0064,0100] (64 each), x (1)": 66,
		"node[00001,00003,… 15283 more] (64 each)": 15285, "a (2), … 12 more entries (300 hosts in all)": 300,
		"vm": -1, "n[5-3] (2 each)": -1,
	} {
		n, ok := results.HostsCount(line)
		assert.Equal(t, want >= 0, ok, line)
		if ok {
			assert.Equal(t, want, n, line)
		}
	}
}

// TestJSONStream: the document written run by run is the one the encoder
// writes whole, byte for byte, with and without runs and merged runs.
func TestJSONStream(t *testing.T) {
	ps := fold(t, resultstest.File(2, 3, 3, "full", value))
	for _, tc := range []struct {
		files  []results.FoldedFile
		merged []results.Folded
	}{
		{nil, nil},
		{[]results.FoldedFile{{Name: "a.txt", Folded: ps}}, nil},
		{[]results.FoldedFile{{Name: "a \"quoted\" <b>.txt", Folded: ps[:1]}, {Name: "empty.txt"}}, ps[1:]},
	} {
		var want, got bytes.Buffer
		var files []results.JSONFile
		for _, f := range tc.files {
			files = append(files, results.NewJSONFile(f.Name, f.Folded))
		}
		require.NoError(t, resultstest.WriteJSON(&want, files, tc.merged))
		require.NoError(t, results.WriteJSONFolded(&got, tc.files, tc.merged))
		assert.Equal(t, want.String(), got.String())
	}
}

// TestHostsProcsHuge: a hostlist of absurd ranges counts past MaxProcs
// without overflowing, so the check against mpi-procs still refuses it.
func TestHostsProcsHuge(t *testing.T) {
	for _, line := range []string{"n[0-9000000000000000000] (999999999 each)", "n[0-9223372036854775807] (1 each)"} {
		n, exact, ok := results.HostsProcs(line)
		require.True(t, ok, line)
		assert.True(t, exact, line)
		assert.Greater(t, n, int64(results.MaxProcs), "%s: no sum overflows", line)
	}
}

// TestCommonRead: the processes, the mode and the descriptive lines in
// one call; a missing count or mode is refused, naming the key.
func TestCommonRead(t *testing.T) {
	var c results.Common
	cfg := results.Config{results.KeyProcs: "4", results.KeyMode: "full", results.KeyLibrary: "Open MPI v4.1.4", results.KeyDate: "2026-11-28"}
	require.NoError(t, c.Read(results.ConfigReader{Config: cfg, Suite: "toy"}))
	assert.Equal(t, results.Common{N: 4, Mode: "full", Library: "Open MPI v4.1.4", Date: "2026-11-28"}, c)
	delete(cfg, results.KeyMode)
	assert.ErrorContains(t, (&results.Common{}).Read(results.ConfigReader{Config: cfg, Suite: "toy"}), results.KeyMode)
	delete(cfg, results.KeyProcs)
	assert.ErrorContains(t, (&results.Common{}).Read(results.ConfigReader{Config: cfg, Suite: "toy"}), results.KeyProcs)
}
