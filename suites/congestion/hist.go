package congestion

import "math"

// A Hist is the histogram of a canary's samples over all its processes:
// Counts[k] holds the samples between Min·Ratio^k and Min·Ratio^(k+1)
// seconds (the first and last bins also what lies beyond).
type Hist struct {
	Counts     []int64
	Min, Ratio float64
}

// N is the number of samples.
func (h Hist) N() int64 {
	var n int64
	for _, c := range h.Counts {
		n += c
	}
	return n
}

// Quantile is the time below which a share q (0 < q ≤ 1) of the samples
// lie: the geometric middle of the bin where the count reaches ⌈q·N⌉, so
// within half a bin (Ratio^½) of the exact quantile; NaN without samples.
func (h Hist) Quantile(q float64) float64 {
	n := h.N()
	if n == 0 {
		return math.NaN()
	}
	want := int64(math.Ceil(q*float64(n) - 1e-9))
	want = max(1, min(want, n))
	var seen int64
	for k, c := range h.Counts {
		if seen += c; seen >= want {
			return h.Min * math.Pow(h.Ratio, float64(k)+0.5)
		}
	}
	return math.NaN()
}
