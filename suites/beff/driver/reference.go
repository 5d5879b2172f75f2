package driver

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/suites/beff"
)

// The reference mode (-beff.reference) measures as the reference code
// b_eff 3.6.0.1 does (docs/reference.md, "b_eff"): 3 sweeps, one per
// repetition; in each, size by size, every pattern with every method; one
// loop length per size, repetition and method, decided on rank 0 from its
// own loop times summed over the patterns (package beff, Ref*); the
// shortcut of the two largest sizes per repetition; the messages placed
// at one offset carried through the whole run. Each measurement's line is
// written after the last sweep, from its repetitions.

// refPoint is what rank 0 keeps of one measurement: its repetitions' loop
// lengths and loop times (maximum over the processes).
type refPoint struct {
	ll   []int
	tmax []float64
}

// refKey names a measurement: size index (into the measured sizes),
// pattern, method.
type refKey struct {
	k       int
	pattern string
	m       beff.Method
}

// refRun is the state of a reference-mode run; the tables are rank 0's.
type refRun struct {
	*run
	sizes    []int64 // the measured sizes
	patterns []*beff.Pattern
	base     int64 // the messages' offset, carried through the run
	// per size index, method and repetition: the loop length (every rank),
	// rank 0's sum and minimum of its loop times over the patterns
	ll       [][][]int
	sum, min [][][]float64
	bound    []int                // per method, of the current repetition (rank 0)
	reps     []int                // repetitions per size index
	best     [][]int              // per repetition and pattern the only method measured, -1: all
	cut      []bool               // per repetition: the shortcut fixed the two largest sizes' loop lengths
	done     map[refKey]bool      // measured in some repetition (every rank)
	bw       map[refKey][]float64 // rank 0's own bandwidth per repetition, for the shortcut
	points   map[refKey]*refPoint // rank 0
}

const reps = 3

// referenceRun is the body of BenchmarkBeff in reference mode.
func (r *run) referenceRun(b *testing.B) {
	x := &refRun{run: r, bw: map[refKey][]float64{}, points: map[refKey]*refPoint{}, done: map[refKey]bool{},
		bound: make([]int, len(beff.Methods))}
	for _, k := range r.st.Measured {
		x.sizes = append(x.sizes, r.st.Sizes[k])
	}
	for _, p := range r.set.Patterns {
		if r.selected(p) {
			x.patterns = append(x.patterns, p)
		}
	}
	n, nm := len(x.sizes), len(beff.Methods)
	x.ll = make([][][]int, n)
	x.sum = make([][][]float64, n)
	x.min = make([][][]float64, n)
	x.reps = make([]int, n)
	for k := range n {
		x.reps[k] = reps
		x.ll[k], x.sum[k], x.min[k] = make([][]int, nm), make([][]float64, nm), make([][]float64, nm)
		for m := range nm {
			x.ll[k][m] = make([]int, reps)
			x.sum[k][m] = make([]float64, reps)
			x.min[k][m] = slices.Repeat([]float64{math.Inf(1)}, reps)
		}
	}
	x.best, x.cut = make([][]int, reps), make([]bool, reps)
	for rep := range reps {
		x.best[rep] = slices.Repeat([]int{-1}, len(x.patterns))
		x.sweep(rep)
	}
	x.report(b)
	r.progress.Finish()
}

// sweep is one repetition: the opening sweep at 1 byte, then every size.
func (x *refRun) sweep(rep int) {
	x.s.Logf("b_eff (reference rules): repetition %d of %d", rep+1, reps)
	x.measureAll(rep, 0, true)
	for k := range x.sizes {
		if rep >= x.reps[k] {
			continue // the shortcut's largest size has fewer repetitions
		}
		if !x.cut[rep] { // else the shortcut set loop length 1 at the two largest
			x.decideLoopLengths(rep, k)
		}
		x.measureAll(rep, k, false)
	}
}

// decideLoopLengths decides, on rank 0, the loop length of every method at
// size index k and, where the prediction of the two largest sizes passes
// the limit, the shortcut.
func (x *refRun) decideLoopLengths(rep, k int) {
	ll := harness.Decide(x.world, func() []int {
		out := make([]int, len(beff.Methods))
		for _, m := range beff.Methods {
			out[m] = x.loopLength(rep, k, m)
		}
		return out
	})
	for m := range ll {
		x.ll[k][m][rep] = ll[m]
	}
	if slices.Min(ll) > 0 {
		return
	}
	best := harness.Decide(x.world, func() []int { return x.bestMethods(rep, k-1) })
	x.s.Logf("b_eff (reference rules): repetition %d: the two largest sizes are predicted to take more than %g s: the best method only, loop length 1, %d repetitions at the largest",
		rep+1, x.st.Shortcut, beff.RefShortcutReps)
	x.best[rep], x.cut[rep] = best, true
	x.reps[k+1] = beff.RefShortcutReps
	for m := range ll {
		x.ll[k][m][rep] = 1
		x.ll[k+1][m][rep] = 1
	}
}

// loopLength is the reference code's loop length of method m at size
// index k in repetition rep (rank 0); 0 asks for the shortcut.
func (x *refRun) loopLength(rep, k int, m beff.Method) int {
	if k == 0 {
		x.bound[m] = beff.RefBound(x.sum[0][m][rep])
		return beff.RefFirstLoopLength(x.bound[m])
	}
	ll := beff.RefLoopLength(x.ll[k-1][m][rep], x.sum[k-1][m][rep], beff.RefRatio(x.sizes, k), x.bound[m])
	if n := len(x.sizes); k == n-2 && n >= 3 {
		t := beff.RefShortcutTime(x.min[k-1][m][rep], x.ll[k-1][m][rep], len(x.patterns), len(beff.Methods), beff.RefFactor(x.sizes))
		if t > x.st.Shortcut {
			return 0
		}
	}
	return ll
}

// bestMethods are, per pattern, the method with the highest bandwidth on
// rank 0 at size index k of repetition rep (a later method wins a tie, as
// in the reference code).
func (x *refRun) bestMethods(rep, k int) []int {
	out := make([]int, len(x.patterns))
	for i, p := range x.patterns {
		best, bw := -1, -1.0
		for _, m := range p.Methods() {
			v := x.bw[refKey{k, p.Name, m}]
			if len(v) > rep && v[rep] >= bw {
				best, bw = int(m), v[rep]
			}
		}
		out[i] = best
	}
	return out
}

// measureAll measures every pattern with every method it is measured with
// at size index k (pre: the opening sweep of RefPreLoops iterations at 1
// byte, whose times only count for the loop lengths).
func (x *refRun) measureAll(rep, k int, pre bool) {
	for i, p := range x.patterns {
		for _, m := range p.Methods() {
			if b := x.best[rep][i]; !pre && b >= 0 && int(m) != b {
				continue
			}
			ll := beff.RefPreLoops
			if !pre {
				ll = x.ll[k][m][rep]
			}
			x.measureOne(rep, k, p, m, ll, pre)
		}
	}
}

// measureOne is one measurement: the timed loop on every rank, the times
// reduced to rank 0, the validation verdict.
func (x *refRun) measureOne(rep, k int, p *beff.Pattern, m beff.Method, ll int, pre bool) {
	si := x.st.Measured[k]
	l := x.st.Sizes[si]
	warm := 1
	if k >= len(x.sizes)-3 {
		warm = 0
	}
	defer x.s.Watch("b_eff "+beff.Name(p.Name, l, m), time.Duration(beff.RefTimePerSweep*float64(time.Second)), "beff.watchdog", *x.f.watchdog)()
	inject := x.st.TestFault && !x.injected && !pre && k >= 3 && x.s.Rank == x.s.Size-1
	t, f := x.loop(p, m, si, l, ll, warm, inject, &x.base)
	x.injected = x.injected || inject
	x.settle(p)
	var tmax float64
	verdict := x.world.Round([]float64{t, float64(f.Count)}, 1, func(max []float64) []int64 {
		tmax = max[0]
		if max[1] > 0 {
			return []int64{1}
		}
		return []int64{0}
	})
	if verdict[0] != 0 {
		x.validationStop(point{p: p, si: si, m: m}, rep, f)
	}
	key := refKey{k, p.Name, m}
	if !pre {
		x.done[key] = true
		x.progress.Done()
		x.progress.Log()
	}
	if !x.world.IsRoot() {
		return
	}
	x.sum[k][m][rep] += t // rank 0's own time, as the reference code's
	x.min[k][m][rep] = math.Min(x.min[k][m][rep], t)
	if pre {
		return
	}
	own := math.Inf(1)
	if t > 0 {
		own = float64(l) * float64(ll) * float64(len(x.plan[p.Name].Dest)) / t
	}
	x.bw[key] = append(x.bw[key], make([]float64, rep+1-len(x.bw[key]))...)
	x.bw[key][rep] = own
	pt := x.points[key]
	if pt == nil {
		pt = &refPoint{}
		x.points[key] = pt
	}
	pt.ll, pt.tmax = append(pt.ll, ll), append(pt.tmax, tmax)
}

// report writes the line of every measurement, from its repetitions, in
// the order of beff's default (size, pattern, method).
func (x *refRun) report(b *testing.B) {
	for k := range x.sizes {
		for _, p := range x.patterns {
			for _, m := range p.Methods() {
				key := refKey{k, p.Name, m}
				if !x.done[key] {
					continue
				}
				pt := x.points[key]
				b.Run(beff.Name(p.Name, x.sizes[k], m), func(b *testing.B) {
					if x.world.IsRoot() {
						x.reportPoint(b, p, x.sizes[k], pt)
					}
				})
			}
		}
	}
}

// reportPoint writes the metrics of a measurement from its repetitions.
func (x *refRun) reportPoint(b *testing.B, p *beff.Pattern, l int64, pt *refPoint) {
	ms, _, _ := lineMetrics(l, p.Messages(), pt.ll, pt.tmax)
	for _, m := range ms {
		b.ReportMetric(m.value, m.unit)
	}
}
