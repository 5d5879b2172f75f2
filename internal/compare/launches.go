package compare

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/beff-suite/beff/internal/results"
)

// Launches are a side's folded figures across its launches: one sample
// per launch (the median of its runs), as the gate takes them.

// A Spread is one folded figure of a suite across the launches of a side.
type Spread struct {
	Row      *Row // the figure; Cells[0] holds the launches' samples
	Launches int
	Min, Max float64
	// Modes says how the launches split when they fall into two groups
	// apart from each other ("" when they do not).
	Modes string
}

// Spreads returns the folded figures of every suite with at least two
// launches on side s, in table order.
func Spreads(s *Side) []Spread {
	var out []Spread
	for _, t := range Compare([]*Side{s}) {
		if t.Group.Experiments {
			continue
		}
		n := s.set(t.Group.Suite).Launches()
		if n < 2 {
			continue
		}
		for _, r := range t.Rows {
			c := r.Cells[0]
			if c == nil {
				continue
			}
			v := c.Sample.Values
			out = append(out, Spread{Row: r, Launches: len(v), Min: slices.Min(v), Max: slices.Max(v), Modes: modes(v)})
		}
	}
	return out
}

// modes says how the sorted values v fall into two groups, when they do:
// split at the widest gap, the groups each of at least two values, the
// gap wider than twice the range of either group and than 5 % of the
// median. A figure of a launch then depends on something the launch
// decided (placement, a protocol the library picked), and one launch is
// not enough to know it.
func modes(v []float64) string {
	n := len(v)
	if n < 4 {
		return ""
	}
	i := 1
	for j := 2; j < n; j++ {
		if v[j]-v[j-1] > v[i]-v[i-1] {
			i = j
		}
	}
	low, high := v[:i], v[i:]
	if len(low) < 2 || len(high) < 2 {
		return ""
	}
	gap := v[i] - v[i-1]
	within := max(low[len(low)-1]-low[0], high[len(high)-1]-high[0])
	if gap <= 2*within || gap <= 0.05*math.Abs(results.Median(v)) {
		return ""
	}
	return fmt.Sprintf("2 modes: %d launches near %s, %d near %s", len(low), sig4(results.Median(low)), len(high), sig4(results.Median(high)))
}

func sig4(v float64) string { return results.Num(v, 4, 1) }

// WriteSpreads writes spreads as a table per suite: the median over the
// launches with its 95 % confidence interval, the range, the range in
// percent of the median, and the modes.
func WriteSpreads(w io.Writer, sp []Spread) error {
	bw := bufio.NewWriter(w)
	var last results.Suite
	var tt *results.Layout
	flush := func() error {
		if tt == nil {
			return nil
		}
		return tt.Write(bw)
	}
	for _, x := range sp {
		if su := x.Row.Group.Suite; last == nil || !results.Same(su, last) {
			if err := flush(); err != nil {
				return err
			}
			last = su
			fmt.Fprintf(bw, "\n%s across %d launches (one sample per launch: the median of its runs)\n", su.ID().Name, x.Launches)
			tt = results.NewLayout([]string{"  ", "  ", "  ", "  ", "  ", "  ", "  "})
			tt.Row()
			for i, h := range []string{"figure", "unit", "median", "95% CI", "range", "spread", "modes"} {
				a := results.AlignRight
				if i < 2 || i == 6 {
					a = results.AlignLeft
				}
				tt.Cell(h, a, "")
			}
		}
		c := x.Row.Cells[0]
		dec := decimals(x.Row)
		f := func(v float64) string { return strconv.FormatFloat(v, 'f', dec, 64) }
		ci := "±∞ (fewer than 6 launches)"
		if !math.IsInf(c.Summary.Lo, 0) && !math.IsInf(c.Summary.Hi, 0) {
			ci = f(c.Summary.Lo) + " … " + f(c.Summary.Hi)
		}
		tt.Row()
		tt.Cell(x.Row.Name, results.AlignLeft, "")
		tt.Cell(results.UnitText(x.Row.Unit), results.AlignLeft, "")
		tt.Cell(f(c.Summary.Center), results.AlignRight, "")
		tt.Cell(ci, results.AlignRight, "")
		tt.Cell(f(x.Min)+" … "+f(x.Max), results.AlignRight, "")
		tt.Cell(fmt.Sprintf("%.1f%%", sideSpread(c)), results.AlignRight, "")
		tt.Cell(x.Modes, results.AlignLeft, "")
	}
	if err := flush(); err != nil {
		return err
	}
	return bw.Flush()
}
