package driver

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beff/loops"
)

// loopKey names the loop-length state of one pattern and method.
type loopKey struct {
	pattern string
	method  beff.Method
}

// run is one execution of BenchmarkBeff on this rank.
type run struct {
	f          *flags // the suite's flags (the watchdog, the test pause)
	s          *harness.Session
	world      *harness.Group // takes the decisions
	st         Settings
	set        *beff.PatternSet
	periodic   mpi.Comm                  // the 1-D periodic topology over MPI_COMM_WORLD: the barrier of every measurement
	comm       map[string]mpi.Comm       // pattern name → its communicator (CommNull if this rank is not in it)
	plan       map[string]loops.BeffPlan // pattern name → this rank's exchanges
	owned      []mpi.Comm                // communicators to free
	send, recv *mpi.Buffer
	probed     map[loopKey]bool
	loops      map[loopKey]*beff.LoopState // rank 0 only
	injected   bool
	carry      [2]int64 // the send and receive offsets the last loop left (beff's placement)
	progress   *harness.Progress
	shortcut   beff.ShortcutPlan // the shortcut's decision, once taken
	decided    bool              // whether it is taken
	at         position          // the measurement under way (rank 0's model of the time left)
	// timed runs one timed loop: loops.Measure, the C loop (a fake in the
	// tests of the driver's decisions).
	timed func(m *loops.BeffTiming) (float64, loops.Fault, error)
}

// Benchmark is the body of BenchmarkBeff: it measures every pattern, size
// and method as a sub-benchmark named pat=<pattern>/L=<bytes>/mthd=<method>,
// in the reference order (size, then pattern, then method), three
// repetitions each.
func (d *Driver) Benchmark(b *testing.B) {
	r := d.newRun(b, harness.Current(b))
	defer r.close()
	defer r.s.Watch("b_eff", 0, "beff.watchdog", *r.f.watchdog)() // between measurements
	if r.st.Reference {
		r.referenceRun(b)
		return
	}
	measured := r.st.Measured
	for k := range measured {
		if k == 1 {
			r.progress.Warm()
		}
		if left := len(measured) - k; left == 2 && len(measured) >= 3 { // 2: second largest, 1: largest
			r.shortcut, r.decided = r.decideShortcut(measured[k-1], measured[k:]), true
			if r.shortcut.On {
				r.s.Logf("the two largest sizes are predicted to take more than %g s: measuring them with the best method only, loop length 1, 3 and 2 repetitions", r.st.Shortcut)
				r.progress.Grow(-r.dropped(k), 0)
			}
		}
		for pi, p := range r.set.Patterns {
			if r.selected(p) {
				r.measureSize(b, pi, k)
			}
		}
	}
	r.progress.Finish()
}

// dropped is how many measurements the shortcut leaves out from the k-th
// measured size on.
func (r *run) dropped(k int) int {
	n := 0
	for ; k < len(r.st.Measured); k++ {
		for _, p := range r.set.Patterns {
			if r.selected(p) {
				n += len(r.pointsUnder(p, k, beff.ShortcutPlan{})) - len(r.points(p, k))
			}
		}
	}
	return n
}

// A point is one sub-benchmark: a pattern, size and method, with the
// repetitions and loop settings the reference prescribes there.
type point struct {
	p       *beff.Pattern
	si      int // size index
	m       beff.Method
	reps    int
	warm    int // untimed iterations
	forceLL int // the loop length under the shortcut (0: decided)
}

// points are the measurements of pattern p at the k-th measured size:
// one per method, or under the shortcut for the two largest sizes the
// best method's alone.
func (r *run) points(p *beff.Pattern, k int) []point { return r.pointsUnder(p, k, r.shortcut) }

// pointsUnder are the measurements of pattern p at the k-th measured size
// under the shortcut's plan sc.
func (r *run) pointsUnder(p *beff.Pattern, k int, sc beff.ShortcutPlan) []point {
	si, left := r.st.Measured[k], len(r.st.Measured)-k // left: 1 at the largest
	methods := p.Methods()
	reps, forceLL := beff.Reps, 0
	if sc.On && left <= 2 {
		methods, forceLL = []beff.Method{sc.Best[p.Name]}, 1
		if left == 1 {
			reps = beff.RefShortcutReps
		}
	}
	warm := 1
	if left <= 3 {
		warm = 0 // the reference skips the untimed iteration for the 3 largest sizes
	}
	out := make([]point, len(methods))
	for i, m := range methods {
		out[i] = point{p: p, si: si, m: m, reps: reps, warm: warm, forceLL: forceLL}
	}
	return out
}

// measureSize measures pattern pi at the k-th measured size with each of
// its methods.
func (r *run) measureSize(b *testing.B, pi, k int) {
	for i, pt := range r.points(r.set.Patterns[pi], k) {
		r.at = position{k, pi, i}
		name := beff.Name(pt.p.Name, r.st.Sizes[pt.si], pt.m)
		if r.st.Resume.Next(name) {
			b.Run(name, func(b *testing.B) { r.copySaved(b, pt, name) })
		} else {
			b.Run(name, func(b *testing.B) { r.measure(b, pt) }) // once per -test.count
		}
		time.Sleep(*r.f.testPause)
		r.progress.Log()
	}
}

// A position is where the measurements are: the index of the measured
// size, of the pattern and of the point.
type position struct{ k, p, i int }

// before reports whether position a comes before b.
func (a position) before(b position) bool {
	return a.k < b.k || a.k == b.k && (a.p < b.p || a.p == b.p && a.i < b.i)
}

// left is the time model's prediction of the measurements after the one
// at r.at (rank 0's progress): the seconds of their timed loops
// (LoopState.MeasureTime) and how many they are; those of the two largest
// sizes as the shortcut decided them, or before it decides, as it is
// expected to decide (beff.ExpectShortcut). A loop of the target's lasts
// between half the target (where the latency rules, the loop length stays
// as the size grows) and the target (where the bandwidth does, as it does
// at most of the sizes still to come): the model takes the target. A
// pattern and method not measured yet are predicted as typical of those
// measured (beff.Typical), here and in the shortcut expected.
func (r *run) left() (float64, []int) {
	loop := r.st.Target
	var known []*beff.LoopState
	for _, s := range r.loops {
		known = append(known, s)
	}
	typical := beff.Typical(known)
	state := func(p string, m beff.Method) *beff.LoopState {
		if s := r.loops[loopKey{p, m}]; s != nil && s.Len > 0 {
			return s
		}
		return typical
	}
	plan := r.expectedShortcut(state)
	t, n := 0.0, make([]int, len(beff.Methods))
	for k := r.at.k; k < len(r.st.Measured); k++ {
		for pi, p := range r.set.Patterns {
			if !r.selected(p) {
				continue
			}
			for i, pt := range r.pointsUnder(p, k, plan) {
				if r.at.before(position{k, pi, i}) {
					t += state(p.Name, pt.m).MeasureTime(r.st.Sizes[pt.si], loop, pt.reps, pt.warm, pt.forceLL)
					n[pt.m]++
				}
			}
		}
	}
	return t, n
}

// expectedShortcut is the shortcut's plan once decided; before, the
// decision expected from the loop states so far (state).
func (r *run) expectedShortcut(state func(string, beff.Method) *beff.LoopState) beff.ShortcutPlan {
	m := r.st.Measured
	if r.decided || len(m) < 3 {
		return r.shortcut
	}
	prev, largest := r.st.Sizes[m[len(m)-3]], []int64{r.st.Sizes[m[len(m)-2]], r.st.Sizes[m[len(m)-1]]}
	return beff.ExpectShortcut(r.set.Patterns, state, prev, largest, r.st.Target, r.st.Shortcut)
}

// copySaved writes the line an earlier job measured for pt (-beff.resume)
// and, on rank 0, takes its loop state from it, as if it had been
// measured now.
func (r *run) copySaved(b *testing.B, pt point, name string) {
	if m := r.st.Resume.Write(b, r.s, name); m != nil {
		k := loopKey{pt.p.Name, pt.m}
		s := r.loops[k]
		if s == nil {
			s = &beff.LoopState{}
			r.loops[k] = s
		}
		s.Took(r.st.Sizes[pt.si], int(m[beff.MetricLoopLen]), m[beff.MetricLoop]/1e3, m[beff.MetricMBps])
	}
	r.progress.Add(1, 0)
}

func (r *run) selected(p *beff.Pattern) bool {
	return len(r.st.Patterns) == 0 || slices.Contains(r.st.Patterns, p.Name)
}

func (d *Driver) newRun(b *testing.B, s *harness.Session) *run {
	r := &run{f: d.f, s: s, world: s.World(), comm: map[string]mpi.Comm{}, plan: map[string]loops.BeffPlan{},
		probed: map[loopKey]bool{}, loops: map[loopKey]*beff.LoopState{}, timed: loops.Measure}
	var err error
	if r.st, err = d.settings.Of(s); err != nil {
		b.Fatal(err)
	}
	r.periodic, err = r.world.Comm.CartCreate([]int{s.Size}, []bool{true}, true)
	s.Must("creating the 1-D periodic topology", err)
	r.owned = append(r.owned, r.periodic)
	r.buildPatterns()
	bufSize := beff.BufferSize(r.st.Lmax)
	if r.send, err = mpi.NewBuffer(bufSize); err == nil {
		r.recv, err = mpi.NewBuffer(bufSize)
	}
	s.Must("allocating the message buffers", err)
	all := 0
	for _, p := range r.set.Patterns {
		if r.selected(p) {
			all += len(r.st.Measured) * len(p.Methods())
		}
	}
	if r.st.Reference {
		all *= reps // the sweeps of the reference rules
	}
	r.progress = s.NewProgress("b_eff", all)
	if !r.st.Reference {
		r.progress.ModelSeconds(r.left)
		r.progress.Warming() // the first size makes the connections and probes the loop lengths
	}
	s.Logf("b_eff on %d processes: %d patterns, %d sizes up to Lmax = %d bytes, %d measurements, seed %d",
		s.Size, len(r.set.Patterns), len(r.st.Measured), r.st.Lmax, r.progress.Total(), r.st.Seed)
	per, root := beff.Memory(r.st.Lmax, s.Size)
	s.LogMemory("b_eff", harness.BaseBytes+per, harness.BaseBytes+per+root,
		fmt.Sprintf("base %d MiB, 2 buffers of %.1f MiB (6·(Lmax+16)), tables of %d bytes per process, rank 0's of %d", harness.BaseBytes>>20, float64(beff.BufferSize(r.st.Lmax))/(1<<20), beff.TableBytes, beff.RootBytes))
	return r
}

// topology is what rank 0 decides about the patterns: the Cartesian
// communicators' sizes and dimensions (each rank draws the random
// permutations from the seed itself).
type topology struct {
	C2, C3       int
	Dims2, Dims3 []int
}

// buildPatterns decides the topology on rank 0, creates the pattern set
// and gives every pattern its communicator and this rank's plan.
func (r *run) buildPatterns() {
	n := r.s.Size
	topo := harness.Decide(r.world, func() topology {
		var t topology
		t.C2, t.C3 = beff.CartCommSize(n, 2, r.dimsCreate), beff.CartCommSize(n, 3, r.dimsCreate)
		t.Dims2, t.Dims3 = r.dimsCreate(t.C2, 2), r.dimsCreate(t.C3, 3)
		return t
	})
	me, err := r.periodic.Rank()
	r.s.Must("MPI_Comm_rank", err)
	c2, p2, a2 := r.cartesian(topo.C2, topo.Dims2, me)
	c3, p3, a3 := r.cartesian(topo.C3, topo.Dims3, me)
	r.set = beff.NewPatternSet(n, randomPatterns(n, r.st.Random, r.st.Seed, me), c2, c3)
	if r.st.Reference {
		r.set = r.set.Reference()
	}
	for _, p := range r.set.Patterns {
		c := r.periodic
		switch {
		case len(p.Dims) == 2 && p.Periodic:
			c = p2
		case len(p.Dims) == 2:
			c = a2
		case len(p.Dims) == 3 && p.Periodic:
			c = p3
		case len(p.Dims) == 3:
			c = a3
		}
		r.comm[p.Name] = c
		var pl loops.BeffPlan
		for _, st := range p.Steps(me) {
			pl.Dest = append(pl.Dest, mpiRank(st.Dest))
			pl.Src = append(pl.Src, mpiRank(st.Src))
		}
		r.plan[p.Name] = pl
	}
}

// randomPatterns are the random rings as rank me runs them: each drawn
// from the seed in turn and reduced to me's own steps, so that a rank
// holds one permutation at a time and keeps O(1) per pattern.
func randomPatterns(n, count int, seed uint64, me int) []*beff.Pattern {
	next := beff.PermStream(n, seed)
	out := make([]*beff.Pattern, count)
	for i := range out {
		out[i] = beff.RandomPatternFor(i, next(), me)
	}
	return out
}

func (r *run) dimsCreate(c, nd int) []int {
	d, err := mpi.DimsCreate(c, nd)
	r.s.Must("MPI_Dims_create", err)
	return d
}

// cartesian creates the periodic and the non-periodic Cartesian
// communicators over the first c processes (CommNull on the others) and
// the pattern table's view of them.
func (r *run) cartesian(c int, dims []int, me int) (beff.Cart, mpi.Comm, mpi.Comm) {
	bc := beff.Cart{Size: c, Dims: dims,
		Shift:  func(rk, d int) (int, int) { return beff.CartShift(dims, true, rk, d) },
		AShift: func(rk, d int) (int, int) { return beff.CartShift(dims, false, rk, d) }}
	color := -1
	if me < c {
		color = 0
	}
	sub, err := r.periodic.Split(color, me)
	r.s.Must("MPI_Comm_split", err)
	if sub == mpi.CommNull {
		return bc, mpi.CommNull, mpi.CommNull
	}
	per := make([]bool, len(dims))
	aper := make([]bool, len(dims))
	for i := range per {
		per[i] = true
	}
	pc, err := sub.CartCreate(dims, per, false)
	r.s.Must("MPI_Cart_create", err)
	ac, err := sub.CartCreate(dims, aper, false)
	r.s.Must("MPI_Cart_create", err)
	r.owned = append(r.owned, sub, pc, ac)
	r.checkShifts(dims, me, pc, ac)
	return bc, pc, ac
}

// checkShifts checks that the pure-Go shifts of the pattern table agree
// with MPI_Cart_shift for this rank.
func (r *run) checkShifts(dims []int, me int, periodic, aperiodic mpi.Comm) {
	for d := range dims {
		for _, x := range []struct {
			c        mpi.Comm
			periodic bool
		}{{periodic, true}, {aperiodic, false}} {
			src, dst, err := x.c.CartShift(d, 1)
			r.s.Must("MPI_Cart_shift", err)
			gs, gd := beff.CartShift(dims, x.periodic, me, d)
			if mpiRank(gs) != src || mpiRank(gd) != dst {
				r.s.Fail("checking the Cartesian topology", fmt.Errorf("dims %v dir %d: MPI_Cart_shift gives (%d,%d), the pattern table (%d,%d)", dims, d, src, dst, gs, gd))
			}
		}
	}
}

func mpiRank(r int) int {
	if r == beff.None {
		return mpi.ProcNull
	}
	return r
}

func (r *run) close() {
	r.send.Free()
	r.recv.Free()
	for i := len(r.owned) - 1; i >= 0; i-- {
		r.owned[i].Free()
	}
}

// decideShortcut predicts, on rank 0, the time of the largest sizes from
// the measurements at size index prev (beff.PlanShortcut); every rank gets
// the plan.
func (r *run) decideShortcut(prev int, largest []int) beff.ShortcutPlan {
	return harness.Decide(r.world, func() beff.ShortcutPlan {
		sizes := make([]int64, len(largest))
		for i, si := range largest {
			sizes[i] = r.st.Sizes[si]
		}
		state := func(p string, m beff.Method) *beff.LoopState { return r.loops[loopKey{p, m}] }
		return beff.PlanShortcut(r.set.Patterns, state, r.st.Sizes[prev], sizes, r.st.Target, r.st.Shortcut)
	})
}
