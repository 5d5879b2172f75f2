package fold

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/congestion"
)

// WriteText writes the protocol: the largest CIF, the verdict, the run,
// the canaries' table and the congestors'.
func (p *Folded) WriteText(w io.Writer) error {
	return results.WriteProtocolHead(w, p.head(), &p.Validity, p.writeRun, p.writeCanaries, p.writeCongestors)
}

// head is the protocol's first line.
func (p *Folded) head() string {
	c := p.Largest()
	if c == nil {
		return "congestion: congestors only (no canaries)"
	}
	return fmt.Sprintf("congestion: largest CIF = %s (%s, mean, under %s)", results.Num(c.CIF.Median, 3, 2), c.Canary, loadName(c.Load))
}

// writeRun writes what the run is.
func (p *Folded) writeRun(w io.Writer) {
	cfg := p.Run.Config
	fmt.Fprintf(w, "congestion run %d of %s (from line %d): %d lines\n", p.Run.Index, p.Run.File, p.Run.Line, len(p.Run.Lines))
	t := results.Text{W: w}
	t.Job(&cfg.Common)
	t.Info("processes (N)", fmt.Sprintf("%d on %s", cfg.N, congestion.Count(cfg.Nodes, "node")))
	if !cfg.Plan.Only {
		t.Info("canaries", fmt.Sprintf("%s: %s on %s (split by %s), a random ring", strings.Join(cfg.Plan.Canaries, ", "),
			results.Processes(cfg.CanaryProcs), congestion.Count(cfg.CanaryNodes, "node"), cfg.Split))
	}
	t.Info("congestors", fmt.Sprintf("%s: %s", strings.Join(cfg.Plan.Congestors, ", "), p.sets()))
	t.Info("placement", cfg.Details)
	t.Info("measurements", fmt.Sprintf("%s s each, %d repetitions", results.Seconds(cfg.Plan.Time), cfg.Plan.Reps))
	msgs := fmt.Sprintf("congestors %d B", cfg.Len)
	if !cfg.Plan.Only {
		msgs += fmt.Sprintf(", ring latency and allreduce 8 B, ring bandwidth %d × %d B each way", congestion.BwOutstanding, cfg.BwLen)
	}
	t.Info("messages", msgs)
	t.Info("least load", fmt.Sprintf("%g of a congestor's bandwidth without canaries", cfg.MinLoad))
	t.Info("seed", cfg.Seed)
}

// sets describes the congestor sets.
func (p *Folded) sets() string {
	cfg := p.Run.Config
	if cfg.Plan.Mix == congestion.MixEach {
		return fmt.Sprintf("one at a time on %s on %s", results.Processes(cfg.SetProcs[0]), congestion.Count(cfg.SetNodes[0], "node"))
	}
	var parts []string
	for i, k := range cfg.Plan.Congestors {
		parts = append(parts, fmt.Sprintf("%s %d/%d", k, cfg.SetProcs[i], cfg.SetNodes[i]))
	}
	return "together, processes/nodes " + strings.Join(parts, ", ")
}

// writeCanaries writes per canary and load the values and their CIFs.
func (p *Folded) writeCanaries(w io.Writer) {
	if len(p.Canaries) == 0 {
		return
	}
	fmt.Fprintf(w, "\nCanaries: medians over the repetitions, CIF with its range (above 1: the load hurt)\n")
	t := &results.TextTable{Left: 3}
	t.Add("canary", "under", "unit", "mean alone", "mean loaded", "CIF", "range", "p99 alone", "p99 loaded", "CIF p99", "range")
	for _, c := range p.Canaries {
		load := c.Load
		if load == congestion.LoadCongested {
			load = "all"
		}
		t.Add(c.Canary, load, results.UnitText(c.Unit), num(c.Isolated.Median), num(c.Congested.Median), cif(c.CIF.Median), cifRange(c.CIF),
			num(c.IsolatedP99.Median), num(c.CongestedP99.Median), cif(c.CIFP99.Median), cifRange(c.CIFP99))
	}
	t.Write(w)
}

// writeCongestors writes what each congestor delivered.
func (p *Folded) writeCongestors(w io.Writer) {
	caption, without, with := "without canaries and beside each", "without", "beside"
	if p.Run.Config.Plan.Only {
		caption, without, with = "each alone and all together", "alone", "load"
	}
	fmt.Fprintf(w, "\nCongestors: MB/s their processes received (RMA: put), %s, medians over the repetitions\n", caption)
	t := &results.TextTable{Left: 2}
	t.Add("congestor", "under", "procs", without, with, "share", "range")
	for _, c := range p.Congestors {
		t.Add(c.Congestor, c.Load, strconv.Itoa(c.Procs), num(c.Isolated.Median), num(c.Loaded.Median), cif(c.Share.Median), cifRange(c.Share))
	}
	t.Write(w)
}

func num(v float64) string { return results.Num(v, 4, 1) }
func cif(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
func cifRange(s Spread) string {
	return cif(s.Min) + "–" + cif(s.Max)
}
