package fold

import (
	"fmt"
	"io"
	"strconv"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/links"
)

// WriteText writes the protocol: the verdict, the run, the figures, the
// findings, the members' table.
func (p *Folded) WriteText(w io.Writer) error {
	return results.WriteProtocolHead(w, p.head(), &p.Validity, p.writeRun, p.writeFigures, p.writeFindings, p.writeMembers, p.writeMulti)
}

// head is the protocol's first line.
func (p *Folded) head() string {
	c := p.Config
	what := fmt.Sprintf("links: %d %s, %d links", c.Members, links.Plural(memberWord(c)), c.Members*(c.Members-1)/2)
	if len(p.Findings) == 0 {
		return what + ": nothing slow"
	}
	return fmt.Sprintf("%s: %d slow (%s)", what, len(p.Findings), p.Findings[0].Line)
}

// writeRun writes what the run is.
func (p *Folded) writeRun(w io.Writer) {
	c := p.Config
	fmt.Fprintf(w, "links run %d of %s (from line %d): %d lines\n", p.Run.Index, p.Run.File, p.Run.Line, len(p.Run.Lines))
	t := results.Text{W: w}
	t.Job(&c.Common)
	t.Info("members", fmt.Sprintf("%d %s (%d processes measured nothing)", c.Members, links.Plural(memberWord(c)), c.N-c.Members))
	t.Info("pairs", fmt.Sprintf("%d rounds of disjoint pairs, %s; a line per %s", c.Rounds, pairsHow(c.Meas.Serial), map[bool]string{true: "pair", false: "member"}[p.Pairs != nil]))
	t.Info("measurements", fmt.Sprintf("%d ping-pongs of 8 B; %d messages of %d B each way, one way and both ways; each at most %s s; planned at most %s s",
		c.Meas.LatReps, c.Meas.BwReps, c.Meas.BwLen, results.Seconds(c.Meas.Cap), results.Seconds(c.PlanSeconds)))
}

// writeFigures writes the job's figures.
func (p *Folded) writeFigures(w io.Writer) {
	t := results.Text{W: w}
	for _, f := range p.Figures() {
		t.Figure(f.Label, results.Num(f.Value, 5, 2), f.Unit)
	}
}

// writeFindings writes a line a finding.
func (p *Folded) writeFindings(w io.Writer) {
	if len(p.Findings) == 0 {
		fmt.Fprintf(w, "\nno slow %s, no slow link\n", memberWord(p.Config))
		return
	}
	fmt.Fprintln(w)
	for _, f := range p.Findings {
		fmt.Fprintln(w, f.Line)
	}
}

// writeMembers writes a row a member.
func (p *Folded) writeMembers(w io.Writer) {
	fmt.Fprintln(w)
	t := results.TextTable{Left: 2}
	t.Add("member", "host", "latency µs", "MB/s", "both MB/s", "slowest MB/s", "to", "slowest µs", "to")
	for i, m := range p.Members {
		t.Add(strconv.Itoa(i), m.Host, results.Num(m.Lat, 4, 2), results.Num(m.Bw, 5, 1), results.Num(m.Both, 5, 1),
			results.Num(m.MinBw, 5, 1), strconv.Itoa(m.MinBwTo), results.Num(m.WorstLat, 4, 2), strconv.Itoa(m.WorstLatTo))
	}
	t.Write(w)
}

// pairsHow says how a round's pairs measured.
func pairsHow(serial bool) string {
	if serial {
		return "the pairs of a round one after the other"
	}
	return "the pairs of a round at once"
}

// writeMulti writes a row per k of the multi-pair measurements.
func (p *Folded) writeMulti(w io.Writer) {
	if len(p.Multi) == 0 {
		return
	}
	fmt.Fprintf(w, "\nmulti-pair: k processes of each node paired with as many of another, all at once; medians over the %d node pairs\n\n", p.Multi[0].Pairs)
	t := results.TextTable{Left: 2}
	t.Add("k", "MB/s", "both MB/s", "msg/s", "both msg/s", "least MB/s", "of nodes")
	for _, r := range p.Multi {
		t.Add(strconv.Itoa(r.K), results.Num(r.MBps, 5, 1), results.Num(r.Both, 5, 1), results.Num(r.Rate, 5, 0), results.Num(r.BothRate, 5, 0),
			results.Num(r.MinMBps, 5, 1), p.name(r.MinA)+", "+p.name(r.MinB))
	}
	t.Write(w)
}
