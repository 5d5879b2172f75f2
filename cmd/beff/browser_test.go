package main

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/suites/skampi"
	skampifold "github.com/beff-suite/beff/suites/skampi/fold"
)

// chromiumPath is Debian's Chromium, which `make deps` installs.
const chromiumPath = "/usr/bin/chromium"

// browserProblems collects what a page must never do: console errors and
// warnings, uncaught exceptions, browser log errors (a file that did not
// load) and dialogs (alert, confirm, prompt).
type browserProblems struct {
	mu       sync.Mutex
	problems []string
	dialogs  []string
}

func (b *browserProblems) add(list *[]string, format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	*list = append(*list, fmt.Sprintf(format, args...))
}

func (b *browserProblems) take() (problems, dialogs []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	problems, dialogs = b.problems, b.dialogs
	b.problems, b.dialogs = nil, nil
	return problems, dialogs
}

// requireBrowser returns the plotting library, or skips the test when
// Chromium or the library is missing and BEFF_REQUIRE_BROWSER is not set.
func requireBrowser(t *testing.T) *report.Library {
	t.Helper()
	required := os.Getenv("BEFF_REQUIRE_BROWSER") != ""
	if _, err := os.Stat(chromiumPath); err != nil {
		if !required {
			t.Skipf("skipping the browser test: %s is missing (install Debian's chromium, e.g. with make deps; BEFF_REQUIRE_BROWSER=1 makes this a failure)", chromiumPath)
		}
		t.Fatalf("BEFF_REQUIRE_BROWSER is set, but %s is missing: %v (make deps installs it)", chromiumPath, err)
	}
	lib, err := report.EmbeddedLibrary()
	if err != nil {
		if !required {
			t.Skipf("skipping the browser test: %v (BEFF_REQUIRE_BROWSER=1 makes this a failure)", err)
		}
		t.Fatalf("BEFF_REQUIRE_BROWSER is set: %v", err)
	}
	return lib
}

// artifactDir is where the screenshots go: $BEFF_ARTIFACTS, or
// beff-report-artifacts in the temporary directory.
func artifactDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("BEFF_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "beff-report-artifacts")
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// TestBrowser builds a site from copies of stored runs, a hostile file and
// a truncated one, opens it from file:// in headless Chromium and checks
// what a person would see: the index lists the runs and sorts, a run's page
// draws its plots, ticking two runs on the comparison page draws two
// curves, which download as SVG and PNG, the hostile labels stay text, and
// no page writes an error to the console. Screenshots go to artifactDir.
func TestBrowser(t *testing.T) {
	lib := requireBrowser(t)

	// The site.
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"vm-2026-11-21-np2.txt", "vm-2026-11-21-np4.txt",
		"vm-2026-11-21-np2-run11.txt", "vm-2026-11-21-np2-run12.txt",
		"vm-2026-11-23-np2.txt", "vm-2026-11-23-np4.txt", "vm-2026-11-23-np2-run3.txt"} {
		paths = append(paths, copyFile(t, filepath.Join("testdata/runs", name), dir, name))
	}
	paths = append(paths, copyFile(t, "testdata/skampi-types-np2.txt", dir, "skampi-types-np2.txt"))
	paths = append(paths, copyFile(t, "testdata/skampi-families-np2.txt", dir, "skampi-families-np2.txt"))
	paths = append(paths, copyFile(t, "testdata/links-10nodes.txt", dir, "links-10nodes.txt"))
	paths = append(paths, copyFile(t, "testdata/hostile.txt", dir, `<img src=x onerror="window.beffPwned=5">.txt`))
	good, err := os.ReadFile(paths[0])
	require.NoError(t, err)
	trunc := filepath.Join(dir, "truncated.txt")
	require.NoError(t, os.WriteFile(trunc, good[:len(good)/3], 0o644))
	paths = append(paths, trunc)
	site := report.Load(paths, suites())
	require.Len(t, site.Entries, 12, "hostile.txt joins two jobs: a run each")
	require.Len(t, site.Skipped, 1)
	out := filepath.Join(dir, "site")
	require.NoError(t, site.Write(out, report.Options{Now: now, Library: lib}))
	ids := map[string]string{} // file base name → its first run's ID
	for _, r := range site.Entries {
		if _, ok := ids[filepath.Base(r.File)]; !ok {
			ids[filepath.Base(r.File)] = r.ID
		}
	}
	url := func(p string) string { return "file://" + filepath.ToSlash(filepath.Join(out, p)) }

	artifacts := artifactDir(t)
	t.Logf("screenshots in %s", artifacts)
	shot := func(t *testing.T, name string, png []byte) {
		p := filepath.Join(artifacts, name)
		require.NoError(t, os.WriteFile(p, png, 0o644))
		t.Logf("screenshot %s", p)
	}

	// The browser. The timeout only guards against a hang.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1800),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	require.NoError(t, chromedp.Do(bctx), "starting %s", chromiumPath)

	var seen browserProblems
	dialogs := make(chan struct{}, 16)
	require.NoError(t, chromedp.Listen(bctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning ||
				ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				seen.add(&seen.problems, "console.%s: %s", ev.Type, strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			desc := d.Text
			if d.Exception != nil {
				desc += " " + d.Exception.Description
			}
			seen.add(&seen.problems, "exception at %s:%d: %s", d.URL, d.LineNumber, desc)
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError || ev.Entry.Level == cdplog.EntryLevelWarning {
				seen.add(&seen.problems, "log %s (%s): %s %s", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
			}
		case *page.EventJavascriptDialogOpening:
			seen.add(&seen.dialogs, "%s dialog: %q", ev.Type, ev.Message)
			select {
			case dialogs <- struct{}{}:
			default:
			}
		}
	}))
	// A dialog stops the page until it is answered: dismiss each one (the
	// test fails on it anyway).
	go func() {
		for {
			select {
			case <-bctx.Done():
				return
			case <-dialogs:
				chromedp.Call(bctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
			}
		}
	}()

	eval := func(t *testing.T, expr string) string {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](expr))
		require.NoError(t, err, "evaluating %s", expr)
		return v
	}
	evalInt := func(t *testing.T, expr string) int {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[int](expr))
		require.NoError(t, err, "evaluating %s", expr)
		return v
	}
	// poll waits until the expression is true; the timeout guards a hang.
	poll := func(t *testing.T, expr string) {
		t.Helper()
		_, err := chromedp.Run(bctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(2*time.Minute)))
		require.NoError(t, err, "waiting for %s", expr)
	}
	open := func(t *testing.T, p string) {
		t.Helper()
		require.NoError(t, chromedp.Do(bctx, chromedp.Navigate(url(p))), "opening %s", p)
		poll(t, `document.body.getAttribute('data-ready') === 'true'`)
	}
	clean := func(t *testing.T, where string) {
		t.Helper()
		problems, dialogs := seen.take()
		assert.Empty(t, problems, "%s: console errors, exceptions or failed loads", where)
		assert.Empty(t, dialogs, "%s: dialogs opened", where)
		assert.Equal(t, "undefined", eval(t, `typeof window.beffPwned`), "%s: a label ran as script", where)
	}
	screenshot := func(t *testing.T) []byte {
		t.Helper()
		png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		return png
	}

	t.Run("index", func(t *testing.T) {
		open(t, "index.html")
		assert.Equal(t, len(site.Entries), evalInt(t, `document.querySelectorAll('#runs tbody tr').length`))
		got := eval(t, `Array.from(document.querySelectorAll('#runs tbody tr')).map(r => r.dataset.id).join(' ')`)
		var want []string
		for _, r := range site.Entries {
			want = append(want, r.ID)
		}
		assert.Equal(t, strings.Join(want, " "), got)
		body := eval(t, `document.body.innerText`)
		assert.Contains(t, body, "truncated.txt:")
		assert.Contains(t, body, `<script>window.beffPwned=1;alert(1)</script>`, "the hostile label shows as text")
		assert.Contains(t, body, `<img src=x onerror="window.beffPwned=5">.txt`)
		// Sorting: click b_eff twice, descending; the runs without b_eff last.
		col := `Array.from(document.querySelectorAll('#runs thead th')).findIndex(th => th.dataset.rank === 'beff.beff')`
		require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.JSPath(`document.querySelectorAll('#runs thead th')[`+col+`]`))))
		require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.JSPath(`document.querySelectorAll('#runs thead th')[`+col+`]`))))
		vals := eval(t, `Array.from(document.querySelectorAll('#runs tbody tr')).map(r => r.cells[`+col+`].getAttribute('data-v') || '-').join(' ')`)
		f := strings.Fields(vals)
		var withBeff []*report.Entry
		for _, e := range site.Entries {
			if e.Folded[0] != nil {
				withBeff = append(withBeff, e)
			}
		}
		require.Len(t, f, len(site.Entries), "b_eff cells: %q", vals)
		for i := range f {
			switch {
			case i >= len(withBeff):
				assert.Equal(t, "-", f[i], "runs without b_eff last: %s", vals)
			case i > 0:
				assert.GreaterOrEqual(t, parseF(t, f[i-1]), parseF(t, f[i]), "descending b_eff: %s", vals)
			}
		}
		eval(t, `(() => { document.querySelector('.scroll').scrollLeft = 0; return ''; })()`)
		shot(t, "index.png", screenshot(t))
		clean(t, "index")

		// Tick two runs and compare them.
		require.NoError(t, chromedp.Do(bctx,
			chromedp.Click(chromedp.CSS(`#runs input.pick[value="`+ids["vm-2026-11-21-np2.txt"]+`"]`)),
			chromedp.Click(chromedp.CSS(`#runs input.pick[value="`+ids["vm-2026-11-21-np4.txt"]+`"]`)),
		))
		_, err := chromedp.Run(bctx, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.ID("compare-picked"))))
		require.NoError(t, err)
		poll(t, `location.pathname.endsWith('/compare.html') && document.body.getAttribute('data-ready') === 'true'`)
		poll(t, `document.querySelectorAll('#compare-plot .scatterlayer .trace').length === 2`)
		clean(t, "index to comparison")
	})

	t.Run("run", func(t *testing.T) {
		id := ids["vm-2026-11-21-np2-run11.txt"]
		open(t, "runs/"+id+".html")
		plots := []string{"beff-plot", "io-acc-0", "io-acc-1", "io-acc-2", "io-type-0", "io-type-1", "io-type-2", "io-type-3", "io-type-4"}
		for _, p := range plots {
			poll(t, `document.querySelectorAll('#`+p+` svg.main-svg').length > 0`)
		}
		traces := func(p string) int {
			return evalInt(t, `document.querySelectorAll('#`+p+` .scatterlayer .trace').length`)
		}
		// rings, random and the 13 additional patterns (N = 2: all exist).
		assert.Equal(t, 15, traces("beff-plot"))
		// Each curve in the unit its legend says: the ping-pong ends at the
		// table's ping-pong bandwidth (one pair), the rings per process.
		e := entryOf(site, id)
		assert.Equal(t, "log", eval(t, `document.getElementById('beff-plot').layout.xaxis.type`), "the caption's log scale")
		ping := eval(t, `(() => { const t = document.getElementById('beff-plot').data.find(t => t.name.startsWith('pingpong')); return t.name + '=' + t.y[t.y.length - 1]; })()`)
		name, last, _ := strings.Cut(ping, "=")
		assert.Equal(t, "pingpong (one pair)", name)
		assert.InEpsilon(t, figureOf(t, e, "pingpong-bw-lmax"), parseF(t, last), 1e-6, "the ping-pong curve ends at the table's figure")
		assert.Contains(t, eval(t, `document.getElementById('beff-plot').data[0].name`), "rings (logavg) (per process)")
		for i := range 3 {
			assert.Equal(t, 10, traces(fmt.Sprintf("io-acc-%d", i)), "per pattern type a curve of the well-formed sizes and one of their +8 twins")
		}
		for i := range 5 {
			assert.Equal(t, 6, traces(fmt.Sprintf("io-type-%d", i)), "per access method the well-formed sizes and their +8 twins")
		}
		assert.Empty(t, eval(t, ioJoins), "no curve joins a +8 size to a well-formed one")
		assert.Contains(t, eval(t, `document.querySelector('pre.protocol').textContent`), "b_eff = ")
		assert.Contains(t, eval(t, `document.querySelector('pre.protocol').textContent`), "b_eff_io = ")
		shot(t, "run.png", screenshot(t))
		io, err := chromedp.Run(bctx, chromedp.Screenshot(chromedp.ID("beffio")))
		require.NoError(t, err)
		shot(t, "run-beffio.png", io)

		// Another method: ping-pong is measured with sendrecv only.
		eval(t, `(() => { const s = document.getElementById('beff-method'); s.value = 'alltoallv'; s.dispatchEvent(new Event('change')); return ''; })()`)
		poll(t, `document.querySelectorAll('#beff-plot .scatterlayer .trace').length === 14`)
		// Another partition.
		eval(t, `(() => { const s = document.getElementById('io-partition'); s.value = '1'; s.dispatchEvent(new Event('change')); return ''; })()`)
		poll(t, `document.querySelector('#io-acc-0 .gtitle').textContent.includes('n = 1')`)
		clean(t, "run page")
	})

	t.Run("compare", func(t *testing.T) {
		open(t, "compare.html")
		a, b := ids["vm-2026-11-21-np2.txt"], ids["vm-2026-11-21-np4.txt"]
		require.NoError(t, chromedp.Do(bctx,
			chromedp.Click(chromedp.ID("pick-"+a)),
			chromedp.Click(chromedp.ID("pick-"+b)),
		))
		poll(t, `document.querySelectorAll('#compare-plot .scatterlayer .trace').length === 2`)
		legend := eval(t, `Array.from(document.querySelectorAll('#compare-plot .legendtext')).map(e => e.textContent).join('|')`)
		assert.Contains(t, legend, "vm-2026-11-21-np2.txt #1")
		assert.Contains(t, legend, "vm-2026-11-21-np4.txt #1")
		shot(t, "compare.png", screenshot(t))

		// Zoom into a range and back.
		eval(t, `(() => { Plotly.relayout('compare-plot', {'xaxis.range': [1, 3]}); return ''; })()`)
		poll(t, `document.getElementById('compare-plot').layout.xaxis.range[1] === 3`)
		require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.ID("zoom-reset"))))
		poll(t, `document.getElementById('compare-plot').layout.xaxis.autorange === true`)

		// The downloads: the images the buttons save.
		for _, format := range []string{"svg", "png"} {
			img, err := chromedp.Run(bctx, chromedp.Evaluate[string](
				`Plotly.toImage(document.getElementById('compare-plot'), {format: '`+format+`', width: 900, height: 500}).then(u => u.slice(0, 40))`,
				chromedp.EvalAwaitPromise))
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(img, "data:image/"+format), "%s image: %s", format, img)
		}
		require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.ID("dl-svg"))))

		// The paper's scaling picture: b_eff / N over N, a curve per machine.
		eval(t, `(() => { const s = document.getElementById('beff-pattern'); s.value = 'scaling'; s.dispatchEvent(new Event('change', {bubbles: true})); return ''; })()`)
		poll(t, `document.getElementById('compare-plot').data.length === 1 && document.getElementById('compare-plot').data[0].x.length === 2`)
		assert.Equal(t, "2,4", eval(t, `document.getElementById('compare-plot').data[0].x.join(',')`))
		ea, eb := entryOf(site, a), entryOf(site, b)
		ys := strings.Split(eval(t, `document.getElementById('compare-plot').data[0].y.join(',')`), ",")
		require.Len(t, ys, 2)
		assert.InEpsilon(t, figureOf(t, ea, "beff")/2, parseF(t, ys[0]), 1e-6, "the plot data's numbers have 7 digits")
		assert.InEpsilon(t, figureOf(t, eb, "beff")/4, parseF(t, ys[1]), 1e-6)
		assert.Equal(t, "vm · Open MPI v4.1.4", eval(t, `document.getElementById('compare-plot').data[0].name`))
		shot(t, "compare-scaling.png", screenshot(t))
		eval(t, `(() => { const s = document.getElementById('beff-pattern'); s.selectedIndex = 0; s.dispatchEvent(new Event('change', {bubbles: true})); return ''; })()`)

		// b_eff_io: the two runs with b_eff_io.
		require.NoError(t, chromedp.Do(bctx,
			chromedp.Click(chromedp.CSS(`input[name=suite][value=io]`)),
			chromedp.Click(chromedp.ID("pick-"+ids["vm-2026-11-21-np2-run11.txt"])),
			chromedp.Click(chromedp.ID("pick-"+ids["vm-2026-11-21-np2-run12.txt"])),
		))
		poll(t, `document.querySelectorAll('#compare-plot .scatterlayer .trace').length === 4`)
		assert.Equal(t, "true", eval(t, `String(document.getElementById('pick-`+a+`').disabled)`), "a run without b_eff_io cannot be picked")
		assert.Contains(t, eval(t, `document.querySelector('#compare-plot .gtitle').textContent`), "n = 1", "one partition size a plot, the smallest first")
		assert.Equal(t, "n = 1|n = 1|n = 1|n = 1", eval(t, `document.getElementById('compare-plot').data.map(t => t.name.match(/n = \d+/)[0]).join('|')`))
		shot(t, "compare-beffio.png", screenshot(t))

		// links: the one run with links, its members' medians, then its
		// histogram of the pairs.
		require.NoError(t, chromedp.Do(bctx,
			chromedp.Click(chromedp.CSS(`input[name=suite][value=links]`)),
			chromedp.Click(chromedp.ID("pick-"+ids["links-10nodes.txt"])),
		))
		poll(t, `document.querySelectorAll('#compare-plot .scatterlayer .trace').length === 1`)
		assert.Equal(t, "10", eval(t, `String(document.getElementById('compare-plot').data[0].y.length)`), "a point per node")
		eval(t, `(() => { const s = document.getElementById('links-view'); s.value = 'hist'; s.dispatchEvent(new Event('change', {bubbles: true})); return ''; })()`)
		poll(t, `document.querySelector('#compare-plot .gtitle').textContent.includes('histogram')`)
		assert.Equal(t, "100", eval(t, `String(Math.round(document.getElementById('compare-plot').data[0].y.reduce((a, b) => a + b, 0)))`), "shares of the run's pairs")
		shot(t, "compare-links.png", screenshot(t))
		clean(t, "compare page")
	})

	// The SKaMPI pages: suites in run order, each with its curves.
	type suitePlot struct {
		name                string
		curves, bands, refs int
		refined             int // markers of refined lengths
	}
	skampiPlots := func(e *report.Entry) []suitePlot {
		var out []suitePlot
		for _, curves := range e.Folded[2].(*skampifold.Folded).BySuite() {
			sp := suitePlot{name: curves[0].Suite.Name, curves: len(curves)}
			for _, c := range curves {
				sp.refined += c.Added
				if c.Op.Pattern == skampi.Collective {
					sp.bands++
				}
				if c.Op.Ref != "" {
					sp.refs++
				}
			}
			out = append(out, sp)
		}
		return out
	}
	// traceCount counts the traces of a plot that match a JS condition on t.
	traceCount := func(t *testing.T, plot, cond string) int {
		return evalInt(t, plotData(plot)+`.filter(t => `+cond+`).length`)
	}

	t.Run("skampi run", func(t *testing.T) {
		e := entryOf(site, ids["vm-2026-11-23-np2.txt"])
		want := skampiPlots(e)
		require.Len(t, want, 7, "the default suite file")
		open(t, "runs/"+e.ID+".html")
		assert.Equal(t, 2, evalInt(t, `document.querySelectorAll('details.plots[open]').length`), "the first two suites' plots open")
		open(t, "runs/"+e.ID+".html#skampi-plot-5")
		assert.Equal(t, "true", eval(t, `String(document.getElementById('skampi-plot-5').closest('details').open)`), "a link to a folded plot opens it")
		eval(t, `(() => { document.querySelectorAll('details').forEach(d => d.open = true); return ''; })()`)
		for i, w := range want {
			plot := fmt.Sprintf("skampi-plot-%d", i)
			poll(t, `document.querySelectorAll('#`+plot+` svg.main-svg').length > 0`)
			assert.Contains(t, eval(t, `document.querySelector('#`+plot+` .gtitle').textContent`), "suite "+w.name)
			if w.name == "simple" {
				assert.Equal(t, w.curves, evalInt(t, `document.getElementById('`+plot+`').data[0].x.length`), "a bar per local operation")
				continue
			}
			assert.Equal(t, w.curves, traceCount(t, plot, `t.mode === 'lines+markers'`), "%s: a curve per operation", w.name)
			assert.Equal(t, w.bands, traceCount(t, plot, `t.fill === 'tonexty'`), "%s: a stragglers band per collective", w.name)
			assert.Equal(t, w.refs, traceCount(t, plot, `t.line.dash === 'dot'`), "%s: references dotted", w.name)
			assert.Equal(t, w.refined, evalInt(t, plotData(plot)+`.reduce((n, t) => n + (t.marker && Array.isArray(t.marker.symbol) ? t.marker.symbol.filter(s => s.startsWith('diamond')).length : 0), 0)`),
				"%s: refined lengths marked", w.name)
			// A reference has the colour of the library operation it implements.
			assert.Equal(t, 0, evalInt(t, `(() => { const d = `+plotData(plot)+`.filter(t => t.mode === 'lines+markers');
				return d.filter(t => t.line.dash === 'dot' && !d.some(o => o.line.dash !== 'dot' && o.line.color === t.line.color)).length; })()`),
				"%s: every reference drawn in its library operation's colour", w.name)
		}
		assert.Greater(t, want[0].refined, 0, "the ping-pong suite is refined")
		// A suite of many collectives is drawn a plot per group of them,
		// none of more than skampi.MaxPlotCurves curves.
		assert.Equal(t, "synchronisation and communicators|one to all|all to one|all to all|prefix reductions|local copy",
			eval(t, `Array.from(document.querySelectorAll('#skampi-plot-2 .plot')).map(p => p.layout.title.text.split(': ')[1]).join('|')`), "coll-short by groups")
		assert.Zero(t, evalInt(t, `Array.from(document.querySelectorAll('.multiples .plot')).filter(p => p.data.filter(t => t.mode === 'lines+markers').length > `+strconv.Itoa(skampi.MaxPlotCurves)+`).length`),
			"no small multiple of more than %d curves", skampi.MaxPlotCurves)
		assert.Greater(t, want[0].curves, 1, "ping-pong variants overlaid")
		shot(t, "skampi-run.png", screenshot(t))
		for i, name := range map[int]string{0: "pingpong", 3: "coll-long", 4: "coll-length"} {
			png, err := chromedp.Run(bctx, chromedp.Screenshot(chromedp.ID(fmt.Sprintf("skampi-plot-%d", i))))
			require.NoError(t, err)
			shot(t, "skampi-"+name+".png", png)
		}

		// The band off, then the ping-pong bandwidth.
		require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.ID("skampi-band"))))
		poll(t, plotData("skampi-plot-4")+`.every(t => t.fill !== 'tonexty')`)
		eval(t, `(() => { const s = document.getElementById('skampi-y'); s.value = 'mbps'; s.dispatchEvent(new Event('change')); return ''; })()`)
		poll(t, `document.querySelector('#skampi-plot-0 .ytitle').textContent.includes('MB/s')`)
		assert.Equal(t, want[0].curves, traceCount(t, "skampi-plot-0", `true`))
		assert.Contains(t, eval(t, `document.querySelector('#skampi-plot-4 .gtitle').textContent`), "no ping-pong in this suite")
		clean(t, "SKaMPI run page")
	})

	// A run of datatypes: a curve per operation and method, and a second
	// plot of each method's time over the contiguous method's; and a
	// one-sided suite.
	t.Run("skampi types", func(t *testing.T) {
		e := entryOf(site, ids["skampi-types-np2.txt"])
		want := skampiPlots(e)
		require.Len(t, want, 4, "testdata/skampi-types.yaml")
		open(t, "runs/"+e.ID+".html")
		poll(t, `document.querySelectorAll('#skampi-plot-0-ratio svg.main-svg').length > 0`)
		assert.Equal(t, 8, traceCount(t, "skampi-plot-0", `t.mode === 'lines+markers'`), "face: 2 operations × 4 methods")
		assert.Equal(t, 8, traceCount(t, "skampi-plot-0-ratio", `t.mode === 'lines+markers'`))
		names := eval(t, `document.getElementById('skampi-plot-0').data.filter(t => t.mode === 'lines+markers').map(t => t.name).join('|')`)
		assert.Contains(t, names, "send-recv · datatype")
		assert.Contains(t, names, "bcast · contiguous")
		assert.Contains(t, eval(t, `document.querySelector('#skampi-plot-0-ratio .ytitle').textContent`), "time of the contiguous method")
		assert.Equal(t, "1|1", eval(t, `document.getElementById('skampi-plot-0-ratio').data.filter(t => t.name === 'send-recv · contiguous')[0].y.slice(0, 2).join('|')`),
			"the contiguous method is its own reference")
		assert.Equal(t, 4, evalInt(t, `document.getElementById('skampi-plot-1').data[0].x.length`), "transpose: a bar per method")
		assert.Equal(t, 0, evalInt(t, `document.querySelectorAll('#skampi-plot-2-ratio').length`), "building a type has no methods")
		assert.Contains(t, eval(t, `document.getElementById('skampi-plot-3').data.map(t => t.name).join('|')`), "put (osu_put_latency -s lock)",
			"a one-sided curve names the OSU benchmark that measures the same")
		shot(t, "skampi-types.png", screenshot(t))
		clean(t, "SKaMPI types page")
	})

	// A run of the families: the non-blocking collectives' overlap, the
	// persistent forms beside their blocking operations and their ratio to
	// them, the neighborhood collectives with a reference, partitions.
	t.Run("skampi families", func(t *testing.T) {
		e := entryOf(site, ids["skampi-families-np2.txt"])
		require.Len(t, skampiPlots(e), 4, "testdata/skampi-families.yaml")
		open(t, "runs/"+e.ID+".html")
		eval(t, `(() => { document.querySelectorAll('details').forEach(d => d.open = true); return ''; })()`)
		for _, p := range []string{"0", "0-overlap", "1", "1-ofratio", "2", "2-overlap", "2-ofratio", "3"} {
			poll(t, `document.querySelectorAll('#skampi-plot-`+p+` svg.main-svg').length > 0`)
		}
		for _, p := range []string{"0-ofratio", "1-overlap", "3-overlap", "3-ofratio"} {
			assert.Equal(t, 0, evalInt(t, `document.querySelectorAll('#skampi-plot-`+p+`').length`), "no plot %s", p)
		}
		assert.Equal(t, 3, traceCount(t, "skampi-plot-0-overlap", `t.mode === 'lines+markers'`), "an overlap curve per non-blocking collective")
		assert.Contains(t, eval(t, `document.querySelector('#skampi-plot-0-overlap .ytitle').textContent`), "overlap")
		assert.Equal(t, "0,105", eval(t, `document.getElementById('skampi-plot-0-overlap').layout.yaxis.range.join(',')`), "percent on a linear axis")
		assert.Contains(t, eval(t, `document.getElementById('skampi-plot-0').data.map(t => t.name).join('|')`), "iallreduce (osu_iallreduce)")
		assert.Equal(t, 2, traceCount(t, "skampi-plot-1", `t.line && t.line.dash === 'dash'`), "the persistent forms dashed")
		assert.Equal(t, 0, evalInt(t, `(() => { const d = document.getElementById('skampi-plot-1').data.filter(t => t.mode === 'lines+markers');
			return d.filter(t => t.line.dash === 'dash' && !d.some(o => o.line.dash !== 'dash' && o.line.color === t.line.color)).length; })()`),
			"each form in its blocking operation's colour")
		assert.Equal(t, 2, traceCount(t, "skampi-plot-1-ofratio", `t.mode === 'lines+markers'`), "a ratio per form")
		assert.Contains(t, eval(t, `document.querySelector('#skampi-plot-1-ofratio .ytitle').textContent`), "blocking")
		assert.Equal(t, 1, traceCount(t, "skampi-plot-2", `t.line && t.line.dash === 'dot'`), "the hand-built exchange dotted")
		assert.Equal(t, 1, traceCount(t, "skampi-plot-2-overlap", `t.mode === 'lines+markers'`), "ineighbor-alltoall's overlap")
		assert.Equal(t, "1,4,16", eval(t, `document.getElementById('skampi-plot-3').layout.xaxis.tickvals.join(',')`), "partitions ticked")
		shot(t, "skampi-families.png", screenshot(t))
		for i, name := range map[int]string{0: "nonblocking-overlap", 1: "persistent-ofratio"} {
			id := fmt.Sprintf("skampi-plot-%d-%s", i, strings.Split(name, "-")[1])
			png, err := chromedp.Run(bctx, chromedp.Screenshot(chromedp.ID(id)))
			require.NoError(t, err)
			shot(t, "skampi-"+name+".png", png)
		}
		clean(t, "SKaMPI families page")
	})

	t.Run("skampi compare", func(t *testing.T) {
		a, b := ids["vm-2026-11-23-np2.txt"], ids["vm-2026-11-23-np2-run3.txt"]
		open(t, "compare.html#suite=skampi&runs="+a+","+b)
		poll(t, `document.querySelectorAll('#compare-plot .scatterlayer .trace').length === 2`)
		assert.Equal(t, "pingpong", eval(t, `document.getElementById('skampi-suite').value`))
		assert.Equal(t, "send-recv", eval(t, `document.getElementById('skampi-op').value`))
		assert.Equal(t, "true", eval(t, `String(document.getElementById('pick-`+ids["vm-2026-11-21-np2.txt"]+`').disabled)`), "a run without SKaMPI cannot be picked")
		legend := eval(t, `Array.from(document.querySelectorAll('#compare-plot .legendtext')).map(e => e.textContent).join('|')`)
		assert.Contains(t, legend, "vm-2026-11-23-np2.txt #1")
		assert.Contains(t, legend, "vm-2026-11-23-np2-run3.txt #1")
		shot(t, "skampi-compare.png", screenshot(t))

		// Another suite: all its operations of both runs, then one with bands.
		eval(t, `(() => { const s = document.getElementById('skampi-suite'); s.value = 'coll-length'; s.dispatchEvent(new Event('change', {bubbles: true})); return ''; })()`)
		n := 0
		for _, w := range skampiPlots(entryOf(site, a)) {
			if w.name == "coll-length" {
				n = w.curves
			}
		}
		require.Positive(t, n)
		eval(t, `(() => { const s = document.getElementById('skampi-op'); s.value = ''; s.dispatchEvent(new Event('change', {bubbles: true})); return ''; })()`)
		poll(t, fmt.Sprintf(`document.getElementById('compare-plot').data.length === %d`, 2*n))
		eval(t, `(() => { const s = document.getElementById('skampi-op'); s.value = 'bcast'; s.dispatchEvent(new Event('change', {bubbles: true})); return ''; })()`)
		require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.ID("skampi-cband"))))
		poll(t, `document.getElementById('compare-plot').data.length === 6`)
		assert.Equal(t, 2, traceCount(t, "compare-plot", `t.fill === 'tonexty'`))
		img, err := chromedp.Run(bctx, chromedp.Evaluate[string](
			`Plotly.toImage(document.getElementById('compare-plot'), {format: 'svg', width: 900, height: 500}).then(u => u.slice(0, 40))`,
			chromedp.EvalAwaitPromise))
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(img, "data:image/svg"), "svg image: %s", img)
		shot(t, "skampi-compare-bcast.png", screenshot(t))
		clean(t, "SKaMPI comparison")
	})

	t.Run("ranking", func(t *testing.T) {
		open(t, "index.html")
		require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.CSS(`#ranking summary`))))
		// got is the ranking table: "system=rank:score" per system, "–"
		// for those not ranked.
		got := func(t *testing.T) []string {
			return strings.Split(eval(t, `Array.from(document.querySelectorAll('#rank-table tbody tr')).map(r =>
				r.querySelector('td.system').textContent + '=' + r.querySelector('td.rank').textContent + ':' + r.querySelector('td.score').dataset.v).join('|')`), "|")
		}
		check := func(t *testing.T, w map[string]float64, invalid bool) {
			t.Helper()
			want := rankSystems(site, w, invalid)
			g := got(t)
			require.Len(t, g, len(want), "%v", g)
			for i := range want {
				gl, gs, _ := strings.Cut(g[i], ":")
				wl, ws, _ := strings.Cut(want[i], ":")
				assert.Equal(t, wl, gl, "system and rank %d", i)
				if ws == "" {
					assert.Empty(t, gs, "%s: no score", wl)
				} else {
					assert.InDelta(t, parseF(t, ws), parseF(t, gs), 1e-6, "%s: score", wl)
				}
			}
		}
		setWeights := func(t *testing.T, w map[string]string) {
			for k, v := range w {
				eval(t, `(() => { const i = document.querySelector('input.weight[data-rank="`+k+`"]'); i.value = '`+v+`'; i.dispatchEvent(new Event('change')); return ''; })()`)
			}
		}
		// By default the first column, b_eff, has weight 1.
		check(t, map[string]float64{"beff.beff": 1}, false)
		assert.Contains(t, got(t)[0], "vm (4) · Open MPI v4.1.4=1:", "the 4-process b_eff is higher")

		// SKaMPI's latency alone: the oversubscribed np4 SKaMPI run is NOT
		// VALID, so vm (4) is not ranked, until NOT VALID runs count.
		setWeights(t, map[string]string{"beff.beff": "0", "skampi.latency": "1"})
		check(t, map[string]float64{"skampi.latency": 1}, false)
		assert.Contains(t, eval(t, `document.getElementById('rank-status').textContent`), "1 of 6 systems ranked by SKaMPI latency ×1",
			"the run of the families is a system of its own (MPICH), short: NOT VALID; so is each job of hostile.txt")
		assert.Contains(t, eval(t, `document.getElementById('rank-table').textContent`), "no SKaMPI latency")
		require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.ID("rank-invalid"))))
		check(t, map[string]float64{"skampi.latency": 1}, true)

		// b_eff and the latency, from different files of one system.
		setWeights(t, map[string]string{"beff.beff": "2", "skampi.latency": "1"})
		check(t, map[string]float64{"beff.beff": 2, "skampi.latency": 1}, true)
		assert.Contains(t, got(t)[0], "vm (2) · Open MPI v4.1.4=1:")
		table, err := chromedp.Run(bctx, chromedp.Screenshot(chromedp.ID("ranking")))
		require.NoError(t, err)
		shot(t, "ranking.png", table)

		// The weights are in the address: the page opened again ranks alike.
		assert.Equal(t, "#rank=beff.beff:2,skampi.latency:1&invalid=1", eval(t, `location.hash`))
		before := got(t)
		require.NoError(t, chromedp.Do(bctx, chromedp.Reload()))
		poll(t, `document.body.getAttribute('data-ready') === 'true' && document.getElementById('ranking').open`)
		assert.Equal(t, before, got(t))
		clean(t, "ranking")
	})

	// The pages at a laptop's and a desktop's size: nothing wider than
	// the window (with every folded section open), every plot drawn, every
	// link of a page's outline to a part of it.
	t.Run("layout", func(t *testing.T) {
		pages := map[string]string{
			"index":        "index.html",
			"beff-run":     "runs/" + ids["vm-2026-11-21-np2-run11.txt"] + ".html",
			"skampi-run":   "runs/" + ids["vm-2026-11-23-np2.txt"] + ".html",
			"skampi-types": "runs/" + ids["skampi-types-np2.txt"] + ".html",
			"links-run":    "runs/" + ids["links-10nodes.txt"] + ".html",
			"compare":      "compare.html",
		}
		names := slices.Sorted(maps.Keys(pages))
		for _, size := range [][2]int64{{1366, 768}, {1920, 1080}} {
			require.NoError(t, chromedp.Do(bctx, chromedp.EmulateViewport(size[0], size[1])))
			for _, name := range names {
				open(t, pages[name])
				eval(t, `(() => { document.querySelectorAll('details').forEach(d => d.open = true); window.dispatchEvent(new Event('resize')); return ''; })()`)
				poll(t, `Array.from(document.querySelectorAll('.plot')).every(p => p.offsetParent === null || p.querySelector('svg.main-svg'))`)
				where := fmt.Sprintf("%s at %dx%d", name, size[0], size[1])
				assert.Empty(t, eval(t, layoutProblems), "%s: wider than the window", where)
				assert.Empty(t, eval(t, lookAlikes), "%s: curves drawn alike", where)
				assert.Empty(t, eval(t, `Array.from(document.querySelectorAll('.plot')).filter(p => p.data && p.querySelectorAll('.scatterlayer .trace, .barlayer .trace').length !== p.data.length).map(p => p.id + ': ' + p.querySelectorAll('.scatterlayer .trace, .barlayer .trace').length + ' of ' + p.data.length + ' traces drawn').join('\n')`),
					"%s: every trace drawn", where)
				assert.Empty(t, eval(t, `Array.from(document.querySelectorAll('a[href^="#"]')).map(a => a.getAttribute('href')).filter(h => h.length > 1 && !document.getElementById(decodeURIComponent(h.slice(1)))).join(' ')`),
					"%s: outline links without a target", where)
				shot(t, fmt.Sprintf("layout-%s-%dx%d.png", name, size[0], size[1]), screenshot(t))
				clean(t, where)
			}
		}
		require.NoError(t, chromedp.Do(bctx, chromedp.EmulateViewport(1400, 1800)))
	})

	// A beff built without the plotting library writes every page, with
	// a note in place of each plot.
	t.Run("no plots", func(t *testing.T) {
		bare := filepath.Join(dir, "site-noplots")
		require.NoError(t, site.Write(bare, report.Options{Now: now, NoPlots: true}))
		assert.NoFileExists(t, filepath.Join(bare, "assets", "plotly-basic.min.js"))
		for _, p := range []string{"runs/" + ids["vm-2026-11-21-np2-run11.txt"] + ".html", "runs/" + ids["vm-2026-11-23-np2.txt"] + ".html", "compare.html", "index.html"} {
			require.NoError(t, chromedp.Do(bctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(bare, p)))), "opening %s", p)
			poll(t, `document.body.getAttribute('data-ready') === 'true'`)
			assert.Contains(t, eval(t, `document.getElementById('no-plots').textContent`), "without its plotting library", p)
			if p == "index.html" {
				assert.Equal(t, len(site.Entries), evalInt(t, `document.querySelectorAll('#runs tbody tr').length`))
				continue
			}
			assert.Positive(t, evalInt(t, `document.querySelectorAll('.plot.noplot').length`), p)
			assert.Zero(t, evalInt(t, `document.querySelectorAll('.plot:not(.noplot)').length`), "%s: every plot says why it is not drawn", p)
			assert.Contains(t, eval(t, `document.querySelector('.plot.noplot').textContent`), "Plot not drawn: this site was written by a beff built without its plotting library")
			if strings.HasPrefix(p, "runs/") {
				assert.Positive(t, evalInt(t, `document.querySelectorAll('main table').length`), "%s: the tables", p)
				assert.Contains(t, eval(t, `document.querySelector('pre.protocol').textContent`), " = ", "%s: the protocol", p)
			}
			clean(t, p+" without plots")
		}
		shot(t, "run-noplots.png", screenshot(t))
	})

	t.Run("hostile", func(t *testing.T) {
		id := ids[`<img src=x onerror="window.beffPwned=5">.txt`]
		open(t, "runs/"+id+".html")
		poll(t, `document.querySelectorAll('#beff-plot svg.main-svg').length > 0`)
		body := eval(t, `document.body.innerText`)
		assert.Contains(t, body, `<script>window.beffPwned=1;alert(1)</script> &amp; "quoted" 'single'`)
		assert.Contains(t, body, `</script><script>window.beffPwned=2;alert(2)</script><img src=x onerror="window.beffPwned=3">`)
		assert.Equal(t, 0, evalInt(t, `document.querySelectorAll('main img, main b, main script:not(#run-data)').length`))
		clean(t, "hostile run page")

		open(t, "compare.html#runs="+id+","+ids["vm-2026-11-21-np2.txt"])
		poll(t, `document.querySelectorAll('#compare-plot .scatterlayer .trace').length === 2`)
		legend := eval(t, `Array.from(document.querySelectorAll('#compare-plot .legendtext')).map(e => e.textContent).join('|')`)
		assert.Contains(t, legend, `<img src=x onerror="window.beffPwned=5">.txt #1 · <script>window.beffPwned=1;alert(1)</script>`)
		assert.Equal(t, "", eval(t, `Array.from(document.querySelectorAll('#compare-plot img, #compare-plot script, #compare-plot a')).map(e => e.outerHTML).join(' ')`))
		clean(t, "hostile comparison")
	})
}

// rankSystems is what the index's ranking must show for weights w (key
// <suite key>.<figure>): per system (hosts · library) in index order the
// median of each weighted figure over its runs, counting a run's figure
// only where its suite's run is valid unless invalid; the systems with
// every weighted figure ranked by the weighted geometric mean of their
// figures relative to the best, "label=rank:score", then the others,
// "label=–:".
func rankSystems(site *report.Site, w map[string]float64, invalid bool) []string {
	type system struct {
		label  string
		values map[string][]float64
		score  float64
	}
	var list []*system
	by := map[string]*system{}
	lower := map[string]bool{}
	for _, e := range site.Entries {
		key := e.Hosts() + " · " + e.MPILibrary()
		s := by[key]
		if s == nil {
			lib, _, _ := strings.Cut(e.MPILibrary(), ",")
			s = &system{label: e.Hosts() + " · " + lib, values: map[string][]float64{}}
			by[key] = s
			list = append(list, s)
		}
		for i, su := range site.Suites {
			pg, f := su.(report.Pages), e.Folded[i]
			if f == nil || (!invalid && len(pg.SiteReasons(f)) > 0) {
				continue
			}
			data, _ := pg.SiteKeys()
			for _, fig := range f.Figures() {
				if k := data + "." + fig.Name; w[k] > 0 {
					s.values[k] = append(s.values[k], fig.Value)
					lower[k] = fig.Unit == "us"
				}
			}
		}
	}
	median := func(v []float64) float64 {
		v = slices.Sorted(slices.Values(v))
		if len(v)%2 == 1 {
			return v[len(v)/2]
		}
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	var ranked, rest []*system
	for _, s := range list {
		if len(s.values) == len(w) {
			ranked = append(ranked, s)
		} else {
			rest = append(rest, s)
		}
	}
	sum, logs := 0.0, make([]float64, len(ranked))
	for k, wk := range w {
		sum += wk
		best := median(ranked[0].values[k])
		for _, s := range ranked {
			if m := median(s.values[k]); (lower[k] && m < best) || (!lower[k] && m > best) {
				best = m
			}
		}
		for i, s := range ranked {
			r := median(s.values[k]) / best
			if lower[k] {
				r = 1 / r
			}
			logs[i] += wk * math.Log(r)
		}
	}
	for i, s := range ranked {
		s.score = 100 * math.Exp(logs[i]/sum)
	}
	slices.SortStableFunc(ranked, func(a, b *system) int { return cmp.Compare(b.score, a.score) })
	var out []string
	for i, s := range ranked {
		out = append(out, fmt.Sprintf("%s=%d:%g", s.label, i+1, s.score))
	}
	for _, s := range rest {
		out = append(out, s.label+"=–:")
	}
	return out
}

// entryOf is the entry with run ID id.
func entryOf(site *report.Site, id string) *report.Entry {
	for _, e := range site.Entries {
		if e.ID == id {
			return e
		}
	}
	return nil
}

// figureOf is the value of the named figure of an entry (of any suite).
func figureOf(t *testing.T, e *report.Entry, name string) float64 {
	t.Helper()
	require.NotNil(t, e)
	for _, p := range e.Folded {
		if p == nil {
			continue
		}
		for _, f := range p.Figures() {
			if f.Name == name {
				return f.Value
			}
		}
	}
	t.Fatalf("%s: no figure %s", e.File, name)
	return 0
}

func parseF(t *testing.T, s string) float64 {
	t.Helper()
	var v float64
	_, err := fmt.Sscan(s, &v)
	require.NoError(t, err, "number %q", s)
	return v
}

// layoutProblems lists, one per line, what sticks out of the window:
// the page, or a table, plot, image or preformatted block (its right edge,
// or content it hides behind a scroll bar).
const layoutProblems = `(() => {
	const w = document.documentElement.clientWidth, bad = [];
	const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '');
	if (document.documentElement.scrollWidth > w + 1) bad.push('page ' + document.documentElement.scrollWidth + ' > ' + w);
	for (const el of document.querySelectorAll('main table, main .plot, main pre, main .scroll, main img, main figure')) {
		const r = el.getBoundingClientRect();
		if (r.width === 0) continue;
		if (r.right > w + 1) bad.push(name(el) + ': right edge ' + Math.round(r.right) + ' > ' + w);
		if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') bad.push(name(el) + ': ' + el.scrollWidth + ' px behind a scroll bar of ' + el.clientWidth);
	}
	return bad.join('\n');
})()`

// plotData is a JS expression of the traces of plot id: its own, or those
// of its small multiples (a plot per group of a suite of many curves).
func plotData(id string) string {
	return `((el) => el.data ? el.data : Array.from(el.querySelectorAll('.plot')).flatMap(p => p.data || []))(document.getElementById('` + id + `'))`
}

// ioJoins lists the b_eff_io curves whose points mix well-formed chunk
// sizes with their "+8" twins.
const ioJoins = `(() => {
	const bad = [], d = JSON.parse(document.getElementById('run-data').textContent).io;
	for (const p of document.querySelectorAll('[id^=io-]')) {
		for (const t of (p.data || [])) {
			const kinds = new Set(t.y.map((v, k) => v === null ? null : !!d.chunks[k].odd).filter(v => v !== null));
			if (kinds.size > 1) bad.push(p.id + ': ' + t.name);
		}
	}
	return bad.join('\n');
})()`

// lookAlikes lists the plots in which two curves (lines with a legend
// entry) share colour, dash and marker: one could not tell them apart.
const lookAlikes = `(() => {
	const bad = [];
	for (const p of document.querySelectorAll('.plot')) {
		if (!p._fullData) continue;
		const seen = {};
		for (const t of p._fullData) {
			if (t.type !== 'scatter' || t.showlegend === false || !t.mode || !t.mode.includes('lines')) continue;
			const m = t.marker && (Array.isArray(t.marker.symbol) ? t.marker.symbol.find(s => !s.startsWith('diamond')) || '' : t.marker.symbol);
			const key = [t.line && t.line.color, t.line && t.line.dash, m].join(' ');
			if (seen[key]) bad.push(p.id + ': ' + seen[key] + ' and ' + t.name);
			seen[key] = t.name;
		}
	}
	return bad.join('\n');
})()`
