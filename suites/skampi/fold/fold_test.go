package fold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
	"github.com/beff-suite/beff/suites/skampi"
)

// synthConfig is the configuration of a synthetic full run on 4
// processes (the values are the driver's keys; the numbers are made up).
const synthConfig = `mpi-library: synthetic
mpi-procs: 4
mpi-hosts: a (2), b (2)
mpi-oversubscribed: no
beff-mode: full
skampi-suites: synth.yaml sha256:0123456789abcdef
skampi-suite-pp: ops=send-recv vary=length lengths=1:1024 step=1024 refine=true points=0 length=256 procs=2 chunks=16 pair=max eps=0.03 min-reps=8 max-reps=1000 budget=1s time=0s sync=window cache=auto warmup=2
skampi-suite-pp-min: ops=send-recv vary=length lengths=1:1 step=2 refine=false points=0 length=256 procs=2 chunks=16 pair=min eps=0.03 min-reps=8 max-reps=1000 budget=1s time=0s sync=window cache=auto warmup=2
skampi-suite-coll: ops=barrier,allreduce vary=procs lengths=1:1 step=2 refine=false points=0 length=1024 procs=2,4 chunks=16 pair=max eps=0.03 min-reps=8 max-reps=1000 budget=1s time=0s sync=window cache=auto warmup=2
skampi-suite-mw: ops=mw-waitany vary=length lengths=1:1 step=2 refine=false points=0 length=256 procs=4 chunks=16 pair=max eps=0.03 min-reps=8 max-reps=1000 budget=1s time=0s sync=window cache=auto warmup=2
skampi-suite-local: ops=wtime vary=none lengths=1:1 step=2 refine=false points=0 length=256 procs=4 chunks=16 pair=max eps=0.03 min-reps=8 max-reps=1000 budget=1s time=0s sync=window cache=auto warmup=2
skampi-wtick-s: 1e-09
skampi-timer-s: 3e-08
skampi-clock: offsets (best of 50 ping-pongs per rank)
skampi-offsets-us: -3.000 0.500 0.000
skampi-offset-err-us: 0.200
skampi-pair-max: 1 2 a b 5.000
skampi-pair-min: 0 1 a a 0.300
`

// synthLines are the points: the 1-byte ping-pong converged, the 1 KiB
// one hit the repetition maximum, refinement added 32 bytes after it, an
// allreduce on 2 processes hit the time budget, the barrier on all 4
// converged, one master-worker point has no valid repetition; last the
// collective points on 2 and 4 processes that complete the plan.
var synthLines = []string{
	"BenchmarkSkampi/suite=pp/op=send-recv/pair=max/L=1 1 0.4 MB/s 10 calls 2 invalid 2.6 median-us 2.4 min-us 40 n 2.9 p90-us 3.1 p99-us 0.01 rse 1 stop 2.5 us 60 window-us",
	"BenchmarkSkampi/suite=pp/op=send-recv/pair=max/L=1024 1 200 MB/s 1 calls 300 invalid 5.2 median-us 4.9 min-us 700 n 6 p90-us 9 p99-us 0.045 rse 2 stop 5.12 us 80 window-us",
	"BenchmarkSkampi/suite=pp/op=send-recv/pair=max/L=32 1 10 MB/s 8 calls 0 invalid 3.2 median-us 3.1 min-us 12 n 3.3 p90-us 3.4 p99-us 0.01 rse 1 stop 3.2 us 60 window-us",
	"BenchmarkSkampi/suite=pp-min/op=send-recv/pair=min/L=1 1 3.3 MB/s 10 calls 0 invalid 0.31 median-us 0.29 min-us 8 n 0.33 p90-us 0.35 p99-us 0.02 rse 1 stop 0.3 us 6 window-us",
	"BenchmarkSkampi/suite=coll/op=barrier/procs=4 1 20 calls 0 invalid 7.1 median-us 6.9 min-us 16 n 7.4 p90-us 7.8 p99-us 0.005 rse 1 stop 7 us 6.9 rank-min-us 7.0 rank-med-us 9.5 rank-max-us 50 window-us",
	"BenchmarkSkampi/suite=coll/op=allreduce/procs=2/L=1024 1 1 calls 4 invalid 3.1 median-us 2.8 min-us 30 n 3.5 p90-us 4 p99-us 0.08 rse 3 stop 3 us 2.9 rank-min-us 3.0 rank-med-us 3.2 rank-max-us 40 window-us",
	"BenchmarkSkampi/suite=mw/op=mw-waitany/procs=4/chunks=16/L=1 1 1 calls 12 invalid 0 n 3 stop 100 window-us",
	"BenchmarkSkampi/suite=local/op=wtime 1 100 calls 0 invalid 0.03 median-us 0.029 min-us 8 n 0.031 p90-us 0.032 p99-us 0.001 rse 1 stop 0.03 us 5 window-us",
	"BenchmarkSkampi/suite=coll/op=barrier/procs=2 1 20 calls 0 invalid 4.1 median-us 3.9 min-us 16 n 4.4 p90-us 4.8 p99-us 0.005 rse 1 stop 4 us 3.9 rank-min-us 4.0 rank-med-us 4.5 rank-max-us 50 window-us",
	"BenchmarkSkampi/suite=coll/op=allreduce/procs=4/L=1024 1 1 calls 0 invalid 5.1 median-us 4.8 min-us 30 n 5.5 p90-us 6 p99-us 0.01 rse 1 stop 5 us 4.9 rank-min-us 5.0 rank-med-us 5.2 rank-max-us 40 window-us",
}

func synthText(config string, lines []string) string {
	return config + strings.Join(lines, "\n") + "\n"
}

// foldText reads text (one run) with the SKaMPI suite and folds it.
func foldText(t *testing.T, text string) *Folded {
	t.Helper()
	f, err := results.Read(strings.NewReader(text), "synth.txt", []results.Suite{New()})
	require.NoError(t, err)
	require.Len(t, f.Runs, 1)
	p, err := Fold(f.Runs[0])
	require.NoError(t, err)
	return p
}

// TestRoundedBandwidth: a ping-pong bandwidth that testing's two decimals
// print as 0.00 MB/s is taken as bytes per µs of the mean time.
func TestRoundedBandwidth(t *testing.T) {
	lines := slices.Clone(synthLines)
	lines[0] = strings.Replace(lines[0], " 0.4 MB/s ", " 0.00 MB/s ", 1)
	lines[0] = strings.Replace(lines[0], " 2.5 us ", " 400 us ", 1)
	require.NotEqual(t, synthLines[0], lines[0])
	p := foldText(t, synthText(synthConfig, lines))
	assert.Equal(t, 400.0, p.LatencyUs)
	assert.Equal(t, 1/400.0, p.Curves[0].Rows[0].MBps, "1 byte in 400 µs")
	assert.Equal(t, 200.0, p.Curves[0].Rows[2].MBps, "a printed 200 MB/s stays")
}

func TestFoldSynthetic(t *testing.T) {
	p := foldText(t, synthText(synthConfig, synthLines))
	var names []string
	for _, c := range p.Curves {
		names = append(names, c.Suite.Name+"/"+c.Op.Name)
	}
	assert.Equal(t, []string{"pp/send-recv", "pp-min/send-recv", "coll/barrier", "coll/allreduce", "mw/mw-waitany", "local/wtime"}, names, "run order")
	pp := p.Curves[0]
	require.Len(t, pp.Rows, 3)
	assert.Equal(t, []int64{1, 32, 1024}, []int64{pp.Rows[0].Len, pp.Rows[1].Len, pp.Rows[2].Len}, "sorted by length")
	assert.Equal(t, []bool{false, true, false}, []bool{pp.Rows[0].Refined, pp.Rows[1].Refined, pp.Rows[2].Refined}, "32 bytes is not on the grid")
	assert.Equal(t, 1, pp.Added)
	assert.Equal(t, 2, p.Curves[1].Rows[0].Procs, "ping-pong points are on 2 processes")
	assert.Equal(t, 1, p.Curves[5].Rows[0].Procs, "simple points are on 1")

	// The headline: the shortest send-recv on the slowest pair (not the
	// faster pair=min), its longest for the bandwidth, the barrier on all.
	assert.Equal(t, 2.5, p.LatencyUs)
	assert.Equal(t, 1.0, p.LatencyLen)
	assert.Equal(t, 200.0, p.BandwidthMBps)
	assert.Equal(t, 1024.0, p.BandwidthLen)
	assert.Equal(t, 7.0, p.BarrierUs)

	var nc, nv []string
	for _, m := range p.NotConverged {
		nc = append(nc, m.Name)
	}
	for _, m := range p.NoValue {
		nv = append(nv, m.Name)
	}
	assert.Equal(t, []string{"suite=pp/op=send-recv/pair=max/L=1024", "suite=coll/op=allreduce/procs=2/L=1024"}, nc)
	assert.Equal(t, []string{"suite=mw/op=mw-waitany/procs=4/chunks=16/L=1"}, nv)
	assert.False(t, p.Valid())
	assert.Equal(t, []string{"1 point without a valid repetition"}, p.Reasons)
	assert.Equal(t, []string{"2 of 10 points did not reach their suite's ε (listed below; their error is in the rse column)"}, p.Notes)
}

func TestFoldValidity(t *testing.T) {
	good := slices.Clone(synthLines)
	good[6] = "BenchmarkSkampi/suite=mw/op=mw-waitany/procs=4/chunks=16/L=1 1 1 calls 0 invalid 9.1 median-us 8.8 min-us 30 n 9.5 p90-us 9.9 p99-us 0.01 rse 1 stop 9 us 100 window-us"
	p := foldText(t, synthText(synthConfig, good))
	assert.True(t, p.Valid(), "points that did not reach ε are noted, not a reason: %v", p.Reasons)
	assert.Len(t, p.Notes, 1)

	cfg := strings.Replace(synthConfig, "beff-mode: full", "beff-mode: short (quick check, not a valid result)", 1)
	cfg = strings.Replace(cfg, "mpi-oversubscribed: no", "mpi-oversubscribed: yes: 4 processes on 2 CPUs", 1)
	cfg = strings.Replace(cfg, "length=1024 procs=2,4 chunks=16 pair=max eps=0.03 min-reps=8 max-reps=1000 budget=1s time=0s sync=window",
		"length=1024 procs=2,4 chunks=16 pair=max eps=0.03 min-reps=8 max-reps=1000 budget=1s time=0s sync=barrier", 1)
	cfg += "skampi-resumed: 2 curves (3 points) copied from part.txt\n"
	p = foldText(t, synthText(cfg, good))
	assert.Equal(t, []string{results.ShortReason, "oversubscribed (4 processes on 2 CPUs)"}, p.Reasons)
	assert.Contains(t, p.Notes, "suite coll: repetitions started after MPI_Barrier: collective times include the barrier's exit skew")
	assert.Contains(t, p.Notes, "resumed: 2 curves (3 points) copied from part.txt; those points were measured by the earlier job")
}

func TestWriteText(t *testing.T) {
	p := foldText(t, synthText(synthConfig, synthLines))
	var b bytes.Buffer
	require.NoError(t, p.WriteText(&b))
	out := b.String()
	for _, want := range []string{
		"SKaMPI = 2.500 µs (MPI_Send/MPI_Recv half round trip, 1 byte, slowest pair)\nNOT VALID: 1 point without a valid repetition\n",
		"ranks 1 (a) and 2 (b), 1-byte round trip 5.000 µs",
		"ranks 0 (a) and 1 (a), 1-byte round trip 0.3000 µs",
		"-3.000 0.500 0.000 µs (min median max), uncertain by ±0.200 µs",
		"MPI_Send/MPI_Recv ping-pong bandwidth, 1024 bytes, slowest pair",
		"MPI_Barrier on 4 processes",
		"\nSuite coll, allreduce (collective): MPI_Allreduce",
		"\nSuite pp, send-recv (ping-pong): MPI_Send / MPI_Recv; times in µs; refinement added 1 length (+)\n",
		"suite=pp/op=send-recv/pair=max/L=32 +",
		"  suite file       synth.yaml sha256:0123456789abcdef\n",
		"    pp             1 op, L 1…1024 ×1024 refined; ε 0.03, 8-1000 reps, 1s per point; window, cache auto\n",
		"    coll           2 ops, procs 2,4, L 1024; ε 0.03",
		"rank max",
		"suite=coll/op=allreduce/procs=2/L=1024 *",
		"suite=mw/op=mw-waitany/procs=4/chunks=16/L=1 -",
		"\nPoints that did not reach their suite's ε\n",
		"  suite=mw/op=mw-waitany/procs=4/chunks=16/L=1: stopped at the time budget after 0 valid and 12 discarded repetitions, no error (fewer than two valid repetitions)\n",
		"  suite=pp/op=send-recv/pair=max/L=1024: stopped at the repetition maximum after 700 valid and 300 discarded repetitions, rse 0.0450\n",
		"  suite=coll/op=allreduce/procs=2/L=1024: stopped at the time budget after 30 valid and 4 discarded repetitions, rse 0.0800\n",
	} {
		assert.Contains(t, out, want)
	}
	// The barrier's straggler shows in its row: rank max 9.500.
	assert.Regexp(t, `suite=coll/op=barrier/procs=4 +7\.000 .* 6\.900 +7\.000 +9\.500\n`, out)
	resultstest.NoBenchfmtLines(t, out)
}

// TestJSON writes the document of the synthetic run, decodes it strictly
// and checks the common part against the fold and the SKaMPI detail
// against the lines.
func TestJSON(t *testing.T) {
	p := foldText(t, synthText(synthConfig, synthLines))
	var b bytes.Buffer
	require.NoError(t, resultstest.WriteJSON(&b, []results.JSONFile{results.NewJSONFile("synth.txt", []results.Folded{p})}, nil))
	runs := resultstest.DecodeRuns(t, b.Bytes(), "skampi")[0]
	require.Len(t, runs, 1)
	resultstest.CheckCommon(t, runs[0], p)
	var d JSONSkampi
	resultstest.Strict(t, runs[0].Detail, &d)
	assert.Equal(t, "1 2 a b 5.000", d.PairMax)
	assert.Equal(t, []string{"suite=mw/op=mw-waitany/procs=4/chunks=16/L=1", "suite=pp/op=send-recv/pair=max/L=1024", "suite=coll/op=allreduce/procs=2/L=1024"}, d.NotConverged)
	require.Len(t, d.Curves, 6)
	require.Len(t, d.Suites, 5)
	assert.Equal(t, JSONSuite{Name: "coll", Ops: []string{"barrier", "allreduce"}, Vary: "procs", FromBytes: 1, ToBytes: 1, Step: 2,
		LengthBytes: 1024, Procs: []int{2, 4}, Chunks: []int{16}, Pair: "max", Eps: 0.03, MinReps: 8, MaxReps: 1000, BudgetS: 1,
		Sync: "window", Cache: "auto", Warmup: 2}, d.Suites[0], "suites by name")
	assert.Equal(t, 1, d.Curves[0].Added)
	assert.True(t, d.Curves[0].Points[1].Refined)
	ar := d.Curves[3].Points[0]
	assert.Equal(t, results.Float(3), ar.Us)
	assert.Equal(t, []results.Float{2.9, 3.0, 3.2}, ar.RankUs)
	assert.False(t, ar.Converged)
	assert.Equal(t, int64(1024), ar.LenBytes)
	assert.Contains(t, string(runs[0].Detail), `"us": null`, "no value: null, not 0")
	mw := d.Curves[4].Points[0]
	assert.Equal(t, 16, mw.Chunks)
	assert.Equal(t, 0, mw.N)
}

func TestParseErrors(t *testing.T) {
	line := synthLines[0]
	tests := []struct {
		name, config, line, err string
	}{
		{"unknown operation", synthConfig, strings.Replace(line, "op=send-recv", "op=send-recieve", 1), `unknown operation "send-recieve"`},
		{"no op first", synthConfig, strings.Replace(line, "op=send-recv/pair=max", "pair=max/op=send-recv", 1), "want suite=<name>/op=<operation>/"},
		{"no suite", synthConfig, strings.Replace(line, "suite=pp/", "", 1), "want suite=<name>/op=<operation>/"},
		{"parts out of order", synthConfig, strings.Replace(line, "pair=max/L=1", "L=1/pair=max", 1), "not in the order the suite writes them"},
		{"unknown part", synthConfig, strings.Replace(line, "pair=max", "peer=max", 1), "unknown part peer="},
		{"bad length", synthConfig, strings.Replace(line, "L=1 ", "L=x ", 1), "L=x"},
		{"no n", synthConfig, strings.Replace(line, " 40 n", "", 1), "no n metric"},
		{"negative time", synthConfig, strings.Replace(line, " 2.5 us", " -2.5 us", 1), "us -2.5 is not a finite number ≥ 0"},
		{"no number", synthConfig, strings.Replace(line, " 40 n", " NaN n", 1), "n NaN is not a finite number ≥ 0"},
		{"infinite rse", synthConfig, strings.Replace(line, " 0.01 rse", " +Inf rse", 1), "rse +Inf is not a finite number ≥ 0"},
		{"eps out of range", strings.Replace(synthConfig, "pair=max eps=0.03", "pair=max eps=1.5", 1), line, `skampi-suite-pp: eps: 1.5: want a relative error between 0 and 1`},
		{"field missing", strings.Replace(synthConfig, " warmup=2\nskampi-suite-pp-min", "\nskampi-suite-pp-min", 1), line, "skampi-suite-pp: no field warmup"},
		{"no suites", strings.Replace(synthConfig, "skampi-suites: synth.yaml sha256:0123456789abcdef\n", "", 1), line, skampi.KeySuites},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := results.Read(strings.NewReader(synthText(tt.config, []string{tt.line})), "bad.txt", []results.Suite{New()})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}

// TestMerge merges three runs of the synthetic configuration (as
// -test.count=3 writes them): per point the median over the runs and the
// fastest and slowest run's value; a point stops for the worst reason of
// its runs; a point only some runs have is merged over those and noted.
func TestMerge(t *testing.T) {
	scaled := func(f string) []string {
		out := append([]string(nil), synthLines...)
		out[0] = strings.Replace(out[0], " 2.5 us", " "+f+" us", 1)
		return out
	}
	third := scaled("2.0")
	third[0] = strings.Replace(third[0], " 2.4 min-us", " 1.9 min-us", 1) // a mean of 2.0 has a minimum below it
	third[4] = strings.Replace(third[4], " 1 stop", " 2 stop", 1)         // the barrier hit the maximum once
	third[4] = strings.Replace(third[4], " 16 n ", " 1000 n ", 1)
	text := synthConfig + strings.Join(scaled("2.5"), "\n") + "\n" + strings.Join(scaled("4.0"), "\n") + "\n" +
		strings.Join(append(third, "BenchmarkSkampi/suite=local/op=comm-rank 1 100 calls 0 invalid 0.03 median-us 0.029 min-us 8 n 0.031 p90-us 0.032 p99-us 0.001 rse 1 stop 0.03 us 5 window-us"), "\n") + "\n"
	f, err := results.Read(strings.NewReader(text), "synth.txt", []results.Suite{New()})
	require.NoError(t, err)
	require.Len(t, f.Runs, 3)
	var folded []results.Folded
	for _, r := range f.Runs {
		p, err := Fold(r)
		require.NoError(t, err)
		folded = append(folded, p)
	}
	merged, err := results.MergeRuns([]results.Suite{New()}, folded)
	require.NoError(t, err)
	require.Len(t, merged, 1)
	p := merged[0].(*Folded)
	lat := p.Curves[0].Rows[0]
	assert.Equal(t, "suite=pp/op=send-recv/pair=max/L=1", lat.Name)
	assert.Equal(t, 2.5, lat.Us, "median of 2.5, 4.0, 2.0")
	assert.Equal(t, []float64{2.0, 4.0}, []float64{lat.RunMin, lat.RunMax})
	assert.Equal(t, 3, lat.Runs)
	assert.Equal(t, 2.5, p.LatencyUs)
	barrier := p.Curves[2].Rows[1] // procs=4
	assert.False(t, barrier.Converged(), "stopped at the maximum in one run")
	assert.Contains(t, p.Notes, "1 point not in every run (merged over the runs that have them)")

	var b bytes.Buffer
	require.NoError(t, p.WriteText(&b))
	assert.Contains(t, b.String(), "SKaMPI, median of 3 runs, = 2.500 µs")
	assert.Contains(t, b.String(), "Merged from 3 runs (synth.txt run 1, synth.txt run 2, synth.txt run 3)")
	assert.Regexp(t, `suite=pp/op=send-recv/pair=max/L=1 +2\.500 .* 3 +2\.000 +4\.000\n`, b.String())

	b.Reset()
	require.NoError(t, resultstest.WriteJSON(&b, nil, merged))
	var doc struct {
		Merged []struct {
			Skampi JSONSkampi `json:"skampi"`
		} `json:"merged"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	require.Len(t, doc.Merged, 1)
	d := doc.Merged[0].Skampi
	assert.Equal(t, []string{"synth.txt run 1", "synth.txt run 2", "synth.txt run 3"}, d.MergedFrom)
	assert.Equal(t, []results.Float{2, 4}, d.Curves[0].Points[0].RunUs)
	assert.Equal(t, 3, d.Curves[0].Points[0].Runs)
}

// TestLineConsistency: a line whose figures contradict each other is
// refused with the line: times out of order, a mean below the minimum, a
// bandwidth that is not the length over the time, no call.
func TestLineConsistency(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{" 2.9 p90-us", " 3.5 p90-us", "its times are out of order (min 2.4, median 2.6, p90 3.5, p99 3.1 µs)"},
		{" 2.5 us", " 1.5 us", "its mean 1.5 µs is below its minimum 2.4 µs"},
		{" 200 MB/s", " 1e+308 MB/s", "1e+308 MB/s contradicts its 1024 bytes in 5.12 µs (200 MB/s)"},
		{" 10 calls", " 0 calls", "0 calls per repetition: want at least 1"},
		{" 3.0 rank-med-us 3.2 rank-max-us", " 3.3 rank-med-us 3.2 rank-max-us", "its processes' means are out of order (smallest 2.9, median 3.3, largest 3.2 µs)"},
	} {
		lines := slices.Clone(synthLines)
		i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, tc.from) })
		require.GreaterOrEqual(t, i, 0, tc.from)
		lines[i] = strings.Replace(lines[i], tc.from, tc.to, 1)
		_, err := results.Read(strings.NewReader(synthText(synthConfig, lines)), "synth.txt", []results.Suite{New()})
		require.Error(t, err, tc.to)
		assert.Contains(t, err.Error(), tc.want)
		assert.Contains(t, err.Error(), fmt.Sprintf("synth.txt:%d: ", strings.Count(synthConfig, "\n")+i+1))
	}
}

// TestRepetitionsAgainstRule: a point's repetitions agree with its
// suite's min-reps and max-reps, or the line is refused.
func TestRepetitionsAgainstRule(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{" 300 invalid", " 301 invalid", "suite=pp/op=send-recv/pair=max/L=1024: 1001 repetitions (700 valid), more than max-reps 1000 of skampi-suite-pp"},
		{" 40 n ", " 4 n ", "suite=pp/op=send-recv/pair=max/L=1: converged with 4 valid repetitions, fewer than min-reps 8 of skampi-suite-pp"},
		{" 700 n ", " 600 n ", "suite=pp/op=send-recv/pair=max/L=1024: stopped at max-reps 1000 of skampi-suite-pp after 900 repetitions"},
	} {
		lines := slices.Clone(synthLines)
		i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, tc.from) })
		require.GreaterOrEqual(t, i, 0, tc.from)
		lines[i] = strings.Replace(lines[i], tc.from, tc.to, 1)
		f, err := results.Read(strings.NewReader(synthText(synthConfig, lines)), "synth.txt", []results.Suite{New()})
		require.NoError(t, err)
		_, err = Fold(f.Runs[0])
		require.Error(t, err, tc.to)
		assert.Equal(t, fmt.Sprintf("synth.txt:%d: %s; not written by beff, or edited", strings.Count(synthConfig, "\n")+i+1, tc.want), err.Error())
	}
}

// TestModeAgainstSuites: a run of the default suites that says it is full
// but whose every suite line carries short mode's budgets is refused; one
// suite beyond them is enough to make it a full run.
func TestModeAgainstSuites(t *testing.T) {
	data, err := os.ReadFile("testdata/skampi-short-np2.txt")
	require.NoError(t, err)
	full := strings.Replace(string(data), "beff-mode: short (quick check, not a valid result)", "beff-mode: full", 1)
	_, err = results.Read(strings.NewReader(full), "edited.txt", []results.Suite{New()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "beff-mode: full, but every suite line carries short mode's budgets (at most 100 repetitions and 50ms a point, lengths to 4096 bytes; skampi-suite-")
	one := strings.Replace(full, "max-reps=100 budget=50ms", "max-reps=1000 budget=50ms", 1)
	_, err = results.Read(strings.NewReader(one), "edited.txt", []results.Suite{New()})
	assert.NoError(t, err)
}

// formsConfig is a run of 2 processes with a non-blocking suite and a
// persistent one beside its blocking operation.
const formsConfig = `mpi-library: synthetic
mpi-procs: 2
mpi-hosts: a (2)
mpi-oversubscribed: no
beff-mode: full
skampi-suites: forms.yaml sha256:0123456789abcdef
skampi-suite-nbc: ops=iallreduce vary=length lengths=8:8 step=2 refine=false points=0 length=256 procs=2 chunks=16 pair=max eps=0.03 min-reps=8 max-reps=1000 budget=1s time=0s sync=window cache=auto warmup=2
skampi-suite-pers: ops=bcast,bcast-persistent vary=length lengths=8:8 step=2 refine=false points=0 length=256 procs=2 chunks=16 pair=max eps=0.03 min-reps=8 max-reps=1000 budget=1s time=0s sync=window cache=auto warmup=2
skampi-wtick-s: 1e-09
skampi-timer-s: 3e-08
skampi-clock: offsets (best of 50 ping-pongs per rank)
`

// formsLines: the overlap of 50 % is (10 + 10 − 15) / 10; the persistent
// broadcast takes 3 µs against the blocking one's 4.
var formsLines = []string{
	"BenchmarkSkampi/suite=nbc/op=iallreduce/procs=2/L=8 1 2 calls 10 cpu-us 0 invalid 10 median-us 9 min-us 5 mpi-us 8 n 50 overlap-pct 0.02 ovrl-rse 15 ovrl-us 11 p90-us 12 p99-us 0.01 rse 1 stop 10 us 9 rank-min-us 9.5 rank-med-us 10 rank-max-us 30 window-us",
	"BenchmarkSkampi/suite=pers/op=bcast/procs=2/L=8 1 2 calls 0 invalid 4 median-us 3.9 min-us 8 n 4.1 p90-us 4.2 p99-us 0.01 rse 1 stop 4 us 3.9 rank-min-us 4 rank-med-us 4 rank-max-us 30 window-us",
	"BenchmarkSkampi/suite=pers/op=bcast-persistent/procs=2/L=8 1 2 calls 25 init-us 0 invalid 3 median-us 2.9 min-us 8 n 3.1 p90-us 3.2 p99-us 0.01 rse 1 stop 3 us 2.9 rank-min-us 3 rank-med-us 3 rank-max-us 30 window-us",
}

// TestFoldForms: the overlap figures and the init time are read, the
// persistent form's time over its blocking operation's is set; the text,
// JSON and plot data carry them.
func TestFoldForms(t *testing.T) {
	p := foldText(t, synthText(formsConfig, formsLines))
	require.Len(t, p.Curves, 3)
	nb := p.Curves[0].Rows[0]
	assert.True(t, nb.HasOvrl)
	assert.Equal(t, []float64{15, 10, 5, 50, 0.02}, []float64{nb.OvrlUs, nb.CPUUs, nb.InMPIUs, nb.OverlapPct, nb.OvrlRSE})
	pers := p.Curves[2].Rows[0]
	assert.Equal(t, 25.0, pers.InitUs)
	assert.InDelta(t, 0.75, pers.OfRatio, 1e-12)
	assert.Zero(t, p.Curves[1].Rows[0].OfRatio, "the blocking operation has no ratio")

	var text bytes.Buffer
	require.NoError(t, p.WriteText(&text))
	assert.Contains(t, text.String(), "overlap %")
	assert.Contains(t, text.String(), "÷ bcast")
	js, err := json.Marshal(p.JSONDetail())
	require.NoError(t, err)
	for _, want := range []string{`"overlap_pct":50`, `"ovrl_us":15`, `"init_us":25`, `"ratio_to_blocking":0.75`, `"form_of":"bcast"`, `"family":"persistent"`, `"osu":"osu_iallreduce"`} {
		assert.Contains(t, string(js), want)
	}
	d := newPlotData(p)
	require.Len(t, d.Suites, 2)
	assert.Equal(t, []report.PlotNum{50}, d.Suites[0].Curves[0].Overlap)
	assert.Equal(t, []report.PlotNum{0.75}, d.Suites[1].Curves[1].OfRatio)
	rows := suiteRows(p)
	assert.Equal(t, []bool{true, false}, []bool{rows[0].Overlap, rows[0].Forms})
	assert.Equal(t, []bool{false, true}, []bool{rows[1].Overlap, rows[1].Forms})
}

// TestFormsForged: figures of the forms that their times contradict, or
// on operations that have none, are refused.
func TestFormsForged(t *testing.T) {
	for _, tc := range []struct {
		line           int
		from, to, want string
	}{
		{0, " 50 overlap-pct", " 90 overlap-pct", "overlap-pct 90 contradicts its times (50% from us 10, ovrl-us 15, cpu-us 10)"},
		{0, " 50 overlap-pct", " 150 overlap-pct", "overlap-pct 150 contradicts"},
		{0, " 5 mpi-us", " 1 mpi-us", "mpi-us 1 contradicts ovrl-us 15 − cpu-us 10"},
		{0, " 10 cpu-us", "", "want all of ovrl-us, cpu-us, mpi-us, overlap-pct, ovrl-rse or none"},
		{1, " 0 invalid", " 9 ovrl-us 0 invalid", "ovrl-us of bcast: only a non-blocking collective with a time has one"},
		{1, " 0 invalid", " 9 init-us 0 invalid", "init-us of bcast: only a persistent operation has one"},
		{1, " 0 invalid", " 2 threads 0 invalid", "threads 2 of bcast with 0 partitions: want a partitioned operation's 1 to 4 threads"},
	} {
		lines := slices.Clone(formsLines)
		lines[tc.line] = strings.Replace(lines[tc.line], tc.from, tc.to, 1)
		_, err := results.Read(strings.NewReader(synthText(formsConfig, lines)), "forms.txt", []results.Suite{New()})
		require.Error(t, err, tc.to)
		assert.Contains(t, err.Error(), tc.want)
	}
}

// TestFoldTopology: a neighborhood suite's topology line reaches the
// protocol and the JSON.
func TestFoldTopology(t *testing.T) {
	config := strings.Replace(formsConfig, "skampi-wtick-s:", "skampi-suite-nh: ops=neighbor-alltoall vary=length lengths=8:8 step=2 refine=false points=0 length=256 procs=2 chunks=16 pair=max eps=0.03 min-reps=8 max-reps=1000 budget=1s time=0s sync=window cache=auto warmup=2 topology=stencil-2d\nskampi-topology-nh: stencil-2d; 2: 2×1, 1 neighbor\nskampi-wtick-s:", 1)
	lines := append(slices.Clone(formsLines), "BenchmarkSkampi/suite=nh/op=neighbor-alltoall/procs=2/L=8 1 2 calls 0 invalid 4 median-us 3.9 min-us 8 n 4.1 p90-us 4.2 p99-us 0.01 rse 1 stop 4 us 3.9 rank-min-us 4 rank-med-us 4 rank-max-us 30 window-us")
	p := foldText(t, synthText(config, lines))
	assert.Equal(t, "stencil-2d", p.Config.Suites["nh"].Topology)
	assert.Equal(t, "cart-2d-periodic", p.Config.Suites["nbc"].Topology, "the usual topology where the line names none")
	var text bytes.Buffer
	require.NoError(t, p.WriteText(&text))
	assert.Contains(t, text.String(), "stencil-2d; 2: 2×1, 1 neighbor (processes: grid, neighbors)")
	js, err := json.Marshal(p.JSONDetail())
	require.NoError(t, err)
	assert.Contains(t, string(js), `"topology":"stencil-2d","topology_grids":"stencil-2d; 2: 2×1, 1 neighbor"`)
}
