package beff

import (
	"math"
	"slices"
)

// Loop-length targets: each measurement loop should take 2.5–5 ms (paper).
// The controller aims at the upper end; a latency-bound size then settles at
// about half of it.
const (
	TargetLoopTime      = 5e-3
	ShortTargetLoopTime = 1e-3 // quick runs (-test.short)
	ProbeIterations     = 10
	ProbeRepetitions    = 3 // the bound uses the fastest of these probe loops
	// ShortcutLimit is the predicted time of the two largest sizes above
	// which only the best method is measured there (docs/beff.md "The shortcut").
	ShortcutLimit = 60.0
)

// ProbeBound turns a probe (ProbeIterations iterations at 1 byte taking
// probeTime seconds, maximum over ranks) into the upper bound of the loop
// length: the count that fills target at 1 byte. It is at least 1.
func ProbeBound(probeTime, target float64) int {
	if probeTime <= 0 {
		return 1 << 20
	}
	n := math.Floor(ProbeIterations * target / probeTime)
	return clampLoop(n, 1<<20)
}

// NextLoopLength predicts the loop length of the next size from the previous
// measurement of the same pattern and method: prev/(ratio) · max(1,
// target/prevTime), where ratio is the growth of the message size (2 for
// the doubling sizes, a for the geometric ones). The result lies in [1, bound].
// A previous time of zero (the clock did not advance) makes the factor
// infinite, so the loop length goes to the bound, as target/0 would.
func NextLoopLength(prev int, prevTime, ratio, target float64, bound int) int {
	f := 1.0
	switch {
	case prevTime <= 0:
		f = math.Inf(1)
	case target > prevTime:
		f = target / prevTime
	}
	return clampLoop(float64(prev)/ratio*f, bound)
}

func clampLoop(n float64, bound int) int {
	if math.IsNaN(n) || n < 1 {
		return 1
	}
	if n > float64(bound) {
		return bound
	}
	return int(n)
}

// PredictTime predicts the time of reps repetitions of a measurement at size
// l with loop length ll, from a measurement at size prevL that took prevTime
// for prevLL iterations, assuming the time per iteration grows with the
// message size (bandwidth-bound, the right model for the largest sizes).
func PredictTime(prevTime float64, prevLL int, prevL, l int64, ll, reps int) float64 {
	perIter := prevTime / float64(prevLL) * float64(l) / float64(prevL)
	return float64(reps) * float64(ll) * perIter
}

// Bandwidth is b = L · messages · looplength / time, in MB/s (1e6 B/s).
func Bandwidth(l int64, messages, looplength int, seconds float64) float64 {
	if seconds <= 0 {
		return math.Inf(1)
	}
	return float64(l) * float64(messages) * float64(looplength) / seconds / 1e6
}

// A LoopState is what the controller knows of one pattern and method: the
// bound from the probe and the last measurement (rank 0 keeps it).
type LoopState struct {
	Bound int     // the loop length bound from the 1-byte probe
	Len   int     // loop length of the last measurement (0: none yet)
	Time  float64 // its best loop time (max over ranks), seconds
	L     int64   // its message size, bytes
	MBps  float64 // its best bandwidth, MB/s
	// First is the time of one iteration at the first size measured
	// (its latency), for the time model.
	First float64
}

// Took records a measurement at size l: loop length ll, best loop time
// t (max over ranks) and bandwidth mbps.
func (s *LoopState) Took(l int64, ll int, t, mbps float64) {
	if s.Len == 0 {
		s.First = t / float64(ll)
	}
	s.Len, s.Time, s.L, s.MBps = ll, t, l, mbps
}

// The time model's growth of one iteration beyond the last size measured
// (IterTime): in proportion to the size up to ModelReach times that size,
// then as the size to the power ModelGrowth (the bandwidth still grows
// with the size: on the 2-core VM one iteration of a ring grew as the
// size to the power 0.81 to 0.97 from sizes of 4 KiB to 180 KB on up to
// 94 MiB).
const (
	ModelReach  = 16
	ModelGrowth = 0.8
)

// IterTime predicts the time of one iteration at size l, seconds, from
// the last size measured, and whether it can: at that size's time up to
// it; beyond it where the bandwidth shows (one iteration at least four
// times as long as at the first size), growing with the size as
// ModelReach and ModelGrowth say; where the latency still rules, at the
// last size's time (a protocol switch or noise would look like growth,
// and a larger message takes no less: on processes that share a core,
// one iteration of 256 took seconds from the first size on).
func (s *LoopState) IterTime(l int64) (float64, bool) {
	if s == nil || s.Len == 0 {
		return 0, false
	}
	last := s.Time / float64(s.Len)
	switch {
	case l <= s.L, last < 4*s.First:
		return last, true
	case l <= ModelReach*s.L:
		return last * float64(l) / float64(s.L), true
	}
	reach := float64(ModelReach * s.L)
	return last * ModelReach * math.Pow(float64(l)/reach, ModelGrowth), true
}

// MeasureTime predicts how long the timed loops of a measurement at size
// l take, seconds (the ETA's model, docs/beff.md "How long a run
// takes"): reps loops of the time a loop of the target's takes (loop:
// between half the target and the target), or of one iteration where
// IterTime predicts it longer, each after warm untimed iterations; ll > 0
// forces the loop length (the shortcut).
func (s *LoopState) MeasureTime(l int64, loop float64, reps, warm, ll int) float64 {
	it, ok := s.IterTime(l)
	switch {
	case ll > 0 && ok:
		loop = float64(ll) * it
	default:
		loop = max(loop, it)
	}
	return float64(reps) * (loop + float64(warm)*it)
}

// Typical stands in for the state of a pattern and method not measured
// yet: one iteration as long as the median of the last iterations of
// those measured (nil without any), whatever the size. Where an
// iteration is shorter than the loop time it changes nothing; where
// processes share a core it is longer, and the first size's measurements
// take that long.
func Typical(states []*LoopState) *LoopState {
	var its []float64
	for _, s := range states {
		if s != nil && s.Len > 0 {
			its = append(its, s.Time/float64(s.Len))
		}
	}
	if len(its) == 0 {
		return nil
	}
	slices.Sort(its)
	m := its[len(its)/2]
	return &LoopState{Len: 1, Time: m, First: m}
}

// Next is the loop length of the next measurement at size l: the bound
// for the first, then NextLoopLength from the last.
func (s *LoopState) Next(l int64, target float64) int {
	if s.Len == 0 {
		return s.Bound
	}
	return NextLoopLength(s.Len, s.Time, float64(l)/float64(s.L), target, s.Bound)
}

// Predict predicts the time of reps repetitions at each of the sizes, one
// after the other, as the controller would run them from s.
func (s LoopState) Predict(sizes []int64, target float64, reps int) float64 {
	total := 0.0
	for _, l := range sizes {
		ll := s.Next(l, target)
		t := PredictTime(s.Time, s.Len, s.L, l, ll, reps)
		total += t
		s.Len, s.Time, s.L = ll, t/float64(reps), l
	}
	return total
}

// A ShortcutPlan is the decision of docs/beff.md "The shortcut" for the largest sizes.
type ShortcutPlan struct {
	On   bool              // measure the largest sizes with the best method only
	Best map[string]Method // per pattern, the method with the highest bandwidth at the size before
}

// PlanShortcut decides the shortcut: from the states of every pattern's
// methods measured at size prev (states missing or at another size are
// passed over), it predicts the time of 3 repetitions at each of the
// largest sizes; above limit seconds only the best method of each pattern
// is measured there.
func PlanShortcut(patterns []*Pattern, state func(pattern string, m Method) *LoopState, prev int64, largest []int64, target, limit float64) ShortcutPlan {
	plan := ShortcutPlan{Best: map[string]Method{}}
	total := 0.0
	for _, p := range patterns {
		best := -1.0
		for _, m := range p.Methods() {
			s := state(p.Name, m)
			if s == nil || s.L != prev {
				continue
			}
			if s.MBps > best {
				best, plan.Best[p.Name] = s.MBps, m
			}
			total += s.Predict(largest, target, 3)
		}
	}
	plan.On = total > limit
	return plan
}

// ExpectShortcut is the decision PlanShortcut is expected to take at
// size prev, from the states as they are before it (what the ETA counts
// on): each carried to prev by the time model (IterTime), then decided
// on as PlanShortcut decides.
func ExpectShortcut(patterns []*Pattern, state func(pattern string, m Method) *LoopState, prev int64, largest []int64, target, limit float64) ShortcutPlan {
	carried := func(p string, m Method) *LoopState {
		s := state(p, m)
		if s == nil || s.Len == 0 {
			return nil
		}
		it, _ := s.IterTime(prev)
		return &LoopState{Bound: s.Bound, Len: 1, Time: it, L: prev, MBps: s.MBps, First: s.First}
	}
	return PlanShortcut(patterns, carried, prev, largest, target, limit)
}
