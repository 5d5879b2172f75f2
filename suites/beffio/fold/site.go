package fold

import (
	"embed"
	"html/template"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beffio"
)

// The b_eff_io part of the report: a section with the figures, the
// partitions and the seed's 3+5 plots on every run page, the choice of
// partition, pattern type and access method on the comparison page
// (site/*).

//go:embed site
var siteFS embed.FS

var site = report.NewSiteFiles(siteFS, template.FuncMap{
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
})

var _ report.Pages = (*Suite)(nil)

// SiteKeys: the plot data and controls are "io", the section "beffio".
func (*Suite) SiteKeys() (string, string) { return "io", "beffio" }

// Columns are b_eff_io.
func (*Suite) Columns() []report.Column {
	return []report.Column{{Figure: "beffio", Label: "b_eff_io", Unit: "MB/s"},
		{Figure: "reference", Label: "b_eff_io 2.1 formula", Unit: "MB/s"}}
}

// SiteReasons are the verdict's reasons.
func (*Suite) SiteReasons(f results.Folded) []string { return f.Verdict().Reasons }

// A partRow is a row of the partition table of a run page.
type partRow struct {
	N                                      int
	Write, Rewrite, Read, Value, Reference float64
	Time, Scheduled                        float64
	Best                                   bool
}

// Section renders the b_eff_io section of a run page.
func (*Suite) Section(f results.Folded) (template.HTML, error) {
	p := f.(*Folded)
	var parts []partRow
	for _, part := range p.Partitions {
		parts = append(parts, partRow{N: part.N,
			Write: part.Access[beffio.Write], Rewrite: part.Access[beffio.Rewrite], Read: part.Access[beffio.Read],
			Value: part.Value, Reference: part.Reference, Time: part.Time, Scheduled: part.Scheduled,
			Best: part.N == p.BestN})
	}
	return site.Section(struct {
		*Folded
		Figs  []results.Figure
		Parts []partRow
	}{p, p.Figures(), parts})
}

// Controls renders the b_eff_io controls of the comparison page.
func (*Suite) Controls() (template.HTML, error) { return site.Controls() }

// PlotData is the data of the b_eff_io plots of a run.
func (*Suite) PlotData(f results.Folded) any { return newPlotData(f.(*Folded)) }

// Script is the b_eff_io drawing code.
func (*Suite) Script() []byte { return site.Script() }
