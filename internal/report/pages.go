package report

import (
	"html/template"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// Pages is a suite's part of the site. A suite that implements it (next to
// results.Suite) gets index columns, a section with plots on every run
// page and a choice on the comparison page; any other suite shows in the
// site with its validity and its protocol only.
type Pages interface {
	// SiteKeys name the suite in the site: data is the key of its plot
	// data in the pages' JSON, of its choice and its controls
	// (<data>-controls) on the comparison page and of the run attribute
	// data-<data>; anchor is the id of its section on a run page.
	SiteKeys() (data, anchor string)
	// Columns are the figures the index shows for the suite; the first
	// is also the suite's column on the comparison page.
	Columns() []Column
	// SiteReasons says why a run of the suite is not valid for comparison
	// on the site: the verdict's reasons and what else the suite counts
	// against it.
	SiteReasons(f results.Folded) []string
	// Section renders the suite's section of a run page.
	Section(f results.Folded) (template.HTML, error)
	// Controls renders the suite's controls on the comparison page (the
	// content of its fieldset).
	Controls() (template.HTML, error)
	// PlotData is the data of the suite's plots for one run, written as
	// JSON into the run page and the comparison page.
	PlotData(f results.Folded) any
	// Script is the suite's part of assets/report.js: it registers the
	// suite's drawing code with beffReport.register (see
	// assets/report.js).
	Script() []byte
}

// A Column is a figure of a suite in the index table.
type Column struct {
	Figure string // the figure's name (results.Figure.Name)
	Label  string // the column's heading
	Unit   string // the figure's unit, one of the suite's FoldUnits
}

// Funcs are the template functions of the site, for the suites' own
// templates too: mbps and sig format numbers as the protocols do, numval
// gives the sort key of a number in a table cell, join is strings.Join,
// unit writes a unit as people read it (µs).
var Funcs = template.FuncMap{
	"mbps":   func(v float64) string { return results.Num(v, 5, 1) },
	"sig":    func(v float64) string { return results.Num(v, 4, 1) },
	"numval": numValue,
	"join":   strings.Join,
	"unit":   results.UnitText,
}

// numValue is the sort key of a number in a table cell.
func numValue(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// pages returns the Pages of suite s, or nil.
func pages(s results.Suite) Pages {
	p, _ := s.(Pages)
	return p
}

// A PlotNum is a number in the plot data: 6 significant digits, null
// when not finite (not measured).
type PlotNum float64

// MarshalJSON writes v with 6 significant digits, or null.
func (v PlotNum) MarshalJSON() ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', 6, 64), nil
}

// Missing is the PlotNum of a point that was not measured.
var Missing = PlotNum(math.NaN())

// SiteFiles are a suite's files for the site, in a folder site/ of its
// own: section.tmpl (its section of a run page), controls.tmpl (the
// content of its fieldset on the comparison page) and plot.js (its drawing
// code). The templates have Funcs and the suite's own funcs.
type SiteFiles struct {
	templates *template.Template
	script    []byte
}

// NewSiteFiles reads the site/ folder of fsys; it panics on a template
// that does not parse, as template.Must does (the files are embedded).
func NewSiteFiles(fsys fs.FS, funcs template.FuncMap) *SiteFiles {
	t := template.Must(template.New("").Funcs(Funcs).Funcs(funcs).ParseFS(fsys, "site/*.tmpl"))
	script, err := fs.ReadFile(fsys, "site/plot.js")
	if err != nil {
		panic(err)
	}
	return &SiteFiles{templates: t, script: script}
}

// Section renders section.tmpl with data, without a final newline: the
// run page puts the section on lines of its own.
func (f *SiteFiles) Section(data any) (template.HTML, error) {
	h, err := f.render("section.tmpl", data)
	return template.HTML(strings.TrimSuffix(string(h), "\n")), err
}

// Controls renders controls.tmpl.
func (f *SiteFiles) Controls() (template.HTML, error) { return f.render("controls.tmpl", nil) }

// Script is plot.js.
func (f *SiteFiles) Script() []byte { return f.script }

func (f *SiteFiles) render(name string, data any) (template.HTML, error) {
	var b strings.Builder
	if err := f.templates.ExecuteTemplate(&b, name, data); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}
