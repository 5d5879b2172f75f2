package report

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beffio"
)

var update = flag.Bool("update", false, "rewrite the golden files testdata/*.html")

// now is the generation time of the test sites.
var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// stubLibrary stands in for plotly.js where no browser runs.
var stubLibrary = &Library{JS: []byte("/* plotly stub */\n"), License: []byte("MIT\n"), Version: "0.0.0-test"}

// copyFile copies src to dir/name and returns the new path.
func copyFile(t *testing.T, src, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	require.NoError(t, err)
	dst := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(dst, b, 0o644))
	return dst
}

// resultsCopies copies the stored runs in ../../results into a temporary
// directory and returns their paths in name order.
func resultsCopies(t *testing.T) []string {
	t.Helper()
	src, err := filepath.Glob("../../results/*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, src, "no stored runs in results/")
	dir := t.TempDir()
	var out []string
	for _, s := range src {
		out = append(out, copyFile(t, s, dir, filepath.Base(s)))
	}
	return out
}

// scriptJSON returns the JSON of the <script type="application/json"
// id=ID> element of page.
func scriptJSON(t *testing.T, page, id string) []byte {
	t.Helper()
	re := regexp.MustCompile(`(?s)<script type="application/json" id="` + id + `">(.*?)</script>`)
	m := re.FindStringSubmatch(page)
	require.NotNil(t, m, "no JSON element #%s", id)
	return []byte(m[1])
}

func TestResults(t *testing.T) {
	paths := resultsCopies(t)
	site := Load(paths)
	require.Empty(t, site.Skipped)
	require.NotEmpty(t, site.Runs)
	assert.Len(t, site.Files, len(paths))

	files, err := site.Render(Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	for _, name := range []string{"index.html", "compare.html", "assets/plotly-basic.min.js",
		"assets/plotly-LICENSE.txt", "assets/report.js", "assets/report.css"} {
		assert.Contains(t, files, name)
	}
	index := string(files["index.html"])
	compare := string(files["compare.html"])
	assert.Equal(t, len(site.Runs), strings.Count(index, `<tr data-id="`), "one index row per run")
	var beffRuns, ioRuns int
	for _, r := range site.Runs {
		page := "runs/" + r.ID + ".html"
		require.Contains(t, files, page)
		assert.Contains(t, index, `href="`+page+`"`)
		assert.Contains(t, compare, `id="pick-`+r.ID+`"`)
		assert.Contains(t, index, r.File)

		html := string(files[page])
		var d runData
		require.NoError(t, json.Unmarshal(scriptJSON(t, html, "run-data"), &d), page)
		assert.Equal(t, r.ID, d.ID)
		if r.Beff != nil {
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
			require.Len(t, d.Beff.Curves, 2+len(r.Beff.Patterns))
			assert.Equal(t, "rings (logavg)", d.Beff.Curves[0].Name)
			assert.Equal(t, "random (logavg)", d.Beff.Curves[1].Name)
		}
		if r.IO != nil {
			ioRuns++
			for i := range 3 {
				assert.Contains(t, html, `id="io-acc-`+string(rune('0'+i))+`"`)
			}
			for i := range 5 {
				assert.Contains(t, html, `id="io-type-`+string(rune('0'+i))+`"`)
			}
			require.NotNil(t, d.IO)
			assert.Len(t, d.IO.Partitions, len(r.IO.Partitions))
			assert.Contains(t, html, "b_eff_io = ")
			assert.Contains(t, index, "b_eff_io: T per partition")
		}
	}
	assert.Positive(t, beffRuns)
	assert.Positive(t, ioRuns)
	assert.Contains(t, index, "2026-11-21T12:00:00Z")

	var cd compareData
	require.NoError(t, json.Unmarshal(scriptJSON(t, compare, "compare-data"), &cd))
	assert.Len(t, cd.Runs, len(site.Runs))

	// Deterministic: the same input and time give the same bytes.
	again, err := Load(paths).Render(Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	assert.Equal(t, files, again)
}

// TestHostile renders a file whose labels are markup, copied also under a
// file name that is markup: everything must come out as text.
func TestHostile(t *testing.T) {
	dir := t.TempDir()
	paths := []string{
		"testdata/hostile.txt",
		copyFile(t, "testdata/hostile.txt", dir, `<img src=x onerror=alert(5)>.txt`),
	}
	site := Load(paths)
	require.Empty(t, site.Skipped)
	require.Len(t, site.Runs, 2)
	for _, r := range site.Runs {
		assert.Regexp(t, `^[a-z0-9-]+$`, r.ID)
		require.NotNil(t, r.Beff)
		require.NotNil(t, r.IO)
	}
	files, err := site.Render(Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	scripts := map[string]int{"index.html": 1, "compare.html": 3}
	for _, r := range site.Runs {
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
	run := string(files["runs/"+site.Runs[0].ID+".html"])
	assert.Contains(t, run, "&lt;/script&gt;&lt;script&gt;window.beffPwned=2")
	// The page data keeps the label exactly, with < > & escaped in JSON.
	var d runData
	data := scriptJSON(t, run, "run-data")
	assert.Contains(t, string(data), `\u003cscript\u003ewindow.beffPwned=1`)
	require.NoError(t, json.Unmarshal(data, &d))
	assert.Contains(t, d.Label, `<script>window.beffPwned=1;alert(1)</script> &amp; "quoted" 'single'`)
}

// TestSkipped checks that corrupt and truncated files are skipped as a
// whole, with their position, and listed on the index page.
func TestSkipped(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile("../../testdata/short-np2.txt")
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
	io, err := os.ReadFile("../../testdata/io-synthetic.txt")
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
	site := Load(paths)
	require.Len(t, site.Runs, 1)
	assert.Equal(t, paths[3], site.Runs[0].File)
	require.Len(t, site.Skipped, 5)
	for i, want := range []struct {
		path int
		msg  string
	}{
		{0, `corrupt.txt:41: `},
		{1, `truncated.txt:\d+: `},
		{2, `half.txt:\d+: b_eff_io run 1: incomplete`},
		{4, `empty.txt: not b_eff output`},
		{5, `open .*absent.txt: no such file`},
	} {
		assert.Equal(t, paths[want.path], site.Skipped[i].File)
		assert.Regexp(t, want.msg, site.Skipped[i].Error())
	}
	files, err := site.Render(Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	index := string(files["index.html"])
	assert.Contains(t, index, `id="skipped"`)
	for _, s := range site.Skipped {
		assert.Contains(t, index, s.Error())
	}
	assert.Equal(t, 1, strings.Count(index, `<tr data-id="`))
}

func TestWrite(t *testing.T) {
	site := Load([]string{"../../testdata/short-np2.txt"})
	require.Empty(t, site.Skipped)
	parent := t.TempDir()
	dir := filepath.Join(parent, "site")
	opt := Options{Now: now, Library: stubLibrary}
	require.NoError(t, site.Write(dir, opt))
	for _, name := range []string{"index.html", "compare.html", "runs/short-np2-1.html", "assets/report.js", "assets/plotly-basic.min.js"} {
		assert.FileExists(t, filepath.Join(dir, filepath.FromSlash(name)))
	}
	// A second report replaces the first: a stale page goes.
	stale := filepath.Join(dir, "runs", "stale.html")
	require.NoError(t, os.WriteFile(stale, nil, 0o644))
	require.NoError(t, site.Write(dir, opt))
	assert.NoFileExists(t, stale)
	assert.FileExists(t, filepath.Join(dir, "index.html"))
	ents, err := os.ReadDir(parent)
	require.NoError(t, err)
	assert.Len(t, ents, 1, "no temporary directory left beside the site")

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
		_, err := Load([]string{"../../testdata/short-np2.txt"}).Render(Options{Now: now})
		assert.ErrorIs(t, err, ErrNoLibrary)
		t.Skip("built without the plotting library (make assets)")
	}
	require.NoError(t, err)
	assert.Contains(t, string(lib.JS[:200]), "plotly.js")
	assert.Contains(t, string(lib.License), "MIT")
	assert.Equal(t, "4.1.1", lib.Version)
}

// TestGolden compares the index page of testdata/hostile.txt with
// testdata/index.html; on a mismatch it writes testdata/index.got-html,
// -update rewrites the golden file.
func TestGolden(t *testing.T) {
	files, err := Load([]string{"testdata/hostile.txt", "../../testdata/io-synthetic.txt", "testdata/absent.txt"}).
		Render(Options{Now: now, Library: stubLibrary})
	require.NoError(t, err)
	got := files["index.html"]
	golden, gotPath := "testdata/index.html", "testdata/index.got-html"
	if *update {
		require.NoError(t, os.WriteFile(golden, got, 0o644))
		return
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run with -update to create it")
	if string(want) == string(got) {
		os.Remove(gotPath)
		return
	}
	require.NoError(t, os.WriteFile(gotPath, got, 0o644))
	t.Errorf("index.html differs from %s (written to %s)", golden, gotPath)
}

func TestSizePos(t *testing.T) {
	for _, lmax := range []int64{beff.MinLmax, 65536, 49364992, 98729984, 1 << 30} {
		for i, l := range beff.Sizes(lmax) {
			assert.InDelta(t, float64(i), sizePos(l, lmax), 0.02, "lmax %d, size %d", lmax, l)
		}
	}
}

func TestChunks(t *testing.T) {
	for _, mpart := range []int64{2 << 20, 98729984} {
		var got []string
		seen := map[int64]bool{}
		for _, p := range beffio.Table(mpart) {
			if plotted(p) && !seen[p.L] {
				seen[p.L] = true
				got = append(got, chunkLabel(p.L))
			}
		}
		want := []string{"1 MiB", "32 KiB", "1 KiB", "32 KiB+8", "1 KiB+8", "1 MiB+8"}
		if mpart == 2<<20 {
			want = append([]string{"2 MiB"}, want...)
		} else {
			want = append([]string{"94.2 MiB"}, want...)
		}
		assert.Equal(t, want, got, "MPART %d", mpart)
	}
}

func TestLabels(t *testing.T) {
	for _, tt := range []struct {
		l           int64
		bytes, disk string
	}{
		{1, "1", "1 B"},
		{512, "512", "512 B"},
		{4096, "4K", "4 KiB"},
		{13258, "12.9K", "12.9 KiB"},
		{1032, "1.01K", "1 KiB+8"},
		{32776, "32.0K", "32 KiB+8"},
		{1 << 20, "1M", "1 MiB"},
		{1<<20 + 8, "1.00M", "1 MiB+8"},
		{49364992, "47.1M", "47.1 MiB"},
	} {
		assert.Equal(t, tt.bytes, bytesLabel(tt.l), "bytesLabel(%d)", tt.l)
		assert.Equal(t, tt.disk, chunkLabel(tt.l), "chunkLabel(%d)", tt.l)
	}
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
	} {
		assert.Equal(t, want, slug(in), "slug(%q)", in)
	}
}

func TestIDsUnique(t *testing.T) {
	dir := t.TempDir()
	a := copyFile(t, "../../testdata/short-np2.txt", dir, "x.txt")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "b"), 0o755))
	b := copyFile(t, "../../testdata/short-np2.txt", filepath.Join(dir, "b"), "x.txt")
	site := Load([]string{a, b})
	require.Len(t, site.Runs, 2)
	assert.Equal(t, "x-1", site.Runs[0].ID)
	assert.Equal(t, "x-2-1", site.Runs[1].ID)
}
