package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/beff-suite/beff/internal/results"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConformance puts two rounds of a b_eff_io 2.1 protocol beside a
// beff results file (synthetic, 2 processes like the protocol): a row per
// figure of the reference code, its median and spread, beff's ratio.
func TestConformance(t *testing.T) {
	dir := t.TempDir()
	ref, beff := fixture(t, "ref/ref-2.1-np2.prot"), ioLikeRef(fixture(t, "io-synthetic.txt"))
	rounds := []string{filepath.Join(dir, "beff_io", "round-1"), filepath.Join(dir, "beff_io", "round-2")}
	for i, round := range rounds {
		require.NoError(t, os.MkdirAll(round, 0o755))
		if i == 1 { // another run of each
			ref = strings.Replace(ref, "b_eff_io_write_scatter= 337.531", "b_eff_io_write_scatter= 337.532", 1)
			beff = strings.Replace(beff, "0.25 stop-ms", "0.26 stop-ms", 1)
		}
		require.NoError(t, os.WriteFile(filepath.Join(round, "ref.prot"), []byte(ref), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(round, "default.txt"), []byte(beff), 0o644))
	}
	code, stdout, stderr := run("conformance", dir)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stdout, "note:")
	assert.Contains(t, stdout, "b_eff_io 2.1 beside beff: "+filepath.Join(dir, "beff_io")+", 2 rounds")
	assert.Regexp(t, regexp.MustCompile(`(?m)^  figure +unit +reference +spread +default +ratio$`), stdout)
	// the reference's b_eff_io is 908.373 in both rounds: spread 1.00;
	// the synthetic run's 2.1 formula (without the removal) is 116.62
	assert.Regexp(t, regexp.MustCompile(`(?m)^  b_eff_io \(2\.1 formula\) +MB/s +908\.4 +1\.00 +116\.6 +0\.13 \[0\.13–0\.13\] \*$`), stdout, "outside the reference's spread")
	assert.Regexp(t, regexp.MustCompile(`(?m)^  n=2 read segcoll +MB/s `), stdout)
	assert.Regexp(t, regexp.MustCompile(`(?m)^outside the reference's spread \(\*\): default \d+ of 31$`), stdout)
	// 2 rounds: 39% of the figures by chance alone
	assert.Regexp(t, regexp.MustCompile(`(?m)^expected by chance alone, were beff's figures spread as the reference's: default 1[12]\.\d$`), stdout)

	// a run copied into the next round counts once, and is said
	require.NoError(t, os.WriteFile(filepath.Join(rounds[1], "ref.prot"), []byte(fixture(t, "ref/ref-2.1-np2.prot")), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(rounds[1], "default.txt"), []byte(strings.Replace(ioLikeRef(fixture(t, "io-synthetic.txt")), "date:", "date: 2027-01-01\nx:", 1)), 0o644))
	code, stdout, stderr = run("conformance", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "note: "+rounds[1]+": the reference code's output repeats "+rounds[0]+"'s (the same figures): counted once\n")
	assert.Contains(t, stdout, "note: "+filepath.Join(rounds[1], "default.txt")+" (b_eff_io run 1) repeats "+filepath.Join(rounds[0], "default.txt")+" (b_eff_io run 1)")
	assert.Regexp(t, regexp.MustCompile(`(?m)^  b_eff_io \(2\.1 formula\) +MB/s +908\.4 +- +116\.6 +0\.13 \[0\.13–0\.13\]$`), stdout, "one round's figures: no spread")
	assert.NotContains(t, stdout, "outside the reference's spread (*):", "nothing to mark without a spread")

	// a run of another setup than the reference code's beside it
	require.NoError(t, os.WriteFile(filepath.Join(rounds[1], "default.txt"), []byte(fixture(t, "io-synthetic.txt")), 0o644))
	code, stdout, stderr = run("conformance", dir)
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "beff conformance: "+filepath.Join(rounds[1], "default.txt")+" is not comparable with the reference code's run beside it: T 1800 s against 30 s, memory per process 128 MiB against 1024 MiB, total memory 256 MiB against 2048 MiB\n", stderr)

	code, _, stderr = run("conformance", t.TempDir())
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, stderr, "holds no suite's rounds")
	require.NoError(t, os.Remove(filepath.Join(dir, "beff_io", "round-2", "default.txt")))
	code, _, stderr = run("conformance", dir)
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, stderr, "no beff results file")
	code, _, _ = run("conformance")
	assert.Equal(t, exitBadInput, code)
}

// TestOutside: a ratio lies outside the reference's spread s when it is
// above s or below 1/s.
func TestOutside(t *testing.T) {
	for _, c := range []struct {
		ratio, spread float64
		out           bool
	}{{1, 1, false}, {1.2, 1.25, false}, {0.8, 1.25, false}, {1.3, 1.25, true}, {0.79, 1.25, true}, {0.24, 1.24, true}} {
		assert.Equal(t, c.out, outside(c.ratio, c.spread), "ratio %g, spread %g", c.ratio, c.spread)
	}
}

// TestChanceOutside: the median of the ratios of figures drawn like the
// reference's lies outside its spread often for 2 rounds, seldom for 5,
// almost never for 10; the same answer on every call.
func TestChanceOutside(t *testing.T) {
	for _, c := range []struct {
		nref, nratio int
		lo, hi       float64
	}{{2, 2, 0.36, 0.42}, {3, 3, 0.15, 0.20}, {5, 5, 0.022, 0.032}, {10, 10, 0, 0.002}, {5, 4, 0.02, 0.1}, {1, 1, 0, 0}, {5, 0, 0, 0}} {
		p := chanceOutside(c.nref, c.nratio)
		assert.True(t, p >= c.lo && p <= c.hi, "%d reference values, %d ratios: %g, want %g–%g", c.nref, c.nratio, p, c.lo, c.hi)
		assert.Equal(t, p, chanceOutside(c.nref, c.nratio))
	}
	assert.Equal(t, chanceOutside(30, 30), chanceOutside(1000, 1000), "taken as for 30 beyond")
}

// ioLikeRef is a b_eff_io results file with the setup of the reference
// code's run in testdata/ref: T = 30 s, 1024 MiB per process, 2048 MiB in
// all.
func ioLikeRef(text string) string {
	return strings.NewReplacer("beffio-t-s: 1800\n", "beffio-t-s: 30\n", "beffio-mem-per-proc-mib: 128\n", "beffio-mem-per-proc-mib: 1024\n",
		"beffio-totalmem-mib: 256\n", "beffio-totalmem-mib: 2048\n").Replace(text)
}

// TestConformanceDamagedReference: a reference figure that is not a
// positive number (negative, zero, absurdly large) is refused with its
// name, not turned into a median of 0 or a ratio of +Inf.
func TestConformanceDamagedReference(t *testing.T) {
	for _, v := range []string{"-3092.1", "0.000", "1e308"} {
		dir := t.TempDir()
		round := filepath.Join(dir, "beff", "round-1")
		require.NoError(t, os.MkdirAll(round, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(round, "ref.short"),
			[]byte("The effective bandwidth is b_eff = "+v+" MByte/s on 2 processes\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(round, "default.txt"), []byte(fixture(t, "short-np2.txt")), 0o644))
		code, stdout, stderr := run("conformance", dir)
		assert.Equal(t, exitBadInput, code, v)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, round+": reference figure b_eff = ", v)
		assert.Contains(t, stderr, "MB/s: not a positive number up to 1e+12", v)
	}
}

// TestConformanceNotComparable: beside the reference code's run of b_eff
// (full, 2 processes, Lmax 8 MiB) a short run with another Lmax is
// refused, every difference named.
func TestConformanceNotComparable(t *testing.T) {
	dir := t.TempDir()
	round := filepath.Join(dir, "beff", "round-1")
	require.NoError(t, os.MkdirAll(round, 0o755))
	copyFile(t, "testdata/ref/ref-3.6-np2.short", round, "ref.short")
	copyFile(t, "testdata/short-np2.txt", round, "default.txt")
	code, stdout, stderr := run("conformance", dir)
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "beff conformance: "+filepath.Join(round, "default.txt")+" is not comparable with the reference code's run beside it: mode short (quick check, not a valid result) against full, Lmax 0 MiB against 8 MiB\n", stderr)
}

// TestConformanceShares: where every figure of beff's runs lies one level
// above the reference code's (1.5 times, beyond its spread of 1.2), each
// is marked as a ratio; as a share of its run's b_eff only the pattern
// whose share differs is, the row of b_eff itself and of a figure that
// is no share (the latency) not at all.
func TestConformanceShares(t *testing.T) {
	order := []results.Figure{{Name: "beff", Label: "b_eff", Unit: "MB/s"}, {Name: "lat", Label: "latency", Unit: "us"},
		{Name: "a", Label: "pattern a", Unit: "MB/s", Per: "beff"}, {Name: "b", Label: "pattern b", Unit: "MB/s", Per: "beff"},
		{Name: "c", Label: "pattern c", Unit: "MB/s", Per: "none"}}
	ref := []map[string]float64{{"beff": 100, "lat": 1, "a": 100, "b": 50, "c": 10}, {"beff": 120, "lat": 1.1, "a": 120, "b": 60, "c": 12}}
	var rounds []round
	for i, r := range ref {
		beff := map[string]float64{"beff": 1.5 * r["beff"], "lat": r["lat"], "a": 1.5 * r["a"], "b": 2 * r["b"], "c": 1.5 * r["c"]}
		if i == 1 {
			delete(beff, "beff") // no divisor: no share of this run
		}
		rounds = append(rounds, round{name: "round", ref: r, variants: map[string]map[string]float64{"default": beff}})
	}
	var out strings.Builder
	writeConformance(&out, "outside", order, rounds, []string{"default"})
	assert.Regexp(t, regexp.MustCompile(`(?m)^  pattern a +MB/s +110\.0 +1\.20 +165\.0 +1\.50 \[1\.50–1\.50\] \*$`), out.String())
	assert.Contains(t, out.String(), "outside: default 4 of 5\n")

	figs, shares, per := sharesOf(order, rounds)
	assert.Equal(t, "b_eff", per)
	assert.Equal(t, []results.Figure{{Name: "a", Label: "pattern a", Unit: "share", Per: "beff"}, {Name: "b", Label: "pattern b", Unit: "share", Per: "beff"}}, figs,
		"only the figures that name a figure of the run")
	assert.Equal(t, map[string]float64{"a": 1, "b": 0.5}, shares[0].ref)
	assert.Equal(t, map[string]float64{"a": 1, "b": 2.0 / 3}, shares[0].variants["default"])
	assert.Empty(t, shares[1].variants["default"], "a run without b_eff has no shares")
	out.Reset()
	writeConformance(&out, "shares outside", figs, shares, []string{"default"})
	assert.Regexp(t, regexp.MustCompile(`(?m)^  pattern a +share +1\.000 +1\.00 +1\.000 +1\.00 \[1\.00–1\.00\]$`), out.String())
	assert.Regexp(t, regexp.MustCompile(`(?m)^  pattern b +share +0\.5000 +1\.00 +0\.6667 +1\.33 \[1\.33–1\.33\] \*$`), out.String())
	assert.Contains(t, out.String(), "shares outside: default 1 of 2\n")
}
