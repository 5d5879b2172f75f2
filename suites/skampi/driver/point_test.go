package driver

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/skampi"
	"github.com/beff-suite/beff/suites/skampi/loops"
)

// testSuite is the suite of a suite file with the flags' defaults, as
// Setup reads it for n processes.
func testSuite(t *testing.T, yaml string, n int) *skampi.Setup {
	t.Helper()
	l := skampi.Layers{Procs: n, Base: map[string]skampi.Given{}, Over: map[string]skampi.Given{}}
	for _, f := range fieldFlags {
		l.Base[f.field] = skampi.Given{Value: f.def, At: "-" + f.flag}
	}
	suites, _, err := skampi.ParseSuites("t.yaml", []byte(yaml), l)
	require.NoError(t, err)
	require.Len(t, suites, 1)
	suites[0].Rule.Wtick = 1e-9
	return suites[0]
}

// A fakeLoop stands for the C loop of SKaMPI: each repetition of a batch
// lasts call(rank, rep) per call; calls of the rank's repetitions whose
// number is in late arrive after their window started.
type fakeLoop struct {
	mu    sync.Mutex
	calls map[int][]int // per rank, the Calls of each batch it ran
	reps  map[int]int   // per rank, repetitions timed (window mode)
	call  func(rank, rep int) float64
	late  func(rank, rep int) bool
	fault func(rank int, b *loops.Batch) int64
	// overlap: with a computation (Steps, 1 ns each), the part of the
	// shorter of the call and the computation that the two overlap
	overlap float64
	init    func(rank int) float64 // a batch's init time (persistent operations)
}

func (f *fakeLoop) run(rank int) func(b *loops.Batch) (loops.Times, loops.SkampiFault, error) {
	return func(b *loops.Batch) (loops.Times, loops.SkampiFault, error) {
		f.mu.Lock()
		f.calls[rank] = append(f.calls[rank], b.Calls)
		base := f.reps[rank]
		if b.Window {
			f.reps[rank] += b.Reps
		}
		f.mu.Unlock()
		t := loops.Times{Window: b.WindowLen, First: 1}
		at := 1.0
		for k := range b.Reps {
			d := f.call(rank, base+k)
			if b.Steps > 0 {
				cpu := float64(b.Steps) * 1e-9
				d = d + cpu - f.overlap*min(d, cpu)
				t.Busy = append(t.Busy, cpu*float64(b.Calls))
			} else {
				t.Busy = append(t.Busy, 0)
			}
			d *= float64(b.Calls)
			start := at
			if b.Window {
				start = 1 + float64(k)*b.WindowLen
			}
			arrive := start - 1e-9
			if f.late != nil && b.Window && f.late(rank, base+k) {
				arrive = start + b.WindowLen/2
			}
			t.Arrive, t.Start, t.End = append(t.Arrive, arrive), append(t.Start, start), append(t.End, start+d)
			at = start + d
		}
		if f.init != nil {
			t.Init = f.init(rank)
		}
		var fault loops.SkampiFault
		if f.fault != nil {
			fault.Count = f.fault(rank, b)
		}
		return t, fault, nil
	}
}

// measurePoint runs one point of su on n simulated ranks with the fake
// loop and returns rank 0's result.
func measurePoint(t *testing.T, n int, su *skampi.Setup, pt skampi.Point, f *fakeLoop) Result {
	t.Helper()
	f.calls, f.reps = map[int][]int{}, map[int]int{}
	var res Result
	var mu sync.Mutex
	harnesstest.Fine(t, harnesstest.Run(t, n, harness.Job{}, func(s *harness.Session) {
		st := &Settings{Suites: []*skampi.Setup{su}, Buffer: 1 << 16}
		st.Prep.Wtick, st.Prep.Timer, st.Prep.Global = 1e-9, 30e-9, true
		r := &run{s: s, st: st, send: mustBuffer(t), recv: mustBuffer(t), loop: f.run(s.Rank),
			steps: func(sec float64) int64 { return int64(sec * 1e9) }}
		got := r.measure(s.World(), su, pt)
		if s.IsRoot() {
			mu.Lock()
			res = got
			mu.Unlock()
		}
	}))
	return res
}

func mustBuffer(t *testing.T) *mpi.Buffer {
	b, err := mpi.NewBuffer(1 << 16)
	require.NoError(t, err)
	return b
}

// TestPointConverges: a collective whose calls take 10 µs on every rank
// but the slowest's 12 µs reaches ε at the minimum repetitions; its value
// is the slowest rank's, the spread of the ranks is reported.
func TestPointConverges(t *testing.T) {
	su := testSuite(t, "suites:\n  - name: c\n    ops: bcast\n    vary: procs\n    procs: 3\n    length: 64\n    sync: barrier\n", 3)
	f := &fakeLoop{call: func(rank, rep int) float64 { return 10e-6 + 1e-6*float64(rank) }}
	res := measurePoint(t, 3, su, skampi.Point{Suite: "c", Op: skampi.OpIndex("bcast"), Procs: 3, Len: 64}, f)
	assert.Equal(t, skampi.Converged, res.Why)
	assert.Equal(t, su.Rule.Min, res.Sum.N, "the minimum repetitions reach ε at once")
	assert.Equal(t, 1, res.Calls, "a call lasts longer than the shortest repetition")
	assert.InDelta(t, 12e-6-30e-9, res.Sum.Mean, 1e-12, "the slowest rank's time, the clock's cost (30 ns) off")
	require.Len(t, res.Ranks, 3)
	assert.InDelta(t, 10e-6-30e-9, res.Ranks[0], 1e-12, "the fastest rank's mean")
	assert.InDelta(t, 12e-6-30e-9, res.Ranks[2], 1e-12, "the slowest rank's mean")
	for r := range 3 {
		assert.Equal(t, f.calls[0], f.calls[r], "rank %d batched the calls rank 0 decided", r)
	}
}

// TestPointWindowDiscards: in window mode a repetition that any rank
// starts late is discarded on every rank and counted, and the window
// doubles once a batch loses more than a quarter.
func TestPointWindowDiscards(t *testing.T) {
	su := testSuite(t, "suites:\n  - name: c\n    ops: bcast\n    vary: procs\n    procs: 2\n    length: 64\n    sync: window\n", 2)
	f := &fakeLoop{
		call: func(rank, rep int) float64 { return 5e-6 },
		late: func(rank, rep int) bool { return rank == 1 && rep%2 == 0 },
	}
	res := measurePoint(t, 2, su, skampi.Point{Suite: "c", Op: skampi.OpIndex("bcast"), Procs: 2, Len: 64}, f)
	assert.Positive(t, res.Invalid)
	assert.Equal(t, res.Tries, res.Sum.N+res.Invalid, "every try is valid or discarded")
	assert.InDelta(t, float64(res.Sum.N), float64(res.Invalid), 1, "rank 1 is late every other repetition")
	assert.Positive(t, res.Window)
}

// TestPointFault: a message that fails validation on one rank stops the
// point on every rank with a report.
func TestPointFault(t *testing.T) {
	su := testSuite(t, "suites:\n  - name: c\n    ops: bcast\n    vary: procs\n    procs: 2\n    length: 64\n    sync: barrier\n", 2)
	f := &fakeLoop{
		call:  func(rank, rep int) float64 { return 5e-6 },
		fault: func(rank int, b *loops.Batch) int64 { return int64(rank) }, // rank 1 sees one bad message
	}
	res := measurePoint(t, 2, su, skampi.Point{Suite: "c", Op: skampi.OpIndex("bcast"), Procs: 2, Len: 64}, f)
	assert.True(t, strings.HasPrefix(res.Fault, "validation FAILED: suite=c/op=bcast/procs=2/L=64: received messages differ from what was sent\n"), res.Fault)
	assert.Contains(t, res.Fault, "  rank 1 of the point: ", "the rank that saw it")
	assert.NotContains(t, res.Fault, "rank 0 of the point", "a rank without failures is not listed")
}

// TestPointBudget: a point whose repetitions scatter too much to reach ε
// stops at its repetition maximum.
func TestPointMaximum(t *testing.T) {
	su := testSuite(t, "suites:\n  - name: c\n    ops: bcast\n    vary: procs\n    procs: 2\n    length: 64\n    sync: barrier\n    max-reps: 40\n    budget: 1h\n", 2)
	f := &fakeLoop{call: func(rank, rep int) float64 { return 1e-6 * float64(1+(rep*7919)%13) }}
	res := measurePoint(t, 2, su, skampi.Point{Suite: "c", Op: skampi.OpIndex("bcast"), Procs: 2, Len: 64}, f)
	assert.Equal(t, skampi.HitMax, res.Why)
	assert.Equal(t, 40, res.Tries)
}

// TestPointOverlap: a non-blocking collective is measured plainly, then
// with a computation as long as its plain time between start and wait;
// the overlap follows from the two times and the computation's.
func TestPointOverlap(t *testing.T) {
	su := testSuite(t, "suites:\n  - name: c\n    ops: iallreduce\n    vary: procs\n    procs: 2\n    length: 64\n    sync: barrier\n", 2)
	pt := skampi.Point{Suite: "c", Op: skampi.OpIndex("iallreduce"), Procs: 2, Len: 64}
	for _, c := range []struct{ overlap, want float64 }{{1, 100}, {0, 0}, {0.5, 50}} {
		f := &fakeLoop{call: func(rank, rep int) float64 { return 20e-6 }, overlap: c.overlap}
		res := measurePoint(t, 2, su, pt, f)
		require.NotNil(t, res.Overlap, "overlap %v", c.overlap)
		pure := 20e-6 - 30e-9
		assert.InDelta(t, pure, res.Sum.Mean, 1e-12)
		assert.InDelta(t, pure, res.Overlap.Pure, 1e-12, "the computation is as long as the plain time")
		assert.InDelta(t, pure, res.Overlap.CPU, 2e-9, "the computation's own time (whole steps)")
		assert.InDelta(t, c.want, skampi.OverlapPercent(res.Sum.Mean, res.Overlap.Sum.Mean, res.Overlap.CPU), 0.5, "overlap %v", c.overlap)
		assert.Zero(t, res.Init)
	}
	// a blocking collective is measured once
	su = testSuite(t, "suites:\n  - name: c\n    ops: allreduce\n    vary: procs\n    procs: 2\n    length: 64\n    sync: barrier\n", 2)
	f := &fakeLoop{call: func(rank, rep int) float64 { return 20e-6 }, overlap: 1}
	res := measurePoint(t, 2, su, skampi.Point{Suite: "c", Op: skampi.OpIndex("allreduce"), Procs: 2, Len: 64}, f)
	assert.Nil(t, res.Overlap)
}

// TestPointInit: a persistent collective reports the slowest process's
// mean time of the init calls; other operations none.
func TestPointInit(t *testing.T) {
	su := testSuite(t, "suites:\n  - name: c\n    ops: bcast-persistent\n    vary: procs\n    procs: 2\n    length: 64\n    sync: barrier\n", 2)
	f := &fakeLoop{call: func(rank, rep int) float64 { return 5e-6 }, init: func(rank int) float64 { return 1e-6 * float64(1+rank) }}
	res := measurePoint(t, 2, su, skampi.Point{Suite: "c", Op: skampi.OpIndex("bcast-persistent"), Procs: 2, Len: 64}, f)
	assert.InDelta(t, 2e-6, res.Init, 1e-15, "rank 1's")
	assert.Nil(t, res.Overlap)
}
