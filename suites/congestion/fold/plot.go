package fold

import (
	"strings"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/suites/congestion"
)

// plotData is what the plots of a run draw: per canary its distribution
// under every load, the median over the repetitions of each quantile and
// of the slowest sample.
type plotData struct {
	Points   []string     `json:"points"` // "p50", …, "slowest"
	Canaries []plotCanary `json:"canaries"`
}

type plotCanary struct {
	Canary string     `json:"canary"`
	Unit   string     `json:"unit"`
	Loads  []plotLoad `json:"loads"`
}

type plotLoad struct {
	Load   string           `json:"load"`
	Values []report.PlotNum `json:"values"`
}

func newPlotData(p *Folded) plotData {
	out := plotData{Canaries: []plotCanary{}}
	for _, q := range congestion.Quantiles {
		out.Points = append(out.Points, strings.TrimSuffix(congestion.QuantileMetric(q, false), "-"+congestion.MetricUs))
	}
	out.Points = append(out.Points, "slowest")
	plan := p.Run.Config.Plan
	for _, c := range plan.Canaries {
		pc := plotCanary{Canary: c, Unit: congestion.MetricUs}
		if congestion.Bandwidth(c) {
			pc.Unit = congestion.MetricMBps
		}
		for _, l := range append([]string{congestion.LoadIsolated}, plan.Loads()...) {
			pc.Loads = append(pc.Loads, plotLoad{Load: l, Values: p.distribution(c, l)})
		}
		out.Canaries = append(out.Canaries, pc)
	}
	return out
}

// distribution is canary c's quantiles and slowest sample under load l,
// each the median over the repetitions.
func (p *Folded) distribution(c, l string) []report.PlotNum {
	var out []report.PlotNum
	for i := 0; i <= len(congestion.Quantiles); i++ {
		var v []float64
		for rep := 1; rep <= p.Run.Config.Plan.Reps; rep++ {
			m := p.Run.byName[congestion.CanaryName(c, l, rep)]
			if i < len(m.Quantiles) {
				v = append(v, m.Quantiles[i])
			} else {
				v = append(v, m.Extreme)
			}
		}
		out = append(out, report.PlotNum(spreadOf(v).Median))
	}
	return out
}
