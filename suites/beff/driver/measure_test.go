package driver

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beff/loops"
)

// A fakeLoop stands for the C loop of b_eff: a loop of ll iterations of
// length l takes perIter(rank, l) per iteration on a rank; a rank in bad
// sees one corrupted message in every loop of length 64 or more.
type fakeLoop struct {
	mu      sync.Mutex
	lens    map[int][]int // per rank, the loop lengths it ran, in order
	perIter func(rank int, l int) float64
	bad     map[int]bool
}

func (f *fakeLoop) timed(rank int) func(m *loops.BeffTiming) (float64, loops.Fault, error) {
	return func(m *loops.BeffTiming) (float64, loops.Fault, error) {
		f.mu.Lock()
		f.lens[rank] = append(f.lens[rank], m.LoopLen)
		f.mu.Unlock()
		var fault loops.Fault
		if f.bad[rank] && m.Len >= 64 {
			fault = loops.Fault{Count: 1, Iter: 2, Step: 0, Partner: (rank + 1) % 3, Offset: 16, ExpectFirst: 7, GotFirst: 9}
		}
		return float64(m.LoopLen) * f.perIter(rank, m.Len), fault, nil
	}
}

// testRun is a b_eff run on a simulated rank with the fake loop: sizes
// 1, 64 and 4096, a loop time target of 5 ms, the ring of all processes.
func testRun(s *harness.Session, f *fakeLoop) *run {
	r := &run{f: td.f, s: s, world: s.World(), comm: map[string]mpi.Comm{}, plan: map[string]loops.BeffPlan{},
		probed: map[loopKey]bool{}, loops: map[loopKey]*beff.LoopState{}, timed: f.timed(s.Rank)}
	r.st.Sizes = []int64{1, 64, 4096}
	r.st.Target, r.st.Shortcut = 5e-3, beff.ShortcutLimit
	r.progress = s.NewProgress("b_eff", 100)
	return r
}

// TestLoopLengthFromProbe: the first measurement of a pattern and method
// probes the loop time on every rank; rank 0 takes the bound from the
// fastest probe of the slowest rank and every rank runs the loop length
// it decides; the next size's length comes from the last measurement.
func TestLoopLengthFromProbe(t *testing.T) {
	f := &fakeLoop{lens: map[int][]int{}, perIter: func(rank, l int) float64 { return (1 + float64(rank)) * 1e-6 * float64(1+l/64) }}
	got := make([][2]int, 3)
	var mu sync.Mutex
	harnesstest.Fine(t, harnesstest.Run(t, 3, harness.Job{}, func(s *harness.Session) {
		r := testRun(s, f)
		p := beff.RingPattern(3, 0)
		k := loopKey{p.Name, beff.Sendrecv}
		ll1 := r.decideLoopLength(k, p, 1, 0)
		if s.IsRoot() {
			r.metrics(point{p: p, si: 0, m: beff.Sendrecv, reps: 1}, 1, ll1, []float64{float64(ll1) * 3e-6})
		}
		ll2 := r.decideLoopLength(k, p, 64, 0)
		mu.Lock()
		got[s.Rank] = [2]int{ll1, ll2}
		mu.Unlock()
	}))
	// the slowest rank (2) takes 3 µs an iteration at 1 byte: 10 iterations
	// in 30 µs; 5 ms fill 1666 iterations
	want := beff.ProbeBound(beff.ProbeIterations*3e-6, 5e-3)
	assert.Equal(t, 1666, want)
	for r := range 3 {
		assert.Equal(t, want, got[r][0], "rank %d: the loop length at 1 byte", r)
		assert.Equal(t, got[0][1], got[r][1], "rank %d follows rank 0 at 64 bytes", r)
		assert.Equal(t, []int{beff.ProbeIterations, beff.ProbeIterations, beff.ProbeIterations}, f.lens[r], "rank %d probed once", r)
	}
	assert.Equal(t, beff.NextLoopLength(want, float64(want)*3e-6, 64, 5e-3, want), got[0][1])
}

// TestMetricsOfRepetitions: the line reports the best repetition's
// bandwidth (of the slowest rank's times), the worst, the mean, the best
// loop time in ms, the loop length and the repetitions; the loop state
// keeps the best.
func TestMetricsOfRepetitions(t *testing.T) {
	r := &run{loops: map[loopKey]*beff.LoopState{}}
	p := beff.RingPattern(4, 0)
	r.loops[loopKey{p.Name, beff.Alltoallv}] = &beff.LoopState{Bound: 100}
	pt := point{p: p, m: beff.Alltoallv, reps: 3}
	ms := r.metrics(pt, 1000, 10, []float64{2e-3, 1e-3, 4e-3})
	msgs := p.Messages()
	bw := func(t float64) float64 { return beff.Bandwidth(1000, msgs, 10, t) }
	assert.Equal(t, []metric{{bw(1e-3), beff.MetricMBps}, {bw(4e-3), beff.MetricMinMBps},
		{(bw(2e-3) + bw(1e-3) + bw(4e-3)) / 3, beff.MetricAvgMBps}, {1, beff.MetricLoop},
		{10, beff.MetricLoopLen}, {3, beff.MetricReps}}, ms)
	loop := 1e-3
	assert.Equal(t, &beff.LoopState{Bound: 100, Len: 10, Time: 1e-3, L: 1000, MBps: bw(1e-3), First: loop / 10}, r.loops[loopKey{p.Name, beff.Alltoallv}],
		"the first size's time of an iteration is the time model's latency")
}

// TestRepeatKeepsTheFirstFault: the repetitions' times on a rank and its
// first validation failure (with the repetition it came in), the later
// ones counted.
func TestRepeatKeepsTheFirstFault(t *testing.T) {
	f := &fakeLoop{lens: map[int][]int{}, perIter: func(rank, l int) float64 { return 1e-6 }, bad: map[int]bool{0: true}}
	harnesstest.Fine(t, harnesstest.Run(t, 1, harness.Job{}, func(s *harness.Session) {
		r := testRun(s, f)
		p := beff.RingPattern(1, 0)
		times, fault, rep := r.repeat(point{p: p, si: 1, m: beff.Sendrecv, reps: 3}, 64, 50)
		assert.InDeltaSlice(t, []float64{50e-6, 50e-6, 50e-6}, times, 1e-15)
		assert.Equal(t, 0, rep, "the first repetition")
		assert.Equal(t, int64(3), fault.Count, "every repetition's failures counted")
		assert.Equal(t, 16, int(fault.Offset))
	}))
}

// TestValidationStopsEveryRank: a corrupted message on one rank stops
// every rank with the validation exit code, after rank 0 reported which
// rank saw what.
func TestValidationStopsEveryRank(t *testing.T) {
	f := &fakeLoop{lens: map[int][]int{}, perIter: func(rank, l int) float64 { return 1e-6 }, bad: map[int]bool{2: true}}
	ends := harnesstest.Run(t, 3, harness.Job{}, func(s *harness.Session) {
		r := testRun(s, f)
		p := beff.RingPattern(3, 0)
		pt := point{p: p, si: 1, m: beff.Sendrecv, reps: 2, warm: 1}
		times, fault, rep := r.repeat(pt, 64, 5)
		v := r.world.Round(append(times, float64(fault.Count)), 1, func(max []float64) []int64 {
			if max[pt.reps] > 0 {
				return []int64{1}
			}
			return []int64{0}
		})
		require.Equal(t, int64(1), v[0])
		r.validationStop(pt, rep, fault)
	})
	for rk, e := range ends {
		assert.Equal(t, harness.ExitValidation, e.Code, "rank %d", rk)
	}
	assert.Contains(t, ends[0].Msg, "validation FAILED: pattern "+beff.RingPattern(3, 0).Name+", L=64 bytes, method sendrecv")
	assert.Contains(t, ends[0].Msg, "rank 2")
}

// TestShortcutDecision: rank 0 predicts the largest sizes from the loop
// states and every rank gets the same plan.
func TestShortcutDecision(t *testing.T) {
	f := &fakeLoop{lens: map[int][]int{}, perIter: func(rank, l int) float64 { return 1e-6 }}
	plans := make([]beff.ShortcutPlan, 2)
	var mu sync.Mutex
	harnesstest.Fine(t, harnesstest.Run(t, 2, harness.Job{}, func(s *harness.Session) {
		r := testRun(s, f)
		r.set = &beff.PatternSet{Patterns: []*beff.Pattern{beff.RingPattern(2, 0)}}
		if s.IsRoot() {
			for _, m := range beff.Methods {
				// 10 s a loop at 64 bytes: the largest sizes would take far
				// beyond the limit
				r.loops[loopKey{r.set.Patterns[0].Name, m}] = &beff.LoopState{Bound: 1, Len: 1, Time: 10, L: 64, MBps: 0.1 + float64(m)}
			}
		}
		p := r.decideShortcut(1, []int{2})
		mu.Lock()
		plans[s.Rank] = p
		mu.Unlock()
		r.st.Measured, r.shortcut = []int{0, 1, 2}, p
		methods := len(r.set.Patterns[0].Methods())
		assert.Equal(t, 2*(methods-1), r.dropped(1), "the two largest sizes, the best method alone")
		assert.Equal(t, []point{{p: r.set.Patterns[0], si: 2, m: p.Best[r.set.Patterns[0].Name], reps: beff.RefShortcutReps, forceLL: 1}}, r.points(r.set.Patterns[0], 2))
		if s.IsRoot() { // the model of the time left counts the best method's measurement alone, by its method
			r.decided, r.at = true, position{1, 0, methods - 1}
			want := make([]int, len(beff.Methods))
			want[p.Best[r.set.Patterns[0].Name]] = 1
			_, n := r.left()
			assert.Equal(t, want, n)
		}
	}))
	assert.True(t, plans[0].On, "predicted beyond the limit")
	assert.Equal(t, plans[0], plans[1], "rank 1 follows")
}
