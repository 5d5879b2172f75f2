package compare

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// How the gate judges a row: worse beyond doubt, or unresolved and why.

// judge counts row r: untestable, significantly worse or better, and
// whether it offends or is unresolved (Gate says when).
func (g *GateResult) judge(r *Row) {
	b, c := r.Cells[0], r.Cells[1]
	n, m := len(b.Sample.Values), len(c.Sample.Values)
	if MinP(n, m) >= Alpha {
		g.Untestable++
		return
	}
	worse := r.Worse(1)
	switch {
	case math.IsNaN(worse):
		return
	case c.Significant() && worse > 0:
		g.Worse++
	case c.Significant() && worse < 0:
		g.Better++
	}
	if !(worse > g.MaxDrop) {
		return
	}
	why := g.doubts(r)
	if len(why) == 0 {
		g.Offenders = append(g.Offenders, r)
		return
	}
	g.Unresolved = append(g.Unresolved, r)
	g.Why[r] = why
}

// doubts says why row r, worse by more than MaxDrop at the median, may
// still be chance: none when it is worse beyond doubt.
func (g *GateResult) doubts(r *Row) []string {
	var why []string
	b, c := r.Cells[0], r.Cells[1]
	dec := decimals(r)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', dec, 64) }
	if worstBase, bestNew := extremes(r); !r.beyond(bestNew, worstBase) {
		why = append(why, fmt.Sprintf("the launches overlap (%s's worst %s, %s's best %s)", g.Base.Label, f(worstBase), g.New.Label, f(bestNew)))
	}
	for i, cell := range []*Cell{b, c} {
		if m := modes(sortedValues(cell)); m != "" {
			why = append(why, fmt.Sprintf("%s's launches fall into %s", []string{g.Base.Label, g.New.Label}[i], m))
		}
	}
	if worse := r.Worse(1); worse <= r.Spread() {
		why = append(why, fmt.Sprintf("the change is within the spread (%.1f%%)", r.Spread()))
	}
	n, m := len(b.Sample.Values), len(c.Sample.Values)
	if p := chance(g.judged, n, m); p >= MaxChance {
		need := launchesFor(g.judged)
		if len(why) == 0 {
			g.need = max(g.need, need)
		}
		why = append(why, fmt.Sprintf("%d+%d launches are too few for %d rows: one binary against itself would separate so in one of them by chance in up to %.1f%% of gates (%d a side: under %.0f%%)",
			n, m, g.judged, 100*p, need, 100*MaxChance))
	}
	return why
}

// distinctRows counts the rows whose launches could separate apart from
// each other's: rows whose samples are in proportion on both sides (a
// figure and the same figure per process: b_eff and b_eff/N) rank their
// launches alike, so chance separates them together, and they count once.
func distinctRows(rows []*Row) int {
	seen := map[string]bool{}
	for _, r := range rows {
		var b strings.Builder
		b.WriteString(r.Unit)
		v := append(slices.Clone(r.Cells[0].Sample.Values), r.Cells[1].Sample.Values...)
		for _, x := range v {
			fmt.Fprintf(&b, " %d:%.9g", len(r.Cells[0].Sample.Values), x/v[0])
		}
		seen[b.String()] = true
	}
	return len(seen)
}

// extremes are the base side's worst launch and the new side's best one
// of row r, in its direction.
func extremes(r *Row) (worstBase, bestNew float64) {
	b, c := r.Cells[0].Sample.Values, r.Cells[1].Sample.Values
	if r.Better == LowerIsBetter {
		return slices.Max(b), slices.Min(c)
	}
	return slices.Min(b), slices.Max(c)
}

// beyond reports whether value x is worse than y in r's direction.
func (r *Row) beyond(x, y float64) bool {
	if r.Better == LowerIsBetter {
		return x > y
	}
	return x < y
}

// sortedValues are the cell's samples in ascending order.
func sortedValues(c *Cell) []float64 { return slices.Sorted(slices.Values(c.Sample.Values)) }

// chance bounds how often one binary against itself, n launches against m,
// shows a complete separation in the worse direction in any of k rows:
// k/C(n+m, n), the one-sided chance of one row times the rows.
func chance(k, n, m int) float64 { return math.Min(1, float64(k)*MinP(n, m)/2) }

// launchesFor is the least number of launches a side with which k rows
// keep chance below MaxChance.
func launchesFor(k int) int {
	n := 1
	for chance(k, n, n) >= MaxChance && n < 1000 {
		n++
	}
	return n
}

// Spread is the larger of the two sides' spreads of row r, in percent of
// their medians: the range of the launches' values. A change within it
// may be how the machine varies from launch to launch.
func (r *Row) Spread() float64 {
	s := 0.0
	for _, c := range r.Cells[:2] {
		if c != nil {
			s = max(s, sideSpread(c))
		}
	}
	return s
}

// sideSpread is the range of a cell's samples in percent of its median.
func sideSpread(c *Cell) float64 {
	v := c.Sample.Values
	if len(v) == 0 || c.Summary.Center == 0 {
		return 0
	}
	lo, hi := slices.Min(v), slices.Max(v)
	return (hi - lo) / math.Abs(c.Summary.Center) * 100
}
