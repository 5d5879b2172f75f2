package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/compare"
	"github.com/beff-suite/beff/internal/compare/comparetest"
	"github.com/beff-suite/beff/suites/beff"
)

// compareSeed is a real run cut down to a small complete one: b_eff on 2
// processes (results/vm-2026-11-21-np2-run11.txt) with 3 sizes, the 6
// rings, 2 random patterns and ping-pong, and its b_eff_io partition of 2
// processes (configuration lines adjusted to match).
const compareSeed = "testdata/compare/seed.txt"

// slowExperiment is the experiment that slow.txt scales by 0.8.
const slowExperiment = "Beff/pat=ring4/L=4096/mthd=alltoallv"

// scaleOnly returns a Scale function that scales the lines whose names
// match by f.
func scaleOnly(match func(string) bool, f float64) func(string) float64 {
	return func(name string) float64 {
		if match(name) {
			return f
		}
		return 1
	}
}

// named matches the name want.
func named(want string) func(string) bool { return func(n string) bool { return n == want } }

// messagesOn is the factor of a b_eff line's bandwidth on n processes
// over its bandwidth on m: its pattern's messages per iteration grow, its
// loop time stays (the fold checks that the two agree).
func messagesOn(n, m int) func(name string) float64 {
	to, from := beff.CountSet(n, 30), beff.CountSet(m, 30)
	return func(name string) float64 {
		pat, ok := strings.CutPrefix(name, "Beff/pat=")
		if !ok {
			return 1
		}
		pat, _, _ = strings.Cut(pat, "/")
		return float64(to.Lookup(pat).Messages()) / float64(from.Lookup(pat).Messages())
	}
}

// compareInputs writes the synthetic runs of the compare and gate tests
// into dir: 9 runs per file with ±1 % jitter unless said otherwise (9
// launches a side let the gate judge its 235 rows of experiments).
//
//	base.txt        seed 1
//	base-K.txt      run K of base.txt alone (K = 1..9)
//	same.txt        seed 2: unchanged
//	slow.txt        seed 2, slowExperiment scaled by 0.8
//	slowlat.txt     seed 2, every 1-byte line 0.8 times as fast (latency +25 %)
//	slowio.txt      seed 2, the read total of the scatter type scaled by 0.8
//	few.txt, few2.txt  3 runs, seeds 3 and 4
//	np4.txt         seed 2, mpi-procs: 4
//	beffonly.txt    seed 2, the b_eff lines only
//
// Each run has 75 b_eff lines and 147 b_eff_io lines, 144 of them
// experiments (the 3 phase lines are not).
func compareInputs(t *testing.T, dir string) {
	t.Helper()
	write := func(name string, opt comparetest.Variant) {
		if opt.Runs == 0 {
			opt.Runs = 9
		}
		opt.Jitter = 0.01
		require.NoError(t, comparetest.WriteFile(filepath.Join(dir, name), compareSeed, opt))
	}
	write("base.txt", comparetest.Variant{Seed: 1})
	for k := 1; k <= 9; k++ {
		write(fmt.Sprintf("base-%d.txt", k), comparetest.Variant{Seed: 1, Runs: 1, FirstRun: k - 1})
	}
	write("same.txt", comparetest.Variant{Seed: 2})
	write("slow.txt", comparetest.Variant{Seed: 2, Scale: scaleOnly(named(slowExperiment), 0.8)})
	write("slowlat.txt", comparetest.Variant{Seed: 2, Scale: scaleOnly(func(n string) bool {
		return strings.HasPrefix(n, "Beff/") && strings.Contains(n, "/L=1/")
	}, 0.8)})
	write("slowio.txt", comparetest.Variant{Seed: 2, Scale: scaleOnly(named("BeffIO/n=2/acc=read/type=scatter/pat=total"), 0.8)})
	write("few.txt", comparetest.Variant{Seed: 3, Runs: 3})
	write("few2.txt", comparetest.Variant{Seed: 4, Runs: 3})
	write("np4.txt", comparetest.Variant{Seed: 2, Config: map[string]string{"mpi-procs": "4", "mpi-hosts": "vm (4)", "mpi-procs-per-node": "4"}, Rates: messagesOn(4, 2)})
	write("beffonly.txt", comparetest.Variant{Seed: 2, Keep: func(n string) bool { return strings.HasPrefix(n, "Beff/") }})
}

func baseParts() string {
	var p []string
	for k := 1; k <= 9; k++ {
		p = append(p, fmt.Sprintf("base-%d.txt", k))
	}
	return strings.Join(p, ",")
}

func TestGate(t *testing.T) {
	dir := t.TempDir()
	compareInputs(t, dir)
	skampiInputs(t, dir)
	noisy := func(name string, seed uint64, scale float64) {
		require.NoError(t, comparetest.WriteFile(filepath.Join(dir, name), compareSeed, comparetest.Variant{Runs: 6, Jitter: 0.3, Seed: seed,
			Scale: func(string) float64 { return scale }}))
	}
	noisy("noisy.txt", 7, 1)
	noisy("noisy-slow.txt", 8, 0.95)
	require.NoError(t, comparetest.WriteFile(filepath.Join(dir, "onelaunch.txt"), compareSeed, comparetest.Variant{Runs: 6, Jitter: 0.01, Seed: 1, OneLaunch: true}))
	require.NoError(t, comparetest.WriteFile(filepath.Join(dir, "seed42.txt"), compareSeed, comparetest.Variant{Runs: 9, Jitter: 0.01, Seed: 2, Config: map[string]string{"beff-seed": "42"}}))
	require.NoError(t, comparetest.WriteFile(filepath.Join(dir, "othervm.txt"), compareSeed, comparetest.Variant{Runs: 9, Jitter: 0.01, Seed: 2, Config: map[string]string{"mpi-hosts": "other (2)"}}))
	t.Chdir(dir)
	gate := func(base, nw string, extra ...string) []string {
		return append([]string{"gate", "-base", base, "-new", nw, "-max-drop", "5"}, extra...)
	}
	gatex := func(base, nw string, extra ...string) []string {
		return gate(base, nw, append(extra, "-experiments")...)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // substrings of stdout
		stderr string   // a substring of stderr
	}{
		{"slower experiment fails", gatex("base.txt", "slow.txt"), 13,
			[]string{"FAIL: 1 of 235 got worse by more than 5% beyond doubt (no launch of new as good as one of base, beyond the spread, no modes, chance under 1%)\n", "\n" + slowExperiment + " ", " -20.", "p=0.000 n=9"}, ""},
		{"unchanged passes", gatex("base.txt", "same.txt"), 0,
			[]string{"ok: nothing worse by more than 5% at the median (compared 9 b_eff figures, 7 b_eff_io figures, 75 b_eff experiments and 144 b_eff_io experiments"}, ""},
		{"unchanged passes, reversed", gatex("same.txt", "base.txt"), 0, []string{"ok: nothing worse by more than 5%"}, ""},
		{"joined files are launches", gatex(baseParts(), "slow.txt"), 13, []string{"FAIL: 1 of 235", "\n" + slowExperiment + " "}, ""},
		{"latency rise fails", gatex("base.txt", "slowlat.txt"), 13,
			[]string{"\nlat-rings-random ", "\nlat-rings ", "\nlat-pingpong ", "µs ↓", "+24.", "\nBeff/pat=ring2/L=1/mthd=sendrecv "}, ""},
		{"b_eff_io drop fails", gatex("base.txt", "slowio.txt"), 13,
			[]string{"\nBeffIO/n=2/acc=read/type=scatter/pat=total ", "\naccess/acc=read "}, ""},
		{"drop below the limit passes", gatex("base.txt", "slow.txt", "-max-drop", "25"), 0,
			[]string{"ok: nothing worse by more than 25% at the median ("}, ""},
		{"figures by default", gate("base.txt", "slow.txt"), 0,
			[]string{"ok: nothing worse by more than 5% at the median (compared 9 b_eff figures and 7 b_eff_io figures:"}, ""},
		{"latency rise fails on the figures", gate("base.txt", "slowlat.txt"), 13, []string{"\nlat-rings-random ", "spread base"}, ""},
		{"a drop within the spread is inconclusive", gate("noisy.txt", "noisy-slow.txt"), 14,
			[]string{"INCONCLUSIVE: 6 of 16 are worse by more than 5% at the median, but the launches cannot tell it from chance:\n", "\nbeff ", "spread base",
				"\n  beff: the launches overlap (base's worst 5969, new's best 6332); the change is within the spread (14.8%); 6+6 launches are too few for 13 rows",
				"To decide: launch each side more often"}, ""},
		{"chosen figures", gate("base.txt", "slowlat.txt", "-figures", "beff,beff-lmax,beffio"), 0,
			[]string{"ok: nothing worse by more than 5% at the median (compared 2 b_eff figures and 1 b_eff_io figures:"}, ""},
		{"chosen latency", gate("base.txt", "slowlat.txt", "-figures", "lat-pingpong"), 13, []string{"FAIL: 1 of 1 "}, ""},
		{"unknown figure refused", gate("base.txt", "same.txt", "-figures", "beff,latency"), 2, nil,
			`beff gate: refusing to decide: no figure named "latency"; the sides' figures are: beff, beff-per-proc,`},
		{"another b_eff seed pools", gate("base.txt", "seed42.txt"), 0,
			[]string{"ok: nothing worse by more than 5% at the median (compared 9 b_eff figures and 7 b_eff_io figures:"}, ""},
		{"another b_eff seed: random patterns left out", gatex("base.txt", "seed42.txt"), 0,
			[]string{"\nThe sides' configurations differ in:\n", "\n  b_eff beff-seed  1795256874177368843  42\n",
				"ok: nothing worse by more than 5% at the median (compared 9 b_eff figures, 7 b_eff_io figures, 57 b_eff experiments and 144 b_eff_io experiments:"}, ""},
		{"other machine refused", gate("base.txt", "othervm.txt"), 2, nil,
			"beff gate: refusing to decide: base and new are not one machine and MPI library (machine: base on vm (2), new on other (2)): a gate judges a change of one system; give -across-machines to judge them anyway\n"},
		{"other machine judged when asked", gate("base.txt", "othervm.txt", "-across-machines"), 0,
			[]string{"\n  machine  vm (2)  other (2)\n", "note: judged across machines (-across-machines): machine: base on vm (2), new on other (2)\n", "ok: "}, ""},
		{"runs of one launch are one sample", gate("onelaunch.txt", "same.txt"), 2, nil,
			"too few samples: base has 1 b_eff launch and new 9 (a launch is one mpirun; its -test.count runs are one sample)"},
		{"3 vs 3 refused", gate("few.txt", "few2.txt"), 2, nil,
			"beff gate: refusing to decide: too few samples: base has 3 b_eff launches and new 3 (a launch is one mpirun; its -test.count runs are one sample); with 3 and 3 samples the Mann–Whitney U test cannot give p < 0.05 (its smallest p is 2/C(6,3) = 0.1); launch each side at least 4 times"},
		{"9 vs 3 decides", gate("base.txt", "few.txt"), 0, []string{"ok: "}, ""},
		{"process count refused", gate("base.txt", "np4.txt"), 2, nil,
			"beff gate: refusing to decide: base and new are not the same configuration: b_eff mpi-procs: 2 vs 4; b_eff_io mpi-procs: 2 vs 4\n"},
		{"b_eff_io on one side refused", gate("base.txt", "beffonly.txt"), 2, nil,
			"not the same configuration: b_eff_io: base has 9 runs, new has 0"},
		{"mixed side refused", gate("base.txt,np4.txt", "same.txt"), 2, nil,
			"beff gate: base: the b_eff runs are not of one configuration: base.txt run 1 and np4.txt run 1 differ in mpi-procs: 2 vs 4"},
		// SKaMPI runs gate as the other suites' do: a slower point by
		// name, a slower latency by the headline figure too.
		{"SKaMPI slower point fails", gatex("skampi-base.txt", "skampi-slow.txt"), 13,
			[]string{"FAIL: 1 of 22 got worse by more than 5% beyond doubt", "\n" + slowSkampi + " ", "+25."}, ""},
		{"SKaMPI slower latency fails", gatex("skampi-base.txt", "skampi-slowlat.txt"), 13,
			[]string{"\nlatency ", "\nSkampi/suite=pingpong/op=send-recv/pair=max/L=1 ", "µs ↓"}, ""},
		{"SKaMPI unchanged passes", gatex("skampi-base.txt", "skampi-same.txt"), 0,
			[]string{"ok: nothing worse by more than 5% at the median (compared 3 SKaMPI figures and 19 SKaMPI experiments"}, ""},
		{"SKaMPI process count refused", gate("skampi-base.txt", "skampi-np4.txt"), 2, nil,
			"not the same configuration: SKaMPI mpi-procs: 2 vs 4"},
		{"missing file", gate("base.txt", "nonexistent.txt"), 2, nil, "beff gate: open nonexistent.txt: no such file or directory"},
		{"empty name", gate("base.txt,", "same.txt"), 2, nil, `beff gate: -base: "base.txt,": empty file name`},
		{"no max-drop", []string{"gate", "-base", "base.txt", "-new", "same.txt"}, 2, nil, "beff gate: no -max-drop\nusage: beff gate"},
		{"negative max-drop", gate("base.txt", "same.txt", "-max-drop", "-1"), 2, nil, "beff gate: -max-drop=-1: want a percentage ≥ 0"},
		{"no base", []string{"gate", "-new", "same.txt", "-max-drop", "5"}, 2, nil, "beff gate: no -base"},
		{"arguments", []string{"gate", "-base", "base.txt", "-new", "same.txt", "-max-drop", "5", "x.txt"}, 2, nil, "beff gate: unexpected arguments: x.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(tt.args...)
			assert.Equal(t, tt.code, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			for _, s := range tt.stdout {
				assert.Contains(t, stdout, s)
			}
			if tt.stderr == "" {
				assert.Empty(t, stderr)
			} else {
				assert.Empty(t, stdout)
				assert.Contains(t, stderr, tt.stderr)
			}
		})
	}
}

// TestGateOffenders checks that the slowed experiment is the only
// offender and that nothing else changed beyond the jitter.
func TestGateOffenders(t *testing.T) {
	dir := t.TempDir()
	compareInputs(t, dir)
	t.Chdir(dir)
	code, stdout, _ := run("gate", "-experiments", "-base", "base.txt", "-new", "slow.txt", "-max-drop", "5")
	require.Equal(t, exitGateFail, code)
	_, table, ok := strings.Cut(stdout, "FAIL: ")
	require.True(t, ok)
	lines := strings.Split(strings.TrimSpace(table), "\n")
	require.Len(t, lines, 4, "FAIL line, header, one offender, counts")
	assert.True(t, strings.HasPrefix(lines[2], slowExperiment+" "), lines[2])
	assert.Regexp(t, `^\(compared .*: \d+ significantly worse, \d+ significantly better, 0 untestable`, lines[3])
}

// TestCompareJoined checks that runs are runs whether they come from one
// file (-test.count) or from several files joined with commas.
func TestCompareJoined(t *testing.T) {
	dir := t.TempDir()
	compareInputs(t, dir)
	t.Chdir(dir)
	code, one, stderr := run("compare", "base.txt", "slow.txt")
	require.Equal(t, 0, code, stderr)
	code, joined, stderr := run("compare", baseParts(), "slow.txt")
	require.Equal(t, 0, code, stderr)
	_, one, _ = strings.Cut(one, "\n")
	_, joined, _ = strings.Cut(joined, "\n")
	assert.Equal(t, one, joined)
}

func TestCompareUsage(t *testing.T) {
	dir := t.TempDir()
	compareInputs(t, dir)
	t.Chdir(dir)
	tests := []refusal{
		{"one side", []string{"compare", "base.txt"}, 2, "beff compare: need at least two sides\nusage: beff compare"},
		{"bad experiments", []string{"compare", "-experiments", "some", "base.txt", "same.txt"}, 2, "beff compare: -experiments=some: want all, changed or none"},
		{"empty name", []string{"compare", "base.txt,,same.txt", "slow.txt"}, 2, `beff compare: "base.txt,,same.txt": empty file name`},
		{"missing file", []string{"compare", "base.txt", "nonexistent.txt"}, 2, "beff compare: open nonexistent.txt: no such file or directory"},
		{"twice", []string{"compare", "base.txt,base.txt", "same.txt"}, 2, "beff compare: A: base.txt is given twice"},
		{"mixed side", []string{"compare", "base.txt", "same.txt,np4.txt"}, 2, "beff compare: B: the b_eff runs are not of one configuration"},
	}
	checkRefusals(t, tests)
}

// TestCompareGolden compares the output of compare and gate on the
// synthetic runs with testdata/compare/NAME.stdout. On a mismatch it
// writes NAME.got-stdout next to it; BEFF_UPDATE=1 rewrites NAME.stdout.
func TestCompareGolden(t *testing.T) {
	goldenDir, err := filepath.Abs("testdata/compare")
	require.NoError(t, err)
	dir := t.TempDir()
	compareInputs(t, dir)
	skampiInputs(t, dir)
	t.Chdir(dir)
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"compare", []string{"compare", "base.txt", "slow.txt"}, 0},
		{"compare-changed", []string{"compare", "-experiments", "changed", "base.txt", "slowlat.txt", "few.txt"}, 0},
		{"compare-figures", []string{"compare", "-experiments", "none", baseParts(), "np4.txt", "beffonly.txt"}, 0},
		{"gate-fail", []string{"gate", "-experiments", "-base", "base.txt", "-new", "slowlat.txt", "-max-drop", "5"}, 13},
		{"gate-ok", []string{"gate", "-base", "base.txt", "-new", "same.txt", "-max-drop", "5"}, 0},
		{"compare-skampi", []string{"compare", "skampi-base.txt", "skampi-slow.txt"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(tt.args...)
			require.Equal(t, tt.code, code, "stderr: %s", stderr)
			assert.Empty(t, stderr)
			golden := filepath.Join(goldenDir, tt.name+".stdout")
			got := filepath.Join(goldenDir, tt.name+".got-stdout")
			checkGolden(t, golden, got, stdout)
		})
	}
}

// writeSeed writes the runs of opt, derived from the compare seed, into
// dir/name and returns the path.
func writeSeed(t *testing.T, dir, name string, opt comparetest.Variant) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, comparetest.WriteFile(path, compareSeed, opt))
	return path
}

// loadSide loads a side with beff's suites.
func loadSide(t *testing.T, label string, paths ...string) *compare.Side {
	t.Helper()
	s, err := compare.Load(label, paths, suites())
	require.NoError(t, err)
	return s
}

func TestCompareLoad(t *testing.T) {
	dir := t.TempDir()
	six := writeSeed(t, dir, "six.txt", comparetest.Variant{Runs: 6, Seed: 1, Jitter: 0.01})
	s := loadSide(t, "A", six)
	require.Len(t, s.Sets, len(suites()), "one set per suite")
	assert.Len(t, s.Sets[0].Runs, 6)
	assert.Len(t, s.Sets[1].Runs, 6)
	assert.Empty(t, s.Sets[2].Runs, "no SKaMPI runs in the file")
	assert.Equal(t, "6 b_eff runs, 6 b_eff_io runs", s.Counts())
	assert.Equal(t, []string{
		"b_eff: mpi-procs 2, beff-lmax 98729984, beff-sizes 1,4096,98729984, beff-patterns 9 values ring2…pingpong, beff-random-patterns 2, beff-mode full, beff-seed 1795256874177368843",
		"b_eff_io: mpi-procs 2, beffio-partitions 2, beffio-mpart 98729984, beffio-rewrite all, beffio-t-s 150, beff-mode full",
	}, s.Describe())

	// Other sizes on the other side.
	longer := writeSeed(t, dir, "t300.txt", comparetest.Variant{Runs: 6, Seed: 2, Jitter: 0.01,
		Config: map[string]string{"beffio-t-s": "300", "beff-mode": "short (quick check, not a valid result)"}})
	assert.Equal(t, []string{
		"b_eff beff-mode: full vs short (quick check, not a valid result)",
		"b_eff_io beffio-t-s: 150 vs 300",
		"b_eff_io beff-mode: full vs short (quick check, not a valid result)",
	}, compare.ConfigDiff(s, loadSide(t, "B", longer)))

	// One side, two configurations.
	_, err := compare.Load("A", []string{six, longer}, suites())
	require.Error(t, err)
	assert.Equal(t, "A: the b_eff runs are not of one configuration: "+six+" run 1 and "+longer+" run 1 differ in beff-mode: full vs short (quick check, not a valid result)", err.Error())
}

// TestComparePartial checks that a restricted run (beff-patterns
// without the rings) has no figures but its experiments are compared.
func TestComparePartial(t *testing.T) {
	dir := t.TempDir()
	opt := func(seed uint64) comparetest.Variant {
		return comparetest.Variant{Runs: 6, Seed: seed, Jitter: 0.01,
			Config: map[string]string{"beff-patterns": "pingpong"},
			Keep:   func(n string) bool { return strings.HasPrefix(n, "Beff/pat=pingpong/") }}
	}
	a := loadSide(t, "A", writeSeed(t, dir, "a.txt", opt(1)))
	b := loadSide(t, "B", writeSeed(t, dir, "b.txt", opt(2)))
	require.Len(t, a.Notes, 1)
	assert.Contains(t, a.Notes[0], "A: no b_eff figures from 6 restricted runs ("+filepath.Join(dir, "a.txt")+":48: run 1: restricted run (beff-patterns: pingpong)")
	tables := compare.Compare([]*compare.Side{a, b})
	require.Len(t, tables, 1)
	assert.Equal(t, "b_eff experiments", tables[0].Group.String())
	assert.Len(t, tables[0].Rows, 3)
	g, err := compare.Gate(a, b, compare.GateOptions{MaxDrop: 5, Experiments: true})
	require.NoError(t, err)
	assert.False(t, g.Failed())
	_, err = compare.Gate(a, b, compare.GateOptions{MaxDrop: 5})
	assert.EqualError(t, err, "nothing to compare: A and B have no figure in common")
}

func TestGateCounts(t *testing.T) {
	dir := t.TempDir()
	base := loadSide(t, "base", writeSeed(t, dir, "base.txt", comparetest.Variant{Runs: 9, Seed: 1, Jitter: 0.01}))
	slow := loadSide(t, "new", writeSeed(t, dir, "new.txt", comparetest.Variant{Runs: 9, Seed: 2, Jitter: 0.01,
		Scale: func(n string) float64 {
			if strings.HasPrefix(n, "Beff/pat=ring2/") {
				return 0.9
			}
			return 1
		}}))
	g, err := compare.Gate(base, slow, compare.GateOptions{MaxDrop: 5, Experiments: true})
	require.NoError(t, err)
	assert.Equal(t, []int{9, 7, 75, 144}, g.Compared)
	var groups []string
	for _, gr := range g.Groups {
		groups = append(groups, gr.String())
	}
	assert.Equal(t, []string{"b_eff figures", "b_eff_io figures", "b_eff experiments", "b_eff_io experiments"}, groups)
	require.Len(t, g.Offenders, 9, "ring2: 3 sizes × 3 methods")
	for _, r := range g.Offenders {
		assert.True(t, strings.HasPrefix(r.Name, "Beff/pat=ring2/"), r.Name)
		assert.InDelta(t, 10, r.Worse(1), 2)
	}
	g, err = compare.Gate(base, slow, compare.GateOptions{MaxDrop: 15, Experiments: true})
	require.NoError(t, err)
	assert.False(t, g.Failed())
	assert.GreaterOrEqual(t, g.Worse, 9)
}

// skampiSeed is a real SKaMPI run on 2 processes: send-recv, barrier,
// allreduce, mw-waitany and wtime from the default suite file, lengths 1,
// 64 and 4096 bytes, without refinement.
const skampiSeed = "testdata/compare/skampi-seed.txt"

// slowSkampi is the point that skampi-slow.txt makes 25% slower.
const slowSkampi = "Skampi/suite=coll-length/op=allreduce/procs=2/L=64"

// skampiInputs writes the synthetic SKaMPI runs of the gate tests into
// dir: 7 runs per file with ±1 % jitter (7 launches a side let the gate
// judge its 22 rows).
//
//	skampi-base.txt     seed 1
//	skampi-same.txt     seed 2: unchanged
//	skampi-slow.txt     seed 2, slowSkampi's times divided by 0.8
//	skampi-slowlat.txt  seed 2, the 1-byte send-recv's times divided by 0.8
//	skampi-np4.txt      seed 2, mpi-procs: 4
func skampiInputs(t *testing.T, dir string) {
	t.Helper()
	write := func(name string, opt comparetest.Variant) {
		opt.Runs, opt.Jitter = 7, 0.01
		require.NoError(t, comparetest.WriteFile(filepath.Join(dir, name), skampiSeed, opt))
	}
	write("skampi-base.txt", comparetest.Variant{Seed: 1})
	write("skampi-same.txt", comparetest.Variant{Seed: 2})
	write("skampi-slow.txt", comparetest.Variant{Seed: 2, Scale: scaleOnly(named(slowSkampi), 0.8)})
	write("skampi-slowlat.txt", comparetest.Variant{Seed: 2, Scale: scaleOnly(named("Skampi/suite=pingpong/op=send-recv/pair=max/L=1"), 0.8)})
	write("skampi-np4.txt", comparetest.Variant{Seed: 2, Config: map[string]string{"mpi-procs": "4", "mpi-hosts": "vm (4)", "mpi-procs-per-node": "4"}})
}

// TestGateMissing: a side with a run that lacks points of its plan, or
// holds a run that was cut short, is refused with exit code 2 and the
// list; a half-finished run never gates green.
func TestGateMissing(t *testing.T) {
	dir := t.TempDir()
	skampiInputs(t, dir)
	half := filepath.Join(dir, "skampi-half.txt")
	require.NoError(t, comparetest.WriteFile(half, skampiSeed, comparetest.Variant{Runs: 6, Jitter: 0.01, Seed: 2,
		Keep: func(n string) bool { return !strings.Contains(n, "op=allreduce/") }}))
	base := filepath.Join(dir, "skampi-base.txt")
	code, stdout, stderr := run("gate", "-base", base, "-new", half, "-max-drop", "5")
	assert.Equal(t, exitBadInput, code, stdout)
	assert.Contains(t, stderr, half+":47: SKaMPI run 1: incomplete: missing 7 of the 19 points its suites plan: suite=coll-length/op=allreduce/procs=2/L=4,")
	code, _, stderr = run("gate", "-base", half, "-new", base, "-max-drop", "5")
	assert.Equal(t, exitBadInput, code, "an incomplete run is no base either")
	assert.Contains(t, stderr, "SKaMPI run 1: incomplete")

	data, err := os.ReadFile(filepath.Join(dir, "skampi-same.txt"))
	require.NoError(t, err)
	cut := filepath.Join(dir, "skampi-cut.txt")
	require.NoError(t, os.WriteFile(cut, append([]byte("beff-partial: the watchdog ended the job\n"), data...), 0o644))
	code, _, stderr = run("gate", "-base", base, "-new", cut, "-max-drop", "5")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, stderr, "new holds partial runs, which cannot be judged: "+cut+": the watchdog ended the job")
}
