package skampi

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// A Sweep is a geometric sweep of message lengths: From, From·Step,
// From·Step², … up to To, and To itself.
type Sweep struct {
	From, To int64
	Step     float64
}

// ParseRange reads "from:to" (bytes; suffixes k, Ki, M, Mi accepted) and
// checks it with step: 0 ≤ from ≤ to, step > 1.
func ParseRange(s string, step float64) (Sweep, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return Sweep{}, fmt.Errorf("%q: want from:to in bytes, e.g. 1:4Mi", s)
	}
	from, err := ParseBytes(a)
	if err != nil {
		return Sweep{}, err
	}
	to, err := ParseBytes(b)
	if err != nil {
		return Sweep{}, err
	}
	if from > to {
		return Sweep{}, fmt.Errorf("%q: the start %d is above the end %d", s, from, to)
	}
	if !(step > 1) || math.IsInf(step, 1) {
		return Sweep{}, fmt.Errorf("step %v: want a factor above 1 (e.g. 2 or 1.4142)", step)
	}
	r := Sweep{From: from, To: to, Step: step}
	if n := r.count(); n > MaxCounts {
		return Sweep{}, fmt.Errorf("%q at step %v: about %.0f lengths, more than the %d a curve may have", s, step, n, MaxCounts)
	}
	return r, nil
}

// count is about how many lengths the range gives (Lengths), computed
// without making them: a range from a file is refused before it is
// enumerated.
func (r Sweep) count() float64 {
	lo := math.Max(1, float64(r.From))
	return math.Log(math.Max(lo, float64(r.To))/lo)/math.Log(r.Step) + 2
}

// MaxLen is the longest length a suite may give (1 TiB): above 2^31−1
// bytes only the large-count operations (Op.Count64) measure it.
const MaxLen = 1 << 40

// ParseBytes reads a byte count: digits with an optional suffix k (1e3),
// Ki (1024), M (1e6), Mi (1024²), G, Gi.
func ParseBytes(s string) (int64, error) {
	mult := int64(1)
	for _, sf := range []struct {
		suffix string
		m      int64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}} {
		if strings.HasSuffix(s, sf.suffix) {
			s, mult = strings.TrimSuffix(s, sf.suffix), sf.m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > MaxLen/mult {
		return 0, fmt.Errorf("%q: want a byte count from 0 to %d (suffixes k, Ki, M, Mi, G, Gi)", s, int64(MaxLen))
	}
	return n * mult, nil
}

// Lengths are the message lengths of the range for an element size:
// each length rounded up to a multiple of elem (at least one element;
// 0 stays 0 for elem 1), without repeats, ascending.
func (r Sweep) Lengths(elem int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	add := func(l int64) {
		if l > 0 || elem > 1 {
			l = max(elem, (l+elem-1)/elem*elem)
		}
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	x := float64(r.From)
	if r.From == 0 {
		add(0)
		x = 1
	}
	for ; int64(math.Round(x)) < r.To; x *= r.Step {
		add(int64(math.Round(x)))
	}
	add(r.To)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// MaxCounts is the most counts a list of procs or chunks may give: a
// curve of more points would take hours (give procs-step instead).
const MaxCounts = 10000

// ParseCounts reads process or chunk counts: a comma-separated list of
// numbers and ranges a:b; "N" stands for n. A range gives a, then each
// count step times the one before (at least one more), and b: every
// count for step 1, a geometric axis above. Counts must lie in [lo, n];
// more than MaxCounts are refused before any is made, so the list costs
// memory by what it gives, never by n.
func ParseCounts(s string, lo, n int, step float64) ([]int, error) {
	num := func(w string) (int, error) {
		if w == "N" {
			return n, nil
		}
		v, err := strconv.Atoi(w)
		if err != nil {
			return 0, fmt.Errorf("%q: want a count, a:b or N", w)
		}
		if v < lo || v > n {
			return 0, fmt.Errorf("%d: want a count from %d to %d", v, lo, n)
		}
		return v, nil
	}
	var out []int
	for _, w := range strings.Split(s, ",") {
		a, b, isRange := strings.Cut(strings.TrimSpace(w), ":")
		x, err := num(a)
		if err != nil {
			return nil, err
		}
		y := x
		if isRange {
			if y, err = num(b); err != nil {
				return nil, err
			}
			if x > y {
				return nil, fmt.Errorf("%q: the start is above the end", w)
			}
		}
		if len(out)+countsIn(x, y, step) > MaxCounts {
			return nil, fmt.Errorf("%q: more than %d counts (give a factor between them, e.g. procs-step: 2)", s, MaxCounts)
		}
		out = appendCounts(out, x, y, step)
	}
	sort.Ints(out)
	return slices.Compact(out), nil
}

// nextCount is the count after v on an axis of factor step: v·step
// rounded, at least v+1.
func nextCount(v int, step float64) int {
	return max(v+1, int(min(math.Round(float64(v)*step), math.MaxInt32)))
}

// countsIn is how many counts appendCounts gives from x to y.
func countsIn(x, y int, step float64) int {
	if step <= 1 {
		return y - x + 1
	}
	k := 1
	for v := x; v < y; v = nextCount(v, step) {
		k++
	}
	return k
}

// appendCounts appends x, the counts after it by step below y, and y.
func appendCounts(out []int, x, y int, step float64) []int {
	for v := x; v < y; v = nextCount(v, max(1, step)) {
		out = append(out, v)
	}
	return append(out, y)
}

// JoinCounts writes counts as ParseCounts reads them back with the step
// that made them: for step 1 runs of three or more consecutive counts as
// a:b, the others (and all of a geometric axis, which is short) one by
// one.
func JoinCounts(c []int, step float64) string {
	var parts []string
	for i := 0; i < len(c); {
		j := i
		for j+1 < len(c) && c[j+1] == c[j]+1 {
			j++
		}
		switch {
		case j-i >= 2 && step <= 1:
			parts = append(parts, fmt.Sprintf("%d:%d", c[i], c[j]))
		default:
			for k := i; k <= j; k++ {
				parts = append(parts, strconv.Itoa(c[k]))
			}
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
