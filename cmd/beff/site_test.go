package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/report/reporttest"
	"github.com/beff-suite/beff/internal/results/resultstest"
	"github.com/beff-suite/beff/suites/beff"
	befffold "github.com/beff-suite/beff/suites/beff/fold"
	beffiofold "github.com/beff-suite/beff/suites/beffio/fold"
	skampifold "github.com/beff-suite/beff/suites/skampi/fold"
)

// now is the generation time of the test sites.
var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// stubLibrary stands in for plotly.js where no browser runs.
var stubLibrary = &report.Library{JS: []byte("/* plotly stub */\n"), License: []byte("MIT\n"), Version: "0.0.0-test"}

// copyFile copies src to dir/name and returns the new path.
func copyFile(t *testing.T, src, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	require.NoError(t, err)
	dst := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(dst, b, 0o644))
	return dst
}

// resultsCopies copies the stored runs of testdata/runs (copies of
// runs in results/, kept here so that storing a run changes no test) into a
// temporary directory and returns their paths in name order.
func resultsCopies(t *testing.T) []string {
	t.Helper()
	src, err := filepath.Glob("testdata/runs/*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, src, "no stored runs in testdata/runs")
	dir := t.TempDir()
	var out []string
	for _, s := range src {
		out = append(out, copyFile(t, s, dir, filepath.Base(s)))
	}
	return out
}

// siteData is the JSON of a run page (or of a run on the comparison page)
// as the suites write their plot data.
type siteData struct {
	ID     string               `json:"id"`
	Label  string               `json:"label"`
	Href   string               `json:"href"`
	Beff   *befffold.PlotData   `json:"beff"`
	IO     *beffiofold.PlotData `json:"io"`
	Skampi *skampifold.PlotData `json:"skampi"`
}

// folded returns the b_eff and b_eff_io runs of entry e (nil where absent).
func folded(e *report.Entry) (*befffold.Folded, *beffiofold.Folded) {
	b, _ := e.Folded[0].(*befffold.Folded)
	io, _ := e.Folded[1].(*beffiofold.Folded)
	return b, io
}

func TestSiteResults(t *testing.T) {
	paths := resultsCopies(t)
	site := report.Load(paths, suites())
	require.Empty(t, site.Skipped)
	require.NotEmpty(t, site.Entries)
	assert.Len(t, site.Files, len(paths))

	files, err := site.Render(report.Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	for _, name := range []string{"index.html", "compare.html", "assets/plotly-basic.min.js",
		"assets/plotly-LICENSE.txt", "assets/report.js", "assets/report.css"} {
		assert.Contains(t, files, name)
	}
	index := string(files["index.html"])
	compare := string(files["compare.html"])
	assert.Equal(t, len(site.Entries), strings.Count(index, `<tr data-id="`), "one index row per run")
	var beffRuns, ioRuns, skampiRuns int
	for _, r := range site.Entries {
		page := "runs/" + r.ID + ".html"
		rBeff, rIO := folded(r)
		require.Contains(t, files, page)
		assert.Contains(t, index, `href="`+page+`"`)
		assert.Contains(t, compare, `id="pick-`+r.ID+`"`)
		assert.Contains(t, index, r.File)

		html := string(files[page])
		var d siteData
		require.NoError(t, json.Unmarshal(reporttest.ScriptJSON(t, html, "run-data"), &d), page)
		assert.Equal(t, r.ID, d.ID)
		if rBeff != nil {
			beffRuns++
			assert.Contains(t, html, `id="beff-plot"`)
			assert.Contains(t, html, "b_eff = ")
			require.NotNil(t, d.Beff)
			assert.Len(t, d.Beff.Sizes, beff.NumSizes)
			// The seed's axis: size index i at i.
			for i, x := range d.Beff.X {
				assert.Equal(t, float64(i), float64(x), "%s: position of size %d", page, d.Beff.Sizes[i])
			}
			// Rings, random, then every pattern.
			require.Len(t, d.Beff.Curves, 2+len(rBeff.Patterns))
			assert.Equal(t, "rings (logavg)", d.Beff.Curves[0].Name)
			assert.Equal(t, "random (logavg)", d.Beff.Curves[1].Name)
		}
		if sk, ok := r.Folded[2].(*skampifold.Folded); ok {
			skampiRuns++
			assert.Contains(t, html, `<section id="skampi">`)
			require.NotNil(t, d.Skampi)
			points := 0
			for i, su := range d.Skampi.Suites {
				assert.Contains(t, html, fmt.Sprintf(`<div id="skampi-plot-%d" class="plot big" role="img" aria-label="SKaMPI suite %s">`, i, su.Name))
				for _, c := range su.Curves {
					points += len(c.X)
				}
			}
			assert.Equal(t, len(sk.Run.Lines), points, "%s: every point in a plot", page)
			assert.Contains(t, index, fmt.Sprintf(`data-rank="skampi.latency" data-valid="%t" data-v="%s"`, sk.Valid(), strconv.FormatFloat(sk.LatencyUs, 'g', -1, 64)))
		}
		if rIO != nil {
			ioRuns++
			for i := range 3 {
				assert.Contains(t, html, `id="io-acc-`+string(rune('0'+i))+`"`)
			}
			for i := range 5 {
				assert.Contains(t, html, `id="io-type-`+string(rune('0'+i))+`"`)
			}
			require.NotNil(t, d.IO)
			assert.Len(t, d.IO.Partitions, len(rIO.Partitions))
			assert.Contains(t, html, "b_eff_io = ")
			assert.Contains(t, index, `<div class="verdict">b_eff_io <details class="reasons"><summary><span class="notvalid">NOT VALID</span> (3)</summary>`+"\n"+`<ul class="reasons"><li>T per partition`,
				"the validity of each suite: b_eff_io's reasons under b_eff_io")
		}
	}
	assert.Positive(t, beffRuns)
	assert.Positive(t, ioRuns)
	assert.Positive(t, skampiRuns)
	assert.Contains(t, index, "2026-11-21T12:00:00Z")

	var cd struct{ Runs []siteData }
	require.NoError(t, json.Unmarshal(reporttest.ScriptJSON(t, compare, "compare-data"), &cd))
	assert.Len(t, cd.Runs, len(site.Entries))

	// Deterministic: the same input and time give the same bytes.
	again, err := report.Load(paths, suites()).Render(report.Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	assert.Equal(t, files, again)
}

// TestHostile renders a file whose labels are markup, copied also under a
// file name that is markup: everything must come out as text.
func TestSiteHostile(t *testing.T) {
	// the file joins two jobs, b_eff's and b_eff_io's, each with hostile
	// labels; the copy is of other launches
	other := strings.Replace(anotherLaunch(fixture(t, "hostile.txt"), 1), "0.25 stop-ms", "0.26 stop-ms", 1)
	paths := []string{
		"testdata/hostile.txt",
		writeTemp(t, `<img src=x onerror=alert(5)>.txt`, other),
	}
	site := report.Load(paths, suites())
	require.Empty(t, site.Skipped)
	require.Empty(t, site.Repeats)
	require.Len(t, site.Entries, 4)
	for i, r := range site.Entries {
		assert.Regexp(t, `^[a-z0-9-]+$`, r.ID)
		rBeff, rIO := folded(r)
		assert.Equal(t, i%2 == 0, rBeff != nil, "b_eff's job first")
		assert.Equal(t, i%2 == 1, rIO != nil)
	}
	files, err := site.Render(report.Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	scripts := map[string]int{"index.html": 1, "compare.html": 3}
	for _, r := range site.Entries {
		scripts["runs/"+r.ID+".html"] = 3
	}
	for name, n := range scripts {
		page := string(files[name])
		assert.Equal(t, n, strings.Count(strings.ToLower(page), "<script"), "%s: only the site's own scripts", name)
		for _, bad := range []string{"<img", "<b ", "beffPwned=1;alert(1)</script>"} {
			assert.NotContains(t, page, bad, name)
		}
	}
	index := string(files["index.html"])
	assert.Contains(t, index, "&lt;script&gt;window.beffPwned=1;alert(1)&lt;/script&gt; &amp;amp; &#34;quoted&#34;")
	assert.Contains(t, index, "&lt;img src=x onerror=alert(5)&gt;.txt")
	run := string(files["runs/"+site.Entries[0].ID+".html"])
	assert.Contains(t, run, "&lt;/script&gt;&lt;script&gt;window.beffPwned=2")
	// The page data keeps the label exactly, with < > & escaped in JSON.
	var d siteData
	data := reporttest.ScriptJSON(t, run, "run-data")
	assert.Contains(t, string(data), `\u003cscript\u003ewindow.beffPwned=1`)
	require.NoError(t, json.Unmarshal(data, &d))
	assert.Contains(t, d.Label, `<script>window.beffPwned=1;alert(1)</script> &amp; "quoted" 'single'`)
}

// TestSkipped checks that corrupt and truncated files are skipped as a
// whole, with their position, and listed on the index page.
func TestSiteSkipped(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile("testdata/short-np2.txt")
	require.NoError(t, err)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	lines := strings.SplitAfter(string(good), "\n")
	// A measurement line with a bad value.
	corrupt := strings.Join(lines[:40], "") + "BenchmarkBeff/pat=ring2/L=1/mthd=sendrecv 1 abc ns/op\n" + strings.Join(lines[40:], "")
	// Cut in the middle of the file: the run misses measurements.
	truncated := good[:len(good)/2]
	// A good b_eff run and a b_eff_io run that misses its last lines:
	// nothing of the file may be used.
	io, err := os.ReadFile("testdata/io-synthetic.txt")
	require.NoError(t, err)
	ioLines := strings.SplitAfter(string(io), "\n")
	half := string(good) + "\n" + strings.Join(ioLines[:len(ioLines)-20], "")
	paths := []string{
		write("corrupt.txt", []byte(corrupt)),
		write("truncated.txt", truncated),
		write("half.txt", []byte(half)),
		write("good.txt", good),
		write("empty.txt", nil),
		filepath.Join(dir, "absent.txt"),
	}
	site := report.Load(paths, suites())
	require.Len(t, site.Entries, 1)
	assert.Equal(t, paths[3], site.Entries[0].File)
	require.Len(t, site.Skipped, 5)
	for i, want := range []struct {
		path int
		msg  string
	}{
		{0, `corrupt.txt:41: `},
		{1, `truncated.txt:\d+: `},
		{2, `half.txt:\d+: b_eff_io run 1: incomplete`},
		{4, `empty.txt: not beff output`},
		{5, `open .*absent.txt: no such file`},
	} {
		assert.Equal(t, paths[want.path], site.Skipped[i].File)
		assert.Regexp(t, want.msg, site.Skipped[i].Error())
	}
	files, err := site.Render(report.Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	index := string(files["index.html"])
	assert.Contains(t, index, `id="skipped"`)
	for _, s := range site.Skipped {
		assert.Contains(t, index, s.Error())
	}
	assert.Equal(t, 1, strings.Count(index, `<tr data-id="`))
}

// TestGolden compares the index page of testdata/hostile.txt with
// testdata/index.html; on a mismatch it writes testdata/index.got-html,
// BEFF_UPDATE=1 rewrites the golden file.
func TestSiteGolden(t *testing.T) {
	files, err := report.Load([]string{"testdata/hostile.txt", "testdata/io-synthetic.txt", "testdata/absent.txt"}, suites()).
		Render(report.Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	got := files["index.html"]
	golden, gotPath := "testdata/index.html", "testdata/index.got-html"
	if resultstest.Update() {
		require.NoError(t, os.WriteFile(golden, got, 0o644))
		return
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run with BEFF_UPDATE=1 to create it")
	if string(want) == string(got) {
		os.Remove(gotPath)
		return
	}
	require.NoError(t, os.WriteFile(gotPath, got, 0o644))
	t.Errorf("index.html differs from %s (written to %s)", golden, gotPath)
}

// TestColumnsRankable: every index column of every suite has a unit its
// suite declares, so the ranking knows whether higher or lower is better.
func TestColumnsRankable(t *testing.T) {
	for _, su := range suites() {
		pg, ok := su.(report.Pages)
		if !ok {
			continue
		}
		units := map[string]string{}
		for _, u := range su.ID().FoldUnits {
			units[u.Name] = u.Better
		}
		for _, c := range pg.Columns() {
			assert.Contains(t, []string{"higher", "lower"}, units[c.Unit], "%s: column %s: unit %q", su.ID().Name, c.Label, c.Unit)
		}
	}
}
