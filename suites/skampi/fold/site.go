package fold

import (
	"embed"
	"html/template"
	"slices"
	"strconv"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// The SKaMPI part of the report: a section with the figures, the suites
// and one plot per suite on every run page, the choice of suite,
// operation and axis on the comparison page (site/*).

//go:embed site
var siteFS embed.FS

var site = report.NewSiteFiles(siteFS, template.FuncMap{"maxCurves": func() int { return skampi.MaxPlotCurves }})

var _ report.Pages = (*Suite)(nil)

// SiteKeys: the plot data and controls are "skampi", the section "skampi".
func (*Suite) SiteKeys() (string, string) { return "skampi", "skampi" }

// Columns are the headline figures: the latency, the ping-pong bandwidth
// and the barrier.
func (*Suite) Columns() []report.Column {
	return []report.Column{
		{Figure: "latency", Label: "SKaMPI latency", Unit: "us"},
		{Figure: "bandwidth", Label: "SKaMPI ping-pong", Unit: "MB/s"},
		{Figure: "barrier", Label: "SKaMPI barrier", Unit: "us"},
	}
}

// SiteReasons are the verdict's reasons.
func (*Suite) SiteReasons(f results.Folded) []string { return f.Verdict().Reasons }

// A suiteRow is a row of the suite table of a run page.
type suiteRow struct {
	Plot, Name, Text      string
	Curves, Points, Added int
	NotConverged          int
	Typed                 bool // a second plot: the methods' ratio to contiguous
	Overlap               bool // a plot of the non-blocking collectives' overlap
	Forms                 bool // a plot of the forms' time over their blocking operations'
}

// Section renders the SKaMPI section of a run page.
func (*Suite) Section(f results.Folded) (template.HTML, error) {
	p := f.(*Folded)
	heat, err := newHeatMap(p.Config.Matrix)
	if err != nil {
		return "", err
	}
	return site.Section(struct {
		*Folded
		Head   string
		Figs   []results.Figure
		Suites []suiteRow
		Heat   *heatMap
	}{p, p.headText("SKaMPI"), p.Figures(), suiteRows(p), heat})
}

// suiteRows summarise the suites in the order of the plot data, each
// with the id of its plot.
func suiteRows(p *Folded) []suiteRow {
	var rows []suiteRow
	for i, curves := range p.BySuite() {
		su := curves[0].Suite
		r := suiteRow{Plot: plotID(i), Name: su.Name, Text: suiteText(su), Curves: len(curves)}
		for _, c := range curves {
			r.Typed = r.Typed || c.Method != ""
			r.Overlap = r.Overlap || c.Op.NonBlocking()
			r.Forms = r.Forms || c.Op.Of != "" && slices.ContainsFunc(curves, func(b *Curve) bool { return b.Op.Name == c.Op.Of })
			r.Points += len(c.Rows)
			r.Added += c.Added
			for _, m := range c.Rows {
				if !m.Has || !m.Converged() {
					r.NotConverged++
				}
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// plotID is the element id of the i-th suite's plot (suite names are the
// user's: they do not go into ids).
func plotID(i int) string { return "skampi-plot-" + strconv.Itoa(i) }

// Controls renders the SKaMPI controls of the comparison page.
func (*Suite) Controls() (template.HTML, error) { return site.Controls() }

// PlotData is the data of the SKaMPI plots of a run.
func (*Suite) PlotData(f results.Folded) any { return newPlotData(f.(*Folded)) }

// Script is the SKaMPI drawing code.
func (*Suite) Script() []byte { return site.Script() }
