package compare

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// WriteGate writes the decision g: the header of the sides, then a line
// "FAIL: ..." and a table of the offenders (name, unit, the medians, the
// change, the sides' spreads and the p-value), or "INCONCLUSIVE: ..." and
// a table of the unresolved rows with why each is, or "ok: ...", each
// with the counts.
func WriteGate(w io.Writer, g *GateResult) error {
	if err := WriteHeader(w, []*Side{g.Base, g.New}); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if g.Machines != "" {
		fmt.Fprintf(bw, "note: judged across machines (-across-machines): %s\n", g.Machines)
	}
	for _, r := range g.Setup {
		fmt.Fprintf(bw, "note: the sides differ in %s: %s %s, %s %s\n", r.What, g.Base.Label, r.Values[0], g.New.Label, r.Values[1])
	}
	maxDrop := strconv.FormatFloat(g.MaxDrop, 'f', -1, 64) + "%"
	var counts []string
	total := 0
	for i, n := range g.Compared {
		if n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, g.Groups[i]))
			total += n
		}
	}
	summary := fmt.Sprintf("compared %s: %d significantly worse, %d significantly better, %d untestable (too few samples), %d unresolved",
		results.JoinWith(counts, "and"), g.Worse, g.Better, g.Untestable, len(g.Unresolved))
	switch {
	case g.Failed():
		fmt.Fprintf(bw, "FAIL: %d of %d got worse by more than %s beyond doubt (no launch of %s as good as one of %s, beyond the spread, no modes, chance under %.0f%%)\n",
			len(g.Offenders), total, maxDrop, g.New.Label, g.Base.Label, 100*MaxChance)
		if err := writeRows(bw, g, g.Offenders); err != nil {
			return err
		}
		if len(g.Unresolved) > 0 {
			fmt.Fprintf(bw, "and %d more worse by more than %s at the median that the launches cannot resolve:\n", len(g.Unresolved), maxDrop)
			if err := writeRows(bw, g, g.Unresolved); err != nil {
				return err
			}
		}
	case g.Inconclusive():
		fmt.Fprintf(bw, "INCONCLUSIVE: %d of %d are worse by more than %s at the median, but the launches cannot tell it from chance:\n", len(g.Unresolved), total, maxDrop)
		if err := writeRows(bw, g, g.Unresolved); err != nil {
			return err
		}
		fmt.Fprintln(bw, g.advice())
	default:
		fmt.Fprintf(bw, "ok: nothing worse by more than %s at the median (%s)\n", maxDrop, summary)
		return bw.Flush()
	}
	fmt.Fprintf(bw, "(%s)\n", summary)
	return bw.Flush()
}

// advice says what would let an inconclusive gate decide.
func (g *GateResult) advice() string {
	more := "launch each side more often (make bench RUNS=N AGAINST=…: the launches of the two sides interleaved)"
	if g.need > 0 {
		more = fmt.Sprintf("launch each side at least %d times (make bench RUNS=%d AGAINST=…)", g.need, g.need)
	}
	return "To decide: " + more + ", gate on steadier figures (-figures), or allow a larger drop (-max-drop)."
}

// writeRows writes a table of rows: name, unit, the medians, the change,
// each side's spread and the p-value; then why each unresolved row is.
func writeRows(w io.Writer, g *GateResult, rows []*Row) error {
	tt := results.NewLayout([]string{"", "  ", "  ", "  ", "  ", "  ", "  ", "  "})
	tt.Row()
	heads := []string{"", "unit", g.Base.Label, g.New.Label, "change", "spread " + g.Base.Label, "spread " + g.New.Label, "p"}
	for i, h := range heads {
		a := results.AlignRight
		if i < 2 || i == len(heads)-1 {
			a = results.AlignLeft
		}
		tt.Cell(h, a, "")
	}
	for _, r := range rows {
		tt.Row()
		dec := decimals(r)
		tt.Cell(r.Name, results.AlignLeft, "")
		tt.Cell(unitLabel(r.Unit, r.Better), results.AlignLeft, "")
		tt.Cell(strconv.FormatFloat(r.Cells[0].Summary.Center, 'f', dec, 64), results.AlignRight, "")
		tt.Cell(strconv.FormatFloat(r.Cells[1].Summary.Center, 'f', dec, 64), results.AlignRight, "")
		tt.Cell(formatChange(r.Change(1)), results.AlignRight, "")
		tt.Cell(fmt.Sprintf("%.1f%%", sideSpread(r.Cells[0])), results.AlignRight, "")
		tt.Cell(fmt.Sprintf("%.1f%%", sideSpread(r.Cells[1])), results.AlignRight, "")
		tt.Cell(r.Cells[1].Cmp.String(), results.AlignLeft, "")
	}
	if err := tt.Write(w); err != nil {
		return err
	}
	for _, r := range rows {
		if why := g.Why[r]; len(why) > 0 {
			if _, err := fmt.Fprintf(w, "  %s: %s\n", r.Name, strings.Join(why, "; ")); err != nil {
				return err
			}
		}
	}
	return nil
}
