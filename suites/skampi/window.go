package skampi

import "math"

// A Window is the schedule of one batch under window synchronisation:
// repetition k starts at Start + k·Len on every process's clock corrected
// by its offset to rank 0's.
type Window struct {
	Start float64 // rank 0's clock, seconds
	Len   float64 // seconds
}

// Target is the start time of repetition k.
func (w Window) Target(k int) float64 { return w.Start + float64(k)*w.Len }

// Invalid marks, for one process, the repetitions of a batch it cannot
// vouch for: it arrived after the repetition's start time (it was late:
// the previous one overran, or it was descheduled), or it finished after
// the window closed (the next one could not start in time). arrive[k] is
// when the process was ready to wait for repetition k and end[k] when the
// repetition ended, both on the corrected clock.
func (w Window) Invalid(arrive, end []float64) []bool {
	out := make([]bool, len(arrive))
	for k := range arrive {
		t := w.Target(k)
		out[k] = arrive[k] > t || end[k] > t+w.Len
	}
	return out
}

// Grow returns the window for the next batch: twice as long when more
// than a quarter of the tries of the last batch were invalid.
func Grow(window float64, invalid, tries int) float64 {
	if 4*invalid > tries {
		return 2 * window
	}
	return window
}

// FirstWindow is the window a point starts with: twice the slowest
// warm-up call plus twice the uncertainty of the clock offsets, and at
// least MinWindow.
func FirstWindow(warm, offsetErr float64) float64 {
	return math.Max(MinWindow, 2*warm+2*offsetErr)
}

// MinWindow is the shortest window, seconds: the scheduling loop itself
// needs a few clock reads.
const MinWindow = 2e-6

// Lead is how far ahead of its clock rank 0 sets the start of a batch:
// long enough for the broadcast of the start to reach every process
// (bcast, the time of one broadcast) and for the first window.
func Lead(bcast, window float64) float64 {
	return 4*bcast + window + MinWindow
}
