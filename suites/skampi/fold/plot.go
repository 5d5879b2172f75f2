package fold

import (
	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/suites/skampi"
)

// PlotData is what the plots of one SKaMPI run need (site/plot.js draws
// them): per suite its curves over the varied parameter.
type PlotData struct {
	Suites []PlotSuite `json:"suites"`
}

// A PlotSuite is one suite: one plot on a run page.
type PlotSuite struct {
	Name string `json:"name"`
	// Vary is the parameter of the x axis: length, procs, chunks, or
	// none (one point per operation: a bar per operation).
	Vary   string      `json:"vary"`
	Pair   string      `json:"pair,omitempty"` // ping-pong: max or min
	Text   string      `json:"text"`           // the suite in one line, as in the protocol
	Curves []PlotCurve `json:"curves"`
	// Groups are the groups of collectives of a suite of more curves than
	// one plot takes (skampi.MaxPlotCurves): plot.js draws a plot per
	// group, each curve in its Group; none: one plot.
	Groups []string `json:"groups,omitempty"`
}

// A PlotCurve is one operation of a suite, its points in increasing order
// of the varied parameter.
type PlotCurve struct {
	Op      string `json:"op"`
	Pattern string `json:"pattern"`
	Call    string `json:"call"`
	// Ref is the library operation a hand-built reference stands for
	// ("" for a library operation): plot.js draws the two alike.
	Ref string `json:"ref,omitempty"`
	// Group is the curve's group of collectives (skampi.GroupOf), where
	// its suite is drawn a plot per group.
	Group string `json:"group,omitempty"`
	// Method is a typed suite's method: plot.js names and colours the
	// curves by it and draws their ratio to contiguous.
	Method string `json:"method,omitempty"`
	// Ratio is a typed point's time over the contiguous method's.
	Ratio []report.PlotNum `json:"ratio,omitempty"`
	// OSU is the OSU micro-benchmark that measures the same (one-sided
	// operations with the suite's synchronisation, the families): a
	// legend's note.
	OSU string `json:"osu,omitempty"`
	// Of is a non-blocking or persistent form's blocking operation:
	// plot.js draws the two in one colour, and the form's OfRatio (its
	// time over the blocking one's at the same point of the suite).
	Of      string           `json:"of,omitempty"`
	OfRatio []report.PlotNum `json:"ofratio,omitempty"`
	// Overlap is a non-blocking collective's overlap in percent (IMB-NBC),
	// Ovrl its time with the computation between start and wait (µs).
	Overlap []report.PlotNum `json:"overlap,omitempty"`
	Ovrl    []report.PlotNum `json:"ovrl,omitempty"`
	// X is the varied parameter of each point (bytes, processes or work
	// items; 0 for a suite that varies nothing).
	X []int64 `json:"x"`
	// Us is the point's time (cut-quantile mean, µs; null: no valid
	// repetition), RSE its relative standard error.
	Us  []report.PlotNum `json:"us"`
	RSE []report.PlotNum `json:"rse"`
	// Refined marks the lengths refinement added to the grid, Converged
	// the points that reached their ε.
	Refined   []bool `json:"refined"`
	Converged []bool `json:"converged"`
	// Lo and Hi are the fastest and the slowest process's mean time of a
	// collective (the stragglers band); absent for the other patterns.
	Lo []report.PlotNum `json:"lo,omitempty"`
	Hi []report.PlotNum `json:"hi,omitempty"`
	// MBps is a ping-pong's bandwidth (null without a length).
	MBps []report.PlotNum `json:"mbps,omitempty"`
}

// newPlotData gathers the curves of p by suite, in the order of the run.
func newPlotData(p *Folded) *PlotData {
	d := &PlotData{Suites: []PlotSuite{}}
	for _, curves := range p.BySuite() {
		su := curves[0].Suite
		ps := PlotSuite{Name: su.Name, Vary: su.Vary.String(), Text: suiteText(su)}
		for _, c := range curves {
			if c.Op.OnPair() {
				ps.Pair = su.Pair
			}
			ps.Curves = append(ps.Curves, plotCurve(c))
		}
		ps.group(curves)
		d.Suites = append(d.Suites, ps)
	}
	return d
}

// group splits a suite of more curves than a plot takes into its groups
// of collectives, when every curve has one and they are more than one.
func (ps *PlotSuite) group(curves []*Curve) {
	if len(curves) <= skampi.MaxPlotCurves {
		return
	}
	has := map[string]bool{}
	for _, c := range curves {
		g := skampi.GroupOf(c.Op)
		if g == "" {
			return
		}
		has[g] = true
	}
	if len(has) < 2 {
		return
	}
	for _, g := range skampi.PlotGroups {
		if has[g] {
			ps.Groups = append(ps.Groups, g)
		}
	}
	for i, c := range curves {
		ps.Curves[i].Group = skampi.GroupOf(c.Op)
	}
}

func plotCurve(c *Curve) PlotCurve {
	pc := PlotCurve{Op: c.Op.Name, Pattern: c.Op.Pattern.String(), Call: c.Op.Call, Ref: c.Op.Ref, Method: c.Method, OSU: c.OSU(), Of: c.Op.Of}
	num := func(v float64, ok bool) report.PlotNum {
		if !ok {
			return report.Missing
		}
		return report.PlotNum(v)
	}
	for _, m := range c.Rows {
		pc.X = append(pc.X, varied(c.Suite.Vary, m))
		pc.Us = append(pc.Us, num(m.Us, m.Has))
		pc.RSE = append(pc.RSE, num(m.RSE, m.HasRSE))
		pc.Refined = append(pc.Refined, m.Refined)
		pc.Converged = append(pc.Converged, m.Converged())
		if c.Method != "" {
			pc.Ratio = append(pc.Ratio, num(m.Contig, m.Contig > 0))
		}
		if c.Op.Of != "" {
			pc.OfRatio = append(pc.OfRatio, num(m.OfRatio, m.OfRatio > 0))
		}
		if c.Op.NonBlocking() {
			pc.Overlap = append(pc.Overlap, num(m.OverlapPct, m.HasOvrl))
			pc.Ovrl = append(pc.Ovrl, num(m.OvrlUs, m.HasOvrl))
		}
		switch c.Op.Pattern {
		case skampi.Collective:
			pc.Lo = append(pc.Lo, num(m.RankMin, m.Has))
			pc.Hi = append(pc.Hi, num(m.RankMax, m.Has))
		case skampi.PingPong, skampi.OneSided:
			pc.MBps = append(pc.MBps, num(m.MBps, m.MBps > 0))
		}
	}
	return pc
}

// varied is the value of m's varied parameter.
func varied(v skampi.Vary, m *Measurement) int64 {
	switch v {
	case skampi.VaryLength:
		return m.Len
	case skampi.VaryProcs:
		return int64(m.Procs)
	case skampi.VaryChunks:
		return int64(m.Chunks)
	}
	return 0
}
