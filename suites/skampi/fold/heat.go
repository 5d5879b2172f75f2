package fold

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/beff-suite/beff/suites/skampi"
)

// The heat map of the round trips of every pair (skampi.Matrix): a PNG
// whose rows and columns are the ranks ordered by switch, node and rank
// (or the nodes, or the leaf switches, of a grouped matrix), coloured on
// a log scale from the fastest to the slowest pair, with the slowest and
// the fastest pairs listed and where their path goes.

// heatSide is about the most pixels of the map's side; a cell has at least
// one pixel and at most heatCell.
const (
	heatSide  = 512
	heatCell  = 24
	heatPairs = 10 // slowest and fastest pairs listed
)

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
	h := &heatMap{Min: lo, Max: hi, N: m.N, Of: m.Of, Cell: min(heatCell, max(1, heatSide/m.N))}
	h.Side = m.N * h.Cell
	img := drawHeat(m, order, h.Cell, lo, hi)
	var err error
	if h.PNG, err = pngURI(img); err != nil {
		return nil, err
	}
	if h.Legend, err = pngURI(drawLegend()); err != nil {
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
	side := m.N * cell
	img := image.NewRGBA(image.Rect(0, 0, side, side))
	for i, a := range order {
		for j, b := range order {
			c := color.RGBA{0xdd, 0xdd, 0xdd, 0xff} // the diagonal, or not measured
			if v, ok := m.At(a, b); ok && (a != b || m.Grouped()) {
				c = heatColour(logPos(v, lo, hi))
			}
			fill(img, j*cell, i*cell, cell, c)
		}
	}
	if cell >= 4 {
		for i := 1; i < len(order); i++ {
			if m.Places[order[i]].Switch != m.Places[order[i-1]].Switch {
				for k := 0; k < side; k++ {
					img.Set(i*cell, k, color.White)
					img.Set(k, i*cell, color.White)
				}
			}
		}
	}
	return img
}

func fill(img *image.RGBA, x, y, n int, c color.RGBA) {
	for dy := 0; dy < n; dy++ {
		for dx := 0; dx < n; dx++ {
			img.SetRGBA(x+dx, y+dy, c)
		}
	}
}

// logPos is where v lies between lo and hi on a log scale, 0…1.
func logPos(v, lo, hi float64) float64 {
	if hi <= lo || v <= 0 || lo <= 0 {
		return 0
	}
	return min(1, max(0, math.Log(v/lo)/math.Log(hi/lo)))
}

// viridis, from the fastest (dark) to the slowest (yellow)
var heatStops = []color.RGBA{{0x44, 0x01, 0x54, 0xff}, {0x3b, 0x52, 0x8b, 0xff}, {0x21, 0x91, 0x8c, 0xff}, {0x5e, 0xc9, 0x62, 0xff}, {0xfd, 0xe7, 0x25, 0xff}}

// heatColour interpolates the colour at t in 0…1.
func heatColour(t float64) color.RGBA {
	x := t * float64(len(heatStops)-1)
	i := min(int(x), len(heatStops)-2)
	f := x - float64(i)
	a, b := heatStops[i], heatStops[i+1]
	mix := func(p, q uint8) uint8 { return uint8(math.Round(float64(p) + f*(float64(q)-float64(p)))) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// drawLegend is the colour scale, fastest on the left.
func drawLegend() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 256, 12))
	for x := 0; x < 256; x++ {
		c := heatColour(float64(x) / 255)
		for y := 0; y < 12; y++ {
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

func pngURI(img image.Image) (template.URL, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return "", err
	}
	return template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())), nil
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
			out[k].Ranks = rankList(order[out[k].First : out[k].Last+1])
		}
	}
	return out
}

// rankList writes ranks as ranges, "0-3,8".
func rankList(ranks []int) string {
	var b bytes.Buffer
	for i := 0; i < len(ranks); {
		j := i
		for j+1 < len(ranks) && ranks[j+1] == ranks[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", ranks[i], ranks[j])
		} else {
			fmt.Fprintf(&b, "%d", ranks[i])
		}
		i = j + 1
	}
	return b.String()
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
