package report

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beffio"
	"github.com/beff-suite/beff/internal/fold"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"mbps":   func(v float64) string { return numText(v, 5, 1) },
	"sig":    func(v float64) string { return numText(v, 4, 1) },
	"numval": numValue,
	"join":   strings.Join,
	// shortLib is the MPI library up to the first comma ("Open MPI
	// v4.1.4"); the full line is in the cell's title and on the run page.
	"shortLib": func(s string) string { v, _, _ := strings.Cut(s, ","); return v },
	"beffMethods": func() []string {
		var out []string
		for _, m := range beff.Methods {
			out = append(out, m.String())
		}
		return out
	},
	"ioAccesses": func() []string {
		var out []string
		for _, a := range beffio.Accesses {
			out = append(out, a.String())
		}
		return out
	},
	"ioTypes": func() []string {
		var out []string
		for _, t := range beffio.Types {
			out = append(out, t.String())
		}
		return out
	},
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
}

// Write renders the site and writes it to dir. The site is written to a
// new directory beside dir first and then replaces dir, so dir holds
// either the old site or the complete new one. dir must not exist, be
// empty, or hold an earlier site (an index.html written by Write); Write
// refuses to replace anything else.
func (s *Site) Write(dir string, opt Options) error {
	files, err := s.Render(opt)
	if err != nil {
		return err
	}
	return writeDir(dir, files)
}

// Render renders the site: path (slash-separated, relative to the site's
// directory) → content.
func (s *Site) Render(opt Options) (map[string][]byte, error) {
	lib := opt.Library
	if lib == nil {
		var err error
		if lib, err = EmbeddedLibrary(); err != nil {
			return nil, err
		}
	}
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	files := map[string][]byte{
		"assets/" + libraryFile:    lib.JS,
		"assets/" + libraryLicense: lib.License,
	}
	glue, err := siteAssets()
	if err != nil {
		return nil, err
	}
	for name, b := range glue {
		files["assets/"+name] = b
	}
	common := func(root, page, title string) pageInfo {
		return pageInfo{Root: root, Page: page, Title: title, Generator: template.HTML(generator),
			Now: now.UTC().Format(time.RFC3339), Library: libraryName, LibVersion: lib.Version,
			NRuns: len(s.Runs), NFiles: len(s.Files), NSkipped: len(s.Skipped)}
	}
	render := func(name, tmpl string, data any) error {
		var b bytes.Buffer
		if err := templates.ExecuteTemplate(&b, tmpl, data); err != nil {
			return fmt.Errorf("rendering %s: %w", name, err)
		}
		files[name] = b.Bytes()
		return nil
	}

	idx := indexPage{pageInfo: common("", "index", "b_eff and b_eff_io results")}
	for _, r := range s.Runs {
		idx.Rows = append(idx.Rows, newRow(r))
	}
	for _, sk := range s.Skipped {
		idx.Skipped = append(idx.Skipped, skippedRow{File: sk.File, Reason: sk.Error()})
	}
	if err := render("index.html", "index.tmpl", idx); err != nil {
		return nil, err
	}

	cmp := comparePage{pageInfo: common("", "compare", "Compare runs")}
	for _, r := range s.Runs {
		cr := compareRun{ID: r.ID, Label: r.Label(), Href: "runs/" + r.ID + ".html"}
		if r.Beff != nil {
			cr.Beff = newBeffData(r.Beff)
		}
		if r.IO != nil {
			cr.IO = newIOData(r.IO)
		}
		cmp.Rows = append(cmp.Rows, newRow(r))
		cmp.Data.Runs = append(cmp.Data.Runs, cr)
	}
	if err := render("compare.html", "compare.tmpl", cmp); err != nil {
		return nil, err
	}

	for _, r := range s.Runs {
		p, err := newRunPage(r, common("../", "run", fmt.Sprintf("%s, run %d", r.File, r.Index)))
		if err != nil {
			return nil, err
		}
		if err := render("runs/"+r.ID+".html", "run.tmpl", p); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// pageInfo is what every page shows.
type pageInfo struct {
	Root       string // the site's root relative to the page: "" or "../"
	Page       string // index, run or compare: selects the glue code
	Title      string
	Generator  template.HTML
	Now        string // generation time, RFC 3339
	Library    string // plotting library and version
	LibVersion string
	NRuns      int // runs, files and skipped files of the site
	NFiles     int
	NSkipped   int
}

type indexPage struct {
	pageInfo
	Rows    []row
	Skipped []skippedRow
}

type skippedRow struct{ File, Reason string }

// A row is a run in the tables of the index and the comparison page.
type row struct {
	ID, File, Base        string
	Index, Procs          int
	Hosts, Date, Library  string
	HasBeff, HasIO        bool
	Beff, BeffPerProc, IO float64
	Valid                 bool
	Reasons               []string
}

func newRow(r *Run) row {
	x := row{ID: r.ID, File: r.File, Base: filepath.Base(r.File), Index: r.Index, Procs: r.Procs(),
		Hosts: r.Hosts(), Date: r.Date(), Library: r.MPILibrary(), Valid: r.Valid(), Reasons: r.Reasons()}
	if r.Beff != nil {
		x.HasBeff, x.Beff, x.BeffPerProc = true, r.Beff.Beff, r.Beff.BeffPerProc
	}
	if r.IO != nil {
		x.HasIO, x.IO = true, r.IO.BeffIO
	}
	return x
}

type comparePage struct {
	pageInfo
	Rows []row
	Data compareData
}

// compareData is the JSON of the comparison page.
type compareData struct {
	Runs []compareRun `json:"runs"`
}

type compareRun struct {
	ID    string    `json:"id"`
	Label string    `json:"label"`
	Href  string    `json:"href"`
	Beff  *beffData `json:"beff,omitempty"`
	IO    *ioData   `json:"io,omitempty"`
}

// runPage is a run's page.
type runPage struct {
	pageInfo
	Run      *Run
	Row      row
	Beff     *fold.Protocol
	BeffFigs []fold.Figure
	IO       *fold.IOProtocol
	IOFigs   []fold.Figure
	IOParts  []ioPartRow
	Text     string // the protocol as beff fold prints it
	Data     runData
}

// runData is the JSON of a run's page.
type runData struct {
	ID    string    `json:"id"`
	Label string    `json:"label"`
	Beff  *beffData `json:"beff,omitempty"`
	IO    *ioData   `json:"io,omitempty"`
}

// An ioPartRow is a row of the partition table of a run's page.
type ioPartRow struct {
	N                                     int
	Write, Rewrite, Read, Value, Release2 float64
	Time, Scheduled                       float64
	Best                                  bool
}

func newRunPage(r *Run, c pageInfo) (*runPage, error) {
	p := &runPage{pageInfo: c, Run: r, Row: newRow(r), Beff: r.Beff, IO: r.IO,
		Data: runData{ID: r.ID, Label: r.Label()}}
	var text bytes.Buffer
	if r.Beff != nil {
		p.BeffFigs = r.Beff.Figures()
		p.Data.Beff = newBeffData(r.Beff)
		if err := fold.WriteText(&text, r.Beff); err != nil {
			return nil, err
		}
	}
	if r.IO != nil {
		p.IOFigs = r.IO.Figures()
		p.Data.IO = newIOData(r.IO)
		for _, part := range r.IO.Partitions {
			p.IOParts = append(p.IOParts, ioPartRow{N: part.N,
				Write: part.Access[beffio.Write], Rewrite: part.Access[beffio.Rewrite], Read: part.Access[beffio.Read],
				Value: part.Value, Release2: part.Release2, Time: part.Time, Scheduled: part.Scheduled,
				Best: part.N == r.IO.BestN})
		}
		if text.Len() > 0 {
			text.WriteString("\n\n")
		}
		if err := fold.WriteIOText(&text, r.IO); err != nil {
			return nil, err
		}
	}
	p.Text = text.String()
	return p, nil
}

// numText formats v with at least digits significant digits and at least
// minDec decimals, as beff fold does.
func numText(v float64, digits, minDec int) string {
	dec := minDec
	if v != 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
		dec = max(minDec, digits-1-int(math.Floor(math.Log10(math.Abs(v)))))
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// numValue is the sort key of a number in a table cell.
func numValue(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// writeDir writes files into a new directory beside dir and puts it in
// dir's place.
func writeDir(dir string, files map[string][]byte) error {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	exists := false
	if fi, err := os.Stat(dir); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("writing the site: %s exists and is not a directory", dir)
		}
		ok, err := replaceable(dir)
		if err != nil {
			return fmt.Errorf("writing the site: %w", err)
		}
		if !ok {
			return fmt.Errorf("writing the site: %s is neither empty nor a site of beff report; not replacing it", dir)
		}
		exists = true
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("writing the site: %w", err)
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("writing the site: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, ".beff-report-*")
	if err != nil {
		return fmt.Errorf("writing the site: %w", err)
	}
	defer os.RemoveAll(tmp) // nothing left after the rename
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("writing the site: %w", err)
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return fmt.Errorf("writing the site: %w", err)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("writing the site: %w", err)
	}
	if exists {
		old := tmp + "-old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("writing the site: %w", err)
		}
		defer os.RemoveAll(old)
		if err := os.Rename(tmp, dir); err != nil {
			os.Rename(old, dir) // put the old site back
			return fmt.Errorf("writing the site: %w", err)
		}
		return nil
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("writing the site: %w", err)
	}
	return nil
}

// replaceable reports whether dir is empty or holds a site.
func replaceable(dir string) (bool, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	if len(ents) == 0 {
		return true, nil
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		return false, nil
	}
	return bytes.Contains(b, []byte(generator)), nil
}
