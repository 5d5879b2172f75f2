package compare

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// Legend explains the cells of the tables.
const Legend = `median ± 95 % confidence interval over the launches of each side (a launch's runs: their median);
vs: change of the median,
"~" when not significant (Mann–Whitney U test, p ≥ 0.05); ↑ higher is better, ↓ lower is better;
"no test": too few launches for the test to ever give p < 0.05 (one a side, 3 against 3): the change may be noise`

// WriteHeader writes what the sides are: per side its label, files and
// runs; the configuration of the first side; a table of the settings in
// which the sides' configurations differ (ConfigTable), and the notes of
// every side.
func WriteHeader(w io.Writer, sides []*Side) error {
	bw := bufio.NewWriter(w)
	for _, s := range sides {
		fmt.Fprintf(bw, "%s: %s (%s)\n", s.Label, strings.Join(s.Files, ", "), s.Counts())
	}
	for _, l := range sides[0].Describe() {
		fmt.Fprintln(bw, l)
	}
	if rows := ConfigTable(sides); len(rows) > 0 && len(sides) > 1 {
		fmt.Fprintln(bw, "\nThe sides' configurations differ in:")
		if err := writeConfigTable(bw, sides, rows); err != nil {
			return err
		}
	}
	for _, s := range sides {
		for _, n := range s.Notes {
			fmt.Fprintf(bw, "note: %s\n", n)
		}
	}
	return bw.Flush()
}

// writeConfigTable writes rows under a header of the sides' labels.
func writeConfigTable(w io.Writer, sides []*Side, rows []ConfigRow) error {
	margins := []string{"  "}
	for range sides {
		margins = append(margins, "  ")
	}
	tt := results.NewLayout(margins)
	tt.Row()
	tt.Cell("", results.AlignLeft, "")
	for _, s := range sides {
		tt.Cell(s.Label, results.AlignLeft, "")
	}
	for _, r := range rows {
		tt.Row()
		tt.Cell(r.What, results.AlignLeft, "")
		for _, v := range r.Values {
			tt.Cell(v, results.AlignLeft, "")
		}
	}
	return tt.Write(w)
}

// WriteText writes the comparison of sides as text: the header
// (WriteHeader), the legend and the tables, each followed by its
// footnotes.
func WriteText(w io.Writer, sides []*Side, tables []*Table) error {
	if err := WriteHeader(w, sides); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "\n%s\n", Legend); err != nil {
		return err
	}
	for _, t := range tables {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
		if err := t.write(w); err != nil {
			return err
		}
	}
	return nil
}

// footnotes numbers distinct warnings in order of appearance.
type footnotes struct {
	index map[string]int
	list  []string
}

// mark returns the markers of errs (" ¹²"), or "" when there are none.
func (f *footnotes) mark(errs ...[]error) string {
	var b strings.Builder
	for _, es := range errs {
		for _, e := range es {
			msg := e.Error()
			i, ok := f.index[msg]
			if !ok {
				if f.index == nil {
					f.index = map[string]int{}
				}
				f.list = append(f.list, msg)
				i = len(f.list)
				f.index[msg] = i
			}
			if b.Len() == 0 {
				b.WriteByte(' ')
			}
			b.WriteString(superscript(i))
		}
	}
	return b.String()
}

func (f *footnotes) write(w io.Writer) error {
	for i, msg := range f.list {
		if _, err := fmt.Fprintf(w, "%s %s\n", superscript(i+1), msg); err != nil {
			return err
		}
	}
	return nil
}

var superDigits = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")

func superscript(i int) string {
	var s []rune
	for _, d := range strconv.Itoa(i) {
		s = append(s, superDigits[d-'0'])
	}
	return string(s)
}

// write renders t: two header rows (the side labels; "median ± CI" and
// "vs <first side>"), then a row per metric with its name, unit and
// direction, and per side the median ± the confidence interval and, after
// the first side, the change, the p-value and the verdict (better or
// worse) of a significant change.
func (t *Table) write(w io.Writer) error {
	// Columns: name, unit, then per side: median, ±CI and after the first
	// side: change, p, verdict; then the closing rule.
	margins := []string{"", "  "}
	start := make([]int, len(t.Sides)+1)
	for i := range t.Sides {
		start[i] = len(margins)
		margins = append(margins, "   ", " ± ")
		if i > 0 {
			margins = append(margins, "  ", " ", " ")
		}
	}
	start[len(t.Sides)] = len(margins)
	margins = append(margins, "  ")
	tt := results.NewLayout(margins)

	base := t.Sides[0].Label
	tt.Row()
	tt.Cell(t.Group.String(), results.AlignLeft, "")
	for i, s := range t.Sides {
		tt.Col(start[i]).Span(start[i+1]-start[i], s.Label, results.AlignCenter, " │ ")
	}
	tt.Col(start[len(t.Sides)]).Cell("", results.AlignLeft, " │")
	tt.Row()
	tt.Col(1).Cell("unit", results.AlignLeft, "")
	for i := range t.Sides {
		tt.Col(start[i]).Span(2, "median ± CI", results.AlignCenter, " │ ")
		if i > 0 {
			tt.Span(3, "vs "+base, results.AlignLeft, "")
		}
	}
	tt.Col(start[len(t.Sides)]).Cell("", results.AlignLeft, " │")

	var notes footnotes
	for _, r := range t.Rows {
		tt.Row()
		tt.Cell(r.Name, results.AlignLeft, "")
		tt.Cell(unitLabel(r.Unit, r.Better), results.AlignLeft, "")
		dec := decimals(r)
		for i, c := range r.Cells {
			if c == nil {
				continue
			}
			tt.Col(start[i])
			tt.Cell(strconv.FormatFloat(c.Summary.Center, 'f', dec, 64), results.AlignRight, "")
			tt.Cell(c.Summary.PctRangeString()+notes.mark(c.Sample.Warnings, c.Summary.Warnings), results.AlignRight, " ± ")
			if c.Cmp == nil {
				continue
			}
			delta, test, verdict := r.cmpCells(i, &notes)
			tt.Cell(delta, results.AlignRight, "")
			tt.Cell(test, results.AlignLeft, "")
			tt.Cell(verdict, results.AlignLeft, "")
		}
	}
	if len(t.Rows) > 0 {
		if err := tt.Write(w); err != nil {
			return err
		}
	} else if _, err := fmt.Fprintf(w, "%s: no rows\n", t.Group); err != nil {
		return err
	}
	for _, n := range t.Notes {
		if _, err := fmt.Fprintf(w, "note: %s\n", n); err != nil {
			return err
		}
	}
	return notes.write(w)
}

// cmpCells are the cells of row r's comparison of side i with the first:
// the change ("~" when not significant), the test and the verdict
// (better or worse). Where the launches are too few for the test to ever
// give p < Alpha the change shows, marked as untested, without verdict.
func (r *Row) cmpCells(i int, notes *footnotes) (delta, test, verdict string) {
	c := r.Cells[i]
	if n, m := len(r.Cells[0].Sample.Values), len(c.Sample.Values); MinP(n, m) >= Alpha {
		return formatChange(r.Change(i)), "(no test: " + launchesAside(n, m) + ")", ""
	}
	test = "(" + c.Cmp.String() + ")" + notes.mark(c.Cmp.Warnings)
	if !c.Significant() {
		return "~", test, ""
	}
	switch worse := r.Worse(i); {
	case worse > 0:
		verdict = "worse"
	case worse < 0:
		verdict = "better"
	}
	return formatChange(r.Change(i)), test, verdict
}

// launchesAside says how many launches two sides have: "1 launch a side",
// "3+3 launches".
func launchesAside(n, m int) string {
	if n == 1 && m == 1 {
		return "1 launch a side"
	}
	return fmt.Sprintf("%d+%d launches", n, m)
}

// unitLabel shows unit with the arrow of its direction.
func unitLabel(unit string, d Direction) string {
	unit = results.UnitText(unit)
	switch d {
	case HigherIsBetter:
		return unit + " ↑"
	case LowerIsBetter:
		return unit + " ↓"
	}
	return unit + " ?"
}

// formatChange formats a change in percent as benchstat does.
func formatChange(pct float64) string {
	if math.IsNaN(pct) {
		return "?"
	}
	return fmt.Sprintf("%+.2f%%", pct)
}

// decimals is the number of decimals that shows the smallest median of
// row r with 4 significant digits (at most 9 decimals).
func decimals(r *Row) int {
	v := math.Inf(1)
	for _, c := range r.Cells {
		if c != nil && c.Summary.Center != 0 {
			v = math.Min(v, math.Abs(c.Summary.Center))
		}
	}
	if math.IsInf(v, 1) {
		return 0
	}
	return min(9, max(0, 3-int(math.Floor(math.Log10(v)))))
}
