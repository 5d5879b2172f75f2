package fold

import (
	"embed"
	"html/template"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/links"
)

// The links part of the report: on every run page the figures, the
// verdicts, the heat maps of a full matrix, a bar per member with the
// slow ones marked and a histogram of the pairs; on the comparison page
// the members' medians of every run, sorted (site/*).

//go:embed site
var siteFS embed.FS

var site = report.NewSiteFiles(siteFS, nil)

var _ report.Pages = (*Suite)(nil)

// SiteKeys: the plot data, controls and section are "links".
func (*Suite) SiteKeys() (string, string) { return "links", "links" }

// Columns are the median of the members' bandwidths.
func (*Suite) Columns() []report.Column {
	return []report.Column{{Figure: "bw", Label: "links MB/s", Unit: "MB/s"}}
}

// SiteReasons are the verdict's reasons.
func (*Suite) SiteReasons(f results.Folded) []string { return f.(*Folded).Reasons }

// Section renders the section of a run page.
func (*Suite) Section(f results.Folded) (template.HTML, error) {
	p := f.(*Folded)
	order := p.heatOrder()
	maps, err := p.heatMaps(order)
	if err != nil {
		return "", err
	}
	var groups []heatGroup
	if maps != nil {
		groups = p.heatGroups(order)
	}
	return site.Section(struct {
		*Folded
		Head, Word string
		Figs       []results.Figure
		Maps       []heatMap
		Groups     []heatGroup
		FullMax    int
	}{p, p.head(), memberWord(p.Config), p.Figures(), maps, groups, links.FullMatrix})
}

// Controls renders the controls of the comparison page.
func (*Suite) Controls() (template.HTML, error) { return site.Controls() }

// PlotData is the data of a run's plots.
func (*Suite) PlotData(f results.Folded) any { return newPlotData(f.(*Folded)) }

// Script is the drawing code.
func (*Suite) Script() []byte { return site.Script() }
