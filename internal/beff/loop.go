package beff

import "math"

// Loop-length targets: each measurement loop should take 2.5–5 ms (paper).
// The controller aims at the upper end; a latency-bound size then settles at
// about half of it.
const (
	TargetLoopTime      = 5e-3
	ShortTargetLoopTime = 1e-3 // quick runs (-test.short)
	ProbeIterations     = 10
	ProbeRepetitions    = 3 // the bound uses the fastest of these probe loops
	// ShortcutLimit is the predicted time of the two largest sizes above
	// which only the best method is measured there (SPEC §1.6).
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
