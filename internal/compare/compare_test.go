package compare

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchmath"

	"github.com/beff-suite/beff/internal/compare/comparetest"
)

const seed = "../../testdata/compare/seed.txt"

// write writes the runs of opt into dir/name and returns the path.
func write(t *testing.T, dir, name string, opt comparetest.Options) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, comparetest.WriteFile(path, seed, opt))
	return path
}

func load(t *testing.T, label string, paths ...string) *Side {
	t.Helper()
	s, err := Load(label, paths)
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

func TestTextTable(t *testing.T) {
	tt := newTextTable([]string{"", "  ", " ± ", "  "})
	tt.row()
	tt.cell("name", alignLeft, "")
	tt.span(2, "a wide header", alignCenter, " │ ")
	tt.cell("", alignLeft, " │")
	tt.row()
	tt.cell("x", alignLeft, "")
	tt.cell("1.5", alignRight, "")
	tt.cell("2%", alignRight, "")
	tt.row()
	tt.cell("longer", alignLeft, "")
	tt.col(2).cell("10%", alignRight, "")
	var b bytes.Buffer
	require.NoError(t, tt.write(&b))
	assert.Equal(t, ""+
		"name   │ a wide header │\n"+
		"x           1.5 ±  2%\n"+
		"longer          ± 10%\n", b.String())
}

func TestRowDirection(t *testing.T) {
	cell := func(v float64) *Cell { return &Cell{Summary: benchmath.Summary{Center: v}} }
	bw := &Row{Metric: Metric{Unit: "MB/s", Better: betterOf("MB/s")}, Cells: []*Cell{cell(100), cell(80)}}
	lat := &Row{Metric: Metric{Unit: "us", Better: betterOf("us")}, Cells: []*Cell{cell(2), cell(2.5)}}
	assert.InDelta(t, -20, bw.Change(1), 1e-9)
	assert.InDelta(t, 20, bw.Worse(1), 1e-9)
	assert.InDelta(t, 25, lat.Change(1), 1e-9)
	assert.InDelta(t, 25, lat.Worse(1), 1e-9)
	assert.Equal(t, LowerIsBetter, betterOf("min"))
	assert.Equal(t, HigherIsBetter, betterOf("B/F"))
	missing := &Row{Metric: bw.Metric, Cells: []*Cell{nil, cell(1)}}
	assert.True(t, math.IsNaN(missing.Worse(1)))
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	six := write(t, dir, "six.txt", comparetest.Options{Runs: 6, Seed: 1, Jitter: 0.01})
	s := load(t, "A", six)
	assert.Len(t, s.Runs, 6)
	assert.Len(t, s.IORuns, 6)
	assert.Equal(t, "6 b_eff runs, 6 b_eff_io runs", s.Counts())
	assert.Equal(t, []string{
		"b_eff: mpi-procs 2, beff-lmax 98729984, beff-sizes 1,4096,98729984, beff-patterns 9 values ring2…pingpong, beff-random-patterns 2, beff-mode full",
		"b_eff_io: mpi-procs 2, beffio-partitions 2, beffio-mpart 98729984, beffio-rewrite all, beffio-t-s 150, beff-mode full",
	}, s.Config.Describe())

	// Other sizes on the other side.
	longer := write(t, dir, "t300.txt", comparetest.Options{Runs: 6, Seed: 2, Jitter: 0.01,
		Config: map[string]string{"beffio-t-s": "300", "beff-mode": "short (quick check, not a valid result)"}})
	assert.Equal(t, []string{
		"b_eff beff-mode: full vs short (quick check, not a valid result)",
		"b_eff_io beffio-t-s: 150 vs 300",
		"b_eff_io beff-mode: full vs short (quick check, not a valid result)",
	}, ConfigDiff(s, load(t, "B", longer)))

	// One side, two configurations.
	_, err := Load("A", []string{six, longer})
	require.Error(t, err)
	assert.Equal(t, "A: the b_eff runs are not of one configuration: "+six+" run 1 and "+longer+" run 1 differ in beff-mode: full vs short (quick check, not a valid result)", err.Error())
}

// TestPartial checks that a deliberately partial run (beff-patterns
// without the rings) has no figures but its experiments are compared.
func TestPartial(t *testing.T) {
	dir := t.TempDir()
	opt := func(seed uint64) comparetest.Options {
		return comparetest.Options{Runs: 6, Seed: seed, Jitter: 0.01,
			Config: map[string]string{"beff-patterns": "pingpong"},
			Keep:   func(n string) bool { return strings.HasPrefix(n, "Beff/pat=pingpong/") }}
	}
	a := load(t, "A", write(t, dir, "a.txt", opt(1)))
	b := load(t, "B", write(t, dir, "b.txt", opt(2)))
	require.Len(t, a.Notes, 1)
	assert.Contains(t, a.Notes[0], "A: no b_eff figures from 6 partial runs ("+filepath.Join(dir, "a.txt")+":48: run 1: partial run (beff-patterns: pingpong)")
	tables := Compare([]*Side{a, b})
	require.Len(t, tables, 1)
	assert.Equal(t, BeffExperiments, tables[0].Group)
	assert.Len(t, tables[0].Rows, 3)
	g, err := Gate(a, b, 5, true)
	require.NoError(t, err)
	assert.False(t, g.Failed())
	_, err = Gate(a, b, 5, false)
	assert.EqualError(t, err, "nothing to compare: A and B have no figure in common")
}

func TestGateCounts(t *testing.T) {
	dir := t.TempDir()
	base := load(t, "base", write(t, dir, "base.txt", comparetest.Options{Runs: 6, Seed: 1, Jitter: 0.01}))
	slow := load(t, "new", write(t, dir, "new.txt", comparetest.Options{Runs: 6, Seed: 2, Jitter: 0.01,
		Scale: func(n string) float64 {
			if strings.HasPrefix(n, "Beff/pat=ring2/") {
				return 0.9
			}
			return 1
		}}))
	g, err := Gate(base, slow, 5, true)
	require.NoError(t, err)
	assert.Equal(t, [numGroups]int{9, 7, 75, 144}, g.Compared)
	require.Len(t, g.Offenders, 9, "ring2: 3 sizes × 3 methods")
	for _, r := range g.Offenders {
		assert.True(t, strings.HasPrefix(r.Name, "Beff/pat=ring2/"), r.Name)
		assert.InDelta(t, 10, r.Worse(1), 2)
	}
	g, err = Gate(base, slow, 15, true)
	require.NoError(t, err)
	assert.False(t, g.Failed())
	assert.GreaterOrEqual(t, g.Worse, 9)
}
