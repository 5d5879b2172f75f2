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
		copyFile(t, "../../suites/beffio/fold/testdata/ref-2.1-np2.prot", round, "ref.prot")
		copyFile(t, "../../testdata/io-synthetic.txt", round, "default.txt")
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
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "holds no suite's rounds")
	require.NoError(t, os.Remove(filepath.Join(dir, "beff_io", "round-2", "default.txt")))
	code, _, stderr = run("conformance", dir)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "no beff results file")
	code, _, _ = run("conformance")
	assert.Equal(t, exitUsage, code)
}
