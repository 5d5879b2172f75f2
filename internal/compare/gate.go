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

// GateOptions say what Gate judges.
type GateOptions struct {
	MaxDrop     float64 // percent
	Experiments bool    // every experiment too, not only the folded figures
	// Figures names the folded figures to judge (of any suite); none: all.
	Figures []string
	// AcrossMachines judges sides of different machines or MPI
	// libraries, which Gate otherwise refuses.
	AcrossMachines bool
}

// A GateResult is the decision of Gate: the rows of the comparison in
// which the new side got worse than the base side by more than MaxDrop
// percent beyond doubt, those in which it may have, and counts of the
// rest.
type GateResult struct {
	Base, New *Side
	MaxDrop   float64 // percent
	Tables    []*Table
	// Offenders are the rows worse by more than MaxDrop percent beyond
	// doubt (Gate says when), in table order.
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
	// percent where the launches cannot tell it from chance; Why says why
	// for each. They make the decision inconclusive, never a failure.
	Unresolved []*Row
	Why        map[*Row][]string
	// Machines says, when the sides are of different machines or MPI
	// libraries and GateOptions.AcrossMachines judged them anyway, how.
	Machines string
	// judged is the number of rows judged; need the launches a side with
	// which chance could no longer explain a separation in as many rows,
	// where chance alone left a row unresolved.
	judged, need int
}

// Failed reports whether the new side got worse.
func (g *GateResult) Failed() bool { return len(g.Offenders) > 0 }

// Inconclusive reports whether the gate cannot decide: nothing got worse
// beyond doubt, but something may have, hidden in the launches' spread.
func (g *GateResult) Inconclusive() bool { return !g.Failed() && len(g.Unresolved) > 0 }

// A RefusalError says why Gate cannot decide: the sides are not of the
// same configuration, or they have too few runs for a significant result.
type RefusalError struct {
	Msg string
}

func (e *RefusalError) Error() string { return e.Msg }

// Gate compares side newer with side base and finds every folded figure
// and, with experiments, every experiment that got worse by more than
// opt.MaxDrop percent: a bandwidth that dropped, a time that rose. A
// metric is worse by (1 - new/base)·100 % when higher is better and by
// (new/base - 1)·100 % when lower is better, from the medians over the
// launches (one sample per launch: its runs' median).
//
// A row worse by more than MaxDrop FAILS only beyond doubt: the sides'
// launches do not overlap (every launch of newer is worse than every
// launch of base), neither side's launches fall into modes (modes), the
// change exceeds either side's spread (Row.Spread), and chance cannot
// explain the separation: one binary against itself separates so in one
// row with probability at most 1/C(n+m, n) for n and m launches, so in
// any of the k rows judged with at most k/C(n+m, n), which must stay
// below MaxChance, whatever the launches' placement does to them.
// Otherwise the row is unresolved, with the reasons, and the decision
// inconclusive.
//
// Gate refuses with a *RefusalError when the sides are not the same
// configuration (ConfigDiff; a suite only one side has counts; settings
// drawn at random do not), when they come from different machines or MPI
// libraries unless opt.AcrossMachines, when a suite has too few launches
// on the two sides to ever reach p < Alpha (MinP(n, m) ≥ Alpha), and when
// there is nothing to compare. A name of opt.Figures no suite has is
// refused.
func Gate(base, newer *Side, opt GateOptions) (*GateResult, error) {
	if d := ConfigDiff(base, newer); len(d) > 0 {
		return nil, &RefusalError{fmt.Sprintf("%s and %s are not the same configuration: %s",
			base.Label, newer.Label, strings.Join(d, "; "))}
	}
	machines, err := checkMachines(base, newer, opt.AcrossMachines)
	if err != nil {
		return nil, err
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
	g := &GateResult{Base: base, New: newer, MaxDrop: opt.MaxDrop, Machines: machines, Why: map[*Row][]string{}}
	var missing, undirected []string
	tables, err := selectFigures(Compare([]*Side{base, newer}), opt.Figures)
	if err != nil {
		return nil, err
	}
	var rows []*Row
	for _, t := range tables {
		if !opt.Experiments && t.Group.Experiments {
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
			if r.Cells[0] != nil && r.Cells[1] != nil {
				g.Compared[len(g.Compared)-1]++
				rows = append(rows, r)
			}
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
	if len(rows) == 0 {
		return nil, &RefusalError{fmt.Sprintf("nothing to compare: %s and %s have no %s in common", base.Label, newer.Label, what(opt.Experiments))}
	}
	g.judged = distinctRows(rows)
	for _, r := range rows {
		g.judge(r)
	}
	return g, nil
}

// checkMachines refuses sides whose runs come from different machines
// (their Slurm cluster, else their hosts with their processes) or MPI
// libraries, unless across; then it says how they differ.
func checkMachines(base, newer *Side, across bool) (string, error) {
	var d []string
	sides := []*Side{base, newer}
	for _, x := range []struct {
		what string
		v    [][]string
	}{
		{"machine", distinct(sides, machineOf)},
		{"MPI library", shortLibraries(distinct(sides, func(r *results.Run) string { return r.FileConfig[results.KeyLibrary] }))},
	} {
		if !slices.Equal(sorted(x.v[0]), sorted(x.v[1])) {
			d = append(d, fmt.Sprintf("%s: %s on %s, %s on %s", x.what, base.Label, several(x.v[0]), newer.Label, several(x.v[1])))
		}
	}
	if len(d) == 0 {
		return "", nil
	}
	if !across {
		return "", &RefusalError{fmt.Sprintf("%s and %s are not one machine and MPI library (%s): a gate judges a change of one system; give -across-machines to judge them anyway",
			base.Label, newer.Label, strings.Join(d, "; "))}
	}
	return strings.Join(d, "; "), nil
}

// machineOf names the machine of a run: its Slurm cluster (whose jobs get
// other nodes each time), else its hosts with their processes.
func machineOf(r *results.Run) string {
	if c := r.FileConfig[results.KeySlurmCluster]; c != "" {
		return "Slurm cluster " + c
	}
	return r.FileConfig[results.KeyHosts]
}

func sorted(v []string) []string { return slices.Sorted(slices.Values(v)) }

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
