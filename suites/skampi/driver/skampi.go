package driver

import (
	"fmt"
	"testing"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/skampi"
)

// Benchmark is the body of BenchmarkSkampi: every point of the plan is a
// sub-benchmark op=…/…, measured on its own communicator (the pair, the
// first procs ranks, or rank 0 alone) while the other ranks wait.
func Benchmark(b *testing.B) {
	s := harness.Current(b)
	var st Settings
	if err := s.State(name, &st); err != nil {
		b.Fatal(err)
	}
	if len(st.Dropped) > 0 {
		s.Logf("SKaMPI: %d process: not measured: %v", s.Size, st.Dropped)
	}
	r := newRun(s, &st)
	defer r.close()
	points := st.Plan.Points()
	r.progress = s.NewProgress("SKaMPI", len(points))
	lastOp := -1
	for _, pt := range points {
		if pt.Op != lastOp {
			r.clearBuffers()
			lastOp = pt.Op
		}
		b.Run(pt.Name(), func(b *testing.B) { r.point(b, pt) })
		r.progress.Done()
	}
	r.progress.Finish()
}

// A run is the state of BenchmarkSkampi on one rank.
type run struct {
	s          *harness.Session
	st         *Settings
	send, recv *mpi.Buffer
	groups     map[string]*member
	progress   *harness.Progress
	injected   bool
}

// A member is a point's communicator as this rank sees it: g is nil when
// the rank is not in it; root is the world rank of its rank 0.
type member struct {
	g    *harness.Group
	root int
}

func newRun(s *harness.Session, st *Settings) *run {
	r := &run{s: s, st: st, groups: map[string]*member{}}
	n := bufferBytes(st, s.Size)
	var err error
	if r.send, err = mpi.NewBuffer(n); err == nil {
		r.recv, err = mpi.NewBuffer(n)
	}
	if err != nil {
		s.Fail("allocating the SKaMPI buffers", err)
	}
	return r
}

// bufferBytes is the size of each buffer: the largest footprint of a
// call (a block per process), and when some points cycle their buffers at
// least BufferBytes.
func bufferBytes(st *Settings, n int) int64 {
	l := st.Plan.Lengths.Lengths(4)
	foot := l[len(l)-1] * int64(max(n, 2))
	if st.Cache != skampi.CacheWarm {
		return max(BufferBytes, 2*foot)
	}
	return foot
}

func (r *run) close() {
	for _, m := range r.groups {
		if m.g != nil {
			r.s.Must("MPI_Comm_free", m.g.Comm.Free())
		}
	}
	r.send.Free()
	r.recv.Free()
}

// clearBuffers zeroes the buffers between operations, so that the
// reductions never add up the validation bytes of another operation.
func (r *run) clearBuffers() {
	clear(r.send.Bytes())
	clear(r.recv.Bytes())
}

// member returns the communicator of a point, creating it on first use
// (collective over the world).
func (r *run) member(pt skampi.Point) *member {
	key, ranks := r.ranks(pt)
	if m, ok := r.groups[key]; ok {
		return m
	}
	color, order := -1, 0
	for i, rk := range ranks {
		if rk == r.s.Rank {
			color, order = 0, i
		}
	}
	c, err := mpi.World.Split(color, order)
	r.s.Must("MPI_Comm_split", err)
	m := &member{root: ranks[0]}
	if color == 0 {
		m.g = r.s.Group(c)
	}
	r.groups[key] = m
	return m
}

// ranks are the world ranks of a point's communicator, its rank 0 first.
func (r *run) ranks(pt skampi.Point) (string, []int) {
	p := r.st.Prep
	switch skampi.Ops[pt.Op].Pattern {
	case skampi.PingPong:
		pr := p.Max
		if pt.Pair == skampi.PairMin {
			pr = p.Min
		}
		return "pair=" + pt.Pair, []int{pr.A, pr.B}
	case skampi.Simple:
		return "self", []int{0}
	}
	ranks := make([]int, pt.Procs)
	for i := range ranks {
		ranks[i] = i
	}
	return fmt.Sprintf("procs=%d", pt.Procs), ranks
}

// point measures one point on its communicator, brings the result to
// rank 0 and reports it there.
func (r *run) point(b *testing.B, pt skampi.Point) {
	m := r.member(pt)
	var res Result
	if m.g != nil {
		res = r.measure(m.g, pt)
	}
	res = harness.DecideAt(r.s.World(), m.root, func() Result { return res })
	if res.Fault != "" {
		r.s.Stop(harness.ExitValidation, res.Fault)
	}
	if r.s.IsRoot() {
		res.report(b, pt)
	}
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
	if skampi.Ops[pt.Op].Pattern == skampi.PingPong && pt.Len > 0 && sm.Mean > 0 {
		b.ReportMetric(float64(pt.Len)/sm.Mean/1e6, skampi.MetricMBps)
	}
}
