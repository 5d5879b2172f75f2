package harness

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/beff-suite/beff/internal/beff"
	"github.com/beff-suite/beff/internal/mpi"
)

// Flags of b_eff.
var (
	beffMem       = flag.Int64("beff.mem", 0, "b_eff: memory per process in MiB; Lmax = mem/128 (0: the node's memory divided by the processes on the node; 8 MiB with -test.short)")
	beffLmax      = flag.Int64("beff.lmax", 0, "b_eff: the largest message length in bytes, instead of -beff.mem (Lmax = mem/128)")
	beffSeed      = flag.String("beff.seed", "", "b_eff: seed of the 30 random patterns (unsigned integer; default: drawn on rank 0 and printed)")
	beffRmax      = flag.Float64("beff.rmax", 0, "b_eff: Linpack Rmax of the system in GFlop/s, for the balance factor b_eff/Rmax (0: none)")
	beffPatterns  = flag.String("beff.patterns", "", "b_eff: comma-separated pattern names to measure (default all; a partial run gives no b_eff)")
	beffShortcut  = flag.Float64("beff.shortcut-limit", beff.ShortcutLimit, "b_eff: seconds the two largest sizes may be predicted to take before only the best method is measured there (SPEC: 60)")
	beffTestFault = flag.Bool("beff.testfault", false, "b_eff, for tests only: corrupt one received message to exercise validation")
)

// BeffSettings are the b_eff settings rank 0 decides and broadcasts.
type BeffSettings struct {
	MemMiB    int64
	Lmax      int64
	Sizes     []int64 // the 21 sizes
	Measured  []int   // indexes into Sizes that are measured
	Seed      uint64
	Random    int     // number of random patterns
	Target    float64 // loop time target, seconds
	Rmax      float64 // GFlop/s, 0 if not given
	Patterns  []string
	TestFault bool
	Shortcut  float64 // seconds, see -beff.shortcut-limit
}

// Units of the b_eff metrics.
var beffUnits = []string{
	"MB/s better=higher",
	"min-MB/s better=higher",
	"avg-MB/s better=higher",
	"ms/loop better=lower",
	"looplen assume=exact",
	"reps assume=exact",
}

func init() {
	Register(&Suite{Name: "beff", Setup: beffSetup, Config: beffConfig, Units: beffUnits})
}

func beffSetup(info *RunInfo) (any, error) {
	st := BeffSettings{MemMiB: *beffMem, Random: 30, Target: beff.TargetLoopTime, Rmax: *beffRmax,
		TestFault: *beffTestFault, Shortcut: *beffShortcut}
	if info.Short {
		st.Random, st.Target = 3, beff.ShortTargetLoopTime
	}
	switch {
	case st.MemMiB < 0:
		return nil, fmt.Errorf("-beff.mem=%d: the memory per process must be positive (MiB)", st.MemMiB)
	case st.MemMiB == 0 && info.Short:
		st.MemMiB = 8
	case st.MemMiB == 0:
		if info.MemMiB <= 0 {
			return nil, fmt.Errorf("cannot tell the node's memory (no /proc/meminfo): give -beff.mem in MiB")
		}
		st.MemMiB = info.MemMiB
	}
	if info.MemMiB > 0 && st.MemMiB > info.MemMiB {
		return nil, fmt.Errorf("-beff.mem=%d MiB: more than the %d MiB of memory per process of the smallest node (its memory divided by the %d processes on it)", st.MemMiB, info.MemMiB, info.ProcsNode)
	}
	st.Lmax = beff.LmaxFromMem(st.MemMiB)
	if err := beff.CheckLmax(st.Lmax); err != nil {
		return nil, fmt.Errorf("-beff.mem=%d MiB: %v", st.MemMiB, err)
	}
	if *beffLmax != 0 {
		if *beffMem != 0 {
			return nil, fmt.Errorf("-beff.lmax and -beff.mem both set: give one (Lmax = mem/128)")
		}
		if err := beff.CheckLmax(*beffLmax); err != nil {
			return nil, fmt.Errorf("-beff.lmax=%d: %v", *beffLmax, err)
		}
		if need := 12 * *beffLmax / beff.MiB; info.MemMiB > 0 && need > info.MemMiB {
			return nil, fmt.Errorf("-beff.lmax=%d: the two message buffers need %d MiB per process, more than the %d MiB available", *beffLmax, need, info.MemMiB)
		}
		st.Lmax = *beffLmax
		st.MemMiB = (st.Lmax*128 + beff.MiB - 1) / beff.MiB
	}
	st.Sizes = beff.Sizes(st.Lmax)
	st.Measured = make([]int, len(st.Sizes))
	for i := range st.Measured {
		st.Measured[i] = i
	}
	if info.Short {
		st.Measured = beff.ShortSizeIndexes
	}
	if math.IsNaN(st.Rmax) || math.IsInf(st.Rmax, 0) || st.Rmax < 0 {
		return nil, fmt.Errorf("-beff.rmax=%v: Rmax must be a positive number of GFlop/s (or 0 for none)", *beffRmax)
	}
	if math.IsNaN(st.Shortcut) || st.Shortcut < 0 {
		return nil, fmt.Errorf("-beff.shortcut-limit=%v: the limit must be a number of seconds ≥ 0", *beffShortcut)
	}
	if *beffSeed == "" {
		st.Seed = uint64(time.Now().UnixNano())
	} else {
		v, err := strconv.ParseUint(*beffSeed, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("-beff.seed=%q: the seed must be an unsigned integer", *beffSeed)
		}
		st.Seed = v
	}
	if *beffPatterns != "" {
		known := beffPatternNames(st.Random)
		for _, name := range strings.Split(*beffPatterns, ",") {
			name = strings.TrimSpace(name)
			if !slices.Contains(known, name) {
				return nil, fmt.Errorf("-beff.patterns: unknown pattern %q; the patterns are %s", name, strings.Join(known, ", "))
			}
			st.Patterns = append(st.Patterns, name)
		}
	}
	return st, nil
}

func beffPatternNames(random int) []string {
	names := append([]string(nil), beff.RingNames[:]...)
	for i := 0; i < random; i++ {
		names = append(names, beff.RandomName(i))
	}
	return append(names, beff.ExtraNames...)
}

func beffConfig(info *RunInfo) []string {
	var st BeffSettings
	if err := info.State("beff", &st); err != nil {
		return nil
	}
	sizes := make([]string, len(st.Measured))
	for i, k := range st.Measured {
		sizes[i] = strconv.FormatInt(st.Sizes[k], 10)
	}
	lines := []string{
		fmt.Sprintf("beff-mem-per-proc-mib: %d", st.MemMiB),
		fmt.Sprintf("beff-lmax: %d", st.Lmax),
		fmt.Sprintf("beff-sizes: %s", strings.Join(sizes, ",")),
		fmt.Sprintf("beff-random-patterns: %d", st.Random),
		fmt.Sprintf("beff-seed: %d", st.Seed),
		fmt.Sprintf("beff-loop-target-ms: %g", st.Target*1e3),
	}
	if st.Rmax > 0 {
		lines = append(lines, fmt.Sprintf("beff-rmax-gflops: %g", st.Rmax))
	}
	if len(st.Patterns) > 0 {
		lines = append(lines, "beff-patterns: "+strings.Join(st.Patterns, ","))
	}
	if st.Shortcut != beff.ShortcutLimit {
		lines = append(lines, fmt.Sprintf("beff-shortcut-limit-s: %g", st.Shortcut))
	}
	if st.TestFault {
		lines = append(lines, "beff-testfault: on (a message is corrupted on purpose)")
	}
	return lines
}

// ctlKey names the loop-length state of one pattern and method.
type ctlKey struct {
	pat string
	m   beff.Method
}

// ctlState is rank 0's loop-length state of one pattern and method.
type ctlState struct {
	bound int     // from the 1-byte probe
	ll    int     // loop length of the last measurement
	t     float64 // its best loop time (max over ranks), seconds
	l     int64   // its message size
	bw    float64 // its best bandwidth, MB/s
}

// beffRun is one execution of BenchmarkBeff on this rank.
type beffRun struct {
	s          *Session
	st         BeffSettings
	set        *beff.Set
	world      mpi.Comm            // the 1-D periodic topology over MPI_COMM_WORLD
	comm       map[string]mpi.Comm // pattern name → its communicator (CommNull if not in it)
	plan       map[string]mpi.Plan
	owned      []mpi.Comm
	send, recv *mpi.Buffer
	probed     map[ctlKey]bool
	ctl        map[ctlKey]*ctlState // rank 0 only
	injected   bool
	done, all  int
	start      time.Time
	lastLog    time.Time
}

// RunBeff is the body of BenchmarkBeff: it measures every pattern, size and
// method as a sub-benchmark named pat=<pattern>/L=<bytes>/mthd=<method>, in
// the reference order (size, then pattern, then method), three repetitions
// each.
func RunBeff(b *testing.B) {
	s := Current(b)
	r := newBeffRun(b, s)
	defer r.close()
	measured := r.st.Measured
	shortcut := false
	var best map[string]beff.Method
	for k, si := range measured {
		left := len(measured) - k // 2: second largest, 1: largest
		if left == 2 && len(measured) >= 3 {
			shortcut, best = r.decideShortcut(measured[k-1], measured[k:])
			if shortcut {
				s.Logf("the two largest sizes are predicted to take more than %g s: measuring them with the best method only, loop length 1, 3 and 2 repetitions", r.st.Shortcut)
			}
		}
		for _, p := range r.set.Patterns {
			if !r.selected(p) {
				continue
			}
			methods := p.Methods()
			reps, forceLL := 3, 0
			if shortcut && left <= 2 {
				methods, forceLL = []beff.Method{best[p.Name]}, 1
				if left == 1 {
					reps = 2
				}
			}
			warm := 1
			if left <= 3 {
				warm = 0 // the reference skips the untimed iteration for the 3 largest sizes
			}
			for _, m := range methods {
				name := fmt.Sprintf("pat=%s/L=%d/mthd=%s", p.Name, r.st.Sizes[si], m)
				b.Run(name, func(b *testing.B) { r.measure(b, p, si, m, reps, warm, forceLL) }) // once per -test.count
				r.logProgress(false)
			}
		}
	}
	r.logProgress(true)
}

func (r *beffRun) selected(p *beff.Pattern) bool {
	return len(r.st.Patterns) == 0 || slices.Contains(r.st.Patterns, p.Name)
}

// topology is what rank 0 decides about the patterns.
type topology struct {
	Perms        [][]int
	C2, C3       int
	Dims2, Dims3 []int
}

func newBeffRun(b *testing.B, s *Session) *beffRun {
	r := &beffRun{s: s, comm: map[string]mpi.Comm{}, plan: map[string]mpi.Plan{},
		probed: map[ctlKey]bool{}, ctl: map[ctlKey]*ctlState{}}
	if err := s.State("beff", &r.st); err != nil {
		b.Fatal(err)
	}
	n := s.Size
	var err error
	r.world, err = s.Comm.CartCreate([]int{n}, []bool{true}, true)
	s.must("creating the 1-D periodic topology", err)
	r.owned = append(r.owned, r.world)
	me, err := r.world.Rank()
	s.must("MPI_Comm_rank", err)

	topo := Decide(s, func() topology {
		t := topology{Perms: beff.RandomPermutations(n, r.st.Random, r.st.Seed)}
		dims := func(c, nd int) []int {
			d, err := mpi.DimsCreate(c, nd)
			if err != nil {
				s.Fail("MPI_Dims_create", err)
			}
			return d
		}
		t.C2, t.C3 = beff.CartCommSize(n, 2, dims), beff.CartCommSize(n, 3, dims)
		t.Dims2, t.Dims3 = dims(t.C2, 2), dims(t.C3, 3)
		return t
	})
	cart := func(c int, dims []int) (beff.Cart, mpi.Comm, mpi.Comm) {
		bc := beff.Cart{Size: c, Dims: dims,
			Shift:  func(rk, d int) (int, int) { return beff.CartShift(dims, true, rk, d) },
			AShift: func(rk, d int) (int, int) { return beff.CartShift(dims, false, rk, d) }}
		color := -1
		if me < c {
			color = 0
		}
		sub, err := r.world.Split(color, me)
		s.must("MPI_Comm_split", err)
		if sub == mpi.CommNull {
			return bc, mpi.CommNull, mpi.CommNull
		}
		per := make([]bool, len(dims))
		aper := make([]bool, len(dims))
		for i := range per {
			per[i] = true
		}
		pc, err := sub.CartCreate(dims, per, false)
		s.must("MPI_Cart_create", err)
		ac, err := sub.CartCreate(dims, aper, false)
		s.must("MPI_Cart_create", err)
		r.owned = append(r.owned, sub, pc, ac)
		// The pure-Go shifts must agree with MPI_Cart_shift for this rank.
		for d := range dims {
			for _, x := range []struct {
				c        mpi.Comm
				periodic bool
			}{{pc, true}, {ac, false}} {
				src, dst, err := x.c.CartShift(d, 1)
				s.must("MPI_Cart_shift", err)
				gs, gd := beff.CartShift(dims, x.periodic, me, d)
				if mpiRank(gs) != src || mpiRank(gd) != dst {
					s.Fail("checking the Cartesian topology", fmt.Errorf("dims %v dir %d: MPI_Cart_shift gives (%d,%d), the pattern table (%d,%d)", dims, d, src, dst, gs, gd))
				}
			}
		}
		return bc, pc, ac
	}
	c2, p2, a2 := cart(topo.C2, topo.Dims2)
	c3, p3, a3 := cart(topo.C3, topo.Dims3)
	r.set = beff.NewSet(n, topo.Perms, c2, c3)
	for _, p := range r.set.Patterns {
		c := r.world
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
		var pl mpi.Plan
		for _, st := range p.Steps(me) {
			pl.Dest = append(pl.Dest, mpiRank(st.Dest))
			pl.Src = append(pl.Src, mpiRank(st.Src))
		}
		r.plan[p.Name] = pl
	}
	bufSize := beff.BufferSize(r.st.Lmax)
	if r.send, err = mpi.NewBuffer(bufSize); err == nil {
		r.recv, err = mpi.NewBuffer(bufSize)
	}
	s.must("allocating the message buffers", err)
	for _, p := range r.set.Patterns {
		if r.selected(p) {
			r.all += len(r.st.Measured) * len(p.Methods())
		}
	}
	if c, err := strconv.Atoi(flag.Lookup("test.count").Value.String()); err == nil && c > 1 {
		r.all *= c // testing repeats every sub-benchmark -test.count times
	}
	r.start, r.lastLog = time.Now(), time.Now()
	s.Logf("b_eff on %d processes: %d patterns, %d sizes up to Lmax = %d bytes, %d measurements, seed %d",
		n, len(r.set.Patterns), len(r.st.Measured), r.st.Lmax, r.all, r.st.Seed)
	return r
}

func mpiRank(r int) int {
	if r == beff.None {
		return mpi.ProcNull
	}
	return r
}

func (r *beffRun) close() {
	r.send.Free()
	r.recv.Free()
	for i := len(r.owned) - 1; i >= 0; i-- {
		r.owned[i].Free()
	}
}

// loop runs one timed loop of pattern p on this rank and returns its time.
func (r *beffRun) loop(p *beff.Pattern, m beff.Method, si int, l int64, ll, warm int, inject bool) (float64, mpi.Fault) {
	t, f, err := mpi.Measure(&mpi.Measurement{
		Barrier: r.world, Comm: r.comm[p.Name], Plan: r.plan[p.Name], Method: int(m),
		Len: int(l), SizeIndex: si, LoopLen: ll, Warm: warm, Send: r.send, Recv: r.recv, Inject: inject,
	})
	if err != nil {
		r.s.Fail(fmt.Sprintf("pattern %s, L=%d, method %s", p.Name, l, m), err)
	}
	return t, f
}

// measure is one sub-benchmark: loop length decided on rank 0, reps timed
// loops, times reduced with MAX, validation verdict broadcast.
func (r *beffRun) measure(b *testing.B, p *beff.Pattern, si int, m beff.Method, reps, warm, forceLL int) {
	s := r.s
	k := ctlKey{p.Name, m}
	l := r.st.Sizes[si]
	if !r.probed[k] {
		// The bound comes from the best of a few probe loops: the first
		// iterations after a barrier are slowed by processes waking up.
		probe := make([]float64, beff.ProbeRepetitions)
		for i := range probe {
			probe[i], _ = r.loop(p, m, 0, 1, beff.ProbeIterations, 1, false)
		}
		if tm := s.MaxFloat64(probe); s.IsRoot() {
			r.ctl[k] = &ctlState{bound: beff.ProbeBound(slices.Min(tm), r.st.Target)}
		}
		r.probed[k] = true
	}
	dec := []int64{int64(forceLL)}
	if s.IsRoot() && forceLL == 0 {
		c := r.ctl[k]
		if c.ll == 0 {
			dec[0] = int64(c.bound)
		} else {
			dec[0] = int64(beff.NextLoopLength(c.ll, c.t, float64(l)/float64(c.l), r.st.Target, c.bound))
		}
	}
	s.BcastInt64(dec)
	ll := int(dec[0])

	times := make([]float64, reps+1)
	var fault mpi.Fault
	faultRep := -1
	for rep := 0; rep < reps; rep++ {
		inject := r.st.TestFault && !r.injected && si >= 3 && s.Rank == s.Size-1
		t, f := r.loop(p, m, si, l, ll, warm, inject)
		r.injected = r.injected || inject
		times[rep] = t
		switch {
		case f.Count > 0 && faultRep < 0:
			fault, faultRep = f, rep
		case f.Count > 0:
			fault.Count += f.Count
		}
	}
	times[reps] = float64(fault.Count)
	tmax := s.MaxFloat64(times)
	verdict := []int64{0}
	if s.IsRoot() && tmax[reps] > 0 {
		verdict[0] = 1
	}
	s.BcastInt64(verdict)
	if verdict[0] != 0 {
		r.validationStop(p, si, m, faultRep, fault)
	}
	if s.IsRoot() {
		msgs := p.Messages()
		bw := make([]float64, reps)
		besti := 0
		for i := range bw {
			bw[i] = beff.Bandwidth(l, msgs, ll, tmax[i])
			if bw[i] > bw[besti] {
				besti = i
			}
		}
		b.ReportMetric(bw[besti], "MB/s")
		b.ReportMetric(slices.Min(bw), "min-MB/s")
		b.ReportMetric(beff.Mean(bw), "avg-MB/s")
		b.ReportMetric(tmax[besti]*1e3, "ms/loop")
		b.ReportMetric(float64(ll), "looplen")
		b.ReportMetric(float64(reps), "reps")
		c := r.ctl[k]
		c.ll, c.t, c.l, c.bw = ll, tmax[besti], l, bw[besti]
	}
	r.done++
}

// decideShortcut predicts, on rank 0, the time of the two largest sizes from
// the measurements at size index prev; above ShortcutLimit only the best
// method of each pattern (best at prev) is measured there. The decision and
// the best methods are broadcast.
func (r *beffRun) decideShortcut(prev int, last []int) (bool, map[string]beff.Method) {
	type decision struct {
		On   bool
		Best map[string]beff.Method
	}
	d := Decide(r.s, func() decision {
		d := decision{Best: map[string]beff.Method{}}
		total := 0.0
		for _, p := range r.set.Patterns {
			bestBW := -1.0
			for _, m := range p.Methods() {
				c := r.ctl[ctlKey{p.Name, m}]
				if c == nil || c.l != r.st.Sizes[prev] {
					continue
				}
				if c.bw > bestBW {
					bestBW, d.Best[p.Name] = c.bw, m
				}
				ll, t, l := c.ll, c.t, c.l
				for _, si := range last {
					nl := r.st.Sizes[si]
					nll := beff.NextLoopLength(ll, t, float64(nl)/float64(l), r.st.Target, c.bound)
					pt := beff.PredictTime(t, ll, l, nl, nll, 3)
					total += pt
					ll, t, l = nll, pt/3, nl
				}
			}
		}
		d.On = total > r.st.Shortcut
		return d
	})
	return d.On, d.Best
}

// validationStop gathers every rank's first validation failure to rank 0,
// which prints the report; then every rank stops with ExitValidation.
func (r *beffRun) validationStop(p *beff.Pattern, si int, m beff.Method, rep int, f mpi.Fault) {
	s := r.s
	rec := []int64{f.Count, int64(rep), f.Iter, int64(f.Step), int64(f.Partner), f.Offset,
		int64(f.ExpectFirst), int64(f.GotFirst), int64(f.ExpectLast), int64(f.GotLast)}
	all, err := gatherInt64(s.Comm, rec)
	s.must("gathering the validation report", err)
	var msg strings.Builder
	if s.IsRoot() {
		fmt.Fprintf(&msg, "validation FAILED: pattern %s, L=%d bytes, method %s: received messages differ from what was sent\n", p.Name, r.st.Sizes[si], m)
		for rk, v := range all {
			if v[0] == 0 {
				continue
			}
			fmt.Fprintf(&msg, "  rank %d: %d bad message(s); first in repetition %d, iteration %d, step %d, from rank %d, receive-buffer offset %d: first byte %d (expected %d), last byte %d (expected %d)\n",
				rk, v[0], v[1]+1, v[2], v[3], v[4], v[5], v[7], v[6], v[9], v[8])
		}
		msg.WriteString("the run is stopped: its figures cannot be trusted")
	}
	s.Stop(ExitValidation, msg.String())
}

func (r *beffRun) logProgress(final bool) {
	if !r.s.IsRoot() {
		return
	}
	now := time.Now()
	if !final && now.Sub(r.lastLog) < 2*time.Second {
		return
	}
	r.lastLog = now
	el := now.Sub(r.start)
	eta := "?"
	if r.done > 0 && r.done < r.all {
		eta = (time.Duration(float64(el) / float64(r.done) * float64(r.all-r.done))).Round(time.Second).String()
	} else if r.done >= r.all {
		eta = "0s"
	}
	r.s.Logf("b_eff %d/%d measurements, %s elapsed, ETA %s", r.done, r.all, el.Round(time.Second), eta)
}
