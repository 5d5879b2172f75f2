package skampi

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// A Range is a geometric sweep of message lengths: From, From·Step,
// From·Step², … up to To, and To itself.
type Range struct {
	From, To int64
	Step     float64
}

// ParseRange reads "from:to" (bytes; suffixes k, Ki, M, Mi accepted) and
// checks it with step: 0 ≤ from ≤ to, step > 1.
func ParseRange(s string, step float64) (Range, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return Range{}, fmt.Errorf("%q: want from:to in bytes, e.g. 1:4Mi", s)
	}
	from, err := ParseBytes(a)
	if err != nil {
		return Range{}, err
	}
	to, err := ParseBytes(b)
	if err != nil {
		return Range{}, err
	}
	if from > to {
		return Range{}, fmt.Errorf("%q: the start %d is above the end %d", s, from, to)
	}
	if !(step > 1) || math.IsInf(step, 1) {
		return Range{}, fmt.Errorf("step %v: want a factor above 1 (e.g. 2 or 1.4142)", step)
	}
	return Range{From: from, To: to, Step: step}, nil
}

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
	if err != nil || n < 0 || n > math.MaxInt32/mult {
		return 0, fmt.Errorf("%q: want a byte count from 0 to %d (suffixes k, Ki, M, Mi, G, Gi)", s, math.MaxInt32)
	}
	return n * mult, nil
}

// Lengths are the message lengths of the range for an element size:
// each length rounded up to a multiple of elem (at least one element;
// 0 stays 0 for elem 1), without repeats, ascending.
func (r Range) Lengths(elem int64) []int64 {
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

// ParseCounts reads process or chunk counts: a comma-separated list of
// numbers and ranges a:b (every count from a to b); "N" stands for n.
// Counts must lie in [lo, n].
func ParseCounts(s string, lo, n int) ([]int, error) {
	seen := map[int]bool{}
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
		for v := x; v <= y; v++ {
			seen[v] = true
		}
	}
	out := make([]int, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	sort.Ints(out)
	return out, nil
}
