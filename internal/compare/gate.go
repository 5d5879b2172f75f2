package compare

import (
	"fmt"
	"slices"
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
	// Setup are the lines of the machine's description and its MPI's
	// settings in which the sides differ (MachineRows): told with the
	// verdict, as a change of them may be what changed the figures.
	Setup []ConfigRow
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
		return nil, &RefusalError{fmt.Sprintf("%s and %s are one run (the same measurements): %s and %s must be measured apart",
			runName(a.File, a.Index), runName(b.File, b.Index), base.Label, newer.Label)}
	}
	g := &GateResult{Base: base, New: newer, MaxDrop: opt.MaxDrop, Machines: machines, Setup: MachineRows([]*Side{base, newer}), Why: map[*Row][]string{}}
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

// Mixed says which of machine and MPI library the side's runs do not
// share ("machine: 2 values: vm (2); n1 (2)"), "" when they share both.
func (s *Side) Mixed() string {
	var d []string
	for _, x := range []struct {
		what string
		v    [][]string
	}{
		{"machine", distinct([]*Side{s}, machineOf)},
		{"MPI library", shortLibraries(distinct([]*Side{s}, func(r *results.Run) string { return r.FileConfig[results.KeyLibrary] }))},
	} {
		if len(x.v[0]) > 1 {
			d = append(d, x.what+": "+several(x.v[0]))
		}
	}
	return strings.Join(d, "; ")
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
				"too few samples: %s has %d %s launch%s%s and %s %d%s (a launch is one mpirun; its -test.count runs are one sample); with %d and %d samples the Mann–Whitney U test cannot give p < %v (its smallest p is 2/C(%d,%d) = %.3g); launch each side at least %d times (make bench RUNS=%d)",
				base.Label, n, b.Suite.ID().Name, pluralEs(n), b.repeatsSaid(), newer.Label, m, newer.Sets[i].repeatsSaid(), n, m, Alpha, n+m, n, p, minRuns(), minRuns()+1)}
		}
	}
	return nil
}

// repeatsSaid says how many runs of the set repeat others, "" for none.
func (set *Set) repeatsSaid() string {
	if set.repeats == 0 {
		return ""
	}
	if set.repeats == 1 {
		return " (1 more run repeats another: counted once)"
	}
	return fmt.Sprintf(" (%d more runs repeat others: counted once)", set.repeats)
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
