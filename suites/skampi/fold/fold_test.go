package fold

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
skampi-ops: send-recv,allreduce,barrier,mw-waitany,wtime
skampi-sync: window
skampi-eps: 0.03
skampi-reps: 8-1000
skampi-budget-s: 1
skampi-lengths: 1,1024
skampi-procs: 2,4
skampi-chunks: 16
skampi-warmup: 2
skampi-cache: auto
skampi-wtick-s: 1e-09
skampi-timer-s: 3e-08
skampi-clock: offsets (best of 50 ping-pongs per rank)
skampi-offsets-us: -3.000 0.500 0.000
skampi-offset-err-us: 0.200
skampi-pair-max: 1 2 a b 5.000
skampi-pair-min: 0 1 a a 0.300
`

// synthLines are the points: the 1-byte ping-pong converged, the 1 KiB
// one hit the repetition maximum, an allreduce on 2 processes hit the
// time budget, the barrier on all 4 converged, one master-worker point
// has no valid repetition.
var synthLines = []string{
	"BenchmarkSkampi/op=send-recv/pair=max/L=1 1 0.4 MB/s 10 calls 2 invalid 2.6 median-us 2.4 min-us 40 n 2.9 p90-us 3.1 p99-us 0.01 rse 1 stop 2.5 us 60 window-us",
	"BenchmarkSkampi/op=send-recv/pair=max/L=1024 1 200 MB/s 1 calls 300 invalid 5.2 median-us 4.9 min-us 1000 n 6 p90-us 9 p99-us 0.045 rse 2 stop 5.12 us 80 window-us",
	"BenchmarkSkampi/op=send-recv/pair=min/L=1 1 3.3 MB/s 10 calls 0 invalid 0.31 median-us 0.29 min-us 8 n 0.33 p90-us 0.35 p99-us 0.02 rse 1 stop 0.3 us 6 window-us",
	"BenchmarkSkampi/op=allreduce/procs=2/L=1024 1 1 calls 4 invalid 3.1 median-us 2.8 min-us 30 n 3.5 p90-us 4 p99-us 0.08 rse 3 stop 3 us 2.9 rank-min-us 3.0 rank-med-us 3.2 rank-max-us 40 window-us",
	"BenchmarkSkampi/op=barrier/procs=4 1 20 calls 0 invalid 7.1 median-us 6.9 min-us 16 n 7.4 p90-us 7.8 p99-us 0.005 rse 1 stop 7 us 6.9 rank-min-us 7.0 rank-med-us 9.5 rank-max-us 50 window-us",
	"BenchmarkSkampi/op=mw-waitany/procs=4/chunks=16/L=1 1 1 calls 12 invalid 0 n 3 stop 100 window-us",
	"BenchmarkSkampi/op=wtime 1 100 calls 0 invalid 0.03 median-us 0.029 min-us 8 n 0.031 p90-us 0.032 p99-us 0.001 rse 1 stop 0.03 us 5 window-us",
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

func TestFoldSynthetic(t *testing.T) {
	p := foldText(t, synthText(synthConfig, synthLines))
	var names []string
	for _, op := range p.Ops {
		names = append(names, op.Op.Name)
	}
	assert.Equal(t, []string{"send-recv", "allreduce", "barrier", "mw-waitany", "wtime"}, names, "run order")
	require.Len(t, p.Ops[0].Rows, 3)
	assert.Equal(t, 2, p.Ops[0].Rows[2].Procs, "ping-pong points are on 2 processes")
	assert.Equal(t, 1, p.Ops[4].Rows[0].Procs, "simple points are on 1")

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
	assert.Equal(t, []string{"op=send-recv/pair=max/L=1024", "op=allreduce/procs=2/L=1024"}, nc)
	assert.Equal(t, []string{"op=mw-waitany/procs=4/chunks=16/L=1"}, nv)
	assert.False(t, p.Valid())
	assert.Equal(t, []string{"1 point without a valid repetition"}, p.Reasons)
	assert.Equal(t, []string{"2 of 7 points did not reach ε = 0.03 (listed below; their error is in the rse column)"}, p.Notes)
}

func TestFoldValidity(t *testing.T) {
	good := append(append([]string(nil), synthLines[:5]...), synthLines[6])
	p := foldText(t, synthText(synthConfig, good))
	assert.True(t, p.Valid(), "points that did not reach ε are noted, not a reason: %v", p.Reasons)
	assert.Len(t, p.Notes, 1)

	cfg := strings.Replace(synthConfig, "beff-mode: full", "beff-mode: short (quick check, not a valid result)", 1)
	cfg = strings.Replace(cfg, "mpi-oversubscribed: no", "mpi-oversubscribed: yes: 4 processes on 2 CPUs", 1)
	cfg = strings.Replace(cfg, "skampi-sync: window", "skampi-sync: barrier", 1)
	p = foldText(t, synthText(cfg, good))
	assert.Equal(t, []string{results.ShortReason, "oversubscribed (4 processes on 2 CPUs)"}, p.Reasons)
	assert.Contains(t, p.Notes, "repetitions started after MPI_Barrier: collective times include the barrier's exit skew")
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
		"\nallreduce (collective): MPI_Allreduce",
		"rank max",
		"op=allreduce/procs=2/L=1024 *",
		"op=mw-waitany/procs=4/chunks=16/L=1 -",
		"\nPoints that did not reach ε = 0.03\n",
		"  op=mw-waitany/procs=4/chunks=16/L=1: stopped at the time budget after 0 valid and 12 discarded repetitions, no error (fewer than two valid repetitions)\n",
		"  op=send-recv/pair=max/L=1024: stopped at the repetition maximum after 1000 valid and 300 discarded repetitions, rse 0.0450\n",
		"  op=allreduce/procs=2/L=1024: stopped at the time budget after 30 valid and 4 discarded repetitions, rse 0.0800\n",
	} {
		assert.Contains(t, out, want)
	}
	// The barrier's straggler shows in its row: rank max 9.500.
	assert.Regexp(t, `op=barrier/procs=4 +7\.000 .* 6\.900 +7\.000 +9\.500\n`, out)
}

// TestJSON writes the document of the synthetic run, decodes it strictly
// and checks the common part against the fold and the SKaMPI detail
// against the lines.
func TestJSON(t *testing.T) {
	p := foldText(t, synthText(synthConfig, synthLines))
	var b bytes.Buffer
	require.NoError(t, results.WriteJSON(&b, []results.JSONFile{results.NewJSONFile("synth.txt", []results.Folded{p})}))
	runs := resultstest.DecodeRuns(t, b.Bytes(), "skampi")[0]
	require.Len(t, runs, 1)
	resultstest.CheckCommon(t, runs[0], p)
	var d JSONSkampi
	resultstest.Strict(t, runs[0].Detail, &d)
	assert.Equal(t, "1 2 a b 5.000", d.PairMax)
	assert.Equal(t, []string{"op=mw-waitany/procs=4/chunks=16/L=1", "op=send-recv/pair=max/L=1024", "op=allreduce/procs=2/L=1024"}, d.NotConverged)
	require.Len(t, d.Ops, 5)
	ar := d.Ops[1].Points[0]
	assert.Equal(t, results.Float(3), ar.Us)
	assert.Equal(t, []results.Float{2.9, 3.0, 3.2}, ar.RankUs)
	assert.False(t, ar.Converged)
	assert.Equal(t, int64(1024), ar.LenBytes)
	assert.Contains(t, string(runs[0].Detail), `"us": null`, "no value: null, not 0")
	mw := d.Ops[3].Points[0]
	assert.Equal(t, 16, mw.Chunks)
	assert.Equal(t, 0, mw.N)
}

func TestParseErrors(t *testing.T) {
	line := synthLines[0]
	tests := []struct {
		name, config, line, err string
	}{
		{"unknown operation", synthConfig, strings.Replace(line, "op=send-recv", "op=send-recieve", 1), `unknown operation "send-recieve"`},
		{"no op first", synthConfig, strings.Replace(line, "op=send-recv/pair=max", "pair=max/op=send-recv", 1), "want op=<operation>/"},
		{"parts out of order", synthConfig, strings.Replace(line, "pair=max/L=1", "L=1/pair=max", 1), "not in the order the suite writes them"},
		{"unknown part", synthConfig, strings.Replace(line, "pair=max", "peer=max", 1), "unknown part peer="},
		{"bad length", synthConfig, strings.Replace(line, "L=1 ", "L=x ", 1), "L=x"},
		{"no n", synthConfig, strings.Replace(line, " 40 n", "", 1), "no n metric"},
		{"negative time", synthConfig, strings.Replace(line, " 2.5 us", " -2.5 us", 1), "is not a time"},
		{"eps out of range", strings.Replace(synthConfig, "skampi-eps: 0.03", "skampi-eps: 1.5", 1), line, `skampi-eps: "1.5" is not a relative error between 0 and 1`},
		{"no ops", strings.Replace(synthConfig, "skampi-ops: send-recv,allreduce,barrier,mw-waitany,wtime\n", "", 1), line, skampi.KeyOps},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := results.Read(strings.NewReader(synthText(tt.config, []string{tt.line})), "bad.txt", []results.Suite{New()})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}
