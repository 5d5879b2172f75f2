package driver

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beff/loops"
)

// refTest is a reference-mode run on a simulated rank: the ring of the
// two processes and the random pattern's stand-in, sizes 1 B … 1 MiB, the
// fake loop's times growing with the size and, for the alltoallv method,
// taking twice as long.
func refTest(s *harness.Session, f *fakeLoop, shortcut float64) *refRun {
	r := testRun(s, f)
	r.st.Sizes = []int64{1, 1 << 10, 1 << 15, 1 << 20}
	r.st.Measured = []int{0, 1, 2, 3}
	r.st.Shortcut = shortcut
	ring := beff.RingPattern(2, 0)
	r.set = &beff.PatternSet{N: 2, Patterns: []*beff.Pattern{ring}}
	r.plan[ring.Name] = loops.BeffPlan{Dest: []int{1 - s.Rank}, Src: []int{1 - s.Rank}}
	x := &refRun{run: r, bw: map[refKey][]float64{}, points: map[refKey]*refPoint{}, done: map[refKey]bool{},
		bound: make([]int, len(beff.Methods)), patterns: r.set.Patterns}
	x.sizes = r.st.Sizes
	n, nm := len(x.sizes), len(beff.Methods)
	x.ll, x.sum, x.min, x.reps = make([][][]int, n), make([][][]float64, n), make([][][]float64, n), make([]int, n)
	for k := range n {
		x.reps[k] = reps
		x.ll[k], x.sum[k], x.min[k] = make([][]int, nm), make([][]float64, nm), make([][]float64, nm)
		for m := range nm {
			x.ll[k][m], x.sum[k][m], x.min[k][m] = make([]int, reps), make([]float64, reps), []float64{1e9, 1e9, 1e9}
		}
	}
	x.best, x.cut = make([][]int, reps), make([]bool, reps)
	return x
}

// refSweeps runs the three sweeps on 2 simulated ranks and returns rank
// 0's run and every rank's loop lengths.
func refSweeps(t *testing.T, shortcut float64) (*refRun, [][]int) {
	t.Helper()
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beff.watchdog": "0"}) // no watchdog left running in the test binary
	f := &fakeLoop{lens: map[int][]int{}, perIter: func(rank, l int) float64 { return 1e-6 + float64(l)*1e-9 }}
	var x0 *refRun
	var mu sync.Mutex
	harnesstest.Fine(t, harnesstest.Run(t, 2, harness.Job{}, func(s *harness.Session) {
		x := refTest(s, f, shortcut)
		for rep := range reps {
			x.best[rep] = []int{-1}
			x.sweep(rep)
		}
		if s.IsRoot() {
			mu.Lock()
			x0 = x
			mu.Unlock()
		}
	}))
	require.NotNil(t, x0)
	return x0, [][]int{f.lens[0], f.lens[1]}
}

// TestReferenceSweeps: three sweeps, each with its opening sweep at 1
// byte; one loop length per size, repetition and method, decided on rank 0
// and run by every rank; every measurement has its three repetitions.
func TestReferenceSweeps(t *testing.T) {
	x, lens := refSweeps(t, beff.ShortcutLimit)
	assert.Equal(t, lens[0], lens[1], "both ranks ran the same loops")
	ring := x.patterns[0]
	for k := range x.sizes {
		for _, m := range beff.Methods {
			pt := x.points[refKey{k, ring.Name, m}]
			require.NotNil(t, pt, "size %d method %s", k, m)
			assert.Len(t, pt.tmax, reps, "size %d method %s: three repetitions", k, m)
			for rep := range reps {
				assert.Equal(t, x.ll[k][m][rep], pt.ll[rep])
				assert.Positive(t, pt.ll[rep])
			}
		}
	}
	// a loop of 1 µs + 1 ns a byte: 1 byte's loop length fills the sweep's
	// time (0.5 s over the methods' loops), and it falls as the size grows
	assert.Greater(t, x.ll[0][0][0], x.ll[3][0][0])
	assert.Equal(t, beff.RefPreLoops, lens[0][0], "the opening sweep")
}

// TestReferenceShortcut: where the two largest sizes are predicted beyond
// the limit, they are measured with each pattern's best method only, loop
// length 1, and the largest with fewer repetitions.
func TestReferenceShortcut(t *testing.T) {
	x, lens := refSweeps(t, 1e-9)
	assert.Equal(t, lens[0], lens[1])
	ring := x.patterns[0]
	n := len(x.sizes)
	assert.Equal(t, beff.RefShortcutReps, x.reps[n-1])
	for rep := range reps {
		require.Len(t, x.best[rep], 1)
		assert.GreaterOrEqual(t, x.best[rep][0], 0, "a best method per pattern in repetition %d", rep)
	}
	var largest int
	for _, m := range beff.Methods {
		if pt := x.points[refKey{n - 1, ring.Name, m}]; pt != nil {
			largest++
			assert.Len(t, pt.tmax, beff.RefShortcutReps)
			assert.Equal(t, []int{1, 1}, pt.ll)
		}
	}
	assert.Equal(t, 1, largest, "one method at the largest size")
}
