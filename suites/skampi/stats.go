package skampi

import (
	"math"
	"sort"
)

// CutQuantile is the fraction of the fastest and of the slowest
// repetitions dropped before averaging (SKaMPI's cut quantile): outliers
// from interrupts or other jobs must not move the mean.
const CutQuantile = 0.25

// A Summary is what one point reports of its valid repetitions (seconds).
type Summary struct {
	N      int     // valid repetitions
	Mean   float64 // mean of the repetitions left after the cut
	Median float64
	Min    float64
	P90    float64
	P99    float64
	// RSE is the relative standard error of Mean: σ/(√n·x̄) over the
	// repetitions left after the cut (n of them).
	RSE float64
}

// Summarize computes the summary of the values x (in any order; x is not
// changed). With no values it returns the zero Summary.
func Summarize(x []float64) Summary {
	if len(x) == 0 {
		return Summary{}
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	mid := Cut(s)
	mean, rse := meanRSE(mid)
	return Summary{N: len(s), Mean: mean, Median: Quantile(s, 0.5), Min: s[0],
		P90: Quantile(s, 0.9), P99: Quantile(s, 0.99), RSE: rse}
}

// Cut returns the middle of the sorted values s: without the fastest and
// the slowest CutQuantile of them (floor of the count at each end), never
// fewer than one value.
func Cut(s []float64) []float64 {
	k := int(math.Floor(CutQuantile * float64(len(s))))
	if 2*k >= len(s) {
		k = (len(s) - 1) / 2
	}
	return s[k : len(s)-k]
}

// meanRSE is the mean of x and its relative standard error σ/(√n·x̄), σ
// the standard deviation with divisor n (as SKaMPI defines it); the error
// of a single value or of a zero mean is +Inf.
func meanRSE(x []float64) (mean, rse float64) {
	n := float64(len(x))
	for _, v := range x {
		mean += v
	}
	mean /= n
	if len(x) < 2 || mean == 0 {
		return mean, math.Inf(1)
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss/n) / math.Sqrt(n) / math.Abs(mean)
}

// Quantile is the q-quantile of the sorted values s by linear
// interpolation between closest ranks (q in [0,1]).
func Quantile(s []float64, q float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (pos-float64(lo))*(s[lo+1]-s[lo])
}

// Median is the median of x (in any order).
func Median(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return Quantile(s, 0.5)
}

// A Rule is the stopping rule of one point: repeat until the relative
// standard error is below Eps, with at least Min and at most Max
// repetitions, until the measured total reaches Wtick/Eps, and within the
// time Budget (seconds of the point, 0: none).
type Rule struct {
	Eps      float64
	Min, Max int
	Wtick    float64
	Budget   float64
}

// A PointProgress is where a point stands after a batch.
type PointProgress struct {
	Tries   int     // repetitions run, valid or not
	Valid   int     // valid ones
	Total   float64 // measured time of the valid ones, seconds
	RSE     float64 // relative standard error so far
	Elapsed float64 // seconds the point has taken
	Rep     float64 // estimate of one repetition's length in the schedule (window or time), seconds
}

// Why a point stopped.
const (
	Going     = iota // not stopped
	Converged        // the error is below ε
	HitMax           // the maximum repetition count without reaching ε
	HitBudget        // the time budget without reaching ε
)

// Next returns the size of the next batch (0: stop) and why the point
// stopped. Rank 0 calls it after every batch with what it has measured.
func (r Rule) Next(p PointProgress) (next int, why int) {
	if p.Valid >= r.Min && p.RSE < r.Eps && p.Total >= r.Wtick/r.Eps {
		return 0, Converged
	}
	if p.Tries >= r.Max {
		return 0, HitMax
	}
	if r.Budget > 0 && p.Elapsed >= r.Budget {
		return 0, HitBudget
	}
	next = r.Min - p.Valid
	if p.Valid >= 2 && !math.IsInf(p.RSE, 1) {
		// The error falls with 1/√n: aim for the n that reaches ε.
		want := int(math.Ceil(float64(p.Valid) * (p.RSE / r.Eps) * (p.RSE / r.Eps)))
		next = max(next, want-p.Valid)
	}
	next = max(next, 4, p.Tries/4) // batches grow, so decisions stay few
	if r.Budget > 0 && p.Rep > 0 {
		next = min(next, max(1, int((r.Budget-p.Elapsed)/p.Rep)))
	}
	return min(next, r.Max-p.Tries), Going
}

// MaxCalls is the most calls one repetition batches.
const MaxCalls = 1000

// MinRep is the shortest repetition, seconds: ten ticks of the clock
// (SKaMPI's rule; wtick is MPI_Wtick), and long enough that the cost of a
// clock read (clock), which a value subtracts but which varies by about
// its own size, stays under a third of the error eps aimed for.
func MinRep(wtick, clock, eps float64) float64 {
	m := 10 * wtick
	if eps > 0 {
		m = max(m, 3*clock/eps)
	}
	return m
}

// CallsPerRep is how many calls one repetition batches: enough that a
// repetition of calls of t seconds each lasts at least minRep, at most
// MaxCalls.
func CallsPerRep(t, minRep float64) int {
	if minRep <= 0 || t >= minRep {
		return 1
	}
	if t <= minRep/MaxCalls {
		return MaxCalls
	}
	return int(math.Ceil(minRep / t))
}

// OverlapPercent is IMB-NBC's overlap of a non-blocking operation, in
// percent: how much of the shorter of its plain time pure and the
// computation cpu stayed hidden when the computation ran between its
// start and its wait and a call took ovrl, relative to the longer of the
// two, 100·max(0, min(1, (pure + cpu − ovrl) / max(pure, cpu))). All
// three are times of one call in the same unit; 0 when pure and cpu are.
func OverlapPercent(pure, ovrl, cpu float64) float64 {
	d := max(pure, cpu)
	if !(d > 0) {
		return 0
	}
	return 100 * max(0, min(1, (pure+cpu-ovrl)/d))
}
