package driver

import (
	"fmt"
	"math"
	"strings"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/skampi"
	"github.com/beff-suite/beff/suites/skampi/loops"
)

// A Result is what one point reports, decided on its communicator's rank 0.
type Result struct {
	Sum     skampi.Summary
	Tries   int
	Invalid int
	Calls   int
	Window  float64   // the last window, seconds (window mode)
	Why     int       // skampi.Converged, HitMax or HitBudget
	Ranks   []float64 // collectives: min, median, max of the per-process means
	NoRSE   bool      // fewer than two valid repetitions: no error (Sum.RSE is 0)
	Fault   string    // a validation report: the job stops
	// Overlap is a non-blocking collective's measurement with the
	// computation between start and wait (nil for other operations).
	Overlap *Overlap
	// Init is a persistent operation's time to make its requests, seconds:
	// the slowest process's mean over the point's batches (0 otherwise).
	Init float64
	// Threads marked a partitioned message's partitions ready (0 for the
	// other operations).
	Threads int
}

// Overlap is what a non-blocking collective's point measures with a
// computation as long as its plain time (Pure, seconds) placed between
// each start and wait: the time of a call (Sum), and the computation's own
// time per call (CPU: the largest per-process mean).
type Overlap struct {
	Sum   skampi.Summary
	NoRSE bool
	Pure  float64
	CPU   float64
}

// verdictFault stops a point's loop: a message failed validation.
const verdictFault = 1

// A pointLoop is the state of one point on one rank of its communicator.
type pointLoop struct {
	r      *run
	su     *skampi.Setup
	g      *harness.Group
	pt     skampi.Point
	op     skampi.Op
	batch  loops.Batch
	fault  loops.SkampiFault // the first validation failure this rank saw
	faults int64
	// Every rank: its own valid times, for the per-process mean.
	ownSum float64
	ownN   int
	// Every rank: the computation of its valid repetitions per call
	// (overlap points) and the time of its batches' init calls
	// (persistent operations).
	busySum float64
	initSum float64
	initN   int
	// Rank 0 decides with these.
	values  []float64
	tries   int
	invalid int
	window  float64
	why     int
	t0      float64
}

// measure runs one point on g: warm-up calls, then batches of repetitions
// until rank 0's stopping rule says enough. A non-blocking collective's
// point then measures again with a computation between each start and
// wait, as long as the plain time rank 0 measured (each process
// calibrates its own computation to that length).
func (r *run) measure(g *harness.Group, su *skampi.Setup, pt skampi.Point) Result {
	res, _ := r.measureSteps(g, su, pt, 0)
	if !skampi.Ops[pt.Op].NonBlocking() {
		return res
	}
	pure := harness.Decide(g, func() float64 {
		if res.Fault != "" || res.Sum.N == 0 {
			return 0
		}
		return res.Sum.Mean
	})
	if pure == 0 {
		return res
	}
	ov, busy := r.measureSteps(g, su, pt, r.steps(pure))
	cpu := g.MaxTo0([]float64{busy})
	if ov.Fault != "" || !g.IsRoot() {
		return ov
	}
	res.Overlap = &Overlap{Sum: ov.Sum, NoRSE: ov.NoRSE, Pure: pure, CPU: cpu[0]}
	return res
}

// measureSteps measures the point with steps of computation between each
// start and wait of a non-blocking collective (0: none); it returns rank
// 0's result and this rank's mean computation per call.
func (r *run) measureSteps(g *harness.Group, su *skampi.Setup, pt skampi.Point, steps int64) (Result, float64) {
	pl := &pointLoop{r: r, su: su, g: g, pt: pt, op: skampi.Ops[pt.Op], t0: mpi.Wtime()}
	pl.batch = loops.Batch{Op: loopOp(pt.Op), Comm: g.Comm, Len: pt.Len, Chunks: pt.Chunks, Calls: 1,
		Send: r.send, Recv: r.recv, Yield: r.st.Yield, Steps: steps}
	// a persistent request binds its buffers: its calls cannot cycle them
	pl.batch.Cycle = skampi.Cold(su.Cache, pl.op.Pattern) && !pl.op.Persistent()
	if pl.op.Family == skampi.FamilyPartitioned {
		pl.batch.Threads = min(max(1, r.st.MarkThreads), pt.Chunks)
	}
	if pl.op.Family == skampi.FamilyNeighborhood {
		top, err := skampi.ParseTopology(su.Topology)
		r.s.Must("the topology of "+pt.Name(), err)
		pl.batch.Topo, pl.batch.Dims, pl.batch.Periodic = loops.TopoCart, top.Grid(pt.Procs), top.Periodic
		if top.Stencil {
			pl.batch.Topo = loops.TopoStencil
		}
	}
	pl.batch.Span = su.Span
	pl.batch.Passive = pl.op.Answers() && !g.IsRoot()
	if r.clock != nil {
		m := r.clock.Map()
		pl.batch.Clock = [3]float64{m.At, m.Offset, m.Drift}
	}
	ty, err := buildTypes(su, pt)
	r.s.Must("the datatypes of "+pt.Name(), err)
	defer ty.Free()
	pl.batch.Types, pl.batch.Method = ty, methods[pt.Method]
	pl.batch.RMASync = rmaSyncs[su.RMASync]
	pl.batch.RMAAllocate, pl.batch.RMANoCheck = su.Window == skampi.WindowAllocate, su.Assert == skampi.AssertNoCheck
	pl.warmUp()
	first, _ := su.Rule.Next(skampi.PointProgress{RSE: math.Inf(1)})
	stop := g.Until(int64(first), harness.Until{Step: pl.step, Decide: pl.decide})
	if stop.Verdict == verdictFault || pl.checkFull() {
		return Result{Fault: pl.faultReport()}, 0
	}
	return pl.result(), pl.busySum / float64(max(pl.ownN, 1))
}

// checkFull runs one more call, untimed, that stamps and checks every
// byte of every message and the holes of the receive layout; it says
// whether any rank of the point saw a failed check.
func (pl *pointLoop) checkFull() bool {
	b := pl.batch
	b.Reps, b.Calls, b.Window, b.NoSync, b.Full = 1, 1, false, false, true
	pl.run(&b)
	pl.batch.Seq++
	return pl.g.MaxAll([]int64{pl.faults})[0] > 0
}

// warmUp runs the warm-up calls (at least one), then decides on rank 0
// the calls per repetition and the first window.
func (pl *pointLoop) warmUp() {
	b := pl.batch
	b.Reps = max(1, pl.su.Warmup)
	est := pl.perCall(&b)
	prep := pl.r.st.Prep
	minRep := skampi.MinRep(prep.Wtick, prep.Timer, pl.su.Rule.Eps)
	b.Calls = pl.su.Calls
	if b.Calls == 0 {
		b.Calls = pl.decideCalls(est, 1, minRep)
	}
	// The first calls of a point are often slow, and a call estimated too
	// long batches too few: up to three tries with the calls found measure
	// again until the calls stay (a repetition lasts minRep).
	for try := 0; try < 3 && pl.su.Calls == 0; try++ {
		b.Reps = 2
		est = pl.perCall(&b)
		calls := pl.decideCalls(est, b.Calls, minRep)
		if calls == b.Calls {
			break
		}
		b.Calls = calls
	}
	d := pl.g.Round([]float64{est}, 1, func(m []float64) []int64 {
		return []int64{int64(math.Float64bits(skampi.FirstWindow(m[0]*float64(b.Calls), pl.r.clockError())))}
	})
	pl.batch.Calls = b.Calls
	pl.window = math.Float64frombits(uint64(d[0]))
	pl.batch.Seq = b.Seq
}

// perCall runs the untimed batch b and returns this rank's shortest time
// of a call (the cost of the clock read taken off); it advances b.Seq.
func (pl *pointLoop) perCall(b *loops.Batch) float64 {
	t := pl.run(b)
	b.Seq += int64(b.Reps * b.Calls)
	est := math.Inf(1)
	for k := range t.Start {
		est = min(est, (t.End[k]-t.Start[k]-pl.r.st.Prep.Timer)/float64(b.Calls))
	}
	return est
}

// decideCalls decides on rank 0, from the slowest rank's estimate of a
// call, the calls per repetition: never fewer than now.
func (pl *pointLoop) decideCalls(est float64, now int, minRep float64) int {
	d := pl.g.Round([]float64{est}, 1, func(m []float64) []int64 {
		return []int64{int64(max(now, skampi.CallsPerRep(m[0], minRep)))}
	})
	return int(d[0])
}

// run runs a batch in C and keeps its first validation failure.
func (pl *pointLoop) run(b *loops.Batch) loops.Times {
	r := pl.r
	b.Inject = loops.InjectNone
	switch {
	case r.st.TestFault && !r.injected:
		b.Inject, r.injected = loops.InjectByte, true
	case r.st.TestLayout && b.Method == loops.MethodManual:
		b.Inject = loops.InjectLayout
	case r.st.TestLostPut && b.Full:
		b.Inject = loops.InjectLostPut
	}
	t, f, err := r.loop(b)
	r.s.Must("the SKaMPI loop", err)
	if t.Init > 0 {
		pl.initSum += t.Init
		pl.initN++
	}
	if f.Count > 0 && pl.faults == 0 {
		pl.fault = f
	}
	pl.faults += f.Count
	return t
}

// step runs a batch of k repetitions; it returns per repetition this
// rank's contribution to the value (−1 for a repetition any rank
// discarded) and the failed validations seen so far.
func (pl *pointLoop) step(k int64) []float64 {
	b := &pl.batch
	b.Reps = int(k)
	b.Window = pl.su.Sync == skampi.SyncWindow
	b.NoSync = pl.su.Sync == skampi.SyncNone
	b.WindowLen, b.Lead = pl.window, skampi.Lead(pl.r.st.Prep.Bcast, pl.window)
	t := pl.run(b)
	b.Seq += k * int64(b.Calls)
	flags := make([]int64, k+1)
	if b.Window {
		for i, bad := range (skampi.Window{Start: t.First, Len: t.Window}).Invalid(t.Arrive, t.End) {
			if bad {
				flags[i] = 1
			}
		}
	}
	flags[k] = pl.faults
	flags = pl.g.MaxAll(flags)
	out := make([]float64, k+1)
	for i := range k {
		out[i] = pl.value(t.End[i]-t.Start[i], flags[i] != 0)
		if flags[i] == 0 && i < int64(len(t.Busy)) {
			pl.busySum += t.Busy[i] / float64(b.Calls)
		}
	}
	out[k] = float64(flags[k])
	return out
}

// value is this rank's contribution for a repetition of duration d: the
// time of one call, −1 when the repetition is discarded; for the patterns
// timed on rank 0 alone the other ranks give 0.
func (pl *pointLoop) value(d float64, discarded bool) float64 {
	if discarded {
		return -1
	}
	if pl.su.Timer != skampi.TimerKeep {
		d = math.Max(0, d-pl.r.st.Prep.Timer)
	}
	v := d / float64(pl.batch.Calls)
	if pl.op.Pattern == skampi.PingPong && !pl.op.Exchange {
		v /= 2 // half the round trip
	}
	pl.ownSum += v
	pl.ownN++
	if pl.op.Pattern != skampi.Collective && !pl.g.IsRoot() {
		return 0
	}
	return v
}

// decide runs on rank 0 after every batch with the maximum over the
// ranks of what step returned: it keeps the valid values and applies the
// stopping rule.
func (pl *pointLoop) decide(m []float64) (next, verdict int64) {
	k := len(m) - 1
	if m[k] > 0 {
		return 0, verdictFault
	}
	bad := 0
	for _, v := range m[:k] {
		if v < 0 {
			bad++
		} else {
			pl.values = append(pl.values, v)
		}
	}
	pl.tries += k
	pl.invalid += bad
	sum := skampi.Summarize(pl.values)
	rep := pl.window
	if pl.su.Sync != skampi.SyncWindow {
		rep = 2 * sum.Mean * float64(pl.batch.Calls)
	}
	n, why := pl.su.Rule.Next(skampi.PointProgress{Tries: pl.tries, Valid: sum.N, RSE: sum.RSE,
		Total: sum.Mean * float64(sum.N*pl.batch.Calls), Elapsed: mpi.Wtime() - pl.t0, Rep: rep})
	pl.window = skampi.Grow(pl.window, bad, k)
	pl.why = why
	return int64(n), 0
}

// result gathers the per-process means (collectives) and returns rank
// 0's result (others get the zero Result).
func (pl *pointLoop) result() Result {
	var ranks []float64
	init := pl.initSum / float64(max(pl.initN, 1))
	if pl.op.Pattern == skampi.Collective {
		mean := math.NaN()
		if pl.ownN > 0 {
			mean = pl.ownSum / float64(pl.ownN)
		}
		all := pl.g.Gather([]int64{int64(math.Float64bits(mean)), int64(math.Float64bits(init))})
		if all != nil {
			ranks = rankStats(all)
			for _, rec := range all {
				init = max(init, math.Float64frombits(uint64(rec[1])))
			}
		}
	}
	if !pl.g.IsRoot() {
		return Result{}
	}
	res := Result{Sum: skampi.Summarize(pl.values), Tries: pl.tries, Invalid: pl.invalid,
		Calls: pl.batch.Calls, Why: pl.why, Ranks: ranks}
	if pl.op.Persistent() {
		res.Init = init
	}
	if pl.op.Family == skampi.FamilyPartitioned {
		res.Threads = pl.batch.Threads
	}
	if pl.su.Sync == skampi.SyncWindow {
		res.Window = pl.window
	}
	if math.IsInf(res.Sum.RSE, 0) {
		res.Sum.RSE, res.NoRSE = 0, true
	}
	return res
}

// rankStats is the min, median and max of the gathered means, over the
// processes with a valid repetition (nil when none has one).
func rankStats(all [][]int64) []float64 {
	var v []float64
	for _, rec := range all {
		if x := math.Float64frombits(uint64(rec[0])); !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return nil
	}
	lo, hi := v[0], v[0]
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return []float64{lo, skampi.Median(v), hi}
}

// faultReport gathers every rank's first validation failure to rank 0,
// which writes the report (the others return "").
func (pl *pointLoop) faultReport() string {
	f := pl.fault
	all := pl.g.Gather([]int64{pl.faults, f.Call, int64(f.Sender), f.At, int64(f.Expect), int64(f.Got)})
	if all == nil {
		return ""
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "validation FAILED: %s: received messages differ from what was sent\n", pl.pt.Name())
	for rk, a := range all {
		if a[0] > 0 {
			fmt.Fprintf(&msg, "  rank %d of the point: %d failed checks; first in call %d, from sender %d, byte %d: expected %d, got %d\n",
				rk, a[0], a[1], a[2], a[3], a[4], a[5])
		}
	}
	return msg.String()
}
