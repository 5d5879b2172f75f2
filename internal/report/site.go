package report

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/beff-suite/beff/internal/results"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

var templates = template.Must(template.New("").Funcs(Funcs).Funcs(template.FuncMap{
	// shortLib is the MPI library up to the first comma ("Open MPI
	// v4.1.4"); the full line is in the cell's title and on the run page.
	"shortLib": func(s string) string { v, _, _ := strings.Cut(s, ","); return v },
	// day is the date of an RFC 3339 time ("2026-11-27"); the full time is
	// in the cell's title.
	"day":       func(s string) string { d, _, _ := strings.Cut(s, "T"); return d },
	"processes": results.Processes,
}).ParseFS(templateFS, "templates/*.tmpl"))

// generator marks the pages of a site, so that Write replaces only a
// directory that holds a site.
const generator = `<meta name="generator" content="beff report">`

// Options configure Site.Write.
type Options struct {
	// Now is the generation time printed on every page; the zero time
	// means time.Now. Everything else in the site depends on the input
	// only.
	Now time.Time
	// Library is the plotting library copied into the site; nil: the one
	// embedded at build time (EmbeddedLibrary).
	Library *Library
	// NoPlots writes the site without a plotting library: every page
	// with its tables, and in place of each plot a note that says why it
	// is not drawn (a beff built without the library).
	NoPlots bool
	// RunPages bounds the runs that get a page of their own (and a place
	// on the comparison page): the newest, by their date line; 0 means
	// DefaultRunPages. The index lists every run.
	RunPages int
}

// DefaultRunPages is the number of run pages of a site unless
// Options.RunPages says otherwise: a site of thousands of runs stays a
// few tens of megabytes.
const DefaultRunPages = 1000

// Write renders the site and writes it to dir. The site is written to a
// new directory beside dir first and then replaces dir, so dir holds
// either the old site or the complete new one. dir must not exist, be
// empty, or hold an earlier site (an index.html written by Write); Write
// refuses to replace anything else.
// Each page is written as it is rendered: memory holds one page at a
// time, whatever the number of runs.
func (s *Site) Write(dir string, opt Options) error {
	w, err := newSiteDir(dir)
	if err != nil {
		return err
	}
	defer w.discard()
	if err := s.emit(opt, w.put); err != nil {
		return err
	}
	return w.swapIn()
}

// Render renders the site: path (slash-separated, relative to the site's
// directory) → content.
func (s *Site) Render(opt Options) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := s.emit(opt, func(name string, b []byte) error {
		files[name] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	return files, nil
}

// emit renders the site file by file and hands each (its path, slash-
// separated, relative to the site's directory, and its content) to put.
func (s *Site) emit(opt Options, put func(name string, b []byte) error) error {
	lib := opt.Library
	if lib == nil && !opt.NoPlots {
		var err error
		if lib, err = EmbeddedLibrary(); err != nil {
			return err
		}
	}
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	files := map[string][]byte{}
	name, version := "", ""
	if lib != nil && !opt.NoPlots {
		files["assets/"+libraryFile], files["assets/"+libraryLicense] = lib.JS, lib.License
		name, version = libraryName, lib.Version
	}
	glue, err := siteAssets(s.Suites)
	if err != nil {
		return err
	}
	for name, b := range glue {
		files["assets/"+name] = b
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := put(name, files[name]); err != nil {
			return err
		}
	}
	s.choosePages(opt.RunPages)
	common := func(root, page, title string) pageInfo {
		return pageInfo{Root: root, Page: page, Title: title, Brand: s.brand(), Generator: template.HTML(generator),
			Now: now.UTC().Format(time.RFC3339), Library: name, LibVersion: version,
			NRuns: len(s.Entries), NFiles: len(s.Files), NSkipped: len(s.Skipped), NPages: s.NPages()}
	}
	render := func(name, tmpl string, data any) error {
		var b bytes.Buffer
		if err := templates.ExecuteTemplate(&b, tmpl, data); err != nil {
			return fmt.Errorf("rendering %s: %w", name, err)
		}
		return put(name, b.Bytes())
	}
	if err := render("index.html", "index.tmpl", s.indexPage(common("", "index", s.brand()+" results"))); err != nil {
		return err
	}
	cmp, err := s.comparePage(common("", "compare", "Compare runs"))
	if err != nil {
		return err
	}
	if err := render("compare.html", "compare.tmpl", cmp); err != nil {
		return err
	}
	for _, e := range s.Entries {
		if !s.hasPage[e] {
			continue
		}
		p, err := s.runPage(e, common("../", "run", fmt.Sprintf("%s, run %d", e.File, e.Index)))
		if err != nil {
			return err
		}
		if err := render("runs/"+e.ID+".html", "run.tmpl", p); err != nil {
			return err
		}
	}
	return nil
}

// choosePages picks the entries that get a page: all when there are at
// most most (0: DefaultRunPages), else the most newest by their date line
// (an entry whose date does not read counts as oldest; among equal dates
// the later in the input wins).
func (s *Site) choosePages(most int) {
	if most <= 0 {
		most = DefaultRunPages
	}
	s.hasPage = make(map[*Entry]bool, min(most, len(s.Entries)))
	order := make([]int, len(s.Entries))
	dates := make([]time.Time, len(s.Entries))
	for i, e := range s.Entries {
		order[i] = i
		dates[i], _ = time.Parse(time.RFC3339, e.Date())
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := dates[b].Compare(dates[a]); c != 0 {
			return c
		}
		return b - a
	})
	for _, i := range order[:min(most, len(order))] {
		s.hasPage[s.Entries[i]] = true
	}
}

// NPages is the number of run pages of the site (after Write or Render).
func (s *Site) NPages() int { return len(s.hasPage) }

// brand names the suites of the site: "b_eff and b_eff_io".
func (s *Site) brand() string {
	var names []string
	for _, su := range s.Suites {
		names = append(names, su.ID().Name)
	}
	return results.JoinWith(names, "and")
}
