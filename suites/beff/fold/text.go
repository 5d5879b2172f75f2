package fold

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// WriteText writes the protocol for people. The first line is "b_eff =
// <value> MB/s", the second "VALID" or "NOT VALID: <reason>; …"; then come
// the run, the figures of docs/beff.md "What a run reports" with their units, the notes, a summary
// line per pattern and a table per pattern with one row per message size.
func (p *Folded) WriteText(w io.Writer) error {
	return results.WriteProtocol(w, "b_eff", p.Beff, &p.Validity, p.writeRun, p.writeFigures, p.writePatterns)
}

// writeRun writes what the run is.
func (p *Folded) writeRun(w io.Writer) {
	cfg := p.Run.Config
	fmt.Fprintf(w, "Run %d of %s (from line %d): %d measurements\n", p.Run.Index, p.Run.File, p.Run.Line, len(p.Run.Measurements))
	t := results.Text{W: w}
	t.Job(&cfg.Common)
	t.Info("sizes", strings.ReplaceAll(results.JoinInts(cfg.Sizes), ",", ", ")+" bytes")
	seed := cfg.Seed
	if seed == "" {
		seed = "-"
	}
	t.Info("random patterns", fmt.Sprintf("%d (seed %s)", cfg.Random, seed))
}

// writeFigures writes the figures of docs/beff.md "What a run reports".
func (p *Folded) writeFigures(w io.Writer) {
	cfg := p.Run.Config
	fmt.Fprintf(w, "\nFigures\n")
	t := results.Text{W: w, Width: 40}
	bw := func(label string, v float64) { t.Figure(label, results.Num(v, 5, 1), "MB/s") }
	lat := func(label string, v float64, why string) {
		if v > 0 {
			t.Figure(label, results.Num(v, 4, 3), "µs")
		} else {
			t.Absent(label, why)
		}
	}
	bw("b_eff", p.Beff)
	bw("b_eff per process", p.BeffPerProc)
	t.Figure("processes (N)", strconv.Itoa(cfg.N), "")
	t.Figure("Lmax", strconv.FormatInt(cfg.Lmax, 10), "bytes")
	if cfg.MemMiB > 0 {
		t.Figure("memory per process", strconv.FormatInt(cfg.MemMiB, 10), "MiB")
	} else {
		t.Absent("memory per process", "not recorded")
	}
	bw("b_eff at Lmax", p.BeffLmax)
	bw("b_eff at Lmax per process", p.BeffLmaxPerProc)
	bw("b_eff at Lmax per process, rings only", p.BeffLmaxRingsPerProc)
	if p.PingPongLmax > 0 {
		bw("ping-pong bandwidth at Lmax", p.PingPongLmax)
	} else {
		t.Absent("ping-pong bandwidth at Lmax", "not measured")
	}
	lat("latency, rings & random", p.LatRingsRandom, "1 byte not measured")
	lat("latency, rings only", p.LatRings, "1 byte not measured")
	lat("latency, ping-pong", p.LatPingPong, "not measured")
	if p.Balance > 0 {
		t.Figure("balance factor b_eff/Rmax", results.Num(p.Balance, 4, 1), fmt.Sprintf("byte/flop (Rmax = %s GFlop/s)", strconv.FormatFloat(p.Rmax, 'g', -1, 64)))
	} else {
		t.Absent("balance factor b_eff/Rmax", "no Rmax given; see -beff.rmax")
	}
	t.Figure("total measurement time", results.Num(p.TotalTime.Seconds(), 4, 1), "s")
}

// writePatterns writes the summary of the patterns and a table per pattern.
func (p *Folded) writePatterns(w io.Writer) {
	fmt.Fprintf(w, "\nPatterns: mean over sizes of the best bandwidth (the value in b_eff), latency at 1 byte\n")
	sum := results.TextTable{Left: 2}
	sum.Add("pattern", "kind", "procs", "msgs/iter", "avg MB/s", "latency µs")
	for _, t := range p.Patterns {
		lat := "-"
		if t.Latency > 0 {
			lat = results.Num(t.Latency, 4, 3)
		}
		sum.Add(t.Name, t.Kind.String(), strconv.Itoa(t.Participants), strconv.Itoa(t.Messages), results.Num(t.Avg, 5, 1), lat)
	}
	sum.Write(w)
	for _, t := range p.Patterns {
		fmt.Fprintf(w, "\nPattern %s (%s; %d processes, %d messages per iteration)\n", t.Name, t.Kind, t.Participants, t.Messages)
		writePattern(w, t)
	}
}

// writePattern writes the table of one pattern: a row per size.
func writePattern(w io.Writer, t *PatternTable) {
	tab := results.TextTable{}
	head := []string{"L"}
	for _, m := range t.Methods {
		head = append(head, m.String()+" MB/s")
	}
	tab.Add(append(head, "best", "looplen", "ms/loop", "min MB/s", "avg MB/s", "max MB/s")...)
	for _, r := range t.Rows {
		row := []string{strconv.FormatInt(r.L, 10)}
		for _, m := range t.Methods {
			v := "-"
			for _, x := range r.Measured {
				if x.Method == m {
					v = results.Num(x.MBps, 4, 0)
				}
			}
			row = append(row, v)
		}
		b := r.Best
		tab.Add(append(row, b.Method.String(), strconv.Itoa(b.LoopLen), results.Num(b.MsPerLoop, 4, 0),
			results.Num(b.MinMBps, 4, 0), results.Num(b.AvgMBps, 4, 0), results.Num(b.MBps, 4, 0))...)
	}
	tab.Write(w)
}
