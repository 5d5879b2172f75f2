package fold

import (
	"embed"
	"html/template"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/congestion"
)

// The congestion part of the report: a section with the figures, the
// canaries' and congestors' tables and a plot per canary of its
// distribution isolated against under each load on every run page; the
// choice of canary and load on the comparison page (site/*).

//go:embed site
var siteFS embed.FS

var site = report.NewSiteFiles(siteFS, template.FuncMap{
	"congestionCanaries": func() []string { return congestion.CanaryNames },
})

var _ report.Pages = (*Suite)(nil)

// SiteKeys: the plot data and controls are "congestion", the section too.
func (*Suite) SiteKeys() (string, string) { return "congestion", "congestion" }

// Columns are the largest mean CIF.
func (*Suite) Columns() []report.Column {
	return []report.Column{{Figure: FigureLargest, Label: "largest CIF", Unit: congestion.UnitCIF}}
}

// SiteReasons are the verdict's reasons.
func (*Suite) SiteReasons(f results.Folded) []string { return f.(*Folded).Reasons }

// Section renders the section of a run page.
func (*Suite) Section(f results.Folded) (template.HTML, error) {
	p := f.(*Folded)
	return site.Section(struct {
		*Folded
		Head string
		Figs []results.Figure
	}{p, p.head(), p.Figures()})
}

// Controls renders the controls of the comparison page.
func (*Suite) Controls() (template.HTML, error) { return site.Controls() }

// PlotData is the data of a run's plots.
func (*Suite) PlotData(f results.Folded) any { return newPlotData(f.(*Folded)) }

// Script is the drawing code.
func (*Suite) Script() []byte { return site.Script() }
