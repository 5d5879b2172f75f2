package fold

import (
	"cmp"
	"html/template"
	"math"
	"slices"

	"github.com/beff-suite/beff/internal/report"
)

// The heat maps of a full matrix: a PNG per figure whose rows and
// columns are the members ordered by switch, host and number (the
// topology, where Slurm gave one), each cell a link's value from the row
// to the column (bandwidth: the row sends), coloured on a log scale from
// the best link (dark) to the worst (yellow). A slow member is a bright
// cross; a slow link, a bright pair of cells; a slow uplink, a bright
// block off the diagonal.

// heatSpan is the least ratio of the worst to the best end of a map's
// scale.
const heatSpan = 2

// A heatMap is one figure's map on a run page.
type heatMap struct {
	Figure, Unit string
	PNG, Legend  template.URL // data: URIs
	Best, Worst  float64
	Side, Cell   int
}

// A heatGroup is a run of members of one switch and host in the maps'
// order: the rows First…Last.
type heatGroup struct {
	Switch, Host string
	Members      string // "0-3,8"
	First, Last  int
}

// heatOrder is the members in the maps' order: by switch, host and
// number.
func (p *Folded) heatOrder() []int {
	order := make([]int, len(p.Members))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ma, mb := p.Members[a], p.Members[b]
		return cmp.Or(cmp.Compare(ma.Switch, mb.Switch), cmp.Compare(ma.Host, mb.Host))
	})
	return order
}

// heatMaps draws the latency and the bandwidth maps of a full matrix
// (none otherwise), in order.
func (p *Folded) heatMaps(order []int) ([]heatMap, error) {
	if p.Pairs == nil {
		return nil, nil
	}
	n := len(p.Members)
	lat := make([]float64, n*n)
	bw := make([]float64, n*n)
	for i := range lat {
		lat[i], bw[i] = math.NaN(), math.NaN()
	}
	for _, m := range p.Pairs {
		lat[m.A*n+m.B], lat[m.B*n+m.A] = m.Lat, m.Lat
		bw[m.A*n+m.B], bw[m.B*n+m.A] = m.Fw, m.Bk
	}
	var out []heatMap
	for _, f := range []struct {
		name, unit string
		v          []float64
		higher     bool
	}{{"latency", "µs", lat, false}, {"bandwidth one way (row sends)", "MB/s", bw, true}} {
		h, err := p.heatMap(order, f.v, f.higher)
		if err != nil {
			return nil, err
		}
		if h != nil {
			h.Figure, h.Unit = f.name, f.unit
			out = append(out, *h)
		}
	}
	return out, nil
}

// heatMap draws the n×n values v (NaN: not measured) in order; nil when
// nothing was measured.
func (p *Folded) heatMap(order []int, v []float64, higher bool) (*heatMap, error) {
	n := len(order)
	lo, hi := math.Inf(1), 0.0
	for _, x := range v {
		if x > 0 {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	if hi <= 0 {
		return nil, nil
	}
	// the scale spans at least a factor of heatSpan: the noise of a
	// uniform machine stays dark, not spread over every colour
	if higher {
		lo = min(lo, hi/heatSpan)
	} else {
		hi = max(hi, lo*heatSpan)
	}
	g := report.HeatGrid{N: n, Cell: report.HeatCell(n), Lo: lo, Hi: hi, HigherBetter: higher,
		At: func(i, j int) (float64, bool) {
			x := v[order[i]*n+order[j]]
			return x, x > 0
		},
		Break: func(i int) bool { return p.Members[order[i]].Switch != p.Members[order[i-1]].Switch },
	}
	h := &heatMap{Best: lo, Worst: hi, Cell: g.Cell, Side: n * g.Cell}
	if higher {
		h.Best, h.Worst = hi, lo
	}
	var err error
	if h.PNG, err = g.PNG(); err != nil {
		return nil, err
	}
	h.Legend, err = report.HeatLegend()
	return h, err
}

// heatGroups are the switches and hosts in order, with their members.
func (p *Folded) heatGroups(order []int) []heatGroup {
	var out []heatGroup
	var nums [][]int
	for i, k := range order {
		m := p.Members[k]
		if n := len(out); n == 0 || out[n-1].Host != m.Host || out[n-1].Switch != m.Switch {
			out = append(out, heatGroup{Switch: m.Switch, Host: m.Host, First: i})
			nums = append(nums, nil)
		}
		out[len(out)-1].Last = i
		nums[len(nums)-1] = append(nums[len(nums)-1], k)
	}
	for i := range out {
		out[i].Members = report.RangeList(nums[i])
	}
	return out
}
