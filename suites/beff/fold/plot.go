package fold

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beff"
)

// PlotData is what the plots of one b_eff run need (site/plot.js draws
// them).
type PlotData struct {
	N     int              `json:"n"`
	Beff  report.PlotNum   `json:"beff"`  // b_eff, MB/s (the comparison's scaling picture: b_eff/N over N)
	Sizes []int64          `json:"sizes"` // message sizes, bytes
	X     []report.PlotNum `json:"x"`     // their positions on the seed's size axis
	Ticks []string         `json:"ticks"` // their labels
	// Methods are the keys of Curve.Y: "best", then the methods.
	Methods []string `json:"methods"`
	// Curves: the classes "rings" and "random" (logavg over their
	// patterns), then every pattern in measurement order.
	Curves []PlotLine `json:"curves"`
}

// A PlotLine is the bandwidth of a pattern or class over the sizes, in MB/s
// (not per process), per method; null where a method was not measured.
// Per process is Y over Div, which Per names: N for the classes and the
// patterns of every process, the processes taking part for a pattern of
// fewer, 1 for the ping-pong, whose bandwidth is one pair's.
type PlotLine struct {
	Name string                      `json:"name"`
	Kind string                      `json:"kind"` // class, ring, random or extra
	Y    map[string][]report.PlotNum `json:"y"`
	Div  int                         `json:"div"`
	Per  string                      `json:"per"` // "per process", "one pair", "per process of the 8 taking part"
}

// methodNames are the keys of the plot data: "best" (the best of the
// methods, the value b_eff uses) and the methods.
func methodNames() []string {
	out := []string{"best"}
	for _, m := range beff.Methods {
		out = append(out, m.String())
	}
	return out
}

// sizePos is the position of message size l on the seed's size axis
// (docs/beff.md "Message sizes"): the 13 sizes 1 B … 4 KiB and the 8 geometric sizes up to
// lmax are equidistant, so size index i sits at i.
func sizePos(l, lmax int64) float64 {
	if l <= 4096 || lmax <= 4096 {
		return math.Log2(float64(l))
	}
	return 12 + 8*math.Log(float64(l)/4096)/math.Log(float64(lmax)/4096)
}

// newPlotData computes the curves of folded run p.
func newPlotData(p *Folded) *PlotData {
	cfg := p.Run.Config
	d := &PlotData{N: cfg.N, Beff: report.PlotNum(p.Beff), Sizes: cfg.Sizes, Methods: methodNames()}
	for _, l := range cfg.Sizes {
		x := sizePos(l, cfg.Lmax)
		if r := math.Round(x); math.Abs(x-r) < 0.02 {
			x = r // round(4096·a^k) sits at k up to the rounding
		}
		d.X = append(d.X, report.PlotNum(x))
		d.Ticks = append(d.Ticks, bytesLabel(l))
	}
	var all []PlotLine
	for _, t := range p.Patterns {
		c := PlotLine{Name: t.Name, Kind: t.Kind.String(), Y: map[string][]report.PlotNum{}}
		c.Div, c.Per = perProcess(t, cfg.N)
		for _, m := range d.Methods {
			if m == "best" || slices.ContainsFunc(t.Methods, func(x beff.Method) bool { return x.String() == m }) {
				c.Y[m] = patternValues(t, m)
			}
		}
		all = append(all, c)
	}
	for _, class := range []struct{ kind, name string }{
		{beff.KindRing.String(), "rings (logavg)"},
		{beff.KindRandom.String(), "random (logavg)"},
	} {
		d.Curves = append(d.Curves, classCurve(all, class.kind, class.name, d.Methods, len(cfg.Sizes), cfg.N))
	}
	d.Curves = append(d.Curves, all...)
	return d
}

// perProcess is what divides pattern t's bandwidth into a process's on
// n processes, and its name: the processes taking part, but the
// ping-pong's, which is one pair's bandwidth as the figure at Lmax is.
func perProcess(t *PatternTable, n int) (int, string) {
	switch {
	case t.Name == "pingpong":
		return 1, "one pair"
	case t.Participants > 0 && t.Participants < n:
		return t.Participants, fmt.Sprintf("per process of the %d taking part", t.Participants)
	}
	return n, "per process"
}

// patternValues is the bandwidth of table t per size with the method (or
// the best).
func patternValues(t *PatternTable, method string) []report.PlotNum {
	y := make([]report.PlotNum, len(t.Rows))
	for i, row := range t.Rows {
		y[i] = report.Missing
		for _, m := range row.Measured {
			if method == "best" && m == row.Best || m.Method.String() == method {
				y[i] = report.PlotNum(m.MBps)
			}
		}
	}
	return y
}

// classCurve is the logarithmic average of the curves of kind, per method
// and size; missing where a pattern lacks the method.
func classCurve(all []PlotLine, kind, name string, methods []string, sizes, n int) PlotLine {
	c := PlotLine{Name: name, Kind: "class", Y: map[string][]report.PlotNum{}, Div: n, Per: "per process"}
	for _, m := range methods {
		y := make([]report.PlotNum, sizes)
		for i := range y {
			var v []float64
			for _, pc := range all {
				if pc.Kind == kind {
					if py, ok := pc.Y[m]; ok && !math.IsNaN(float64(py[i])) {
						v = append(v, float64(py[i]))
					} else {
						v = nil // a pattern lacks the method here: no average
						break
					}
				}
			}
			y[i] = report.Missing
			if x, err := beff.LogAvg(v); err == nil && len(v) > 0 {
				y[i] = report.PlotNum(x)
			}
		}
		c.Y[m] = y
	}
	return c
}

// bytesLabel writes a message size for an axis: bytes up to 4 KiB in
// powers of two ("1", "4K"), else in KiB or MiB with 3 significant digits.
func bytesLabel(l int64) string {
	const kib, mib = 1 << 10, 1 << 20
	switch {
	case l < kib:
		return strconv.FormatInt(l, 10)
	case l%kib == 0 && l < mib:
		return strconv.FormatInt(l/kib, 10) + "K"
	case l < mib:
		return results.Sig3(float64(l)/kib) + "K"
	case l%mib == 0:
		return strconv.FormatInt(l/mib, 10) + "M"
	}
	return results.Sig3(float64(l)/mib) + "M"
}
