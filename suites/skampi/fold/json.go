package fold

import (
	"math"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// JSONSkampi is what a SKaMPI run adds to its JSON object, under "skampi"
// (docs/fold-json.md).
type JSONSkampi struct {
	File string `json:"suite_file"` // the suite file: its name and SHA-256, or "default"
	// MergedFrom names the runs of a merged run ("file run i").
	MergedFrom []string `json:"merged_from,omitempty"`
	Resumed    string   `json:"resumed,omitempty"`
	Clock      string   `json:"clock"`
	// PairMax and PairMin are "a b host-a host-b rtt-us" of the slowest
	// and the fastest pair ("" on one process).
	PairMax string `json:"pair_max"`
	PairMin string `json:"pair_min"`
	// PairSearch is the rounds of disjoint pairs the search measured:
	// "all N rounds", or a sample with its seed.
	PairSearch string `json:"pair_search,omitempty"`
	// Suites are the run's suites by name.
	Suites []JSONSuite `json:"suites"`
	// Curves are the suites' operations in run order.
	Curves []JSONCurve `json:"curves"`
	// NotConverged names the points that did not reach ε (with or without
	// a value).
	NotConverged []string `json:"not_converged"`
	// Clocks is the run's report of its clocks (absent: none, a global
	// clock); ClockMiss names the points whose window's margin the error
	// exceeded (NOT VALID).
	Clocks    *clocks.JSON `json:"clocks,omitempty"`
	ClockMiss []string     `json:"clock_miss"`
}

// A JSONSuite is one suite: the fields of its configuration line.
type JSONSuite struct {
	Name        string   `json:"name"`
	Ops         []string `json:"ops"`
	Vary        string   `json:"vary"` // length, procs, chunks or none
	FromBytes   int64    `json:"from_bytes"`
	ToBytes     int64    `json:"to_bytes"`
	Step        float64  `json:"step"`
	Refine      bool     `json:"refine"`
	Points      int      `json:"points"` // most lengths of a refined curve, 0: twice the grid
	LengthBytes int64    `json:"length_bytes"`
	Procs       []int    `json:"procs"`
	Chunks      []int    `json:"chunks"`
	Pair        string   `json:"pair"`
	Eps         float64  `json:"eps"`
	MinReps     int      `json:"min_reps"`
	MaxReps     int      `json:"max_reps"`
	BudgetS     float64  `json:"budget_s"`
	TimeS       float64  `json:"time_s"`
	Sync        string   `json:"sync"`
	Cache       string   `json:"cache"`
	Warmup      int      `json:"warmup"`
	// A typed suite's datatypes (canonical descriptions), its methods and
	// its layouts (the configuration line: per side size, extent, true
	// extent and runs of one instance; a point's payload is len_bytes).
	SendType string   `json:"send_type,omitempty"`
	RecvType string   `json:"recv_type,omitempty"`
	Methods  []string `json:"methods,omitempty"`
	Layouts  string   `json:"layouts,omitempty"`
	// A suite of one-sided operations: their synchronisation, how the
	// window is made and the assertions passed.
	RMASync string `json:"rma_sync,omitempty"`
	Window  string `json:"rma_window,omitempty"`
	Assert  string `json:"rma_assert,omitempty"`
	// A suite of neighborhood collectives: its topology, and per process
	// count its grid and neighbors (the configuration line).
	Topology string `json:"topology,omitempty"`
	Grids    string `json:"topology_grids,omitempty"`
}

// A JSONCurve is one operation of a suite: its points in increasing
// order of the varied parameter.
type JSONCurve struct {
	Suite   string      `json:"suite"`
	Op      string      `json:"op"`
	Pattern string      `json:"pattern"`
	Call    string      `json:"call"`
	Ref     string      `json:"reference_of,omitempty"` // the library operation a hand-built one stands for
	Family  string      `json:"family,omitempty"`       // nonblocking or persistent
	Of      string      `json:"form_of,omitempty"`      // a family's: the blocking operation of the same exchange
	Method  string      `json:"method,omitempty"`       // a typed suite's: datatype, pack, manual or contiguous
	OSU     string      `json:"osu,omitempty"`          // the OSU benchmark that measures the same
	Added   int         `json:"refined_added"`          // lengths refinement added to the grid
	Points  []JSONPoint `json:"points"`
}

// A JSONPoint is one point: its parameters and summary (times in µs, null
// when the point has no valid repetition).
type JSONPoint struct {
	Name      string          `json:"name"`    // the sub-benchmark name
	Refined   bool            `json:"refined"` // a length refinement added
	Pair      string          `json:"pair,omitempty"`
	Procs     int             `json:"procs"`
	Chunks    int             `json:"chunks,omitempty"`
	LenBytes  int64           `json:"len_bytes"`
	Us        results.Float   `json:"us"` // cut-quantile mean
	MedianUs  results.Float   `json:"median_us"`
	MinUs     results.Float   `json:"min_us"`
	P90Us     results.Float   `json:"p90_us"`
	P99Us     results.Float   `json:"p99_us"`
	RSE       results.Float   `json:"rse"` // null with fewer than two repetitions
	N         int             `json:"n"`
	Invalid   int             `json:"invalid"`
	Calls     int             `json:"calls"`
	Converged bool            `json:"converged"`
	WindowUs  results.Float   `json:"window_us"`         // null in barrier mode
	RankUs    []results.Float `json:"rank_us,omitempty"` // collectives: min, median, max of the per-process means
	MBps      results.Float   `json:"mbps,omitempty"`
	// Contig is a typed point's time over the contiguous method's.
	Contig results.Float `json:"ratio_to_contiguous,omitempty"`
	// A non-blocking collective with the computation between start and
	// wait: the time of a call, its RSE, the computation's time, the rest
	// and the overlap (IMB-NBC's definition), all absent otherwise.
	OvrlUs     *results.Float `json:"ovrl_us,omitempty"`
	OvrlRSE    *results.Float `json:"ovrl_rse,omitempty"`
	CPUUs      *results.Float `json:"cpu_us,omitempty"`
	InMPIUs    *results.Float `json:"mpi_us,omitempty"`
	OverlapPct *results.Float `json:"overlap_pct,omitempty"`
	// InitUs is a persistent operation's time to make its requests.
	InitUs results.Float `json:"init_us,omitempty"`
	// Threads marked a partitioned message's partitions ready.
	Threads int `json:"threads,omitempty"`
	// OfRatio is a form's time over its blocking operation's in the suite.
	OfRatio results.Float `json:"ratio_to_blocking,omitempty"`
	// A merged run's point: the runs merged and the fastest and the
	// slowest run's us.
	Runs  int             `json:"runs,omitempty"`
	RunUs []results.Float `json:"run_us,omitempty"`
}

// JSONDetail is the run's SKaMPI detail.
func (p *Folded) JSONDetail() any {
	c := p.Config
	d := JSONSkampi{File: c.File, Resumed: c.Resumed, Clock: c.Clock, PairMax: c.PairMax, PairMin: c.PairMin, PairSearch: c.PairSearch,
		Suites: []JSONSuite{}, Curves: []JSONCurve{}, NotConverged: []string{}, Clocks: p.Clock.JSON(), ClockMiss: []string{}}
	for _, m := range p.ClockMiss {
		d.ClockMiss = append(d.ClockMiss, m.Name)
	}
	for _, n := range c.SuiteNames() {
		js := jsonSuite(c.Suites[n])
		js.Layouts = c.Types[n]
		if top := c.Topos[n]; top != "" {
			js.Topology, js.Grids = c.Suites[n].Topology, top
		}
		d.Suites = append(d.Suites, js)
	}
	if p.Sources != nil {
		d.MergedFrom = sourceNames(p.Sources)
	}
	for _, t := range p.Curves {
		cv := JSONCurve{Suite: t.Suite.Name, Op: t.Op.Name, Pattern: t.Op.Pattern.String(), Call: t.Op.Call, Ref: t.Op.Ref,
			Family: t.Op.Family, Of: t.Op.Of, Method: t.Method, OSU: t.OSU(), Added: t.Added}
		for _, m := range t.Rows {
			cv.Points = append(cv.Points, jsonPoint(t.Op, m))
		}
		d.Curves = append(d.Curves, cv)
	}
	for _, m := range append(append([]*Measurement(nil), p.NoValue...), p.NotConverged...) {
		d.NotConverged = append(d.NotConverged, m.Name)
	}
	return d
}

func jsonSuite(s *skampi.Setup) JSONSuite {
	ops := make([]string, len(s.Ops))
	for i, op := range s.Ops {
		ops[i] = skampi.Ops[op].Name
	}
	js := JSONSuite{Name: s.Name, Ops: ops, Vary: s.Vary.String(), FromBytes: s.Lengths.From, ToBytes: s.Lengths.To,
		Step: s.Lengths.Step, Refine: s.Refine, Points: s.Points, LengthBytes: s.Len, Procs: s.Procs, Chunks: s.Chunks,
		Pair: s.Pair, Eps: s.Rule.Eps, MinReps: s.Rule.Min, MaxReps: s.Rule.Max, BudgetS: s.Rule.Budget, TimeS: s.Time,
		Sync: s.Sync, Cache: s.Cache, Warmup: s.Warmup}
	if hasRMA(s) {
		js.RMASync, js.Window, js.Assert = s.RMASync, s.Window, s.Assert
	}
	if s.Typed() {
		js.SendType, js.RecvType, js.Methods = s.SendType.String(), s.SendType.String(), s.Methods
		if s.RecvType != nil {
			js.RecvType = s.RecvType.String()
		}
	}
	return js
}

func jsonPoint(o skampi.Op, m *Measurement) JSONPoint {
	v := func(x float64, ok bool) results.Float {
		if !ok {
			return results.Float(math.NaN())
		}
		return results.Float(x)
	}
	jp := JSONPoint{Name: m.Name, Refined: m.Refined, Pair: m.Pair, Procs: m.Procs, Chunks: m.Chunks, LenBytes: m.Len,
		Us: v(m.Us, m.Has), MedianUs: v(m.Median, m.Has), MinUs: v(m.Min, m.Has), P90Us: v(m.P90, m.Has),
		P99Us: v(m.P99, m.Has), RSE: v(m.RSE, m.HasRSE), N: m.N, Invalid: m.Invalid, Calls: m.Calls,
		Converged: m.Converged(), WindowUs: v(m.WindowUs, m.WindowUs > 0)}
	if o.Pattern == skampi.Collective && m.Has {
		jp.RankUs = []results.Float{results.Float(m.RankMin), results.Float(m.RankMed), results.Float(m.RankMax)}
	}
	if o.OnPair() && m.MBps > 0 {
		jp.MBps = results.Float(m.MBps)
	}
	if m.Contig > 0 {
		jp.Contig = results.Float(m.Contig)
	}
	if m.HasOvrl {
		f := func(x float64) *results.Float { v := results.Float(x); return &v }
		jp.OvrlUs, jp.CPUUs, jp.InMPIUs, jp.OverlapPct = f(m.OvrlUs), f(m.CPUUs), f(m.InMPIUs), f(m.OverlapPct)
		if m.HasOvrlRSE {
			jp.OvrlRSE = f(m.OvrlRSE)
		}
	}
	jp.InitUs, jp.OfRatio, jp.Threads = results.Float(m.InitUs), results.Float(m.OfRatio), m.Threads
	if m.Runs > 0 {
		jp.Runs = m.Runs
		if m.Has {
			jp.RunUs = []results.Float{results.Float(m.RunMin), results.Float(m.RunMax)}
		}
	}
	return jp
}
