package compare

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// A GateResult is the decision of Gate: the rows of the comparison in
// which the new side got significantly worse than the base side by more
// than MaxDrop percent, and counts of the rest.
type GateResult struct {
	Base, New *Side
	MaxDrop   float64 // percent
	Tables    []*Table
	// Offenders are the rows significantly worse by more than MaxDrop
	// percent, in table order.
	Offenders []*Row
	// Groups are the groups compared, in table order; Compared counts the
	// rows with samples on both sides per group; Untestable those of them
	// whose sample sizes cannot give p < Alpha (a measurement missing from
	// some runs).
	Groups     []Section
	Compared   []int
	Untestable int
	// Worse counts the rows significantly worse (the offenders included),
	// Better those significantly better.
	Worse, Better int
	// Unresolved are the rows whose median got worse by more than MaxDrop
	// percent where the sides' own spread cannot tell it from noise: not
	// significant, or not beyond the spread (Row.Spread). They make the
	// decision inconclusive, never a failure.
	Unresolved []*Row
}

// Failed reports whether the new side got worse.
func (g *GateResult) Failed() bool { return len(g.Offenders) > 0 }

// Inconclusive reports whether the gate cannot decide: nothing got worse
// beyond doubt, but something may have, hidden in the sides' spread.
func (g *GateResult) Inconclusive() bool { return !g.Failed() && len(g.Unresolved) > 0 }

// A RefusalError says why Gate cannot decide: the sides are not of the
// same configuration, or they have too few runs for a significant result.
type RefusalError struct {
	Msg string
}

func (e *RefusalError) Error() string { return e.Msg }

// Gate compares side newer with side base and finds every folded figure and,
// with experiments, every experiment that got worse by more than maxDrop
// percent with p < Alpha and by more than the sides' own spread: a
// bandwidth that dropped, a time that rose. A metric is worse by
// (1 - new/base)·100 % when higher is better and by (new/base - 1)·100 %
// when lower is better, from the medians over the launches (one sample
// per launch: its runs' median). A median worse by more than maxDrop that
// is not significant, or not beyond the spread, is unresolved: the
// decision is then inconclusive.
//
// Gate refuses with a *RefusalError when the sides are not the same
// configuration (ConfigDiff; a suite only one side has counts) or when a
// suite has too few runs on the two sides to ever reach p < Alpha:
// MinP(n, m) ≥ Alpha, and when there is nothing to compare.
//
// Every row is tested on its own at Alpha, as benchstat does; with
// thousands of experiments some will differ by chance, so maxDrop must
// exceed the run-to-run spread of the experiments, or experiments be
// false. Figures, when given, names the folded figures to judge (of any
// suite); the others are left out, and a name no suite has is refused.
func Gate(base, newer *Side, maxDrop float64, experiments bool, figures ...string) (*GateResult, error) {
	if d := ConfigDiff(base, newer); len(d) > 0 {
		return nil, &RefusalError{fmt.Sprintf("%s and %s are not the same configuration: %s",
			base.Label, newer.Label, strings.Join(d, "; "))}
	}
	if err := checkSamples(base, newer); err != nil {
		return nil, err
	}
	if err := checkPartial(base, newer); err != nil {
		return nil, err
	}
	if err := checkUnits([]*Side{base, newer}); err != nil {
		return nil, err
	}
	if a, b := results.SameRun(append(base.runs(), newer.runs()...)); a != nil {
		return nil, &RefusalError{fmt.Sprintf("%s and %s are one run (the same configuration and figures): %s and %s must be measured apart",
			runName(a.File, a.Index), runName(b.File, b.Index), base.Label, newer.Label)}
	}
	g := &GateResult{Base: base, New: newer, MaxDrop: maxDrop}
	var missing, undirected []string
	tables, err := selectFigures(Compare([]*Side{base, newer}), figures)
	if err != nil {
		return nil, err
	}
	for _, t := range tables {
		if !experiments && t.Group.Experiments {
			continue
		}
		g.Tables = append(g.Tables, t)
		g.Groups = append(g.Groups, t.Group)
		g.Compared = append(g.Compared, 0)
		for _, r := range t.Rows {
			if r.Cells[0] != nil && r.Cells[1] == nil {
				missing = append(missing, t.Group.String()+": "+r.Name)
			}
			if r.Better == NoDirection {
				undirected = append(undirected, fmt.Sprintf("%s: %s (%s)", t.Group, r.Name, r.Unit))
			}
			g.judge(r)
		}
	}
	if len(undirected) > 0 {
		return nil, &RefusalError{fmt.Sprintf("%d rows have a unit whose direction no file declares (a line \"Unit <unit> better=higher\" or \"better=lower\"), so they cannot be judged:\n  %s",
			len(undirected), strings.Join(listed(undirected, MaxListed), "\n  "))}
	}
	if len(missing) > 0 {
		return nil, &RefusalError{fmt.Sprintf("%s lacks %d of the rows of %s, so it cannot be judged:\n  %s",
			newer.Label, len(missing), base.Label, strings.Join(listed(missing, MaxListed), "\n  "))}
	}
	if g.total() == 0 {
		return nil, &RefusalError{fmt.Sprintf("nothing to compare: %s and %s have no %s in common", base.Label, newer.Label, what(experiments))}
	}
	return g, nil
}

// selectFigures keeps, of the figure tables, the rows named in figures
// (all without names); a name no table has is refused.
func selectFigures(tables []*Table, figures []string) ([]*Table, error) {
	if len(figures) == 0 {
		return tables, nil
	}
	found := map[string]bool{}
	var all []string
	for _, t := range tables {
		if t.Group.Experiments {
			continue
		}
		var keep []*Row
		for _, r := range t.Rows {
			all = append(all, r.Name)
			if slices.Contains(figures, r.Name) {
				keep = append(keep, r)
				found[r.Name] = true
			}
		}
		t.Rows = keep
	}
	for _, f := range figures {
		if !found[f] {
			return nil, &RefusalError{fmt.Sprintf("no figure named %q; the sides' figures are: %s", f, strings.Join(listed(all, MaxListed), ", "))}
		}
	}
	return tables, nil
}

// judge counts row r of the last group: compared, untestable, worse
// (an offender beyond MaxDrop) or better.
func (g *GateResult) judge(r *Row) {
	b, c := r.Cells[0], r.Cells[1]
	if b == nil || c == nil {
		return
	}
	g.Compared[len(g.Compared)-1]++
	if MinP(len(b.Sample.Values), len(c.Sample.Values)) >= Alpha {
		g.Untestable++
		return
	}
	worse := r.Worse(1)
	switch {
	case math.IsNaN(worse):
	case !c.Significant():
		if worse > g.MaxDrop {
			g.Unresolved = append(g.Unresolved, r)
		}
	case worse > 0:
		g.Worse++
		switch {
		case worse <= g.MaxDrop:
		case worse > r.Spread():
			g.Offenders = append(g.Offenders, r)
		default:
			g.Unresolved = append(g.Unresolved, r)
		}
	case worse < 0:
		g.Better++
	}
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

// total is the number of rows compared.
func (g *GateResult) total() int {
	n := 0
	for _, c := range g.Compared {
		n += c
	}
	return n
}

// checkSamples refuses sides on which a suite has too few launches to
// ever reach p < Alpha.
func checkSamples(base, newer *Side) error {
	for i, b := range base.Sets {
		n, m := b.Launches(), newer.Sets[i].Launches()
		if n == 0 && m == 0 {
			continue
		}
		if p := MinP(n, m); p >= Alpha {
			return &RefusalError{fmt.Sprintf(
				"too few samples: %s has %d %s launch%s and %s %d (a launch is one mpirun; its -test.count runs are one sample); with %d and %d samples the Mann–Whitney U test cannot give p < %v (its smallest p is 2/C(%d,%d) = %.3g); launch each side at least %d times (make bench RUNS=%d)",
				base.Label, n, b.Suite.ID().Name, pluralEs(n), newer.Label, m, n, m, Alpha, n+m, n, p, minRuns(), minRuns()+1)}
		}
	}
	return nil
}

func pluralEs(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

// MaxListed is the most rows a refusal lists.
const MaxListed = 50

// listed is s cut to n entries and a last one that counts the rest.
func listed(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(s[:n:n], fmt.Sprintf("… and %d more", len(s)-n))
}

// checkPartial refuses a side that holds a partial run: what it did not
// measure cannot be judged.
func checkPartial(sides ...*Side) error {
	for _, s := range sides {
		if len(s.Partial) > 0 {
			return &RefusalError{fmt.Sprintf("%s holds partial runs, which cannot be judged: %s", s.Label, strings.Join(s.Partial, "; "))}
		}
	}
	return nil
}

func what(experiments bool) string {
	if experiments {
		return "figure or experiment"
	}
	return "figure"
}

// minRuns is the least number of runs per side with which the
// Mann–Whitney U test can reach p < Alpha.
func minRuns() int {
	n := 1
	for MinP(n, n) >= Alpha {
		n++
	}
	return n
}

// WriteGate writes the decision g: the header of the sides, then a line
// "FAIL: ..." and a table of the offenders (name, unit, the medians, the
// change, the sides' spreads and the p-value), or "INCONCLUSIVE: ..." and
// a table of the unresolved rows, or "ok: no significant drop > P%",
// each with the counts.
func WriteGate(w io.Writer, g *GateResult) error {
	if err := WriteHeader(w, []*Side{g.Base, g.New}); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
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
		fmt.Fprintf(bw, "FAIL: %d of %d got significantly worse (p < %v) by more than %s and by more than the sides' spread\n", len(g.Offenders), total, Alpha, maxDrop)
		if err := writeRows(bw, g, g.Offenders); err != nil {
			return err
		}
	case g.Inconclusive():
		fmt.Fprintf(bw, "INCONCLUSIVE: %d of %d are worse by more than %s at the median, but the sides' own spread cannot resolve it (not significant, or not beyond the spread: the range of the launches in %% of their median); launch each side more often, or interleave the launches of the two sides\n", len(g.Unresolved), total, maxDrop)
		if err := writeRows(bw, g, g.Unresolved); err != nil {
			return err
		}
	default:
		fmt.Fprintf(bw, "ok: no significant drop > %s (%s)\n", maxDrop, summary)
		return bw.Flush()
	}
	fmt.Fprintf(bw, "(%s)\n", summary)
	return bw.Flush()
}

// writeRows writes a table of rows: name, unit, the medians, the change,
// each side's spread and the p-value.
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
	return tt.Write(w)
}
