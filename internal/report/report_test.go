package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/report/reporttest"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
)

// The report names no suite: these tests build sites of the toy suite, as
// it is (no pages) and with toy pages.

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// stubLibrary stands in for plotly.js where no browser runs.
var stubLibrary = &Library{JS: []byte("/* plotly stub */\n"), License: []byte("MIT\n"), Version: "0.0.0-test"}

// toyPages is the toy suite with a part in the site.
type toyPages struct{ resultstest.Suite }

var _ Pages = toyPages{}

func (toyPages) SiteKeys() (string, string) { return "toy", "toysection" }
func (toyPages) Columns() []Column {
	return []Column{{Figure: "toy", Label: "toy mean", Unit: "MB/s"}, {Figure: "nothing", Label: "never there", Unit: "parsecs"}}
}
func (toyPages) SiteReasons(f results.Folded) []string {
	return append(f.Verdict().Reasons, "toys are never valid")
}
func (toyPages) Section(f results.Folded) (template.HTML, error) {
	return template.HTML(fmt.Sprintf(`<section id="toysection"><h2>toy = %s</h2></section>`,
		template.HTMLEscapeString(Funcs["mbps"].(func(float64) string)(f.(*resultstest.Folded).Mean)))), nil
}
func (toyPages) Controls() (template.HTML, error) { return "<label>toy</label>\n", nil }
func (toyPages) PlotData(f results.Folded) any {
	return map[string]float64{"mean": f.(*resultstest.Folded).Mean}
}
func (toyPages) Script() []byte { return []byte("/* toy */\n") }

// writeFiles writes name → text into a new directory and returns the paths.
func writeFiles(t *testing.T, files ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i := 0; i < len(files); i += 2 {
		p := filepath.Join(dir, files[i])
		require.NoError(t, os.WriteFile(p, []byte(files[i+1]), 0o644))
		paths = append(paths, p)
	}
	return paths
}

func value(run, k int) float64 { return float64(100*(run+1) + k) }

// shifted is value plus d: the runs of another launch (runs of equal
// figures are one launch read twice, and count once).
func shifted(d float64) func(run, k int) float64 {
	return func(run, k int) float64 { return value(run, k) + d }
}

// TestLoad: a file with two runs makes two entries; a file that does not
// fold is skipped as a whole; IDs are unique.
func TestLoad(t *testing.T) {
	paths := writeFiles(t,
		"two.txt", resultstest.File(2, 2, 2, "full", value),
		"bad.txt", resultstest.File(2, 2, 1, "full", value)+"toy-size: 3\nBenchmarkToy/x=1 1 1 MB/s\n",
		"empty.txt", "")
	site := Load(append(paths, filepath.Join(filepath.Dir(paths[0]), "absent.txt")), []results.Suite{resultstest.Suite{}})
	require.Len(t, site.Entries, 2)
	assert.Equal(t, []string{"two-1", "two-2"}, []string{site.Entries[0].ID, site.Entries[1].ID})
	e := site.Entries[1]
	assert.Equal(t, 2, e.Index)
	assert.Equal(t, 2, e.Procs())
	assert.Equal(t, "toyhost (2)", e.Hosts())
	assert.Equal(t, "2026-11-22T10:00:00Z", e.Date())
	assert.Equal(t, "two.txt #2 · toyhost (2) · N=2", e.Label())
	assert.Empty(t, e.Reasons(site.Suites))
	require.Len(t, site.Skipped, 3)
	assert.Regexp(t, `bad.txt:\d+: run 2: missing x=2`, site.Skipped[0].Error())
	assert.Regexp(t, `empty.txt: not beff output: no BenchmarkToy results`, site.Skipped[1].Error())
	assert.Regexp(t, `open .*absent.txt: no such file`, site.Skipped[2].Error())
}

// TestRenderWithoutPages: a suite without pages is in the index with its
// validity and on its run page with its protocol.
func TestRenderWithoutPages(t *testing.T) {
	paths := writeFiles(t, "short.txt", resultstest.File(1, 1, 1, "short (test)", value))
	site := Load(paths, []results.Suite{resultstest.Suite{}})
	files, err := site.Render(Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	index := string(files["index.html"])
	assert.Contains(t, index, "<h1>toy results</h1>")
	assert.Contains(t, index, "A run is the k-th toy run of one job in a file (a file that joins several jobs gives a run for each).")
	assert.Contains(t, index, `<div class="verdict">toy <details class="reasons"><summary><span class="notvalid">NOT VALID</span> (1)</summary>`+"\n"+`<ul class="reasons"><li>short run</li></ul>`, "each suite's validity")
	run := string(files["runs/short-1.html"])
	assert.Contains(t, run, "toy = 101.00 MB/s\nNOT VALID: short run\n")
	assert.Contains(t, run, `<p class="runline">toyhost (1) · 1 process · <span title="2026-11-22T10:00:00Z">2026-11-22</span> · toy <span class="notvalid">NOT VALID</span></p>`)
	assert.Contains(t, run, `<p class="toc"><a href="#run">the run</a> · <a href="#protocol">protocol</a>`)
	assert.JSONEq(t, `{"id":"short-1","label":"short.txt #1 · toyhost (1) · N=1"}`, string(reporttest.ScriptJSON(t, run, "run-data")))
	assert.Equal(t, "/* plotly stub */\n", string(files["assets/plotly-basic.min.js"]))
	assert.True(t, strings.HasSuffix(string(files["assets/report.js"]), "}());\n\nbeffReport.start();\n"))
}

// TestRenderWithPages: the suite's columns, section, controls, data and
// script go where the pages put them.
func TestRenderWithPages(t *testing.T) {
	paths := writeFiles(t, "a.txt", "machine-cpu: Toy <CPU>, 2 cores\nmpi-env: UCX_TLS=rc\n"+resultstest.File(2, 2, 1, "full", value), "b.txt", resultstest.File(4, 2, 1, "full", shifted(0.25)))
	site := Load(paths, []results.Suite{toyPages{}})
	files, err := site.Render(Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	assert.Contains(t, string(files["runs/a-1.html"]), `<tr><th scope="row">CPU</th><td>Toy &lt;CPU&gt;, 2 cores</td></tr>`+"\n"+
		`<tr><th scope="row">MPI settings (environment)</th><td>UCX_TLS=rc</td></tr>`, "the machine's lines on the run page")
	assert.NotContains(t, string(files["runs/b-1.html"]), `<th scope="row">CPU</th>`, "none where the file records none")
	index := string(files["index.html"])
	assert.Contains(t, index, `<th scope="col" data-type="num" data-rank="toy.toy" data-better="higher" data-label="toy mean">toy mean <span class="unit">MB/s</span></th>`+"\n"+
		`<th scope="col" data-type="num" data-rank="toy.nothing" data-better="" data-label="never there">never there <span class="unit">parsecs</span></th>`)
	assert.Contains(t, index, `<td class="num" data-rank="toy.toy" data-valid="false" data-v="101.5">101.50</td>`+"\n"+`<td class="num" data-rank="toy.nothing" data-valid="false" data-v="">–</td>`, "toys are never valid")
	assert.Regexp(t, `<tr data-id="a-1" data-run="[^"]*a.txt #1" data-system="toyhost \(2\) · " data-system-label="toyhost \(2\) · ">`, index)
	// The ranking: a weight for each column with a direction (not for a
	// unit the suite does not declare), the site's first column weighted 1.
	assert.Contains(t, index, `<label>toy mean <input type="number" class="weight" min="0" step="any" value="1" data-rank="toy.toy" data-default="1" aria-label="weight of toy mean"></label>`)
	assert.NotContains(t, index, `data-rank="toy.nothing" data-default`)
	assert.Contains(t, index, "<li>toys are never valid</li>", "the site's reasons")
	run := string(files["runs/a-1.html"])
	assert.Contains(t, run, `<p class="toc"><a href="#toysection">toy</a> · <a href="#run">the run</a> · <a href="#protocol">protocol</a>`)
	assert.Contains(t, run, "</p>\n\n"+`<section id="toysection"><h2>toy = 101.50</h2></section>`+"\n\n"+`<section id="run">`, "the figures first, then the run")
	assert.JSONEq(t, `{"id":"a-1","label":"a.txt #1 · toyhost (2) · N=2","toy":{"mean":101.5}}`, string(reporttest.ScriptJSON(t, run, "run-data")))
	cmp := string(files["compare.html"])
	assert.Contains(t, cmp, `<label><input type="radio" name="suite" value="toy" checked> toy</label>`)
	assert.Contains(t, cmp, `<fieldset id="toy-controls"><legend>toy</legend>`+"\n<label>toy</label>\n</fieldset>")
	assert.Contains(t, cmp, `id="pick-b-1" value="b-1" data-toy="true">`)
	var cd struct {
		Runs []map[string]json.RawMessage `json:"runs"`
	}
	require.NoError(t, json.Unmarshal(reporttest.ScriptJSON(t, cmp, "compare-data"), &cd))
	require.Len(t, cd.Runs, 2)
	assert.JSONEq(t, `"runs/b-1.html"`, string(cd.Runs[1]["href"]))
	assert.JSONEq(t, `{"mean":101.75}`, string(cd.Runs[1]["toy"]))
	js := string(files["assets/report.js"])
	assert.True(t, strings.HasSuffix(js, "}());\n\n/* toy */\n\nbeffReport.start();\n"), "the suite's script, then the start")

	again, err := Load(paths, []results.Suite{toyPages{}}).Render(Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	assert.Equal(t, files, again, "the same input and time give the same bytes")
}

// TestRunPages: of more runs than pages, the newest by their date get
// pages and a place on the comparison page (an unreadable date is the
// oldest; among equal dates the later input wins); the index lists all,
// without a link where there is no page, and says so.
func TestRunPages(t *testing.T) {
	dated := func(procs, runs int, date string, d float64) string {
		return strings.ReplaceAll(resultstest.File(procs, 1, runs, "full", shifted(d)), "2026-11-22T10:00:00Z", date)
	}
	paths := writeFiles(t,
		"old.txt", dated(2, 1, "2026-11-20T10:00:00Z", 0),
		"new.txt", dated(2, 2, "2026-11-23T10:00:00Z", 0.25),
		"bad.txt", dated(2, 1, "yesterday", 0.5),
		"same.txt", dated(2, 1, "2026-11-20T10:00:00Z", 0.75))
	site := Load(paths, []results.Suite{toyPages{}})
	files, err := site.Render(Options{Now: now, Library: stubLibrary, RunPages: 3})
	require.NoError(t, err)
	var pages []string
	for name := range files {
		if strings.HasPrefix(name, "runs/") {
			pages = append(pages, name)
		}
	}
	assert.ElementsMatch(t, []string{"runs/new-1.html", "runs/new-2.html", "runs/same-1.html"}, pages)
	assert.Equal(t, 3, site.NPages())
	index := string(files["index.html"])
	assert.Contains(t, index, "The 3 newest runs (by their date) have pages and are on the comparison page; the table lists all 5")
	assert.Equal(t, 5, strings.Count(index, "<tr data-id="))
	assert.Contains(t, index, `<a href="runs/same-1.html">`)
	assert.NotContains(t, index, `runs/old-1.html`)
	assert.Contains(t, index, `title="`+paths[0]+`: no page (older than the 3 newest runs)">old.txt #1</td>`)
	cmp := string(files["compare.html"])
	assert.Equal(t, 3, strings.Count(cmp, `class="pick"`))
	assert.NotContains(t, cmp, "bad-1")

	all, err := site.Render(Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	assert.Contains(t, all, "runs/bad-1.html", "fewer runs than the default bound: a page each")
	assert.NotContains(t, string(all["index.html"]), `id="run-pages"`)
}

func TestWrite(t *testing.T) {
	site := Load(writeFiles(t, "x.txt", resultstest.File(1, 1, 1, "full", value)), []results.Suite{resultstest.Suite{}})
	require.Empty(t, site.Skipped)
	parent := t.TempDir()
	dir := filepath.Join(parent, "site")
	opt := Options{Now: now, Library: stubLibrary}
	require.NoError(t, site.Write(dir, opt))
	for _, name := range []string{"index.html", "compare.html", "runs/x-1.html", "assets/report.js", "assets/plotly-basic.min.js"} {
		assert.FileExists(t, filepath.Join(dir, filepath.FromSlash(name)))
	}
	// A second report replaces the first: a page of the first that the
	// second does not write goes; a person's files stay, where they were.
	two := Load(writeFiles(t, "x.txt", resultstest.File(1, 1, 1, "full", value), "y.txt", resultstest.File(1, 1, 1, "full", shifted(1))),
		[]results.Suite{resultstest.Suite{}})
	require.NoError(t, two.Write(dir, opt))
	stale := filepath.Join(dir, "runs", "y-1.html")
	require.FileExists(t, stale)
	mine := map[string]string{"notes.md": "my notes", "runs/mine.html": "my page", "deep/er/x.txt": "x"}
	for name, text := range mine {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	require.NoError(t, site.Write(dir, opt))
	assert.NoFileExists(t, stale)
	assert.FileExists(t, filepath.Join(dir, "index.html"))
	for name, text := range mine {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		require.NoError(t, err, name)
		assert.Equal(t, text, string(b), name)
	}
	ents, err := os.ReadDir(parent)
	require.NoError(t, err)
	assert.Len(t, ents, 1, "no temporary directory left beside the site")

	// A person's file where the new site writes one of its own: refused,
	// nothing changed.
	require.NoError(t, os.WriteFile(stale, []byte("mine now"), 0o644))
	err = two.Write(dir, opt)
	assert.ErrorIs(t, err, ErrRefusedDir)
	assert.ErrorContains(t, err, "holds runs/y-1.html, which beff report did not write and the new site needs: move it away")
	b, err := os.ReadFile(stale)
	require.NoError(t, err)
	assert.Equal(t, "mine now", string(b))
	require.NoError(t, os.Remove(stale))

	// A manifest that is a device is not read: refused, nothing changed.
	m := filepath.Join(dir, manifestName)
	require.NoError(t, os.Remove(m))
	require.NoError(t, os.Symlink("/dev/zero", m))
	err = site.Write(dir, opt)
	assert.ErrorIs(t, err, ErrRefusedDir)
	assert.FileExists(t, filepath.Join(dir, "notes.md"))
	require.NoError(t, os.Remove(m))

	// An empty directory is fine; a directory with other files is not touched.
	empty := filepath.Join(parent, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	require.NoError(t, site.Write(empty, opt))
	other := filepath.Join(parent, "other")
	require.NoError(t, os.Mkdir(other, 0o755))
	keep := filepath.Join(other, "keep.txt")
	require.NoError(t, os.WriteFile(keep, []byte("mine"), 0o644))
	err = site.Write(other, opt)
	assert.ErrorContains(t, err, "neither empty nor a site of beff report")
	assert.FileExists(t, keep)
	assert.NoFileExists(t, filepath.Join(other, "index.html"))
}

func TestEmbeddedLibrary(t *testing.T) {
	lib, err := EmbeddedLibrary()
	if errors.Is(err, ErrNoLibrary) {
		assert.Contains(t, err.Error(), "make assets")
		site := Load(writeFiles(t, "x.txt", resultstest.File(1, 1, 1, "full", value)), []results.Suite{resultstest.Suite{}})
		_, err := site.Render(Options{Now: now})
		assert.ErrorIs(t, err, ErrNoLibrary)
		t.Skip("built without the plotting library (make assets)")
	}
	require.NoError(t, err)
	assert.Contains(t, string(lib.JS[:200]), "plotly.js")
	assert.Contains(t, string(lib.License), "MIT")
	assert.Equal(t, "4.1.1", lib.Version)
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"vm-2026-11-21-np2-run10":       "vm-2026-11-21-np2-run10",
		"My Cluster_NP256":              "my-cluster-np256",
		"<img src=x onerror=alert(5)>":  "img-src-x-onerror-alert-5",
		"<>":                            "run",
		"--a--b--":                      "a-b",
		"Ünïcode":                       "n-code",
		"results/../x":                  "results-x",
		"<script>alert(1)</script>.txt": "script-alert-1-script-txt",
		strings.Repeat("x", 300):        strings.Repeat("x", MaxSlug),
		strings.Repeat("a", 63) + "-bc": strings.Repeat("a", 63),
	} {
		assert.Equal(t, want, slug(in), "slug(%q)", in)
	}
}

func TestIDsUnique(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "x.txt")
	require.NoError(t, os.WriteFile(a, []byte(resultstest.File(1, 1, 1, "full", value)), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "b"), 0o755))
	b := filepath.Join(dir, "b", "x.txt")
	require.NoError(t, os.WriteFile(b, []byte(resultstest.File(1, 1, 1, "full", shifted(1))), 0o644))
	site := Load([]string{a, b}, []results.Suite{resultstest.Suite{}})
	require.Len(t, site.Entries, 2)
	assert.Equal(t, "x-1", site.Entries[0].ID)
	assert.Equal(t, "x-2-1", site.Entries[1].ID)
}

func TestPlotNum(t *testing.T) {
	for v, want := range map[float64]string{1.5: "1.5", 9954.048712636575: "9954.05", 1e-7: "1e-07"} {
		b, err := json.Marshal(PlotNum(v))
		require.NoError(t, err)
		assert.Equal(t, want, string(b))
	}
	b, err := json.Marshal([]PlotNum{Missing})
	require.NoError(t, err)
	assert.Equal(t, "[null]", string(b))
}

func TestSiteFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"site/section.tmpl":  {Data: []byte(`<section id="x">{{mbps .V}} {{twice .V}}</section>` + "\n")},
		"site/controls.tmpl": {Data: []byte("<label>x</label>\n")},
		"site/plot.js":       {Data: []byte("/* x */\n")},
	}
	f := NewSiteFiles(fsys, template.FuncMap{"twice": func(v float64) float64 { return 2 * v }})
	h, err := f.Section(struct{ V float64 }{1.5})
	require.NoError(t, err)
	assert.Equal(t, template.HTML(`<section id="x">1.5000 3</section>`), h, "the site's funcs and the suite's, no final newline")
	c, err := f.Controls()
	require.NoError(t, err)
	assert.Equal(t, template.HTML("<label>x</label>\n"), c)
	assert.Equal(t, "/* x */\n", string(f.Script()))
	assert.Panics(t, func() { NewSiteFiles(fstest.MapFS{}, nil) }, "no templates")
}

// TestLoadJobs: a file that joins two jobs (another machine's run
// appended) gives an entry per job, each with its own machine, in the
// order they start; a copy of a file with its date edited is the same
// run, left out with a note.
func TestLoadJobs(t *testing.T) {
	other := strings.ReplaceAll(resultstest.File(4, 1, 2, "full", shifted(0.5)), "toyhost", "bighost")
	paths := writeFiles(t,
		"joined.txt", resultstest.File(2, 1, 1, "full", value)+other,
		"copy.txt", strings.Replace(resultstest.File(2, 1, 1, "full", value), "2026-11-22", "2026-12-24", 1))
	site := Load(paths, []results.Suite{resultstest.Suite{}})
	require.Empty(t, site.Skipped)
	require.Len(t, site.Entries, 3)
	for i, want := range []string{"toyhost (2)", "bighost (4)", "bighost (4)"} {
		assert.Equal(t, want, site.Entries[i].Hosts(), i)
		assert.Equal(t, i+1, site.Entries[i].Index)
	}
	assert.Equal(t, []string{paths[1] + " (toy run 1) repeats " + paths[0] + " (toy run 1) (the same measurements, whatever its configuration lines say): counted once"}, site.Repeats)
	files, err := site.Render(Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	assert.Contains(t, string(files["index.html"]), `<h2 id="repeats">Repeated runs</h2>`)
}
