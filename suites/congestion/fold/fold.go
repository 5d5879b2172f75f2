package fold

import (
	"fmt"
	"math"
	"slices"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/congestion"
)

// A Run is a congestion run as read.
type Run struct {
	*results.Run
	Config *Config
	byName map[string]*Measurement
}

func runOf(r *results.Run) *Run {
	run := &Run{Run: r, Config: reading{}.Config(r), byName: map[string]*Measurement{}}
	for _, l := range r.Lines {
		run.byName[l.Name] = reading{}.Value(l)
	}
	return run
}

// A Spread is a figure over the repetitions: their median, least and
// largest.
type Spread struct{ Median, Min, Max float64 }

func spreadOf(v []float64) Spread {
	return Spread{results.Median(v), slices.Min(v), slices.Max(v)}
}

// A CanaryResult is a canary under one load against the same canary
// isolated: the means, the 99th percentiles and their Congestion Impact
// Factors (congested over isolated for times, isolated over congested
// for bandwidths: above 1, the load hurt), each over the repetitions.
type CanaryResult struct {
	Canary, Load string
	Unit         string // us or MB/s
	Isolated     Spread
	Congested    Spread
	IsolatedP99  Spread
	CongestedP99 Spread
	CIF, CIFP99  Spread
}

// A CongestorResult is what a congestor delivered under one load (beside
// a canary, or together with the others) against what it delivered
// without canaries (with congestors only: alone): MB/s and their ratio
// per repetition.
type CongestorResult struct {
	Congestor, Load string
	Procs           int
	Isolated        Spread
	Loaded          Spread
	Share           Spread
}

// Folded is a folded congestion run.
type Folded struct {
	results.Validity
	Run        *Run
	Canaries   []CanaryResult
	Congestors []CongestorResult
	// Clock is the run's report of its clocks (nil in a file from
	// before beff measured them).
	Clock *clocks.Report
}

// Source is the run folded.
func (p *Folded) Source() *results.Run { return p.Run.Run }

// Fold checks that the run holds every line of its plan and folds it.
func Fold(r *results.Run) (*Folded, error) {
	run := runOf(r)
	if err := checkLines(run); err != nil {
		return nil, err
	}
	p := &Folded{Run: run}
	if m := run.byName[clocks.ReportName]; m != nil {
		if err := m.Clock.Check(run.Config.N); err != nil {
			return nil, &results.InputError{FileName: run.File, Line: m.Line, Msg: err.Error()}
		}
		p.Clock = m.Clock
	}
	plan := run.Config.Plan
	for _, c := range plan.Canaries {
		for _, l := range plan.Loads() {
			p.Canaries = append(p.Canaries, p.canary(c, l))
		}
	}
	for _, k := range plan.Congestors {
		for _, l := range congestorLoads(plan) {
			p.Congestors = append(p.Congestors, p.congestor(k, l))
		}
	}
	p.judge()
	return p, nil
}

// checkLines refuses a run that lacks a line of its plan or has one
// beyond it.
func checkLines(run *Run) error {
	names := run.Config.Plan.Names()
	planned := make(map[string]bool, len(names))
	var missing []string
	for _, n := range names {
		planned[n] = true
		if run.byName[n] == nil {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return &results.InputError{FileName: run.File, Line: run.Line, Msg: fmt.Sprintf("congestion run %d: incomplete: missing %d of the %d lines its configuration plans: %s",
			run.Index, len(missing), len(names), results.List(missing, 3))}
	}
	if len(run.Lines) != len(names) {
		for _, l := range run.Lines {
			if !planned[l.Name] && !(l.Name == clocks.ReportName && run.byName[l.Name].Line == l.Line) {
				return &results.InputError{FileName: run.File, Line: l.Line, Msg: fmt.Sprintf("%s: not a measurement of this run's configuration", l.Name)}
			}
		}
	}
	return nil
}

// congestorLoads are the loads of the congestor lines: beside each
// canary, or together (congestors only).
func congestorLoads(p congestion.Plan) []string {
	if p.Only {
		if p.Mix == congestion.MixTogether {
			return []string{congestion.LoadTogether}
		}
		return []string{congestion.LoadIsolated} // one at a time: each alone only
	}
	return p.Canaries
}

// canary folds canary c under load l.
func (p *Folded) canary(c, l string) CanaryResult {
	res := CanaryResult{Canary: c, Load: l, Unit: congestion.MetricUs}
	if congestion.Bandwidth(c) {
		res.Unit = congestion.MetricMBps
	}
	var iso, cong, isoP, congP, cif, cifP []float64
	p99 := slices.Index(congestion.Quantiles, 0.99)
	for rep := 1; rep <= p.Run.Config.Plan.Reps; rep++ {
		a := p.Run.byName[congestion.CanaryName(c, congestion.LoadIsolated, rep)]
		b := p.Run.byName[congestion.CanaryName(c, l, rep)]
		iso, cong = append(iso, a.Value), append(cong, b.Value)
		isoP, congP = append(isoP, a.Quantiles[p99]), append(congP, b.Quantiles[p99])
		cif = append(cif, impact(a.Value, b.Value, a.Bandwidth()))
		cifP = append(cifP, impact(a.Quantiles[p99], b.Quantiles[p99], a.Bandwidth()))
	}
	res.Isolated, res.Congested, res.IsolatedP99, res.CongestedP99 = spreadOf(iso), spreadOf(cong), spreadOf(isoP), spreadOf(congP)
	res.CIF, res.CIFP99 = spreadOf(cif), spreadOf(cifP)
	return res
}

// impact is a Congestion Impact Factor: how many times worse the
// congested value is than the isolated one.
func impact(isolated, congested float64, bandwidth bool) float64 {
	if bandwidth {
		return isolated / congested
	}
	return congested / isolated
}

// congestor folds congestor k under load l.
func (p *Folded) congestor(k, l string) CongestorResult {
	res := CongestorResult{Congestor: k, Load: l}
	var iso, ld, share []float64
	for rep := 1; rep <= p.Run.Config.Plan.Reps; rep++ {
		a := p.Run.byName[congestion.CongestorName(k, congestion.LoadIsolated, rep)]
		b := p.Run.byName[congestion.CongestorName(k, l, rep)]
		iso, ld, share = append(iso, a.Value), append(ld, b.Value), append(share, b.Value/a.Value)
		res.Procs = int(b.Procs)
	}
	res.Isolated, res.Loaded, res.Share = spreadOf(iso), spreadOf(ld), spreadOf(share)
	return res
}

// judge gives the verdict: the run is valid for comparing systems when
// it is no short run, not oversubscribed, on at least MinNodes nodes, and
// every congestor delivered its share of what it delivered without
// canaries beside every canary of time (beside the bandwidth canary,
// which loads the network itself, a share below is a note).
func (p *Folded) judge() {
	cfg := p.Run.Config
	if cfg.Nodes < congestion.MinNodes {
		p.Reasons = append(p.Reasons, fmt.Sprintf("%s: congestion needs at least %d nodes (canaries on one at least, congestors on two)",
			"on "+congestion.Count(cfg.Nodes, "node"), congestion.MinNodes))
	}
	for _, c := range p.Congestors {
		switch {
		case !slices.Contains(congestion.CanaryNames, c.Load): // together or alone, congestors only: nothing to judge by
		case congestion.Bandwidth(c.Load):
			if c.Share.Median < cfg.MinLoad {
				p.Notes = append(p.Notes, fmt.Sprintf("beside the %s canary the %s congestor delivered %s of its %s MB/s without it: the canary's messages take their part of the network (not judged)",
					c.Load, c.Congestor, results.Sig3(c.Share.Median), results.Sig3(c.Isolated.Median)))
			}
		case c.Share.Median < cfg.MinLoad:
			p.Reasons = append(p.Reasons, fmt.Sprintf("the %s congestor delivered %s MB/s beside the %s canary, %s of the %s MB/s it delivered without canaries (less than the %g asked): the network was not loaded as meant",
				c.Congestor, results.Sig3(c.Loaded.Median), c.Load, results.Sig3(c.Share.Median), results.Sig3(c.Isolated.Median), cfg.MinLoad))
		}
	}
	if why := p.Run.FileConfig.Oversubscribed(); why != "" {
		p.Reasons = append(p.Reasons, why)
	}
	if p.Clock != nil {
		p.Notes = append(p.Notes, "clocks: "+p.Clock.Summary())
	}
	if cfg.Short() {
		p.Reasons = append(p.Reasons, results.ShortReason)
	}
	if !cfg.Plan.Only && cfg.CanaryNodes == 1 {
		p.Notes = append(p.Notes, "the canaries ran on one node: their rings never left it (a measure of the node, not of the network)")
	}
	if cfg.NoRMA != "" {
		p.Notes = append(p.Notes, cfg.NoRMA)
	}
	if cfg.Plan.Mix == congestion.MixEach && !cfg.Plan.Only {
		p.Notes = append(p.Notes, "the congestors ran one at a time, each on all congestor processes (too few processes to give each its own): a CIF per congestor, none of all together")
	}
}

// loadText says what a congestor ran beside.
func loadText(l string) string {
	switch l {
	case congestion.LoadTogether:
		return "together with the others"
	case congestion.LoadIsolated:
		return "without canaries"
	}
	return "beside the " + l + " canary"
}

// Largest is the canary result with the largest average CIF (nil
// without canaries).
func (p *Folded) Largest() *CanaryResult {
	var out *CanaryResult
	for i := range p.Canaries {
		if c := &p.Canaries[i]; out == nil || c.CIF.Median > out.CIF.Median {
			out = c
		}
	}
	return out
}

// figureName is the name of a canary's figure: cif-rr-lat (all
// congestors together), cif-rr-lat-incast (one at a time).
func (c *CanaryResult) figureName(prefix string) string {
	if c.Load == congestion.LoadCongested {
		return prefix + c.Canary
	}
	return prefix + c.Canary + "-" + c.Load
}

// FigureLargest names the largest mean CIF of a run.
const FigureLargest = "cif-largest"

// Figures are the largest mean CIF, per canary and load the CIFs and
// both values, and per congestor and load what it delivered.
func (p *Folded) Figures() []results.Figure {
	var out []results.Figure
	if c := p.Largest(); c != nil {
		out = append(out, results.Figure{Name: FigureLargest, Label: "largest CIF (mean): " + c.Canary + " under " + loadName(c.Load), Value: c.CIF.Median, Unit: congestion.UnitCIF})
	}
	for _, c := range p.Canaries {
		under := "under " + loadName(c.Load)
		out = append(out,
			results.Figure{Name: c.figureName("cif-"), Label: "CIF of " + c.Canary + " (mean) " + under, Value: c.CIF.Median, Unit: congestion.UnitCIF},
			results.Figure{Name: c.figureName("cif-p99-"), Label: "CIF of " + c.Canary + " (99th percentile) " + under, Value: c.CIFP99.Median, Unit: congestion.UnitCIF},
			results.Figure{Name: c.Canary + "-isolated", Label: c.Canary + " isolated", Value: c.Isolated.Median, Unit: c.Unit},
			results.Figure{Name: c.figureName("") + "-" + loadSuffix(c.Load), Label: c.Canary + " " + under, Value: c.Congested.Median, Unit: c.Unit})
	}
	for _, c := range p.Congestors {
		out = append(out, results.Figure{Name: c.Congestor + "-isolated", Label: c.Congestor + " without canaries", Value: c.Isolated.Median, Unit: congestion.MetricMBps},
			results.Figure{Name: c.Congestor + "-" + c.Load, Label: c.Congestor + " " + loadText(c.Load), Value: c.Loaded.Median, Unit: congestion.MetricMBps})
	}
	return dedupe(out)
}

// loadSuffix ends the name of a canary's congested value.
func loadSuffix(l string) string {
	if l == congestion.LoadCongested {
		return l
	}
	return "loaded"
}

// loadName says what a canary ran under.
func loadName(l string) string {
	if l == congestion.LoadCongested {
		return "all congestors"
	}
	return "the " + l + " congestor"
}

// dedupe drops a figure whose name came before (a canary's isolated
// value, once per load).
func dedupe(f []results.Figure) []results.Figure {
	seen := map[string]bool{}
	var out []results.Figure
	for _, x := range f {
		if !seen[x.Name] && !math.IsNaN(x.Value) {
			seen[x.Name] = true
			out = append(out, x)
		}
	}
	return out
}
