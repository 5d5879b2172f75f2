package skampi

import (
	"math"
	"sort"
)

// A Refiner chooses the message lengths of a suite measured with
// adaptive refinement (SKaMPI's parameter refinement): first the lengths
// of the geometric grid, then, one at a time, the geometric middle of the
// segment between two measured lengths where linear interpolation is
// least to be trusted. Its error estimate for the segment from (m_b, t_b)
// to (m_c, t_c) is
//
//	min(|Δ1|/t_b, |Δ2|/t_c, (m_c − m_b)/m_b)
//
// where Δ1 is the error of predicting t_c by extending the segment to the
// left of it and Δ2 that of predicting t_b by extending the segment to
// its right. Where a time steps (a protocol switch), both predictions
// fail and the segment is split until it is narrower than ε relative to
// m_b; along a straight line both predictions hold and nothing is added.
// The refinement stops when the worst error is below ε or the points
// reach the budget.
//
// A Refiner is plain state: the driver keeps it on one rank and
// broadcasts what Next returns.
type Refiner struct {
	grid   []int64 // the initial lengths, ascending
	elem   int64   // lengths are multiples of it
	eps    float64
	budget int            // most lengths in all (grid included)
	tried  map[int64]bool // every length handed out
	known  []sample       // lengths with a time, ascending
}

type sample struct {
	m int64
	t float64
}

// NewRefiner returns a refiner over the grid (ascending lengths, multiples
// of elem) that stops at an error below eps or after budget lengths (at
// least the grid).
func NewRefiner(grid []int64, elem int64, eps float64, budget int) *Refiner {
	return &Refiner{grid: grid, elem: max(elem, 1), eps: eps, budget: max(budget, len(grid)), tried: map[int64]bool{}}
}

// Next returns the next length to measure, and false when the refinement
// is done. Every length is handed out once.
func (r *Refiner) Next() (int64, bool) {
	for _, m := range r.grid {
		if !r.tried[m] {
			r.tried[m] = true
			return m, true
		}
	}
	if len(r.tried) >= r.budget {
		return 0, false
	}
	m, err := r.worst()
	if err < r.eps {
		return 0, false
	}
	r.tried[m] = true
	return m, true
}

// Add records the time measured at length m. A length without a valid
// time is not added: it takes no part in the predictions.
func (r *Refiner) Add(m int64, t float64) {
	i := sort.Search(len(r.known), func(i int) bool { return r.known[i].m >= m })
	r.known = append(r.known, sample{})
	copy(r.known[i+1:], r.known[i:])
	r.known[i] = sample{m, t}
}

// Tried reports how many lengths were handed out.
func (r *Refiner) Tried() int { return len(r.tried) }

// worst returns the split point of the segment with the largest error
// estimate, and that estimate (0 when no segment can be split).
func (r *Refiner) worst() (int64, float64) {
	var at int64
	worst := 0.0
	for i := 0; i+1 < len(r.known); i++ {
		mid, ok := r.split(r.known[i].m, r.known[i+1].m)
		if !ok {
			continue
		}
		if e := r.segmentError(i); e > worst {
			at, worst = mid, e
		}
	}
	return at, worst
}

// split is the geometric middle of (b, c) as a multiple of the element
// size, and whether it lies strictly between them and is new.
func (r *Refiner) split(b, c int64) (int64, bool) {
	g := math.Sqrt(float64(max(b, r.elem)) * float64(c))
	mid := int64(math.Round(g/float64(r.elem))) * r.elem
	return mid, mid > b && mid < c && !r.tried[mid]
}

// segmentError is the error estimate of the segment from known[i] to
// known[i+1]; 0 when it has no neighbouring segment to predict from.
func (r *Refiner) segmentError(i int) float64 {
	b, c := r.known[i], r.known[i+1]
	e := math.Inf(1)
	if b.m > 0 {
		e = float64(c.m-b.m) / float64(b.m)
	}
	predicted := false
	if i > 0 {
		e = min(e, relative(c.t-extend(r.known[i-1], b, c.m), b.t))
		predicted = true
	}
	if i+2 < len(r.known) {
		e = min(e, relative(b.t-extend(c, r.known[i+2], b.m), c.t))
		predicted = true
	}
	if !predicted {
		return 0
	}
	return e
}

// extend is the time at m on the line through p and q.
func extend(p, q sample, m int64) float64 {
	slope := (q.t - p.t) / float64(q.m-p.m)
	return p.t + slope*float64(m-p.m)
}

// relative is |d|/t, +Inf for a time that is not positive.
func relative(d, t float64) float64 {
	if !(t > 0) {
		return math.Inf(1)
	}
	return math.Abs(d) / t
}
