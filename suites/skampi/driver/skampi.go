package driver

import (
	"testing"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
	"github.com/beff-suite/beff/suites/skampi/loops"
)

// Benchmark is the body of BenchmarkSkampi: curve by curve of the
// suites, every point is a sub-benchmark suite=…/op=…/…, measured on its
// own communicator (the pair, the first procs ranks, or rank 0 alone),
// made for the point and freed after it, while the other ranks wait
// asleep in a non-blocking barrier (Group.QuietBarrier). Each line is written when its point is
// done; a refined curve's lengths come in the order they were chosen.
func (d *Driver) Benchmark(b *testing.B) {
	s := harness.Current(b)
	st, err := d.settings.Of(s)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range st.Notes {
		s.Logf("SKaMPI: %s: not measured", n)
	}
	r := newRun(d.f, s, &st)
	defer r.close()
	defer s.Watch("SKaMPI", 0, "skampi.watchdog", *d.f.watchdog)() // between points
	curves := st.order()
	r.progress = s.NewProgress("SKaMPI", gridPoints(curves))
	r.progress.Plan(gridTime(curves))
	s.Logf("SKaMPI on %s: %d suites, %d curves, %d points before refinement", results.Processes(s.Size), len(st.Suites), len(curves), r.progress.Total())
	need := skampi.Need(curves, s.Size, harness.BaseBytes)
	s.LogMemory("SKaMPI", need.PerProcess(), need.RootProcess(), need.Parts())
	skipped := map[string]bool{}
	for _, c := range curves {
		r.clearBuffers()
		why := st.Prep.NoWindow[c.Suite.Window]
		switch saved := st.Resume.saved(c); {
		case why != "" && skampi.Ops[c.Op].RMA():
			if !skipped[c.Suite.Name] {
				s.Logf("SKaMPI: suite %s: not measured: its window (%s) cannot be made on this job: %s", c.Suite.Name, c.Suite.Window, why)
				skipped[c.Suite.Name] = true
			}
			r.progress.Add(len(c.Grid()), curveTime(c)/float64(max(1, len(c.Grid()))))
		case saved != nil:
			replay(b, saved)
			r.progress.Add(len(c.Grid()), curveTime(c)/float64(max(1, len(c.Grid()))))
		case c.Refined():
			r.refine(b, c)
		default:
			for _, pt := range c.Grid() {
				r.point(b, c.Suite, pt)
			}
		}
	}
	r.reportClock(b)
	r.progress.Finish()
}

// clockError is the model's predicted error now, on this rank (0 for a
// global clock): what a window leaves room for. On offsets alone it is
// their error after the first estimation, as SKaMPI's scheme allows: it
// knows of no drift.
func (r *run) clockError() float64 {
	switch {
	case r.clock == nil:
		return 0
	case r.st.Clock == skampi.ClockOffsets:
		return r.clock.FirstError()
	}
	return r.clock.Predicted(0)
}

// reportClock writes the line of the run's clocks
// (BenchmarkSkampi/clock=run): how far the model was off over the run,
// the drifts, what the estimations cost, and (on two processes or more)
// how far apart the processes start on the windows and after a barrier.
func (r *run) reportClock(b *testing.B) {
	if r.clock == nil {
		return
	}
	if r.s.Size < 2 {
		r.clock.Report(b, "SKaMPI")
		return
	}
	window, barrier := r.startSpreads()
	r.clock.Report(b, "SKaMPI", func(rep *clocks.Report) {
		rep.HasSpread, rep.WindowSpread, rep.BarrierSpread = true, window, barrier
	})
}

// gridTime is the plan's model of the time of the points of the curves
// before refinement, seconds (each at its bound: the progress's weights).
func gridTime(curves []skampi.Curve) float64 {
	t := 0.0
	for _, c := range curves {
		t += curveTime(c)
	}
	return t
}

// curveTime is the plan's model of the time of a curve's grid, seconds.
func curveTime(c skampi.Curve) float64 {
	t := 0.0
	for _, p := range c.Grid() {
		t += skampi.Nominal.PointTime(c.Suite, p)
	}
	return t
}

// gridPoints counts the points of the curves before refinement.
func gridPoints(curves []skampi.Curve) int {
	n := 0
	for _, c := range curves {
		n += len(c.Grid())
	}
	return n
}

// refine measures a refined curve: rank 0 keeps the refiner and decides
// each next length (−1 to stop) from the times measured so far; after
// the curve's time limit no length beyond the grid is added.
func (r *run) refine(b *testing.B, c skampi.Curve) {
	var ref *skampi.Refiner
	grid := c.Grid()
	if r.s.IsRoot() {
		lengths := make([]int64, len(grid))
		for i, p := range grid {
			lengths[i] = p.Len
		}
		ref = skampi.NewRefiner(lengths, c.Elem(), c.Suite.Rule.Eps, c.Budget())
	}
	start := time.Now()
	for tried := 0; ; tried++ {
		l := harness.Decide(r.s.World(), func() int64 {
			over := c.Suite.Time > 0 && time.Since(start).Seconds() > c.Suite.Time
			if over && ref.Tried() >= len(grid) {
				return -1
			}
			m, ok := ref.Next()
			if !ok {
				return -1
			}
			return m
		})
		if l < 0 {
			return
		}
		if tried >= len(grid) {
			r.progress.Grow(1, skampi.Nominal.PointTime(c.Suite, c.At(l))) // a length refinement added
		}
		if res := r.point(b, c.Suite, c.At(l)); r.s.IsRoot() && res.Sum.N > 0 {
			ref.Add(l, res.Sum.Mean)
		}
	}
}

// replay writes the lines a partial run saved for a curve, as they were
// measured: each name once per -test.count, its occurrences in turn.
func replay(b *testing.B, saved []skampi.Saved) {
	var names []string
	byName := map[string][]skampi.Saved{}
	for _, sv := range saved {
		if byName[sv.Name] == nil {
			names = append(names, sv.Name)
		}
		byName[sv.Name] = append(byName[sv.Name], sv)
	}
	for _, n := range names {
		k := 0
		b.Run(n, func(b *testing.B) {
			sv := byName[n][k%len(byName[n])]
			k++
			b.ReportMetric(0, "ns/op")
			for _, m := range sv.Metrics {
				b.ReportMetric(m.Value, m.Unit)
			}
		})
	}
}

// A run is the state of BenchmarkSkampi on one rank.
type run struct {
	f          *flags // the suite's flags (the watchdog)
	s          *harness.Session
	st         *Settings
	send, recv *mpi.Buffer
	progress   *harness.Progress
	clock      *harness.Clock // nil for a global clock
	injected   bool
	// loop runs a batch: loops.RunBatch, the C loop (a fake in the tests
	// of the point loop); steps calibrates the computation of overlap
	// points: loops.ComputeSteps.
	loop  func(b *loops.Batch) (loops.Times, loops.SkampiFault, error)
	steps func(seconds float64) int64
}

// A member is a point's communicator as this rank sees it: g is nil when
// the rank is not in it; root is the world rank of its rank 0.
type member struct {
	g    *harness.Group
	root int
}

func newRun(f *flags, s *harness.Session, st *Settings) *run {
	r := &run{f: f, s: s, st: st, loop: loops.RunBatch, steps: loops.ComputeSteps}
	if !st.Prep.Global {
		r.clock = s.Clock(st.Clock == skampi.ClockDrift) // made by prepareRun
	}
	n := st.Buffer
	var err error
	if r.send, err = mpi.NewBuffer(n); err == nil {
		r.recv, err = mpi.NewBuffer(n)
	}
	if err != nil {
		s.Fail("allocating the SKaMPI buffers", err)
	}
	return r
}

func (r *run) close() {
	r.send.Free()
	r.recv.Free()
}

// clearBuffers zeroes the buffers between operations, so that the
// reductions never add up the validation bytes of another operation.
func (r *run) clearBuffers() {
	clear(r.send.Bytes())
	clear(r.recv.Bytes())
}

// member makes the communicator of a point on the ranks in it
// (MPI_Comm_create_group, which the other ranks take no part in); the
// caller frees it after the point.
func (r *run) member(pt skampi.Point) *member {
	ranges := r.ranges(pt)
	m := &member{root: ranges[0].First}
	for _, rg := range ranges {
		if r.s.Rank >= rg.First && r.s.Rank <= rg.Last {
			c, err := mpi.World.CreateRanges(ranges, 0)
			r.s.Must("MPI_Comm_create_group", err)
			m.g = r.s.Group(c)
		}
	}
	return m
}

// ranges are the world ranks of a point's communicator, its rank 0
// first: the pair, rank 0 alone, or the first procs ranks.
func (r *run) ranges(pt skampi.Point) []mpi.RankRange {
	p := r.st.Prep
	switch skampi.Ops[pt.Op].Pattern {
	case skampi.PingPong, skampi.OneSided:
		pr := p.Max
		if pt.Pair == skampi.PairMin {
			pr = p.Min
		}
		return []mpi.RankRange{{First: pr.A, Last: pr.A, Stride: 1}, {First: pr.B, Last: pr.B, Stride: 1}}
	case skampi.Simple:
		return []mpi.RankRange{{First: 0, Last: 0, Stride: 1}}
	}
	return []mpi.RankRange{{First: 0, Last: pt.Procs - 1, Stride: 1}}
}

// point runs the sub-benchmark of one point: it measures the point on
// its communicator, brings the result to every rank and reports it on
// rank 0. It returns the result (of the last run with -test.count).
func (r *run) point(b *testing.B, su *skampi.Setup, pt skampi.Point) Result {
	var res Result
	if r.clock != nil {
		r.clock.Keep(skampi.Nominal.PointTime(su, pt))
	}
	b.Run(pt.Name(), func(b *testing.B) {
		defer r.s.Watch("SKaMPI "+pt.Name(), time.Duration(su.Rule.Budget*float64(time.Second)), "skampi.watchdog", *r.f.watchdog)()
		m := r.member(pt)
		res = Result{}
		if m.g != nil {
			res = r.measure(m.g, su, pt)
			r.s.Must("MPI_Comm_free", m.g.Comm.Free())
		}
		r.s.World().QuietBarrier() // the ranks outside the point wait asleep
		res = harness.DecideAt(r.s.World(), m.root, func() Result { return res })
		if res.Fault != "" {
			r.s.Stop(harness.ExitValidation, res.Fault)
		}
		if r.s.IsRoot() {
			res.report(b, pt)
		}
	})
	r.progress.DoneWeighing(skampi.Nominal.PointTime(su, pt))
	r.progress.Log()
	return res
}

// report writes the point's metrics.
func (res Result) report(b *testing.B, pt skampi.Point) {
	b.ReportMetric(0, "ns/op") // the point's wall time says nothing
	sm := res.Sum
	b.ReportMetric(float64(sm.N), skampi.MetricN)
	b.ReportMetric(float64(res.Invalid), skampi.MetricInvalid)
	b.ReportMetric(float64(res.Calls), skampi.MetricCalls)
	b.ReportMetric(float64(res.Why), skampi.MetricStop)
	if res.Window > 0 {
		b.ReportMetric(res.Window*1e6, skampi.MetricWindow)
	}
	if res.Threads > 0 { // how the point ran, with or without a valid repetition
		b.ReportMetric(float64(res.Threads), skampi.MetricThreads)
	}
	if sm.N == 0 {
		return // no valid repetition: no time
	}
	b.ReportMetric(sm.Mean*1e6, skampi.MetricUs)
	b.ReportMetric(sm.Median*1e6, skampi.MetricMedian)
	b.ReportMetric(sm.Min*1e6, skampi.MetricMin)
	b.ReportMetric(sm.P90*1e6, skampi.MetricP90)
	b.ReportMetric(sm.P99*1e6, skampi.MetricP99)
	if !res.NoRSE {
		b.ReportMetric(sm.RSE, skampi.MetricRSE)
	}
	if res.Ranks != nil {
		b.ReportMetric(res.Ranks[0]*1e6, skampi.MetricRankMin)
		b.ReportMetric(res.Ranks[1]*1e6, skampi.MetricRankMed)
		b.ReportMetric(res.Ranks[2]*1e6, skampi.MetricRankMax)
	}
	if o := skampi.Ops[pt.Op]; o.OnPair() && pt.Len > 0 && sm.Mean > 0 {
		b.ReportMetric(float64(pt.Bytes())/sm.Mean/1e6, skampi.MetricMBps)
	}
	if res.Init > 0 {
		b.ReportMetric(res.Init*1e6, skampi.MetricInit)
	}
	if ov := res.Overlap; ov != nil && ov.Sum.N > 0 {
		b.ReportMetric(ov.Sum.Mean*1e6, skampi.MetricOvrl)
		if !ov.NoRSE {
			b.ReportMetric(ov.Sum.RSE, skampi.MetricOvrlRSE)
		}
		b.ReportMetric(ov.CPU*1e6, skampi.MetricCPU)
		b.ReportMetric(max(0, ov.Sum.Mean-ov.CPU)*1e6, skampi.MetricInMPI)
		b.ReportMetric(skampi.OverlapPercent(sm.Mean, ov.Sum.Mean, ov.CPU), skampi.MetricOverlap)
	}
}
