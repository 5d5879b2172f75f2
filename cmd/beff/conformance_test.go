package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConformance puts two rounds of a b_eff_io 2.1 protocol beside a
// beff results file (synthetic, 2 processes like the protocol): a row per
// figure of the reference code, its median and spread, beff's ratio.
func TestConformance(t *testing.T) {
	dir := t.TempDir()
	for _, k := range []string{"1", "2"} {
		round := filepath.Join(dir, "beff_io", "round-"+k)
		require.NoError(t, os.MkdirAll(round, 0o755))
		copyFile(t, "testdata/ref/ref-2.1-np2.prot", round, "ref.prot")
		copyFile(t, "testdata/io-synthetic.txt", round, "default.txt")
	}
	code, stdout, stderr := run("conformance", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "b_eff_io 2.1 beside beff: "+filepath.Join(dir, "beff_io")+", 2 rounds")
	assert.Regexp(t, regexp.MustCompile(`(?m)^  figure +unit +reference +spread +default +ratio$`), stdout)
	// the reference's b_eff_io is 908.373 in both rounds: spread 1.00;
	// the synthetic run's 2.1 formula (without the removal) is 116.62
	assert.Regexp(t, regexp.MustCompile(`(?m)^  b_eff_io \(2\.1 formula\) +MB/s +908\.4 +1\.00 +116\.6 +0\.13 \[0\.13–0\.13\]$`), stdout)
	assert.Regexp(t, regexp.MustCompile(`(?m)^  n=2 read segcoll +MB/s `), stdout)

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
