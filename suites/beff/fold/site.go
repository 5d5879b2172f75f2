package fold

import (
	"embed"
	"html/template"
	"slices"
	"strings"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beff"
)

// The b_eff part of the report: a section with the figures, the bandwidth
// plot and the pattern table on every run page, the choice of pattern,
// method and axes on the comparison page (site/*).

//go:embed site
var siteFS embed.FS

var siteTemplates = template.Must(template.New("").Funcs(report.Funcs).Funcs(template.FuncMap{
	"beffMethods": func() []string {
		var out []string
		for _, m := range beff.Methods {
			out = append(out, m.String())
		}
		return out
	},
}).ParseFS(siteFS, "site/*.tmpl"))

var _ report.Pages = (*Suite)(nil)

// SiteKeys: the plot data and controls are "beff", the section "beff".
func (*Suite) SiteKeys() (string, string) { return "beff", "beff" }

// Columns are b_eff and b_eff per process.
func (*Suite) Columns() []report.Column {
	return []report.Column{{Figure: "beff", Label: "b_eff"}, {Figure: "beff-per-proc", Label: "b_eff per process"}}
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
	h, err := report.Section(siteTemplates.Lookup("section.tmpl"), struct {
		*Folded
		Figs []results.Figure
	}{p, p.Figures()})
	return template.HTML(strings.TrimSuffix(string(h), "\n")), err
}

// Controls renders the b_eff controls of the comparison page.
func (*Suite) Controls() (template.HTML, error) {
	return report.Section(siteTemplates.Lookup("controls.tmpl"), nil)
}

// PlotData is the data of the b_eff plot of a run.
func (*Suite) PlotData(f results.Folded) any { return newPlotData(f.(*Folded)) }

// Script is the b_eff drawing code.
func (*Suite) Script() []byte {
	b, _ := siteFS.ReadFile("site/plot.js")
	return b
}
