package fold

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// Folded is a folded SKaMPI run.
type Folded struct {
	results.Validity
	Run    *results.Run
	Config *Config
	// Sources are the runs a merged run merges (nil for one run).
	Sources []*results.Run
	// Curves are the tables of the suites' operations, in the order of
	// the run.
	Curves []*Curve
	// NotConverged are the points that stopped at the repetition maximum
	// or the time budget before their error fell below ε; NoValue those
	// without a single valid repetition.
	NotConverged, NoValue []*Measurement
	// Clock is the run's report of its clocks (nil: the run has none, a
	// global clock or a file from before beff measured them); ClockMiss
	// the window-synchronised points whose margin its error exceeded.
	Clock     *clocks.Report
	ClockMiss []*Measurement
	// Headline figures, 0 when not measured: the 1-byte (shortest)
	// MPI_Send/MPI_Recv half round trip and the bandwidth at the longest
	// message on the slowest pair, and MPI_Barrier on all processes.
	LatencyUs, LatencyLen float64
	BandwidthMBps         float64
	BandwidthLen          float64
	BarrierUs             float64
}

// A Curve is one operation of a suite: its points in increasing order
// of the varied parameter (a refined curve is measured out of order).
type Curve struct {
	Suite  *skampi.Setup
	Op     skampi.Op
	Method string // a typed suite's method (skampi.MethodNames), or ""
	Rows   []*Measurement
	// Added counts the points refinement added to the grid.
	Added int
}

// Fold folds a run: it must have at least one point, and every point a
// suite of the configuration.
func Fold(r *results.Run) (*Folded, error) {
	if len(r.Lines) == 0 {
		return nil, errors.New("no SKaMPI points")
	}
	p := &Folded{Run: r, Config: reading{}.Config(r)}
	byKey := map[string]*Curve{}
	for _, l := range r.Lines {
		m := reading{}.Value(l)
		if m.Clock != nil {
			if p.Clock != nil {
				return nil, &results.InputError{FileName: r.File, Line: m.Line, Msg: "a second " + clocks.ReportName + " line in one run; not written by beff, or edited"}
			}
			if err := m.Clock.Check(p.Config.N); err != nil {
				return nil, &results.InputError{FileName: r.File, Line: m.Line, Msg: err.Error()}
			}
			p.Clock = m.Clock
			continue
		}
		su := p.Config.Suites[m.Suite]
		if su == nil {
			return nil, fmt.Errorf("line %d: %s: no configuration line %s%s", m.Line, m.Name, skampi.KeySuite, m.Suite)
		}
		if err := m.checkRule(su); m.Runs <= 1 && err != nil { // a merged point's counts are medians
			return nil, &results.InputError{FileName: r.File, Line: m.Line, Msg: m.Name + ": " + err.Error()}
		}
		key := skampi.CurveKey(m.Suite, skampi.Ops[m.Op].Name, m.Method)
		c := byKey[key]
		if c == nil {
			c = &Curve{Suite: su, Op: skampi.Ops[m.Op], Method: m.Method}
			byKey[key] = c
			p.Curves = append(p.Curves, c)
		}
		c.Rows = append(c.Rows, m)
		p.classify(m)
	}
	if miss := p.missing(); len(miss) > 0 {
		return nil, &results.InputError{FileName: r.File, Line: r.Line, Msg: fmt.Sprintf("SKaMPI run %d: incomplete: missing %d of the %d points its suites plan: %s",
			r.Index, len(miss), p.planned(), results.List(miss, 5))}
	}
	for _, c := range p.Curves {
		c.order()
	}
	p.judgeClocks()
	p.ratios()
	p.headline()
	p.verdict()
	return p, nil
}

// planCurves are the curves the run's suites plan, in the order of the
// suites' names and their operations, without the one-sided suites whose
// window the job could not make (skampi-rma-windows).
func (p *Folded) planCurves() []skampi.Curve {
	var out []skampi.Curve
	for _, name := range slices.Sorted(maps.Keys(p.Config.Suites)) {
		su := p.Config.Suites[name]
		for _, c := range su.Curves() {
			if !(skampi.Ops[c.Op].RMA() && p.Config.noWindow(su.Window)) {
				out = append(out, c)
			}
		}
	}
	return out
}

// planned counts the points of the plan before refinement.
func (p *Folded) planned() int {
	n := 0
	for _, c := range p.planCurves() {
		n += len(c.Grid())
	}
	return n
}

// missing names the points of the plan (every grid point of every planned
// curve; refinement adds others) that the run has no line of: a run cut
// short, killed or edited.
func (p *Folded) missing() []string {
	have := make(map[string]bool, len(p.Run.Lines))
	for _, l := range p.Run.Lines {
		have[reading{}.Value(l).Point.Name()] = true
	}
	var out []string
	for _, c := range p.planCurves() {
		for _, pt := range c.Grid() {
			if n := pt.Name(); !have[n] {
				out = append(out, n)
			}
		}
	}
	return out
}

// OSU names the OSU micro-benchmark that measures what the curve does
// (one-sided operations under the suite's synchronisation), or "".
func (c *Curve) OSU() string {
	if !strings.Contains(c.Op.OSU, "%s") {
		return c.Op.OSU
	}
	if c.Suite.RMASync == "" {
		return ""
	}
	return fmt.Sprintf(c.Op.OSU, skampi.OSUSync[c.Suite.RMASync])
}

// ratios sets every typed point's time over the contiguous method's at
// the same parameters.
func (p *Folded) ratios() {
	contig := map[skampi.Point]*Measurement{}
	for _, c := range p.Curves {
		if c.Method == skampi.MethodContig {
			for _, m := range c.Rows {
				contig[m.Point.WithMethod("")] = m
			}
		}
	}
	for _, c := range p.Curves {
		for _, m := range c.Rows {
			if ref := contig[m.Point.WithMethod("")]; c.Method != "" && ref != nil && m.Has && ref.Has && ref.Us > 0 {
				m.Contig = m.Us / ref.Us
			}
		}
	}
	p.ofRatios()
}

// ofRatios sets every non-blocking or persistent form's time over its
// blocking operation's at the same point of the same suite.
func (p *Folded) ofRatios() {
	byPoint := map[skampi.Point]*Measurement{}
	for _, c := range p.Curves {
		for _, m := range c.Rows {
			byPoint[m.Point] = m
		}
	}
	for _, c := range p.Curves {
		if c.Op.Of == "" {
			continue
		}
		for _, m := range c.Rows {
			pt := m.Point
			pt.Op = skampi.OpIndex(c.Op.Of)
			if ref := byPoint[pt]; ref != nil && m.Has && ref.Has && ref.Us > 0 {
				m.OfRatio = m.Us / ref.Us
			}
		}
	}
}

// BySuite groups the curves by suite, the suites in the order the run
// reached them.
func (p *Folded) BySuite() [][]*Curve {
	var out [][]*Curve
	index := map[string]int{}
	for _, c := range p.Curves {
		i, ok := index[c.Suite.Name]
		if !ok {
			i = len(out)
			index[c.Suite.Name] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], c)
	}
	return out
}

// order sorts the rows by the varied parameter and marks the lengths
// that refinement added to the grid.
func (c *Curve) order() {
	sort.SliceStable(c.Rows, func(i, j int) bool {
		a, b := c.Rows[i], c.Rows[j]
		if a.Procs != b.Procs {
			return a.Procs < b.Procs
		}
		if a.Chunks != b.Chunks {
			return a.Chunks < b.Chunks
		}
		return a.Len < b.Len
	})
	if !c.Suite.Refine || c.Suite.Vary != skampi.VaryLength {
		return
	}
	grid := map[int64]bool{}
	for _, l := range c.Suite.Lengths.Lengths(skampi.Curve{Suite: c.Suite, Op: skampi.OpIndex(c.Op.Name), Method: c.Method}.Elem()) {
		grid[l] = true
	}
	for _, m := range c.Rows {
		if m.Refined = !grid[m.Len]; m.Refined {
			c.Added++
		}
	}
}

func (p *Folded) classify(m *Measurement) {
	switch {
	case !m.Has:
		p.NoValue = append(p.NoValue, m)
	case !m.Converged():
		p.NotConverged = append(p.NotConverged, m)
	}
}

// Points counts the run's points (its lines but the clocks').
func (p *Folded) Points() int {
	if p.Clock != nil {
		return len(p.Run.Lines) - 1
	}
	return len(p.Run.Lines)
}

// judgeClocks marks the window-synchronised points with a value whose
// margin the clocks' error over the run exceeded.
func (p *Folded) judgeClocks() {
	for _, c := range p.Curves {
		for _, m := range c.Rows {
			if m.WindowUs <= 0 || !m.Has {
				continue
			}
			if m.ClockMiss = p.Clock.Judge(m.Margin() / 1e6); m.ClockMiss != "" {
				p.ClockMiss = append(p.ClockMiss, m)
			}
		}
	}
}

// headline picks the headline figures from the tables.
func (p *Folded) headline() {
	for _, t := range p.Curves {
		for _, m := range t.Rows {
			switch {
			case !m.Has || t.Method != "": // the headline is of bytes
			case t.Op.Name == "send-recv" && m.Pair == skampi.PairMax:
				if p.LatencyUs == 0 || float64(m.Len) < p.LatencyLen {
					p.LatencyUs, p.LatencyLen = m.Us, float64(m.Len)
				}
				if float64(m.Len) >= p.BandwidthLen && m.MBps > 0 {
					p.BandwidthMBps, p.BandwidthLen = m.MBps, float64(m.Len)
				}
			case t.Op.Name == "barrier" && m.Procs == p.Config.N:
				p.BarrierUs = m.Us
			}
		}
	}
}

// verdict sets the validity: a short or oversubscribed run, or one with
// points without a value, is NOT VALID; points that did not reach ε are
// noted and listed.
func (p *Folded) verdict() {
	if p.Config.Short() {
		p.Reasons = append(p.Reasons, results.ShortReason)
	}
	if p.Config.Oversub != "" {
		p.Reasons = append(p.Reasons, p.Config.Oversub)
	}
	if n := len(p.NoValue); n > 0 {
		p.Reasons = append(p.Reasons, fmt.Sprintf("%d point%s without a valid repetition", n, results.Plural(n)))
	}
	if p.Config.RMA != "" {
		p.Reasons = append(p.Reasons, "one-sided suites "+p.Config.RMA)
	}
	if n := len(p.ClockMiss); n > 0 {
		p.Reasons = append(p.Reasons, fmt.Sprintf("%d point%s whose window left less room than the clocks' model was off by over the run (%.3f µs; listed below)",
			n, results.Plural(n), p.Clock.Err*1e6))
	}
	if p.Clock != nil {
		p.Notes = append(p.Notes, "clocks: "+p.Clock.Summary())
	}
	if n := len(p.NotConverged); n > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d of %d point%s did not reach their suite's ε (listed below; their error is in the rse column)",
			n, p.Points(), results.Plural(p.Points())))
	}
	if b := p.barrierSuites(); len(b) > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("suite%s %s: repetitions started after MPI_Barrier: collective times include the barrier's exit skew",
			results.Plural(len(b)), strings.Join(b, ", ")))
	}
	if p.Config.Resumed != "" {
		p.Notes = append(p.Notes, "resumed: "+p.Config.Resumed+"; those points were measured by the earlier job")
	}
}

// barrierSuites names the suites with points that started repetitions
// after a barrier.
func (p *Folded) barrierSuites() []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range p.Curves {
		if n := c.Suite.Name; c.Suite.Sync == skampi.SyncBarrier && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// Source is the run p was folded from.
func (p *Folded) Source() *results.Run { return p.Run }

// Figures are the headline figures that were measured.
func (p *Folded) Figures() []results.Figure {
	var out []results.Figure
	if p.LatencyUs > 0 {
		out = append(out, results.Figure{Name: "latency", Label: fmt.Sprintf("MPI_Send/MPI_Recv half round trip, %s, slowest pair", bytesText(p.LatencyLen)), Value: p.LatencyUs, Unit: "us"})
	}
	if p.BandwidthMBps > 0 {
		out = append(out, results.Figure{Name: "bandwidth", Label: fmt.Sprintf("MPI_Send/MPI_Recv ping-pong bandwidth, %s, slowest pair", bytesText(p.BandwidthLen)), Value: p.BandwidthMBps, Unit: "MB/s"})
	}
	if p.BarrierUs > 0 {
		out = append(out, results.Figure{Name: "barrier", Label: "MPI_Barrier on " + results.Processes(p.Config.N), Value: p.BarrierUs, Unit: "us"})
	}
	return out
}

func errName(full, want string) error {
	return fmt.Errorf("sub-benchmark %s: the parts are not in the order the suite writes them (%s)", full, want)
}

// bytesText is "1 byte" or "<n> bytes".
func bytesText(n float64) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", int64(n))
}
