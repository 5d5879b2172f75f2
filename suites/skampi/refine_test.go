package skampi

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refine runs a refiner on a noise-free curve and returns the lengths it
// measured, ascending.
func refine(t *testing.T, grid []int64, elem int64, eps float64, budget int, curve func(m int64) float64) []int64 {
	t.Helper()
	r := NewRefiner(grid, elem, eps, budget)
	for {
		m, ok := r.Next()
		if !ok {
			break
		}
		r.Add(m, curve(m))
		require.LessOrEqual(t, r.Tried(), max(budget, len(grid)), "over the budget")
	}
	out := make([]int64, len(r.known))
	for i, s := range r.known {
		out[i] = s.m
	}
	return out
}

// bracket returns the measured lengths either side of a step at m: the
// largest below it and the smallest at or above it.
func bracket(lengths []int64, m int64) (lo, hi int64) {
	for _, l := range lengths {
		if l < m {
			lo = l
		} else if hi == 0 {
			hi = l
		}
	}
	return lo, hi
}

// TestRefinerFindsStep: a time that doubles at a hidden length (on top of
// latency and bandwidth) is bracketed within 1/16 octave, with fewer
// points than a sweep at ×2^(1/16) over the same range needs.
func TestRefinerFindsStep(t *testing.T) {
	grid := Sweep{From: 1, To: 4 << 20, Step: 2}.Lengths(1)
	dense := len(Sweep{From: 1, To: 4 << 20, Step: math.Pow(2, 1.0/16)}.Lengths(1))
	sixteenth := math.Pow(2, 1.0/16)
	for _, at := range []int64{100, 1000, 4000, 4097, 6000, 12345, 65536, 70000, 1 << 20, 3_000_000} {
		curve := func(m int64) float64 {
			t := 0.2 + float64(m)/5000
			if m >= at {
				t *= 2
			}
			return t
		}
		got := refine(t, grid, 1, 0.03, 2*len(grid), curve)
		lo, hi := bracket(got, at)
		assert.LessOrEqual(t, float64(hi)/float64(lo), sixteenth, "step at %d: bracketed by %d and %d", at, lo, hi)
		assert.Less(t, len(got), dense, "step at %d: points against a dense sweep", at)
		assert.LessOrEqual(t, len(got), len(grid)+8, "step at %d: only the step's segment is split", at)
	}
}

// TestRefinerStraightLine: where the time is linear in the length, the
// grid is all that is measured.
func TestRefinerStraightLine(t *testing.T) {
	grid := Sweep{From: 1, To: 4 << 20, Step: 2}.Lengths(1)
	got := refine(t, grid, 1, 0.03, 2*len(grid), func(m int64) float64 { return 0.3 + float64(m)*4e-4 })
	assert.Equal(t, grid, got)
}

// TestRefinerBudget: a curve that linear interpolation never fits to ε
// uses the whole budget, and every length is a new multiple of the
// element size.
func TestRefinerBudget(t *testing.T) {
	grid := Sweep{From: 0, To: 1 << 20, Step: 2}.Lengths(4)
	got := refine(t, grid, 4, 0.001, 2*len(grid), func(m int64) float64 { return 1 + math.Sqrt(float64(m)) })
	assert.Len(t, got, 2*len(grid))
	seen := map[int64]bool{}
	for _, m := range got {
		assert.Zero(t, m%4, "%d is a multiple of the element", m)
		assert.False(t, seen[m], "%d measured once", m)
		seen[m] = true
	}
}

// TestRefinerEdges: a grid of two lengths has nothing to predict from;
// adjacent lengths cannot be split; a length without a time is not
// handed out again.
func TestRefinerEdges(t *testing.T) {
	step := func(m int64) float64 {
		if m >= 3 {
			return 2
		}
		return 1
	}
	assert.Equal(t, []int64{1, 1024}, refine(t, []int64{1, 1024}, 1, 0.03, 10, step))
	// (2, 4) splits at 3 and then not further; the last segment (4, 8)
	// has only the step's segment to predict from, which misses, so it
	// splits once.
	assert.Equal(t, []int64{1, 2, 3, 4, 6, 8}, refine(t, []int64{1, 2, 4, 8}, 1, 0.03, 10, step))

	r := NewRefiner([]int64{1, 2}, 1, 0.03, 4)
	m1, _ := r.Next()
	m2, _ := r.Next()
	_, more := r.Next()
	assert.Equal(t, []int64{1, 2}, []int64{m1, m2})
	assert.False(t, more, "no time for either length: nothing to refine")
}
