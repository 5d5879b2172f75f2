package fold

import (
	"fmt"
	"html/template"
	"image"
	"math"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/suites/skampi"
)

// The heat map of the round trips of every pair (skampi.Matrix): a PNG
// whose rows and columns are the ranks ordered by switch, node and rank
// (or the nodes, or the leaf switches, of a grouped matrix), coloured on
// a log scale from the fastest to the slowest pair, with the slowest and
// the fastest pairs listed and where their path goes.

// heatPairs is how many of the slowest and fastest pairs are listed.
const heatPairs = 10

// A heatMap is what a run page shows of the matrix.
type heatMap struct {
	PNG, Legend template.URL // data: URIs
	Min, Max    float64      // µs
	N, Cell     int
	Of          string // what the rows are: skampi.OfRanks, OfNodes, OfSwitches
	Side        int    // pixels of the map's side
	Groups      []heatGroup
	Slow, Fast  []heatPair
	Crossings   string // how the slowest pairs' paths go, "10 cross the spine"
}

// A heatGroup is a switch's or a host's ranks in the map's order.
type heatGroup struct {
	Switch, Host string
	First, Last  int    // positions in the map's order
	Ranks        string // "" in a grouped matrix
}

// A heatPair is one of the slowest or fastest pairs; the hosts of a
// matrix of switches are the switches.
type heatPair struct {
	Ranks        string // "0, 5"; "" in a grouped matrix
	HostA, HostB string
	Us           float64
	Crossing     string
}

// newHeatMap renders the matrix, or nil without one.
func newHeatMap(m *skampi.Matrix) (*heatMap, error) {
	if m == nil {
		return nil, nil
	}
	order := m.Order()
	lo, hi := rttRange(m)
	if hi <= 0 {
		return nil, nil // nothing measured
	}
	h := &heatMap{Min: lo, Max: hi, N: m.N, Of: m.Of, Cell: report.HeatCell(m.N)}
	h.Side = m.N * h.Cell
	img := drawHeat(m, order, h.Cell, lo, hi)
	var err error
	if h.PNG, err = report.PNGURI(img); err != nil {
		return nil, err
	}
	if h.Legend, err = report.HeatLegend(); err != nil {
		return nil, err
	}
	h.Groups = heatGroups(m, order)
	slow, fast := m.Extremes(heatPairs)
	h.Slow, h.Fast = heatPairsOf(m, slow), heatPairsOf(m, fast)
	h.Crossings = crossings(h.Slow)
	return h, nil
}

// rttRange is the fastest and the slowest measured round trip.
func rttRange(m *skampi.Matrix) (lo, hi float64) {
	lo = math.Inf(1)
	for _, v := range m.RTT {
		if x := float64(v); !math.IsNaN(x) {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	return lo, hi
}

// drawHeat draws the cells of the ordered matrix, cell pixels each, and a
// white line between switches where cells are large enough.
func drawHeat(m *skampi.Matrix, order []int, cell int, lo, hi float64) *image.RGBA {
	return report.HeatGrid{N: m.N, Cell: cell, Lo: lo, Hi: hi,
		At: func(i, j int) (float64, bool) {
			a, b := order[i], order[j]
			v, ok := m.At(a, b)
			return v, ok && (a != b || m.Grouped())
		},
		Break: func(i int) bool { return m.Places[order[i]].Switch != m.Places[order[i-1]].Switch },
	}.Image()
}

// heatGroups are the hosts in the map's order, with their switch and ranks.
func heatGroups(m *skampi.Matrix, order []int) []heatGroup {
	var out []heatGroup
	for i, r := range order {
		p := m.Places[r]
		if n := len(out); n == 0 || out[n-1].Host != p.Host || out[n-1].Switch != p.Switch {
			out = append(out, heatGroup{Switch: p.Switch, Host: p.Host, First: i})
		}
		out[len(out)-1].Last = i
	}
	for k := range out {
		if !m.Grouped() {
			out[k].Ranks = report.RangeList(order[out[k].First : out[k].Last+1])
		}
	}
	return out
}

func heatPairsOf(m *skampi.Matrix, ps []skampi.RankPair) []heatPair {
	out := make([]heatPair, len(ps))
	for i, p := range ps {
		out[i] = heatPair{HostA: m.Places[p.A].Host, HostB: m.Places[p.B].Host, Us: p.Us, Crossing: m.Crossing(p.A, p.B)}
		if !m.Grouped() {
			out[i].Ranks = fmt.Sprintf("%d, %d", p.A, p.B)
		}
	}
	return out
}

// crossings counts where the pairs' paths go, "7 cross the spine and 3
// stay on one switch"; of one pair, where it goes: "shares a node".
func crossings(ps []heatPair) string {
	count := map[string]int{}
	for _, p := range ps {
		count[p.Crossing]++
	}
	var parts []string
	for _, c := range []struct{ key, many, one string }{
		{"spine", "cross the spine", "crosses the spine"}, {"switch", "stay on one switch", "stays on one switch"},
		{"network", "cross the network", "crosses the network"}, {"node", "share a node", "shares a node"},
	} {
		switch n := count[c.key]; {
		case n == 1 && len(ps) == 1:
			parts = append(parts, c.one) // "the slowest pair shares a node"
		case n == 1:
			parts = append(parts, "1 "+c.one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", n, c.many))
		}
	}
	return joinAnd(parts)
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	s := parts[0]
	for _, p := range parts[1 : len(parts)-1] {
		s += ", " + p
	}
	return s + " and " + parts[len(parts)-1]
}
