package fold

import (
	"math"

	"github.com/beff-suite/beff/internal/report"
)

// histBins is the number of bins of a histogram of the pairs.
const histBins = 40

// plotData is what the plots of a run draw: each member's median of its
// links, its slowest link and whether a verdict names it, and a
// histogram per figure of the pairs (of the members' medians without the
// full matrix), binned here so that the page does not grow with p².
type plotData struct {
	Level   string       `json:"level"` // "node" or "process"
	Members []plotMember `json:"members"`
	Hists   []plotHist   `json:"hists"`
}

type plotMember struct {
	Name    string         `json:"name"`
	Lat     report.PlotNum `json:"lat"`
	Bw      report.PlotNum `json:"bw"`
	SlowLat bool           `json:"slowLat"` // a verdict names it by latency
	SlowBw  bool           `json:"slowBw"`
}

// plotHist is a histogram on a log scale: Counts[i] values fell within
// Edges[i]…Edges[i+1].
type plotHist struct {
	Figure string           `json:"figure"` // "lat" or "bw"
	Unit   string           `json:"unit"`
	Of     string           `json:"of"` // "pairs" or "members"
	Edges  []report.PlotNum `json:"edges"`
	Counts []int            `json:"counts"`
}

func newPlotData(p *Folded) plotData {
	out := plotData{Level: memberWord(p.Config), Members: []plotMember{}, Hists: []plotHist{}}
	slow := map[[2]int]bool{} // {member, 0 latency / 1 bandwidth}
	for _, f := range p.Findings {
		if f.Other < 0 {
			slow[[2]int{f.Member, figureIndex(f.Figure)}] = true
		}
	}
	for i, m := range p.Members {
		out.Members = append(out.Members, plotMember{Name: p.name(i), Lat: report.PlotNum(m.Lat), Bw: report.PlotNum(m.Bw),
			SlowLat: slow[[2]int{i, 0}], SlowBw: slow[[2]int{i, 1}]})
	}
	of, lat, bw := "members", []float64{}, []float64{}
	if p.Pairs != nil {
		of = "pairs"
		for _, m := range p.Pairs {
			lat, bw = append(lat, m.Lat), append(bw, m.Fw, m.Bk)
		}
	} else {
		for _, m := range p.Members {
			lat, bw = append(lat, m.Lat), append(bw, m.Bw)
		}
	}
	for _, h := range []plotHist{{Figure: "lat", Unit: "us", Of: of}, {Figure: "bw", Unit: "MB/s", Of: of}} {
		v := lat
		if h.Figure == "bw" {
			v = bw
		}
		h.Edges, h.Counts = logHistogram(v, histBins)
		out.Hists = append(out.Hists, h)
	}
	return out
}

// figureIndex is 0 for latency, 1 for bandwidth.
func figureIndex(figure string) int {
	if figure == "latency" {
		return 0
	}
	return 1
}

// logHistogram bins the positive values of v into n bins of equal width
// on a log scale from the least to the largest; one bin when they are
// all alike; none without a value.
func logHistogram(v []float64, n int) ([]report.PlotNum, []int) {
	lo, hi := math.Inf(1), 0.0
	for _, x := range v {
		if x > 0 && !math.IsInf(x, 0) {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	if hi <= 0 {
		return []report.PlotNum{}, []int{}
	}
	if hi == lo {
		n = 1
	}
	edges := make([]report.PlotNum, n+1)
	step := math.Log(hi/lo) / float64(n)
	for i := range edges {
		edges[i] = report.PlotNum(lo * math.Exp(step*float64(i)))
	}
	edges[n] = report.PlotNum(hi)
	counts := make([]int, n)
	for _, x := range v {
		if x > 0 && !math.IsInf(x, 0) {
			k := n - 1
			if step > 0 {
				k = min(n-1, int(math.Log(x/lo)/step))
			}
			counts[k]++
		}
	}
	return edges, counts
}
