package fold

import (
	"embed"
	"html/template"
	"slices"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beff"
)

// The b_eff part of the report: a section with the figures, the bandwidth
// plot and the pattern table on every run page, the choice of pattern,
// method and axes on the comparison page (site/*).

//go:embed site
var siteFS embed.FS

var site = report.NewSiteFiles(siteFS, template.FuncMap{
	"beffMethods": func() []string {
		var out []string
		for _, m := range beff.Methods {
			out = append(out, m.String())
		}
		return out
	},
})

var _ report.Pages = (*Suite)(nil)

// SiteKeys: the plot data and controls are "beff", the section "beff".
func (*Suite) SiteKeys() (string, string) { return "beff", "beff" }

// Columns are b_eff and b_eff per process.
func (*Suite) Columns() []report.Column {
	return []report.Column{{Figure: "beff", Label: "b_eff", Unit: "MB/s"}, {Figure: "beff-per-proc", Label: "b_eff per process", Unit: "MB/s"}}
}

// SiteReasons adds to the verdict's reasons the shortcut of the two
// largest sizes (docs/beff.md "The shortcut"), which the site must state.
func (*Suite) SiteReasons(f results.Folded) []string {
	p := f.(*Folded)
	out := append([]string(nil), p.Reasons...)
	if slices.Contains(p.Notes, NoteShortcut) {
		out = append(out, NoteShortcut)
	}
	return out
}

// Section renders the b_eff section of a run page.
func (*Suite) Section(f results.Folded) (template.HTML, error) {
	p := f.(*Folded)
	return site.Section(struct {
		*Folded
		Figs []results.Figure
	}{p, p.Figures()})
}

// Controls renders the b_eff controls of the comparison page.
func (*Suite) Controls() (template.HTML, error) { return site.Controls() }

// PlotData is the data of the b_eff plot of a run.
func (*Suite) PlotData(f results.Folded) any { return newPlotData(f.(*Folded)) }

// Script is the b_eff drawing code.
func (*Suite) Script() []byte { return site.Script() }
