package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"

	"github.com/beff-suite/beff/internal/results"
)

// Statistics as benchstat uses them.
const (
	// Alpha is the significance level: a difference is significant when
	// the Mann–Whitney U test gives p < Alpha.
	Alpha = 0.05
	// Confidence is the level of the confidence interval of a median.
	Confidence = 0.95
	// MaxChance bounds how often the gate may FAIL one binary against
	// itself: the chance that the launches of two sides of one binary
	// separate in any row the gate judges must stay below it.
	MaxChance = 0.01
)

// assumption is benchstat's default: no assumption about the
// distribution (median, its order-statistic confidence interval and the
// Mann–Whitney U test).
var assumption = benchmath.AssumeNothing

var thresholds = &benchmath.Thresholds{CompareAlpha: Alpha}

// A Section is one table of a comparison: the folded figures or the
// experiments of one suite.
type Section struct {
	Suite       results.Suite
	Experiments bool
}

func (g Section) String() string {
	if g.Experiments {
		return g.Suite.ID().Name + " experiments"
	}
	return g.Suite.ID().Name + " figures"
}

// groups lists the groups of sides in the order the tables appear: the
// figures of every suite, then their experiments.
func groups(sides []*Side) []Section {
	var out []Section
	for _, experiments := range []bool{false, true} {
		for _, set := range sides[0].Sets {
			out = append(out, Section{set.Suite, experiments})
		}
	}
	return out
}

// A Direction says which way a metric improves.
type Direction int

const (
	HigherIsBetter Direction = iota
	LowerIsBetter
	NoDirection // neither the files nor the suite declare it
)

// directionOf is the direction of unit in suite s on the sides: as their
// files' Unit lines declare it (Load and checkUnits refuse sides whose
// files disagree), else as the suite declares its folded figures (what
// fold -append writes as Unit lines), else NoDirection.
func directionOf(sides []*Side, s results.Suite, unit string) Direction {
	for _, side := range sides {
		if b, ok := side.Better[unit]; ok {
			return parseBetter(b)
		}
	}
	return parseBetter(s.ID().FoldBetter(unit))
}

func parseBetter(b string) Direction {
	switch b {
	case "higher":
		return HigherIsBetter
	case "lower":
		return LowerIsBetter
	}
	return NoDirection
}

// A Quantity is one compared quantity: a folded figure or an experiment.
type Quantity struct {
	Group  Section
	Name   string // the figure name (fig=<name>) or the benchmark line name without "Benchmark"
	Unit   string // MB/s, us, B/F, min
	Better Direction
	// Draw is the draw of an experiment of something drawn at random,
	// where the compared runs are of several draws ("beff-seed 42"); "":
	// it pools across draws.
	Draw string
}

// series collects the samples of one group on one side: the metrics in
// order of first appearance and the values of each.
type series struct {
	order  []Quantity
	values map[string][]float64
}

func (s *series) add(q Quantity, v float64) {
	if s.values == nil {
		s.values = map[string][]float64{}
	}
	if _, ok := s.values[q.Name]; !ok {
		s.order = append(s.order, q)
	}
	s.values[q.Name] = append(s.values[q.Name], v)
}

// samples returns the samples of group g on side s: one value per launch
// for every metric its runs have, the median over the launch's runs (the
// -test.count repetitions of one mpirun share its placement, its
// library's choices and the machine's state then, so they are one sample).
// With byDraw an experiment the suite marks drawn is named with its run's
// draw ("… (beff-seed 42)"): it pools only with runs of that draw.
func (s *Side) samples(g Section, byDraw bool) *series {
	out := &series{}
	set := s.set(g.Suite)
	for _, l := range set.launches() {
		one := &series{}
		for _, i := range l {
			if g.Experiments {
				for _, e := range g.Suite.Experiments(set.Runs[i]) {
					q := Quantity{Group: g, Name: e.Name, Unit: e.Unit}
					if byDraw && e.Drawn {
						q.Name, q.Draw = e.Name+" ("+set.draw[i]+")", set.draw[i]
					}
					one.add(q, e.Value)
				}
			} else if p := set.Folded[i]; p != nil {
				for _, f := range p.Figures() {
					one.add(Quantity{Group: g, Name: f.Name, Unit: f.Unit}, f.Value)
				}
			}
		}
		for _, m := range one.order {
			out.add(m, results.Median(one.values[m.Name]))
		}
	}
	return out
}

// severalDraws reports whether the runs of suite su on the sides are of
// more than one draw.
func severalDraws(sides []*Side, su results.Suite) bool {
	var first string
	seen := false
	for _, s := range sides {
		for _, d := range s.set(su).Draws {
			if !seen {
				first, seen = d, true
			} else if d != first {
				return true
			}
		}
	}
	return false
}

// launches groups the set's runs by launch (file and configuration
// block), in the order they first occur: indexes into Runs.
func (set *Set) launches() [][]int {
	type key struct {
		file   string
		launch int
	}
	at := map[key]int{}
	var out [][]int
	for i, r := range set.Runs {
		k := key{r.File, r.Launch}
		j, ok := at[k]
		if !ok {
			j, at[k] = len(out), len(out)
			out = append(out, nil)
		}
		out[j] = append(out[j], i)
	}
	return out
}

// Launches is the number of launches among the set's runs.
func (set *Set) Launches() int { return len(set.launches()) }

// set is the side's set of suite su.
func (s *Side) set(su results.Suite) *Set {
	for _, set := range s.Sets {
		if results.Same(set.Suite, su) {
			return set
		}
	}
	return &Set{Suite: su}
}

// A Table is the comparison of one group over the sides.
type Table struct {
	Group Section
	Sides []*Side
	Rows  []*Row
	// Notes say what the table leaves out and why.
	Notes []string
}

// A Row compares one metric over the sides.
type Row struct {
	Quantity
	// Cells holds one cell per side, nil where the side has no sample.
	Cells []*Cell
}

// A Cell is the samples of one metric on one side, summarised and, for
// every side after the first, compared with the first.
type Cell struct {
	Sample  *benchmath.Sample
	Summary benchmath.Summary // the median and its confidence interval
	// Cmp is the comparison with the first side's cell; nil for the first
	// side and where the first side has no sample.
	Cmp *benchmath.Comparison
}

// Significant reports whether the cell differs from the first side's
// with p < Alpha.
func (c *Cell) Significant() bool { return c.Cmp != nil && c.Cmp.P < Alpha }

// Change is the change of the median of side i from that of the first
// side in percent (NaN when either is missing or the base median is 0).
func (r *Row) Change(i int) float64 {
	base, c := r.Cells[0], r.Cells[i]
	if base == nil || c == nil || base.Summary.Center == 0 {
		return math.NaN()
	}
	return (c.Summary.Center/base.Summary.Center - 1) * 100
}

// Worse is the percentage by which side i is worse than the first side,
// in the metric's direction: the drop of a bandwidth, the rise of a time;
// negative when it is better, NaN when it cannot be computed (or the
// metric has no direction).
func (r *Row) Worse(i int) float64 {
	ch := r.Change(i)
	switch r.Better {
	case HigherIsBetter:
		return -ch
	case LowerIsBetter:
		return ch
	}
	return math.NaN()
}

// Compare compares the sides, each after the first with the first, and
// returns the tables that have rows: the figures of every suite, then
// their experiments. Rows follow the order in which the metrics first
// occur, first side first. The sides were loaded with one suite list.
func Compare(sides []*Side) []*Table {
	var tables []*Table
	for _, g := range groups(sides) {
		t := compareGroup(g, sides)
		if len(t.Rows) > 0 || len(t.Notes) > 0 {
			tables = append(tables, t)
		}
	}
	return tables
}

func compareGroup(g Section, sides []*Side) *Table {
	t := &Table{Group: g, Sides: sides}
	per := make([]*series, len(sides))
	index := map[string]*Row{}
	byDraw := g.Experiments && severalDraws(sides, g.Suite)
	for i, s := range sides {
		per[i] = s.samples(g, byDraw)
		for _, m := range per[i].order {
			if index[m.Name] == nil {
				m.Better = directionOf(sides, g.Suite, m.Unit)
				r := &Row{Quantity: m, Cells: make([]*Cell, len(sides))}
				index[m.Name] = r
				t.Rows = append(t.Rows, r)
			}
		}
	}
	for _, r := range t.Rows {
		for i := range sides {
			vals := per[i].values[r.Name]
			if len(vals) == 0 {
				continue
			}
			smp := benchmath.NewSample(append([]float64(nil), vals...), thresholds)
			r.Cells[i] = &Cell{Sample: smp, Summary: assumption.Summary(smp, Confidence)}
			if i > 0 && r.Cells[0] != nil {
				cmp := assumption.Compare(r.Cells[0].Sample, smp)
				r.Cells[i].Cmp = &cmp
			}
		}
	}
	if byDraw && len(sides) > 1 {
		t.keepSharedDraws()
	}
	return t
}

// keepSharedDraws leaves out the rows of drawn experiments that only one
// side has (the first side, or none of the others: each drew its own),
// with a note that says how many and why.
func (t *Table) keepSharedDraws() {
	var keep []*Row
	left, shared := map[string]bool{}, map[string]bool{}
	for _, r := range t.Rows {
		if r.Draw == "" {
			keep = append(keep, r)
			continue
		}
		others := slices.ContainsFunc(r.Cells[1:], func(c *Cell) bool { return c != nil })
		if r.Cells[0] != nil && others {
			keep = append(keep, r)
			shared[r.Draw] = true
		} else {
			left[strings.TrimSuffix(r.Name, " ("+r.Draw+")")] = true
		}
	}
	t.Rows = keep
	if len(left) == 0 {
		return
	}
	var draws []string
	for _, s := range t.Sides {
		n := len(s.set(t.Group.Suite).Draws)
		draws = append(draws, fmt.Sprintf("%s %d", s.Label, n))
	}
	what := fmt.Sprintf("%d experiments of what the runs draw at random (%s) pool only within one draw",
		len(left), strings.Join(t.Group.Suite.ID().Drawn, ", "))
	if len(shared) == 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%s, and no draw is on two sides (draws: %s): they are not compared; the folded figures pool across draws",
			what, strings.Join(draws, ", ")))
		return
	}
	t.Notes = append(t.Notes, fmt.Sprintf("%s: they are compared within the %d draw%s that %s shares with another side, and left out of the others (draws: %s)",
		what, len(shared), results.Plural(len(shared)), t.Sides[0].Label, strings.Join(draws, ", ")))
}

// MinP is the smallest two-sided p-value the Mann–Whitney U test can give
// for samples of n and m values: 2 / C(n+m, n), reached when the samples
// do not overlap. With MinP(n, m) ≥ Alpha no difference can be
// significant (3 vs 3: 0.1).
func MinP(n, m int) float64 {
	if n <= 0 || m <= 0 {
		return 1
	}
	// C(n+m, n) as a product of ratios, exact enough for the purpose.
	c := 1.0
	for i := 1; i <= n; i++ {
		c = c * float64(m+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// Changed returns a copy of t with only the rows in which some side
// differs significantly from the first.
func (t *Table) Changed() *Table {
	c := &Table{Group: t.Group, Sides: t.Sides, Notes: t.Notes}
	for _, r := range t.Rows {
		for _, cell := range r.Cells {
			if cell != nil && cell.Significant() {
				c.Rows = append(c.Rows, r)
				break
			}
		}
	}
	return c
}
