package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
		"vm-2026-11-21-np2-run11.txt", "vm-2026-11-21-np2-run12.txt"} {
		paths = append(paths, copyFile(t, filepath.Join("../../results", name), dir, name))
	}
	paths = append(paths, copyFile(t, "testdata/hostile.txt", dir, `<img src=x onerror="window.beffPwned=5">.txt`))
	good, err := os.ReadFile(paths[0])
	require.NoError(t, err)
	trunc := filepath.Join(dir, "truncated.txt")
	require.NoError(t, os.WriteFile(trunc, good[:len(good)/3], 0o644))
	paths = append(paths, trunc)
	site := report.Load(paths, suites())
	require.Len(t, site.Entries, 5)
	require.Len(t, site.Skipped, 1)
	out := filepath.Join(dir, "site")
	require.NoError(t, site.Write(out, report.Options{Now: now, Library: lib}))
	ids := map[string]string{} // file base name → run ID
	for _, r := range site.Entries {
		ids[filepath.Base(r.File)] = r.ID
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
		// Sorting: click b_eff twice, descending; the run without b_eff last.
		col := `Array.from(document.querySelectorAll('#runs thead th')).findIndex(th => th.textContent === 'b_eff')`
		require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.JSPath(`document.querySelectorAll('#runs thead th')[`+col+`]`))))
		require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.JSPath(`document.querySelectorAll('#runs thead th')[`+col+`]`))))
		vals := eval(t, `Array.from(document.querySelectorAll('#runs tbody tr')).map(r => r.cells[`+col+`].getAttribute('data-v')).join(' ')`)
		f := strings.Fields(vals)
		require.Len(t, f, len(site.Entries)-1, "runs with b_eff: %q", vals)
		for i := 1; i < len(f); i++ {
			assert.GreaterOrEqual(t, parseF(t, f[i-1]), parseF(t, f[i]), "descending b_eff: %s", vals)
		}
		assert.Equal(t, ids["vm-2026-11-21-np2-run12.txt"], eval(t, `document.querySelector('#runs tbody tr:last-child').dataset.id`))
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
		for i := range 3 {
			assert.Equal(t, 5, traces(fmt.Sprintf("io-acc-%d", i)), "one curve per pattern type")
		}
		for i := range 5 {
			assert.Equal(t, 3, traces(fmt.Sprintf("io-type-%d", i)), "one curve per access method")
		}
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

		// b_eff_io: the two runs with b_eff_io.
		require.NoError(t, chromedp.Do(bctx,
			chromedp.Click(chromedp.CSS(`input[name=suite][value=io]`)),
			chromedp.Click(chromedp.ID("pick-"+ids["vm-2026-11-21-np2-run11.txt"])),
			chromedp.Click(chromedp.ID("pick-"+ids["vm-2026-11-21-np2-run12.txt"])),
		))
		poll(t, `document.querySelectorAll('#compare-plot .scatterlayer .trace').length === 2`)
		assert.Equal(t, "true", eval(t, `String(document.getElementById('pick-`+a+`').disabled)`), "a run without b_eff_io cannot be picked")
		shot(t, "compare-beffio.png", screenshot(t))
		clean(t, "compare page")
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

func parseF(t *testing.T, s string) float64 {
	t.Helper()
	var v float64
	_, err := fmt.Sscan(s, &v)
	require.NoError(t, err, "number %q", s)
	return v
}
