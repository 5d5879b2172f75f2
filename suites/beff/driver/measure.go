package driver

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beff/loops"
)

// measure is one sub-benchmark: the loop length decided on rank 0, reps
// timed loops, their times reduced with MAX and the validation verdict
// decided on rank 0, in two rounds of the world group. The progress
// counts it with the time of its loops.
func (r *run) measure(b *testing.B, pt point) {
	k := loopKey{pt.p.Name, pt.m}
	l := r.st.Sizes[pt.si]
	defer r.s.Watch("b_eff "+beff.Name(pt.p.Name, l, pt.m), r.predicted(pt), "beff.watchdog", *r.f.watchdog)()
	ll := r.decideLoopLength(k, pt.p, l, pt.forceLL)
	times, fault, faultRep := r.repeat(pt, l, ll)
	r.settle(pt.p)
	var tmax []float64
	verdict := r.world.Round(append(times, float64(fault.Count)), 1, func(max []float64) []int64 {
		tmax = max
		if max[pt.reps] > 0 {
			return []int64{1}
		}
		return []int64{0}
	})
	if verdict[0] != 0 {
		r.validationStop(pt, faultRep, fault)
	}
	loops := 0.0
	if r.world.IsRoot() {
		for _, m := range r.metrics(pt, l, ll, tmax[:pt.reps]) {
			b.ReportMetric(m.value, m.unit)
		}
		loops = sum(tmax[:pt.reps])
	}
	r.progress.DoneOf(int(pt.m), loops) // what a measurement costs beside its loops depends on its method
}

// sum is the sum of v.
func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// predicted is about how long a measurement takes, for the watchdog: its
// repetitions (and a probe) of the loop time target, or under the shortcut
// (loop length 1 of a size predicted slow) the shortcut's limit.
func (r *run) predicted(pt point) time.Duration {
	if pt.forceLL != 0 {
		return time.Duration(r.st.Shortcut * float64(time.Second))
	}
	return time.Duration(float64(pt.reps+1) * r.st.Target * float64(time.Second))
}

// decideLoopLength decides the loop length on rank 0: forced, or from the
// pattern's and method's loop state, which the first measurement starts
// with a probe (the bound comes from the best of a few probe loops: the
// first iterations after a barrier are slowed by processes waking up).
func (r *run) decideLoopLength(k loopKey, p *beff.Pattern, l int64, forceLL int) int {
	var probe []float64
	if !r.probed[k] {
		probe = make([]float64, beff.ProbeRepetitions)
		for i := range probe {
			probe[i], _ = r.loop(p, k.method, 0, 1, beff.ProbeIterations, 1, false, nil)
		}
		r.probed[k] = true
		r.settle(p)
		r.progress.Aside(sum(probe)) // rank 0's: the probes come once per pattern and method
	}
	d := r.world.Round(probe, 1, func(max []float64) []int64 {
		if max != nil {
			if r.loops[k] == nil { // not taken from an earlier job's line
				r.loops[k] = &beff.LoopState{}
			}
			r.loops[k].Bound = beff.ProbeBound(slices.Min(max), r.st.Target)
		}
		if forceLL != 0 {
			return []int64{int64(forceLL)}
		}
		return []int64{int64(r.loops[k].Next(l, r.st.Target))}
	})
	return int(d[0])
}

// repeat runs the timed loops of point pt and returns their times on this
// rank and its first validation failure (and the repetition it came in,
// -1 for none).
func (r *run) repeat(pt point, l int64, ll int) ([]float64, loops.Fault, int) {
	times := make([]float64, pt.reps)
	var fault loops.Fault
	faultRep := -1
	for rep := range times {
		inject := r.st.TestFault && !r.injected && pt.si >= 3 && r.s.Rank == r.s.Size-1
		t, f := r.loop(pt.p, pt.m, pt.si, l, ll, pt.warm, inject, nil)
		r.injected = r.injected || inject
		times[rep] = t
		switch {
		case f.Count > 0 && faultRep < 0:
			fault, faultRep = f, rep
		case f.Count > 0:
			fault.Count += f.Count
		}
	}
	return times, fault, faultRep
}

// loop runs one timed loop of pattern p on this rank and returns its time;
// the messages go on from where the last loop left the offsets
// (loops.BeffTiming.Carry), or, with base, are placed as the reference code
// places them (loops.BeffTiming.RefBase).
func (r *run) loop(p *beff.Pattern, m beff.Method, si int, l int64, ll, warm int, inject bool, base *int64) (float64, loops.Fault) {
	mm := &loops.BeffTiming{
		Barrier: r.periodic, Comm: r.comm[p.Name], Plan: r.plan[p.Name], Method: exchanges[m],
		Len: int(l), SizeIndex: si, LoopLen: ll, Warm: warm, Send: r.send, Recv: r.recv, Inject: inject, RefBase: base,
		Quiet: partial(p, r.s.Size),
	}
	if base == nil {
		mm.Carry = &r.carry
	}
	t, f, err := r.timed(mm)
	if err != nil {
		r.s.Fail(fmt.Sprintf("pattern %s, L=%d, method %s", p.Name, l, m), err)
	}
	return t, f
}

// partial says whether some of the n processes take no part in pattern p
// (the ping-pong, a bisection of an odd n, a Cartesian pattern on fewer
// processes): they wait for its loops asleep (loops.BeffTiming.Quiet).
func partial(p *beff.Pattern, n int) bool { return p.Participants() < n }

// settle brings every rank together after the loops of a pattern some
// processes take no part in: they wait asleep (Group.QuietBarrier)
// instead of spinning in the reduction of the times while the others
// measure.
func (r *run) settle(p *beff.Pattern) {
	if partial(p, r.s.Size) {
		r.world.QuietBarrier()
	}
}

// A metric is one value of a measurement's line.
type metric struct {
	value float64
	unit  string
}

// metrics are the metrics of a measurement from the times of its
// repetitions (max over ranks); rank 0 keeps the loop state for the next
// size.
func (r *run) metrics(pt point, l int64, ll int, tmax []float64) []metric {
	lls := slices.Repeat([]int{ll}, len(tmax))
	out, best, bw := lineMetrics(l, pt.p.Messages(), lls, tmax)
	s := r.loops[loopKey{pt.p.Name, pt.m}]
	s.Took(l, ll, tmax[best], bw)
	return out
}

// lineMetrics are the metrics of a measurement's line from its
// repetitions' loop lengths and times (max over ranks): the best
// repetition's bandwidth, the worst, the mean, the best's loop time (ms)
// and length, the repetitions; and which repetition was the best, with
// its bandwidth.
func lineMetrics(l int64, messages int, ll []int, tmax []float64) ([]metric, int, float64) {
	bw := make([]float64, len(tmax))
	best := 0
	for i := range bw {
		bw[i] = beff.Bandwidth(l, messages, ll[i], tmax[i])
		if bw[i] > bw[best] {
			best = i
		}
	}
	return []metric{{bw[best], beff.MetricMBps}, {slices.Min(bw), beff.MetricMinMBps}, {beff.Mean(bw), beff.MetricAvgMBps},
		{tmax[best] * 1e3, beff.MetricLoop}, {float64(ll[best]), beff.MetricLoopLen}, {float64(len(bw)), beff.MetricReps}}, best, bw[best]
}

// validationStop gathers every rank's first validation failure to rank 0,
// which prints the report; then every rank stops with ExitValidation.
func (r *run) validationStop(pt point, rep int, f loops.Fault) {
	rec := []int64{f.Count, int64(rep), f.Iter, int64(f.Step), int64(f.Partner), f.Offset,
		int64(f.ExpectFirst), int64(f.GotFirst), int64(f.ExpectLast), int64(f.GotLast)}
	all := r.world.Gather(rec)
	var msg strings.Builder
	if r.world.IsRoot() {
		fmt.Fprintf(&msg, "validation FAILED: pattern %s, L=%d bytes, method %s: received messages differ from what was sent\n", pt.p.Name, r.st.Sizes[pt.si], pt.m)
		for rk, v := range all {
			if v[0] == 0 {
				continue
			}
			fmt.Fprintf(&msg, "  rank %d: %d bad message(s); first in repetition %d, iteration %d, step %d, from rank %d, receive-buffer offset %d: first byte %d (expected %d), last byte %d (expected %d)\n",
				rk, v[0], v[1]+1, v[2], v[3], v[4], v[5], v[7], v[6], v[9], v[8])
		}
		msg.WriteString("the run is stopped: its figures cannot be trusted")
	}
	r.s.Stop(harness.ExitValidation, msg.String())
}
