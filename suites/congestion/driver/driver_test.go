package driver

import (
	"encoding/json"
	"errors"
	"flag"
	"math"
	"sync"
	"testing"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/ring"
	"github.com/beff-suite/beff/suites/congestion"
	"github.com/beff-suite/beff/suites/congestion/loops"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// td is the driver the tests use, its flags on a flag set of their own.
var td = New(flag.NewFlagSet("congestion", flag.ContinueOnError))

// A call is what a fake loop was asked to do on a rank.
type call struct {
	rank   int
	what   string // a canary's or a congestor's name
	loaded bool
	left   int // the neighbors a congestor was given
	right  int
}

// fakeLoops records the loops' calls: a canary rank takes 10 samples of
// (1 + rank) µs, a congestor receives 1 MB in (1 + rank)/10 s.
type fakeLoops struct {
	mu    sync.Mutex
	calls []call
}

func (f *fakeLoops) add(c call) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, c)
}

// testRun is a run of settings st on the fake session s with fake loops.
func testRun(s *harness.Session, st Settings, f *fakeLoops) *run {
	r := &run{f: td.f, s: s, world: s.World(), st: st}
	r.split = func(color, key int) (mpi.Comm, error) { return mpi.CommNull, nil }
	r.canary = func(c *loops.CanaryRun) (loops.Samples, error) {
		f.add(call{s.Rank, c.Canary.String(), c.Loaded, c.Left, c.Right})
		t := float64(1+s.Rank) * 1e-6
		smp := loops.Samples{Hist: make([]int64, loops.HistBins), N: 10, Sum: 10 * t, Max: t, Elapsed: 1, Iters: 10}
		smp.Hist[int(math.Floor(math.Log(t/loops.HistMin)/math.Log(loops.HistRatio)))] = 10
		return smp, nil
	}
	r.congestor = func(c *loops.CongestorRun) (loops.Load, error) {
		f.add(call{s.Rank, c.Congestor.String(), c.Loaded, c.Left, c.Right})
		return loops.Load{Calls: 100, Bytes: 1e6, Elapsed: float64(1+s.Rank) / 10}, nil
	}
	r.prepareRoles()
	return r
}

// TestPhases: on 3 nodes of 2 processes each node's first process runs
// the canary, the others the congestors one at a time; every phase takes
// the same collective calls on every rank (the fake job fails where they
// diverge), and rank 0 gets the slowest canary process's samples and
// each set's bandwidth.
func TestPhases(t *testing.T) {
	hosts := []string{"a", "a", "b", "b", "c", "c"}
	plan := congestion.Plan{Canaries: []string{"rr-lat"}, Congestors: []string{"incast", "bcast"}, Reps: 1, Time: 1}
	opts := congestion.SplitOptions{Share: 0.2, Congestors: 2, Seed: 3}
	sp, err := congestion.DecideSplit(hosts, opts)
	require.NoError(t, err)
	plan.Mix = sp.Mix
	st := Settings{Plan: plan, Split: opts, Len: 4096, BwLen: 4096, MinLoad: 0.25, Described: *sp}
	f := &fakeLoops{}
	var lines [][]metric
	harnesstest.Fine(t, harnesstest.Run(t, 6, harness.Job{Hosts: hosts}, func(s *harness.Session) {
		r := testRun(s, st, f)
		for _, ph := range []phase{
			{canary: "rr-lat", load: congestion.LoadIsolated, rep: 1},
			{sets: map[int]string{0: "incast"}, congLoad: congestion.LoadIsolated, rep: 1},
			{canary: "rr-lat", load: "bcast", sets: map[int]string{0: "bcast"}, congLoad: "rr-lat", rep: 1},
		} {
			smp, ld := r.run(ph)
			var l [][]metric
			if ph.canary != "" {
				l = append(l, r.canaryLine(ph.canary, smp))
			}
			sets, _ := r.congestorLines(ph)
			l = append(l, r.gatherCongestors(sets, ld)...)
			if s.IsRoot() {
				lines = append(lines, l...)
			}
		}
	}))
	assert.Equal(t, congestion.MixEach, sp.Mix, "3 congestor processes for 2 congestors: one at a time")
	canaries, loaded := map[int]bool{}, 0
	for _, c := range f.calls {
		if c.what == "rr-lat" {
			canaries[c.rank] = true
		}
		if c.loaded {
			loaded++
		}
	}
	assert.Len(t, canaries, 3, "a canary process per node")
	for r := range canaries {
		assert.Equal(t, 0, r%2, "each node's first process: rank %d", r)
	}
	assert.Equal(t, 3+3, loaded, "beside the canary, canaries and congestors run loaded")
	// the congestor processes of the set (ranks 1, 3, 5) know their
	// neighbors in the set's worst-case cycle
	var got, want [][2]int
	for _, c := range f.calls {
		if c.what == "incast" {
			got = append(got, [2]int{c.left, c.right})
		}
	}
	for me := range 3 {
		l, r := ring.WorstNeighbors(3, me)
		want = append(want, [2]int{l, r})
	}
	assert.ElementsMatch(t, want, got)
	require.Len(t, lines, 4, "the canary alone, incast alone, the canary beside bcast, bcast")
	us := func(ms []metric, unit string) float64 {
		for _, m := range ms {
			if m.unit == unit {
				return m.value
			}
		}
		return -1
	}
	// canaries on ranks 0, 2, 4: mean (1+3+5)/3 µs, the slowest 5 µs
	assert.InDelta(t, 3, us(lines[0], congestion.MetricUs), 1e-9)
	assert.InDelta(t, 5, us(lines[0], congestion.MetricMax), 1e-9)
	assert.InDelta(t, 5, us(lines[0], congestion.QuantileMetric(0.99, false)), 5*0.006)
	assert.Equal(t, 30.0, us(lines[0], congestion.MetricSamples))
	// incast on ranks 1, 3, 5: 3 MB over the slowest's 0.6 s
	assert.InDelta(t, 5, us(lines[1], congestion.MetricMBps), 1e-9)
	assert.Equal(t, 3.0, us(lines[1], congestion.MetricProcs))
	assert.Equal(t, 100.0, us(lines[1], congestion.MetricCalls))
}

// TestNoWindowLeavesRMAOut: where no process can make a window, every
// rank leaves the one-sided incast out, the split is made again for the
// congestors left, and the configuration says why.
func TestNoWindowLeavesRMAOut(t *testing.T) {
	old := rmaProbe
	t.Cleanup(func() { rmaProbe = old })
	rmaProbe = func(s *harness.Session) (bool, error, error) { return false, errors.New("MPI_ERR_WIN"), nil }
	hosts := []string{"a", "a", "b", "b", "c", "c"}
	opts := congestion.SplitOptions{Share: 0.2, Congestors: 2, Seed: 3}
	sp, err := congestion.DecideSplit(hosts, opts)
	require.NoError(t, err)
	st := Settings{Plan: congestion.Plan{Canaries: []string{"rr-lat"}, Congestors: []string{"rma-incast", "bcast"}, Mix: sp.Mix, Reps: 1, Time: 1},
		Split: opts, Len: 4096, BwLen: 4096, Described: *sp}
	raw, err := json.Marshal(st)
	require.NoError(t, err)
	job := harness.Job{Hosts: hosts, SuiteState: map[string]json.RawMessage{name: raw}}
	got := make([]Settings, 6)
	harnesstest.Fine(t, harnesstest.Run(t, 6, job, func(s *harness.Session) {
		own, err := td.settings.Of(s) // each rank its own copy, as each process has
		s.Must("reading the settings", err)
		got[s.Rank] = prepareJob(s, own)
	}))
	for r := range got {
		assert.Equal(t, []string{"bcast"}, got[r].Plan.Congestors, "rank %d", r)
		assert.Equal(t, congestion.MixTogether, got[r].Plan.Mix, "3 processes for 1 congestor: together")
		assert.Equal(t, "MPI_ERR_WIN", got[r].NoRMA)
	}
	job.SuiteState[name], _ = json.Marshal(got[0])
	assert.Contains(t, td.settings.Lines(&job), "congestion-rma: rma-incast left out: MPI_Win_create failed (MPI_ERR_WIN)")
}
