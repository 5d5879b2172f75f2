package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/report"
)

// needLibrary skips a test of the plots of a site when the binary was
// built without the plotting library, after checking that the site is
// written all the same and says why it has no plots.
func needLibrary(t *testing.T) {
	t.Helper()
	if _, err := report.EmbeddedLibrary(); err != nil {
		site := filepath.Join(t.TempDir(), "site")
		code, _, stderr := run("report", "-o", site, "testdata/short-np2.txt")
		assert.Equal(t, exitOK, code)
		assert.Contains(t, stderr, "beff report: no plots: ")
		assert.Contains(t, stderr, "make assets")
		assert.FileExists(t, filepath.Join(site, "runs", "short-np2-1.html"))
		t.Skipf("built without the plotting library: %v", err)
	}
}

// TestReportWithoutLibrary: a site written without the plotting library
// has every page, no library and a footer that says why.
func TestReportWithoutLibrary(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	site := report.Load([]string{"testdata/short-np2.txt", "testdata/io-synthetic.txt"}, suites())
	require.NoError(t, site.Write(out, report.Options{NoPlots: true}))
	for _, name := range []string{"index.html", "compare.html", "runs/short-np2-1.html", "runs/io-synthetic-1.html", "assets/report.js"} {
		assert.FileExists(t, filepath.Join(out, filepath.FromSlash(name)))
	}
	assert.NoFileExists(t, filepath.Join(out, "assets", "plotly-basic.min.js"))
	page, err := os.ReadFile(filepath.Join(out, "runs", "short-np2-1.html"))
	require.NoError(t, err)
	assert.Contains(t, string(page), `<span id="no-plots">Plots: none, this beff was built without its plotting library`)
	assert.NotContains(t, string(page), "plotly-basic.min.js")
}

func TestReport(t *testing.T) {
	needLibrary(t)
	dir := filepath.Join(t.TempDir(), "site")
	code, stdout, stderr := run("report", "-o", dir, "-now", "2026-11-21T12:00:00Z",
		"testdata/short-np2.txt", "testdata/io-synthetic.txt")
	require.Equal(t, exitOK, code, "stderr: %s", stderr)
	assert.Empty(t, stderr)
	assert.Equal(t, "beff report: "+filepath.Join(dir, "index.html")+": 2 runs from 2 files\n", stdout)
	for _, name := range []string{"index.html", "compare.html", "runs/short-np2-1.html", "runs/io-synthetic-1.html",
		"assets/plotly-basic.min.js", "assets/plotly-LICENSE.txt", "assets/report.js", "assets/report.css"} {
		assert.FileExists(t, filepath.Join(dir, filepath.FromSlash(name)))
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(index), "2026-11-21T12:00:00Z")

	// Again into the same directory: replaced, byte for byte the same.
	code, _, stderr = run("report", "-o", dir, "-now", "2026-11-21T12:00:00Z",
		"testdata/short-np2.txt", "testdata/io-synthetic.txt")
	require.Equal(t, exitOK, code, "stderr: %s", stderr)
	again, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	assert.Equal(t, index, again)
}

// TestReportDirectory gives a directory: its *.txt files in natural order,
// a corrupt one skipped with its position.
func TestReportDirectory(t *testing.T) {
	needLibrary(t)
	in := t.TempDir()
	good, err := os.ReadFile("testdata/short-np2.txt")
	require.NoError(t, err)
	for i, name := range []string{"run10.txt", "run2.txt", "run1.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(in, name), []byte(anotherLaunch(string(good), i)), 0o644))
	}
	bad := strings.Replace(string(good), "mpi-procs: 2\n", "mpi-procs: two\n", 1)
	require.NoError(t, os.WriteFile(filepath.Join(in, "bad.txt"), []byte(bad), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(in, "notes.md"), []byte("not a result"), 0o644))
	dir := filepath.Join(t.TempDir(), "site")
	code, stdout, stderr := run("report", "-o", dir, in)
	require.Equal(t, exitOK, code, "stderr: %s", stderr)
	assert.Regexp(t, `^beff report: skipping .*bad\.txt:\d+: mpi-procs: "two" is not a positive whole number\n$`, stderr)
	assert.Contains(t, stdout, ": 3 runs from 3 files; 1 file skipped\n")
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	i1, i2, i10 := strings.Index(string(index), "run1-1.html"), strings.Index(string(index), "run2-1.html"), strings.Index(string(index), "run10-1.html")
	assert.True(t, i1 > 0 && i1 < i2 && i2 < i10, "natural order run1, run2, run10")
	assert.Contains(t, string(index), "bad.txt:")
}

func TestReportFailures(t *testing.T) {
	tmp := t.TempDir()
	empty := filepath.Join(tmp, "empty.txt")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	noTxt := filepath.Join(tmp, "none")
	require.NoError(t, os.Mkdir(noTxt, 0o755))
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no input", []string{"report"}, exitBadInput, "beff report: no input files"},
		{"bad -now", []string{"report", "-now", "yesterday", "x.txt"}, exitBadInput, `parsing -now: "yesterday" is not an RFC 3339 time`},
		{"empty -o", []string{"report", "-o", "", "x.txt"}, exitBadInput, "-o: empty directory name"},
		{"bad flag", []string{"report", "-x"}, exitBadInput, "flag provided but not defined"},
		{"absent file", []string{"report", "-o", filepath.Join(tmp, "s"), filepath.Join(tmp, "absent.txt")}, exitBadInput, "no such file"},
		{"directory without results", []string{"report", "-o", filepath.Join(tmp, "s"), noTxt}, exitBadInput, "no *.txt results files"},
		{"nothing usable", []string{"report", "-o", filepath.Join(tmp, "s"), empty}, exitBadInput, "no run to report"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.name, "absent") || strings.HasPrefix(tt.name, "directory") || strings.HasPrefix(tt.name, "nothing") {
				needLibrary(t) // checked before the input
			}
			code, stdout, stderr := run(tt.args...)
			assert.Equal(t, tt.code, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tt.stderr)
		})
	}
	assert.NoDirExists(t, filepath.Join(tmp, "s"))

	code, stdout, _ := run("report", "-h")
	assert.Equal(t, exitOK, code)
	assert.Empty(t, stdout)
}

func TestReportRefusesOtherDirectory(t *testing.T) {
	needLibrary(t)
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.txt")
	require.NoError(t, os.WriteFile(keep, []byte("mine"), 0o644))
	code, _, stderr := run("report", "-o", dir, "testdata/short-np2.txt")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, stderr, "neither empty nor a site of beff report")
	assert.FileExists(t, keep)
}

func TestNaturalCompare(t *testing.T) {
	in := []string{"np2-run10", "np2", "np2-run2", "np10", "np4", "a007", "a7b", "a06", "b", "A"}
	slices.SortFunc(in, naturalCompare)
	assert.Equal(t, []string{"A", "a06", "a007", "a7b", "b", "np2", "np2-run2", "np2-run10", "np4", "np10"}, in)
}

// TestReportLongName: a file whose name is as long as a file system
// allows makes a page of a shorter name; the site is written.
func TestReportLongName(t *testing.T) {
	in := t.TempDir()
	long := filepath.Join(in, strings.Repeat("x", 251)+".txt")
	require.NoError(t, os.WriteFile(long, []byte(fixture(t, "short-np2.txt")), 0o644))
	dir := filepath.Join(t.TempDir(), "site")
	code, stdout, stderr := run("report", "-o", dir, "-now", "2026-11-21T12:00:00Z", long)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, ": 1 run from 1 file\n")
	assert.FileExists(t, filepath.Join(dir, "runs", strings.Repeat("x", 64)+"-1.html"))
}
