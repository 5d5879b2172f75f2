package compare

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchmath"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
)

var toy = resultstest.Suite{}

// writeToy writes a toy results file into dir and returns its path.
func writeToy(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// toyRuns is a toy file of 6 launches of size 3 on 2 processes, each value
// scaled by scale(k) and jittered by ±1 % with the seed.
func toyRuns(seed int, scale func(k int) float64) string {
	return resultstest.Launches(2, 3, 6, "full", func(run, k int) float64 {
		jitter := 1 + 0.01*math.Sin(float64(seed*100+run*10+k))
		return 100 * float64(k) * scale(k) * jitter
	})
}

func same(int) float64 { return 1 }

func load(t *testing.T, label string, paths ...string) *Side {
	t.Helper()
	s, err := Load(label, paths, []results.Suite{toy})
	require.NoError(t, err)
	return s
}

func TestMinP(t *testing.T) {
	tests := []struct {
		n, m int
		want float64
	}{
		{0, 6, 1},
		{1, 1, 1},
		{2, 2, 2.0 / 6},
		{3, 3, 0.1},
		{3, 4, 2.0 / 35},
		{4, 4, 2.0 / 70},
		{3, 5, 2.0 / 56},
		{2, 8, 2.0 / 45},
		{6, 6, 2.0 / 924},
	}
	for _, tt := range tests {
		got := MinP(tt.n, tt.m)
		assert.InDelta(t, tt.want, got, 1e-12, "MinP(%d, %d)", tt.n, tt.m)
		if tt.n == 0 {
			continue
		}
		// The U test of benchmath reaches it with samples that do not overlap.
		lo, hi := make([]float64, tt.n), make([]float64, tt.m)
		for i := range lo {
			lo[i] = float64(i)
		}
		for i := range hi {
			hi[i] = float64(100 + i)
		}
		c := assumption.Compare(benchmath.NewSample(lo, thresholds), benchmath.NewSample(hi, thresholds))
		assert.InDelta(t, got, c.P, 1e-9, "U test of %d vs %d", tt.n, tt.m)
	}
	assert.Equal(t, 4, minRuns())
}

func TestAbbrev(t *testing.T) {
	sizes := "1,2,4,8,16,32,64,128,256,512,1024,2048,4096,14458,51037,180154,635923,2244738,7923677,27969708,98729984"
	other := strings.Replace(sizes, "14458", "14459", 1)
	assert.Equal(t, "1,4096,98729984", abbrev("1,4096,98729984"))
	assert.Equal(t, "21 values 1…98729984", abbrev(sizes))
	a, b := abbrevPair(sizes, other)
	assert.Equal(t, "21 values 1…98729984 (item 14: 14458)", a)
	assert.Equal(t, "21 values 1…98729984 (item 14: 14459)", b)
	a, b = abbrevPair(sizes, "1,2,4")
	assert.Equal(t, "21 values 1…98729984", a)
	assert.Equal(t, "1,2,4", b)
}

func TestRowDirection(t *testing.T) {
	cell := func(v float64) *Cell { return &Cell{Summary: benchmath.Summary{Center: v}} }
	declared := []*Side{{Better: map[string]string{"us": "lower"}}}
	bw := &Row{Quantity: Quantity{Unit: "MB/s", Better: directionOf(nil, toy, "MB/s")}, Cells: []*Cell{cell(100), cell(80)}}
	lat := &Row{Quantity: Quantity{Unit: "us", Better: directionOf(declared, toy, "us")}, Cells: []*Cell{cell(2), cell(2.5)}}
	assert.Equal(t, HigherIsBetter, bw.Better, "as the suite declares its folded figures")
	assert.Equal(t, LowerIsBetter, lat.Better, "as the files declare it")
	assert.InDelta(t, -20, bw.Change(1), 1e-9)
	assert.InDelta(t, 20, bw.Worse(1), 1e-9)
	assert.InDelta(t, 25, lat.Change(1), 1e-9)
	assert.InDelta(t, 25, lat.Worse(1), 1e-9)
	assert.Equal(t, NoDirection, directionOf(nil, toy, "us"), "nobody declares it: no table guesses")
	assert.Equal(t, LowerIsBetter, directionOf([]*Side{{Better: map[string]string{"MB/s": "lower"}}}, toy, "MB/s"), "the files win")
	missing := &Row{Quantity: bw.Quantity, Cells: []*Cell{nil, cell(1)}}
	assert.True(t, math.IsNaN(missing.Worse(1)))
	undirected := &Row{Quantity: Quantity{Unit: "us", Better: NoDirection}, Cells: []*Cell{cell(2), cell(2.5)}}
	assert.True(t, math.IsNaN(undirected.Worse(1)))
}

// nsRuns is toyRuns in the made-up unit ns/call, scaled by f, with its
// Unit line when better is not "".
func nsRuns(seed int, f float64, better string) string {
	text := strings.ReplaceAll(toyRuns(seed, func(int) float64 { return f }), " MB/s\n", " "+resultstest.NsPerCall+"\n")
	if better != "" {
		text = "Unit " + resultstest.NsPerCall + " better=" + better + "\n" + text
	}
	return text
}

// TestGateDirectionFromFile: a unit no suite knows gates in the direction
// the files' Unit lines declare: declared lower-is-better, a rise of its
// values is worse and a fall better. Without a declaration the gate
// refuses to judge it, and sides that declare it differently are refused.
func TestGateDirectionFromFile(t *testing.T) {
	dir := t.TempDir()
	base := load(t, "base", writeToy(t, dir, "base.txt", nsRuns(1, 1, "lower")))
	experiments := func(g *GateResult) (worse, better int) {
		for _, r := range g.Tables[1].Rows {
			require.Equal(t, LowerIsBetter, r.Better, r.Name)
			if w := r.Worse(1); w > 0 {
				worse++
			} else if w < 0 {
				better++
			}
		}
		return worse, better
	}
	g, err := Gate(base, load(t, "slower", writeToy(t, dir, "slower.txt", nsRuns(2, 1.5, "lower"))), GateOptions{MaxDrop: 5, Experiments: true})
	require.NoError(t, err)
	worse, better := experiments(g)
	assert.Equal(t, 3, worse, "50 % more ns/call is worse")
	assert.Zero(t, better)
	assert.Len(t, g.Offenders, 3, "the experiments (the toy's folded figure is a mean in MB/s, which rose)")
	g, err = Gate(base, load(t, "faster", writeToy(t, dir, "faster.txt", nsRuns(3, 0.5, "lower"))), GateOptions{MaxDrop: 5, Experiments: true})
	require.NoError(t, err)
	worse, better = experiments(g)
	assert.Equal(t, 3, better, "half the ns/call is better")
	assert.Zero(t, worse)
	for _, o := range g.Offenders {
		assert.False(t, o.Group.Experiments, "no experiment offends: %s", o.Name)
	}

	bare := load(t, "bare", writeToy(t, dir, "bare.txt", nsRuns(4, 1, "")))
	_, err = Gate(bare, load(t, "bare2", writeToy(t, dir, "bare2.txt", nsRuns(5, 1.5, ""))), GateOptions{MaxDrop: 5, Experiments: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "3 rows have a unit whose direction no file declares")
	assert.Contains(t, err.Error(), "toy experiments: Toy/x=1 (ns/call)")

	_, err = Gate(base, load(t, "higher", writeToy(t, dir, "higher.txt", nsRuns(6, 1, "higher"))), GateOptions{MaxDrop: 5, Experiments: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unit ns/call is better=lower in base")
	_, err = Load("mixed", []string{filepath.Join(dir, "base.txt"), filepath.Join(dir, "higher.txt")}, []results.Suite{toy})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mixed: unit ns/call is better=lower in "+filepath.Join(dir, "base.txt")+" but better=higher in "+filepath.Join(dir, "higher.txt"))
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	six := writeToy(t, dir, "six.txt", toyRuns(1, same))
	s := load(t, "A", six)
	require.Len(t, s.Sets, 1)
	assert.Len(t, s.Sets[0].Runs, 6)
	assert.Equal(t, "6 toy runs", s.Counts())
	assert.Equal(t, []string{"toy: mpi-procs 2, toy-size 3"}, s.Describe())

	other := writeToy(t, dir, "four.txt", strings.Replace(toyRuns(2, same), "mpi-procs: 2\nmpi-hosts: toyhost (2)", "mpi-procs: 4\nmpi-hosts: toyhost (4)", 1))
	assert.Equal(t, []string{"toy mpi-procs: 2 vs 4"}, ConfigDiff(s, load(t, "B", other)))

	_, err := Load("A", []string{six, other}, []results.Suite{toy})
	require.Error(t, err)
	assert.Equal(t, "A: the toy runs are not of one configuration: "+six+" run 1 and "+other+" run 1 differ in mpi-procs: 2 vs 4", err.Error())
	_, err = Load("A", []string{six, six}, []results.Suite{toy})
	assert.EqualError(t, err, "A: "+six+" is given twice")
	_, err = Load("A", nil, []results.Suite{toy})
	assert.EqualError(t, err, "A: no files")

	// a copy or a link of a file holds the same runs, so does a copy with
	// a byte-order mark, Windows line ends or its dates edited: they count
	// once, and the side says so
	cp := writeToy(t, dir, "copy.txt", toyRuns(1, same))
	link := filepath.Join(dir, "link.txt")
	require.NoError(t, os.Symlink(six, link))
	bom := writeToy(t, dir, "bom.txt", "\ufeff"+strings.ReplaceAll(toyRuns(1, same), "\n", "\r\n"))
	dated := writeToy(t, dir, "dated.txt", strings.ReplaceAll(toyRuns(1, same), "2026-11-22", "2025-01-01"))
	for _, again := range []string{cp, link, bom, dated} {
		s, err := Load("A", []string{six, again}, []results.Suite{toy})
		require.NoError(t, err)
		assert.Len(t, s.Sets[0].Runs, 6, again)
		require.Len(t, s.Notes, 6, again)
		assert.Equal(t, "A: "+again+" (toy run 1) repeats "+six+" (toy run 1) (the same measurements, whatever its configuration lines say): counted once", s.Notes[0])
	}
	twice := writeToy(t, dir, "twice.txt", toyRuns(1, same)+toyRuns(1, same))
	s, err = Load("A", []string{twice}, []results.Suite{toy})
	require.NoError(t, err)
	assert.Len(t, s.Sets[0].Runs, 6)
	assert.Equal(t, "A: "+twice+" (toy run 7) repeats "+twice+" (toy run 1) (the same measurements, whatever its configuration lines say): counted once", s.Notes[0])
}

// TestPartial checks that a restricted run has no figures but
// its experiments are compared.
func TestPartial(t *testing.T) {
	dir := t.TempDir()
	partial := func(seed int) string {
		return strings.Replace(toyRuns(seed, same), "toy-size: 3\n", "toy-size: 4\ntoy-restricted: yes\n", 1)
	}
	a := load(t, "A", writeToy(t, dir, "a.txt", partial(1)))
	b := load(t, "B", writeToy(t, dir, "b.txt", partial(2)))
	require.Len(t, a.Notes, 1)
	assert.Equal(t, "A: no toy figures from 6 restricted runs ("+filepath.Join(dir, "a.txt")+":7: run 1: missing x=4)", a.Notes[0])
	tables := Compare([]*Side{a, b})
	require.Len(t, tables, 1)
	assert.Equal(t, "toy experiments", tables[0].Group.String())
	assert.Len(t, tables[0].Rows, 3)
	g, err := Gate(a, b, GateOptions{MaxDrop: 5, Experiments: true})
	require.NoError(t, err)
	assert.False(t, g.Failed())
	_, err = Gate(a, b, GateOptions{MaxDrop: 5, Experiments: false})
	assert.EqualError(t, err, "nothing to compare: A and B have no figure in common")
}

func TestGate(t *testing.T) {
	dir := t.TempDir()
	base := load(t, "base", writeToy(t, dir, "base.txt", toyRuns(1, same)))
	slow := load(t, "new", writeToy(t, dir, "new.txt", toyRuns(2, func(k int) float64 {
		if k == 2 {
			return 0.8
		}
		return 1
	})))
	g, err := Gate(base, slow, GateOptions{MaxDrop: 5, Experiments: true})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3}, g.Compared, "1 figure, 3 experiments")
	assert.Equal(t, "toy figures", g.Groups[0].String())
	require.Len(t, g.Offenders, 2, "x=2 and the mean")
	assert.Equal(t, "toy", g.Offenders[0].Name)
	assert.Equal(t, "Toy/x=2", g.Offenders[1].Name)
	assert.InDelta(t, 20, g.Offenders[1].Worse(1), 2)
	var b bytes.Buffer
	require.NoError(t, WriteGate(&b, g))
	assert.Contains(t, b.String(), "FAIL: 2 of 4 got worse by more than 5% beyond doubt (no launch of new as good as one of base, beyond the spread, no modes, chance under 1%)\n")
	assert.Contains(t, b.String(), "(compared 1 toy figures and 3 toy experiments: 2 significantly worse")

	g, err = Gate(base, slow, GateOptions{MaxDrop: 25, Experiments: true})
	require.NoError(t, err)
	assert.False(t, g.Failed())

	_, err = Gate(base, load(t, "new", writeToy(t, dir, "copy.txt", toyRuns(1, same))), GateOptions{MaxDrop: 5, Experiments: true})
	var one *RefusalError
	require.ErrorAs(t, err, &one, "a run gated against itself")
	assert.Contains(t, err.Error(), "base.txt run 1 and "+filepath.Join(dir, "copy.txt")+" run 1 are one run (the same measurements): base and new must be measured apart")

	// four copies of one launch, their dates and commits edited, a side
	// each: one launch a side, too few to judge, and said
	copies := func(label, name, text string) *Side {
		var paths []string
		for i := range 4 {
			edited := strings.ReplaceAll(text, "date: 2026-11-22T10:", fmt.Sprintf("beff-commit: %d\ndate: 2026-11-2%dT10:", i, i))
			paths = append(paths, writeToy(t, dir, fmt.Sprintf("%s%d.txt", name, i), edited))
		}
		return load(t, label, paths...)
	}
	oneBase, oneNew := copies("base", "b", toyLaunches("vm", nil, 100)), copies("new", "n", toyLaunches("vm", nil, 50))
	assert.Len(t, oneBase.Notes, 3)
	assert.Contains(t, oneBase.Notes[0], "b1.txt (toy run 1) repeats "+filepath.Join(dir, "b0.txt")+" (toy run 1) (the same measurements, whatever its configuration lines say): counted once")
	_, err = Gate(oneBase, oneNew, GateOptions{MaxDrop: 5})
	require.ErrorAs(t, err, &one)
	assert.Contains(t, err.Error(), "too few samples: base has 1 toy launch (3 more runs repeat others: counted once) and new 1 (3 more runs repeat others: counted once)")

	few := load(t, "few", writeToy(t, dir, "few.txt", resultstest.Launches(2, 3, 3, "full", func(run, k int) float64 { return float64(run + 1) })))
	_, err = Gate(few, few, GateOptions{MaxDrop: 5, Experiments: true})
	var refusal *RefusalError
	require.ErrorAs(t, err, &refusal)
	assert.Contains(t, err.Error(), "too few samples: few has 3 toy launches and few 3 (a launch is one mpirun")
}

// TestText renders a comparison: header, legend, the tables.
func TestText(t *testing.T) {
	dir := t.TempDir()
	a := load(t, "A", writeToy(t, dir, "a.txt", toyRuns(1, same)))
	b := load(t, "B", writeToy(t, dir, "b.txt", toyRuns(2, func(int) float64 { return 2 })))
	var out bytes.Buffer
	require.NoError(t, WriteText(&out, []*Side{a, b}, Compare([]*Side{a, b})))
	text := out.String()
	assert.True(t, strings.HasPrefix(text, "A: "+filepath.Join(dir, "a.txt")+" (6 toy runs)\nB: "), text)
	assert.Contains(t, text, "toy: mpi-procs 2, toy-size 3\n")
	assert.Contains(t, text, Legend)
	assert.Regexp(t, `(?m)^toy figures +│ +A +│ +B`, text)
	assert.Regexp(t, `(?m)^toy +MB/s ↑ +200\.4 ± 1% +400\.8 ± 1% +\+99\.97% \(p=0\.002 n=6\) better$`, text)
	assert.Regexp(t, `(?m)^toy experiments`, text)
}

// TestSpreads: a side's figures across its launches, with the modes when
// the launches fall into two groups apart.
func TestSpreads(t *testing.T) {
	dir := t.TempDir()
	bimodal := load(t, "A", writeToy(t, dir, "modes.txt", resultstest.Launches(2, 1, 6, "full", func(run, k int) float64 {
		if run%3 == 0 {
			return 500 + float64(run)
		}
		return 200 + float64(run)
	})))
	sp := Spreads(bimodal)
	require.Len(t, sp, 1, "the toy's one figure")
	assert.Equal(t, 6, sp[0].Launches)
	assert.Equal(t, 201.0, sp[0].Min)
	assert.Equal(t, 503.0, sp[0].Max)
	assert.Equal(t, "2 modes: 4 launches near 203.0, 2 near 501.5", sp[0].Modes)
	var b bytes.Buffer
	require.NoError(t, WriteSpreads(&b, sp))
	assert.Contains(t, b.String(), "toy across 6 launches (one sample per launch: the median of its runs)\n")
	assert.Regexp(t, `toy +MB/s +204\.5 +201\.0 … 503\.0 +201\.0 … 503\.0 +147\.7% +2 modes`, b.String())

	steady := load(t, "B", writeToy(t, dir, "steady.txt", toyRuns(1, same)))
	require.Len(t, Spreads(steady), 1)
	assert.Empty(t, Spreads(steady)[0].Modes, "a jitter of ±1 % is one mode")
	assert.Empty(t, Spreads(load(t, "C", writeToy(t, dir, "one.txt", resultstest.File(2, 1, 6, "full", func(run, k int) float64 { return float64(100 + run) })))), "one launch: no spread across launches")
}

func TestModes(t *testing.T) {
	for _, tt := range []struct {
		v    []float64
		want string
	}{
		{[]float64{1, 2, 3}, ""},
		{[]float64{0.18, 0.19, 0.21, 0.50, 0.55}, "2 modes: 3 launches near 0.1900, 2 near 0.5250"},
		{[]float64{0.18, 0.19, 0.21, 0.22, 0.55}, ""}, // one outlier is not a mode
		{[]float64{10, 11, 12, 13, 14, 15}, ""},
		{[]float64{100, 100.5, 101, 101.5}, ""}, // 1 % apart: one mode
	} {
		assert.Equal(t, tt.want, modes(tt.v), "%v", tt.v)
	}
}

// toyLaunches is a toy file of one launch per value of vs (size 2: x=1
// and x=2 both take the value), on host, with the toy-seed of each
// launch from seeds (none when nil). The iterations of a line differ by
// host and launch, as the figures of two launches do where one value
// stands for many: launches of equal values are not one launch read
// twice.
func toyLaunches(host string, seeds []int, vs ...float64) string {
	h := fnv.New32a()
	h.Write([]byte(host))
	var b strings.Builder
	fmt.Fprintf(&b, "mpi-procs: 2\nmpi-hosts: %s (2)\nmpi-library: Toy MPI 1.0, built today\ntoy-size: 2\nbeff-mode: full\n", host)
	for i, v := range vs {
		fmt.Fprintf(&b, "date: 2026-11-22T10:00:%02dZ\n", i)
		if seeds != nil {
			fmt.Fprintf(&b, "toy-seed: %d\n", seeds[i])
		}
		for k := 1; k <= 2; k++ {
			fmt.Fprintf(&b, "BenchmarkToy/x=%d \t%d\t%g MB/s\n", k, 1+i+int(h.Sum32()%1000)*100, v)
		}
	}
	return b.String()
}

// TestSeedsPool: runs of different draws pool in one side's figures, and
// their drawn experiments compare only within one draw, with a note.
func TestSeedsPool(t *testing.T) {
	dir := t.TempDir()
	a := load(t, "A", writeToy(t, dir, "a.txt", toyLaunches("toyhost", []int{1, 2, 3}, 100, 101, 102)))
	b := load(t, "B", writeToy(t, dir, "b.txt", toyLaunches("toyhost", []int{4, 5, 6}, 110, 111, 112)))
	assert.Equal(t, []string{"toy: mpi-procs 2, toy-size 2, toy-seed: 3 draws"}, a.Describe())
	assert.Empty(t, ConfigDiff(a, b), "draws are no difference of configuration")
	tables := Compare([]*Side{a, b})
	require.Len(t, tables, 2)
	assert.Equal(t, []string{"toy"}, rowNames(tables[0]), "the figure pools across the draws")
	assert.Equal(t, 3, len(tables[0].Rows[0].Cells[0].Sample.Values))
	assert.Equal(t, []string{"Toy/x=1"}, rowNames(tables[1]), "x=2 is drawn: no draw on both sides")
	require.Len(t, tables[1].Notes, 1)
	assert.Contains(t, tables[1].Notes[0], "1 experiments of what the runs draw at random (toy-seed) pool only within one draw, and no draw is on two sides (draws: A 3, B 3)")

	shared := load(t, "C", writeToy(t, dir, "c.txt", toyLaunches("toyhost", []int{1, 2, 7}, 90, 91, 92)))
	tables = Compare([]*Side{a, shared})
	assert.Equal(t, []string{"Toy/x=1", "Toy/x=2 (toy-seed 1)", "Toy/x=2 (toy-seed 2)"}, rowNames(tables[1]))
	assert.Contains(t, tables[1].Notes[0], "compared within the 2 draws that A shares with another side")

	one := load(t, "D", writeToy(t, dir, "d.txt", toyLaunches("toyhost", []int{1, 1, 1}, 90, 91, 92)))
	tables = Compare([]*Side{one, one})
	assert.Equal(t, []string{"Toy/x=1", "Toy/x=2"}, rowNames(tables[1]), "one draw: nothing to qualify")
	assert.Empty(t, tables[1].Notes)
}

func rowNames(t *Table) []string {
	var out []string
	for _, r := range t.Rows {
		out = append(out, r.Name)
	}
	return out
}

// TestConfigTable: the header shows how the sides' configurations differ,
// a side's several values counted.
func TestConfigTable(t *testing.T) {
	dir := t.TempDir()
	a := load(t, "A", writeToy(t, dir, "a.txt", toyLaunches("vm", []int{1, 2}, 100, 101)))
	b := load(t, "B", writeToy(t, dir, "b.txt", strings.Replace(toyLaunches("n1", []int{7, 7}, 100, 101), "Toy MPI 1.0", "Other MPI 2.0", 1)))
	rows := ConfigTable([]*Side{a, b})
	assert.Equal(t, []ConfigRow{
		{"machine", []string{"vm (2)", "n1 (2)"}},
		{"MPI library", []string{"Toy MPI 1.0", "Other MPI 2.0"}},
		{"toy toy-seed", []string{"2 draws", "7"}},
	}, rows)
	assert.Empty(t, ConfigTable([]*Side{a, a}))
	var out bytes.Buffer
	require.NoError(t, WriteHeader(&out, []*Side{a, b}))
	assert.Contains(t, out.String(), "The sides' configurations differ in:\n                A            B\n  machine       vm (2)       n1 (2)\n  MPI library   Toy MPI 1.0  Other MPI 2.0\n  toy toy-seed  2 draws      7\n")
	three := load(t, "C", writeToy(t, dir, "c.txt", toyLaunches("vm", []int{3, 4, 5}, 100, 101, 102)))
	assert.Equal(t, []ConfigRow{{"toy toy-seed", []string{"2 draws", "3 draws"}}}, ConfigTable([]*Side{a, three}), "draws of their own on both sides")
}

// TestOneAgainstOne: one launch a side shows the change in percent,
// marked as untested, never as better or worse.
func TestOneAgainstOne(t *testing.T) {
	dir := t.TempDir()
	a := load(t, "A", writeToy(t, dir, "a.txt", toyLaunches("vm", nil, 100)))
	b := load(t, "B", writeToy(t, dir, "b.txt", toyLaunches("vm", nil, 120)))
	var out bytes.Buffer
	require.NoError(t, WriteText(&out, []*Side{a, b}, Compare([]*Side{a, b})))
	assert.Regexp(t, `(?m)^toy +MB/s ↑ +100\.0 .* 120\.0 .* \+20\.00% \(no test: 1 launch a side\)$`, out.String())
	assert.NotRegexp(t, `(?m)(better|worse)$`, out.String(), "no verdict")
}

// TestGatePlacementModes: the gate of one binary against itself whose
// launches fall into two modes of placement (a latency of 0.25 or 0.68 µs
// by where the processes land) is inconclusive, never a FAIL, and says
// why: the launches overlap.
func TestGatePlacementModes(t *testing.T) {
	dir := t.TempDir()
	bw := func(lat ...float64) []float64 { // MB/s of a 1-byte message in lat µs
		out := make([]float64, len(lat))
		for i, l := range lat {
			out[i] = 1 / l
		}
		return out
	}
	base := load(t, "base", writeToy(t, dir, "base.txt", toyLaunches("vm", nil, bw(0.25, 0.28, 0.28, 0.28, 0.68)...)))
	nw := load(t, "new", writeToy(t, dir, "new.txt", toyLaunches("vm", nil, bw(0.28, 0.30, 0.66, 0.67, 0.70)...)))
	g, err := Gate(base, nw, GateOptions{MaxDrop: 10, Experiments: true})
	require.NoError(t, err)
	assert.False(t, g.Failed())
	require.True(t, g.Inconclusive())
	require.Len(t, g.Unresolved, 3)
	assert.Contains(t, g.Why[g.Unresolved[0]][0], "the launches overlap (base's worst 1.471, new's best 3.571)")
	var out bytes.Buffer
	require.NoError(t, WriteGate(&out, g))
	assert.Contains(t, out.String(), "INCONCLUSIVE: 3 of 3 are worse by more than 10% at the median, but the launches cannot tell it from chance:\n")
	assert.Contains(t, out.String(), "\n  toy: the launches overlap")
	assert.Contains(t, out.String(), "To decide: launch each side more often", "more launches would not part launches that overlap")

	// separated, but one side in two modes: still no FAIL
	modal := load(t, "modal", writeToy(t, dir, "modal.txt", toyLaunches("vm", nil, 100, 101, 102, 140, 141, 142)))
	low := load(t, "low", writeToy(t, dir, "low.txt", toyLaunches("vm", nil, 60, 61, 62, 63, 64, 65)))
	g, err = Gate(modal, low, GateOptions{MaxDrop: 10})
	require.NoError(t, err)
	require.True(t, g.Inconclusive())
	assert.Contains(t, strings.Join(g.Why[g.Unresolved[0]], "; "), "modal's launches fall into 2 modes: 3 launches near 101.0, 3 near 141.0")
}

// TestGateSelf: one binary against itself, whose launches land in one of
// two placements (×2.5 apart) and vary by 30 % besides: with 5 launches a
// side and 3 rows the gate never FAILs (chance could explain any
// separation), with 6 it FAILs in fewer gates than MaxChance, though a
// side that lands wholly in one placement looks like a regression.
func TestGateSelf(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	// each line of each launch drawn on its own: 3 rows (x=1, x=2, their mean)
	draw := func(launches int) string {
		return resultstest.Launches(2, 2, launches, "full", func(int, int) float64 {
			v := 100 * (1 + 0.3*(rng.Float64()-0.5))
			if rng.Float64() < 0.4 {
				v /= 2.5
			}
			return v
		})
	}
	for _, launches := range []int{5, 6} {
		const gates = 1000
		failed, inconclusive := 0, 0
		for range gates {
			base := load(t, "base", writeToy(t, dir, "b.txt", draw(launches)))
			nw := load(t, "new", writeToy(t, dir, "n.txt", draw(launches)))
			g, err := Gate(base, nw, GateOptions{MaxDrop: 10, Experiments: true})
			require.NoError(t, err)
			if g.Failed() {
				failed++
			} else if g.Inconclusive() {
				inconclusive++
			}
		}
		if launches == 5 {
			assert.Zero(t, failed, "3/C(10,5) ≥ 1 %: never a FAIL")
		}
		assert.Less(t, float64(failed)/gates, MaxChance, "%d launches: %d of %d gates FAIL", launches, failed, gates)
		assert.Greater(t, inconclusive, gates/10, "%d launches: medians that differ by chance are inconclusive", launches)
	}
}

// TestGateRealDrop: a drop of 20 % on launches that vary by 2 % FAILs.
func TestGateRealDrop(t *testing.T) {
	dir := t.TempDir()
	base := load(t, "base", writeToy(t, dir, "base.txt", toyLaunches("vm", nil, 100, 101, 99, 100.5, 99.5, 100.2)))
	nw := load(t, "new", writeToy(t, dir, "new.txt", toyLaunches("vm", nil, 80, 81, 79, 80.5, 79.5, 80.2)))
	g, err := Gate(base, nw, GateOptions{MaxDrop: 10, Experiments: true})
	require.NoError(t, err)
	assert.True(t, g.Failed())
	assert.Len(t, g.Offenders, 3)
}

// TestGateChanceOfManyRows: with many rows judged, few launches cannot
// tell a separation from chance; the gate says how many would do. Rows
// in proportion (a figure and the same per process) count once.
func TestGateChanceOfManyRows(t *testing.T) {
	assert.InDelta(t, 3.0/252, chance(3, 5, 5), 1e-12)
	assert.Equal(t, 5, launchesFor(2), "2/252 < 1 %")
	assert.Equal(t, 6, launchesFor(3), "3/252 ≥ 1 %")
	assert.Equal(t, 7, launchesFor(10))
	assert.Equal(t, 9, launchesFor(235))
	dir := t.TempDir()
	size := 20
	file := func(f float64) string { // rows not in proportion to each other
		return resultstest.Launches(2, size, 4, "full", func(run, k int) float64 { return f * (100 + float64(run*(1+k))) })
	}
	base := load(t, "base", writeToy(t, dir, "base.txt", file(1)))
	nw := load(t, "new", writeToy(t, dir, "new.txt", file(0.5)))
	g, err := Gate(base, nw, GateOptions{MaxDrop: 10, Experiments: true})
	require.NoError(t, err)
	require.True(t, g.Inconclusive(), "21 rows of 4+4 launches: 21/70 ≥ 1 %")
	assert.Contains(t, strings.Join(g.Why[g.Unresolved[0]], "; "), "4+4 launches are too few for 21 rows")
	assert.Contains(t, g.advice(), "launch each side at least 7 times")

	alike := func(f float64) string { // every row the same launches: one row for chance
		return resultstest.Launches(2, size, 4, "full", func(run, k int) float64 { return f * float64(k) * (100 + float64(run)) })
	}
	base = load(t, "base", writeToy(t, dir, "alike.txt", alike(1)))
	nw = load(t, "new", writeToy(t, dir, "alike-half.txt", alike(0.5)))
	g, err = Gate(base, nw, GateOptions{MaxDrop: 10, Experiments: true})
	require.NoError(t, err)
	assert.Equal(t, 1, g.judged, "21 rows in proportion")
	assert.Contains(t, strings.Join(g.Why[g.Unresolved[0]], "; "), "4+4 launches are too few for 1 rows", "1/70 ≥ 1 %")
}

// TestGateAcrossMachines: sides of different machines or libraries are
// refused unless asked for, and then said.
func TestGateAcrossMachines(t *testing.T) {
	dir := t.TempDir()
	a := load(t, "base", writeToy(t, dir, "a.txt", toyLaunches("vm", nil, 100, 101, 102, 103)))
	b := load(t, "new", writeToy(t, dir, "b.txt", toyLaunches("n1", nil, 100, 101, 102, 103)))
	_, err := Gate(a, b, GateOptions{MaxDrop: 10})
	var refusal *RefusalError
	require.ErrorAs(t, err, &refusal)
	assert.EqualError(t, err, "base and new are not one machine and MPI library (machine: base on vm (2), new on n1 (2)): a gate judges a change of one system; give -across-machines to judge them anyway")
	g, err := Gate(a, b, GateOptions{MaxDrop: 10, AcrossMachines: true})
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, WriteGate(&out, g))
	assert.Contains(t, out.String(), "note: judged across machines (-across-machines): machine: base on vm (2), new on n1 (2)\n")
	lib := load(t, "new", writeToy(t, dir, "c.txt", strings.Replace(toyLaunches("vm", nil, 100, 101, 102, 103), "Toy MPI 1.0", "Toy MPI 1.1", 1)))
	_, err = Gate(a, lib, GateOptions{MaxDrop: 10})
	assert.ErrorContains(t, err, "MPI library: base on Toy MPI 1.0, new on Toy MPI 1.1", "the libraries by the part of their line that tells them apart")
}

// TestMachineRows: the header and the gate name the lines of the machine
// and of its MPI's settings in which the sides differ; of the settings
// each side shows its own.
func TestMachineRows(t *testing.T) {
	dir := t.TempDir()
	withMachine := func(kernel, env string) string {
		return "machine-cpu: X, 64 cores\nmachine-kernel: " + kernel + "\nmpi-env: " + env + "\n"
	}
	a := load(t, "A", writeToy(t, dir, "a.txt", withMachine("Linux 6.1", "UCX_TLS=rc OMPI_MCA_btl=^openib")+toyLaunches("vm", nil, 100, 101, 102, 103, 104)))
	b := load(t, "B", writeToy(t, dir, "b.txt", withMachine("Linux 6.12", "UCX_TLS=rc")+toyLaunches("vm", nil, 100.5, 101.5, 102.5, 103.5, 104.5)))
	old := load(t, "C", writeToy(t, dir, "c.txt", toyLaunches("vm", nil, 100, 101)))
	assert.Equal(t, []ConfigRow{
		{"kernel", []string{"Linux 6.1", "Linux 6.12"}},
		{"MPI settings (environment)", []string{"OMPI_MCA_btl=^openib (and 1 shared)", "(none of its own)"}},
	}, MachineRows([]*Side{a, b}))
	assert.Equal(t, []ConfigRow{
		{"CPU", []string{"X, 64 cores", "not recorded"}},
		{"kernel", []string{"Linux 6.1", "not recorded"}},
		{"MPI settings (environment)", []string{"UCX_TLS=rc OMPI_MCA_btl=^openib", "not recorded"}},
	}, MachineRows([]*Side{a, old}), "a file of an older beff")
	assert.Empty(t, MachineRows([]*Side{a, a}))
	g, err := Gate(a, b, GateOptions{MaxDrop: 5})
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, WriteGate(&out, g))
	assert.Contains(t, out.String(), "note: the sides differ in kernel: A Linux 6.1, B Linux 6.12\n")
	assert.Contains(t, out.String(), "note: the sides differ in MPI settings (environment): A OMPI_MCA_btl=^openib (and 1 shared), B (none of its own)\n")
}
