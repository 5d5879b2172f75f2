package fold

import (
	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/results"
)

// JSONCongestion is what a congestion run adds to its JSON object, under
// "congestion" (docs/fold-json.md).
type JSONCongestion struct {
	Mode  string `json:"mode"`  // canaries or congestors-only
	Mix   string `json:"mix"`   // together or each
	Split string `json:"split"` // nodes, procs or list ("" with congestors only)
	Nodes int    `json:"nodes"`
	// CanaryProcs and CanaryNodes are the processes and nodes of the
	// canaries; SetProcs and SetNodes those of each congestor set.
	CanaryProcs int   `json:"canary_procs"`
	CanaryNodes int   `json:"canary_nodes"`
	SetProcs    []int `json:"set_procs"`
	SetNodes    []int `json:"set_nodes"`
	// Canaries has one entry per canary and load, Congestors one per
	// congestor and load.
	Canaries   []JSONCanary    `json:"canaries"`
	Congestors []JSONCongestor `json:"congestors"`
	// Clocks is the run's report of its clocks (absent in a file from
	// before beff measured them).
	Clocks *clocks.JSON `json:"clocks,omitempty"`
}

// A JSONSpread is a figure over the repetitions.
type JSONSpread struct {
	Median results.Float `json:"median"`
	Min    results.Float `json:"min"`
	Max    results.Float `json:"max"`
}

func jsonSpread(s Spread) JSONSpread {
	return JSONSpread{results.OrNull(s.Median), results.OrNull(s.Min), results.OrNull(s.Max)}
}

// A JSONCanary is a canary under one load.
type JSONCanary struct {
	Canary       string     `json:"canary"`
	Load         string     `json:"load"` // congested (all congestors) or one congestor
	Unit         string     `json:"unit"` // us or MB/s
	Isolated     JSONSpread `json:"isolated"`
	Congested    JSONSpread `json:"congested"`
	IsolatedP99  JSONSpread `json:"isolated_p99"`
	CongestedP99 JSONSpread `json:"congested_p99"`
	CIF          JSONSpread `json:"cif"`
	CIFP99       JSONSpread `json:"cif_p99"`
}

// A JSONCongestor is what a congestor delivered under one load.
type JSONCongestor struct {
	Congestor    string     `json:"congestor"`
	Load         string     `json:"load"` // a canary, together or isolated
	Procs        int        `json:"procs"`
	IsolatedMBps JSONSpread `json:"isolated_mbps"`
	LoadedMBps   JSONSpread `json:"loaded_mbps"`
	Share        JSONSpread `json:"share"`
}

// JSONDetail is the run's JSONCongestion.
func (p *Folded) JSONDetail() any {
	cfg := p.Run.Config
	mode := "canaries"
	if cfg.Plan.Only {
		mode = "congestors-only"
	}
	out := JSONCongestion{Mode: mode, Mix: cfg.Plan.Mix, Split: cfg.Split, Nodes: cfg.Nodes, CanaryProcs: cfg.CanaryProcs,
		CanaryNodes: cfg.CanaryNodes, SetProcs: cfg.SetProcs, SetNodes: cfg.SetNodes,
		Canaries: []JSONCanary{}, Congestors: []JSONCongestor{}, Clocks: p.Clock.JSON()}
	for _, c := range p.Canaries {
		out.Canaries = append(out.Canaries, JSONCanary{c.Canary, c.Load, c.Unit, jsonSpread(c.Isolated), jsonSpread(c.Congested),
			jsonSpread(c.IsolatedP99), jsonSpread(c.CongestedP99), jsonSpread(c.CIF), jsonSpread(c.CIFP99)})
	}
	for _, c := range p.Congestors {
		out.Congestors = append(out.Congestors, JSONCongestor{c.Congestor, c.Load, c.Procs, jsonSpread(c.Isolated), jsonSpread(c.Loaded), jsonSpread(c.Share)})
	}
	return out
}
