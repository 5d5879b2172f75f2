package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/results"
)

// conforming is the table every suite of suites() must be in: a results
// file of it (paths relative to this package) and the name of its
// golden protocol and JSON, testdata/fold/<golden>.stdout and .json.
// Adding a suite means adding a row here.
var conforming = map[string]struct{ input, golden string }{
	"beff":   {"testdata/short-np2.txt", "short-np2"},       // a real -test.short run on 2 processes
	"beffio": {"testdata/io-synthetic.txt", "io-synthetic"}, // b_eff_io = 146.25 MB/s by hand (suites/beffio/fold)
	"skampi": {"testdata/skampi-short-np2.txt", "skampi-short-np2"},
	// a real run on 10 emulated nodes (200 Mbit/s links, 2 leaves, a 50 Mbit/s spine)
	"congestion": {"testdata/congestion-10nodes.txt", "congestion-10nodes"},
	// a real serial run on 10 emulated nodes of 2 processes (200 Mbit/s links), the path n2–n6 at 50 Mbit/s
	"links": {"testdata/links-10nodes.txt", "links-10nodes"},
}

// TestSuitesConform: every registered suite folds its file to its golden
// protocol and JSON, reads its configuration back from nothing but its
// configuration and result lines, survives its file cut anywhere and made
// hostile (one message naming the file, no internal error), and gets its
// section on a run page of the site.
func TestSuitesConform(t *testing.T) {
	list := suites()
	require.Len(t, conforming, len(list), "a row of the table per suite, no more")
	for _, su := range list {
		id := su.ID()
		c, ok := conforming[id.Key]
		require.True(t, ok, "suite %s: add it to the table conforming", id.Name)
		data, err := os.ReadFile(c.input)
		require.NoError(t, err)
		t.Run(id.Key+"/fold", func(t *testing.T) { conformFold(t, c.input, c.golden) })
		t.Run(id.Key+"/config", func(t *testing.T) { conformConfig(t, su, string(data)) })
		t.Run(id.Key+"/truncated", func(t *testing.T) { conformTruncated(t, string(data)) })
		t.Run(id.Key+"/hostile", func(t *testing.T) { conformHostile(t, id, string(data)) })
		t.Run(id.Key+"/report", func(t *testing.T) { conformReport(t, id, c.input) })
	}
}

// conformFold: the protocol and the JSON are the golden ones.
func conformFold(t *testing.T, input, golden string) {
	for _, f := range []struct {
		args []string
		ext  string
	}{{[]string{"fold", input}, ".stdout"}, {[]string{"fold", "-json", input}, ".json"}} {
		code, stdout, stderr := run(f.args...)
		require.Equal(t, 0, code, "stderr: %s", stderr)
		assert.Empty(t, stderr)
		name := filepath.Join("testdata", "fold", golden+f.ext)
		checkGolden(t, name, name+".got-stdout", stdout)
	}
}

// conformConfig: the run's configuration as the reader took it, written
// back as configuration lines (sorted by key) before the suite's unit
// and result lines alone, folds to the same figures and settings.
func conformConfig(t *testing.T, su results.Suite, text string) {
	first, err := results.Read(strings.NewReader(text), "a.txt", suites())
	require.NoError(t, err)
	runs := first.RunsOf(su)
	require.NotEmpty(t, runs)
	cfg := runs[0].FileConfig
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(cfg)) {
		fmt.Fprintf(&b, "%s: %s\n", k, cfg[k])
	}
	bench := regexp.MustCompile(`^(Unit |Benchmark` + su.ID().Bench + `/)`)
	for _, l := range strings.Split(text, "\n") {
		if bench.MatchString(l) {
			b.WriteString(l + "\n")
		}
	}
	again, err := results.Read(strings.NewReader(b.String()), "b.txt", suites())
	require.NoError(t, err)
	rerun := again.RunsOf(su)
	require.NotEmpty(t, rerun)
	assert.Equal(t, su.Settings(runs[0]), su.Settings(rerun[0]))
	f1, err1 := su.Fold(runs[0])
	f2, err2 := su.Fold(rerun[0])
	require.NoError(t, err1)
	require.NoError(t, err2)
	assert.Equal(t, f1.Figures(), f2.Figures())
	assert.Equal(t, f1.Verdict().Reasons, f2.Verdict().Reasons)
}

// conformTruncated: the file cut at a quarter, a half and three quarters
// (inside a line) folds or is refused with one message that names it.
func conformTruncated(t *testing.T, text string) {
	for _, frac := range []int{1, 2, 3} {
		cut := len(text) * frac / 4
		path := writeTemp(t, fmt.Sprintf("cut%d.txt", frac), text[:cut])
		code, _, stderr := run("fold", path)
		checkRefusal(t, code, stderr, path)
	}
}

// conformHostile: the suite's lines with values that are not finite, a
// name the suite does not know, an absurd process count: each is
// refused with one message that names the file and the line.
func conformHostile(t *testing.T, id *results.Identity, text string) {
	prefix := "Benchmark" + id.Bench + "/"
	value := regexp.MustCompile(`(\t *)[-+0-9.eE]+ `) // a metric's value: a number, a space, its unit
	edits := map[string]func(l string) string{
		"NaN": func(l string) string {
			if strings.HasPrefix(l, prefix) {
				return value.ReplaceAllString(l, "${1}NaN ")
			}
			return l
		},
		"name": func(l string) string {
			if strings.HasPrefix(l, prefix) {
				return prefix + "zz=1" + l[strings.IndexAny(l, " \t"):]
			}
			return l
		},
		"procs": func(l string) string {
			if strings.HasPrefix(l, results.KeyProcs+":") {
				return results.KeyProcs + ": 1000000000"
			}
			return l
		},
	}
	for name, edit := range edits {
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			lines[i] = edit(l)
		}
		path := writeTemp(t, "hostile-"+name+".txt", strings.Join(lines, "\n"))
		code, stdout, stderr := run("fold", path)
		assert.Equal(t, exitBadInput, code, "%s: refused", name)
		assert.Empty(t, stdout, name)
		assert.Regexp(t, `^beff fold: `+regexp.QuoteMeta(path)+`:\d+: `, stderr, "%s: names the file and the line", name)
		checkRefusal(t, code, stderr, path)
	}
}

// checkRefusal: exit 0, or 2 (bad input) with one line that names the
// file; never an internal error.
func checkRefusal(t *testing.T, code int, stderr, path string) {
	t.Helper()
	assert.NotContains(t, stderr, "internal error")
	if code == 0 {
		return
	}
	assert.Equal(t, exitBadInput, code)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %s", stderr)
	assert.True(t, strings.HasPrefix(stderr, "beff fold: "+path), "names the file: %s", stderr)
}

// conformReport: the site has a run page with the suite's section and
// its figures in the index's data.
func conformReport(t *testing.T, id *results.Identity, input string) {
	needLibrary(t)
	site := filepath.Join(t.TempDir(), "site")
	code, _, stderr := run("report", "-o", site, input)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	pages, err := filepath.Glob(filepath.Join(site, "runs", "*.html"))
	require.NoError(t, err)
	var found bool
	for _, p := range pages {
		page, err := os.ReadFile(p)
		require.NoError(t, err)
		found = found || strings.Contains(string(page), `<section id="`+id.Key+`">`)
	}
	assert.True(t, found, "a run page with the section of %s", id.Name)
	index, err := os.ReadFile(filepath.Join(site, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(index), id.Name, "the index names the suite")
}

func TestBenchPattern(t *testing.T) {
	for sel, want := range map[string]string{
		"b_eff,b_eff_io":                    "^(BenchmarkBeff|BenchmarkBeffIO)$",
		"skampi":                            "^(BenchmarkSkampi)$",
		"SKaMPI":                            "^(BenchmarkSkampi)$",
		"BEFFIO congestion":                 "^(BenchmarkBeffIO|BenchmarkCongestion)$",
		"beff_io, beff":                     "^(BenchmarkBeff|BenchmarkBeffIO)$",
		"all":                               "^(BenchmarkBeff|BenchmarkBeffIO|BenchmarkCongestion|BenchmarkLinks|BenchmarkSkampi)$",
		"BenchmarkCongestion":               "^(BenchmarkCongestion)$",
		"^(BenchmarkBeff|BenchmarkBeffIO)$": "^(BenchmarkBeff|BenchmarkBeffIO)$", // a pattern, as before names
		"^BenchmarkBeff$/pat=ring2":         "^BenchmarkBeff$/pat=ring2",
	} {
		got, err := benchPattern(sel, suites())
		require.NoError(t, err, sel)
		assert.Equal(t, want, got, sel)
	}
	for _, sel := range []string{"skampy", "", "b_eff,nothing", "^Benchmark$", "(", ","} {
		_, err := benchPattern(sel, suites())
		assert.ErrorContains(t, err, "names no suite; the suites are b_eff, b_eff_io, SKaMPI, congestion, links", "%q", sel)
	}
}
