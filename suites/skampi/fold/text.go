package fold

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// WriteText writes the protocol: the head (the 1-byte latency of the
// slowest pair when measured), the run, the headline figures, the notes,
// then a table per operation and the list of points that did not reach ε.
func (p *Folded) WriteText(w io.Writer) error {
	name := "SKaMPI"
	if p.Sources != nil {
		name = fmt.Sprintf("SKaMPI, median of %d runs,", len(p.Sources))
	}
	return results.WriteProtocolHead(w, p.headText(name), &p.Validity, p.writeRun, p.writeFigures, p.writeTables, p.writeNotConverged, p.writeClockMiss)
}

// headText is the head of the protocol (and of the run page's section):
// the 1-byte latency of the slowest pair, or the number of points.
func (p *Folded) headText(name string) string {
	if p.LatencyUs > 0 {
		return fmt.Sprintf("%s = %s µs (MPI_Send/MPI_Recv half round trip, %s, slowest pair)", name, results.Num(p.LatencyUs, 4, 3), bytesText(p.LatencyLen))
	}
	return fmt.Sprintf("%s: %d points", name, p.Points())
}

func (p *Folded) writeRun(w io.Writer) {
	c := p.Config
	if p.Sources != nil {
		fmt.Fprintf(w, "Merged from %d runs (%s): %d points of %d curves; per point the median over the runs, and the fastest and the slowest run's mean\n",
			len(p.Sources), strings.Join(sourceNames(p.Sources), ", "), p.Points(), len(p.Curves))
	} else {
		fmt.Fprintf(w, "Run %d of %s (from line %d): %d points of %d curves\n", p.Run.Index, p.Run.File, p.Run.Line, p.Points(), len(p.Curves))
	}
	t := results.Text{W: w}
	t.Job(&c.Common)
	t.Info("processes", strconv.Itoa(c.N))
	t.Info("suite file", c.File)
	for _, n := range c.SuiteNames() {
		t.Info("  "+n, suiteText(c.Suites[n]))
		if ty := c.Types[n]; ty != "" {
			t.Info("    layouts", ty)
		}
		if top := c.Topos[n]; top != "" {
			t.Info("    topology", top+" (processes: grid, neighbors)")
		}
	}
	if c.Resumed != "" {
		t.Info("resumed", c.Resumed)
	}
	t.Info("clock", fmt.Sprintf("%s; Wtick %s s; a clock read costs %s s (subtracted)", c.Clock, c.Wtick, c.Timer))
	if c.Offsets != "" {
		t.Info("offsets", fmt.Sprintf("%s µs (min median max), uncertain by ±%s µs: each rank's MPI_Wtime against rank 0's; MPI's clocks need not share their zero, even on one node, and the window synchronisation corrects for it", c.Offsets, c.OffsetEr))
	}
	if p.Clock != nil {
		t.Info("clock model", p.Clock.Summary())
	}
	t.Info("slowest pair", pairText(c.PairMax))
	t.Info("fastest pair", pairText(c.PairMin))
	if c.PairSearch != "" {
		t.Info("pair search", c.PairSearch)
	}
}

// suiteText describes a suite in one line: what it varies over which
// values, its accuracy rule, synchronisation and caches.
func suiteText(s *skampi.Setup) string {
	var vary string
	switch s.Vary {
	case skampi.VaryLength:
		vary = fmt.Sprintf("L %d…%d ×%g", s.Lengths.From, s.Lengths.To, s.Lengths.Step)
		if s.Refine {
			vary += " refined"
		}
	case skampi.VaryProcs:
		vary = fmt.Sprintf("procs %s, L %d", skampi.JoinCounts(s.Procs, s.ProcsStep), s.Len)
	case skampi.VaryChunks:
		vary = fmt.Sprintf("chunks %s, L %d", results.JoinInts(s.Chunks), s.Len)
	default:
		vary = "one point"
	}
	text := fmt.Sprintf("%d op%s, %s; ε %g, %d-%d reps, %s per point; %s, cache %s",
		len(s.Ops), results.Plural(len(s.Ops)), vary, s.Rule.Eps, s.Rule.Min, s.Rule.Max, skampi.DurationText(s.Rule.Budget), s.Sync, s.Cache)
	_, v := s.ConfigLine()
	for _, f := range strings.Fields(v) {
		switch k, _, _ := strings.Cut(f, "="); k {
		case "send-type", "recv-type", "methods", "rma-sync", "rma-window", "rma-assert":
			text += "; " + f
		}
	}
	if s.RMASync == skampi.RMAFence && hasRMA(s) {
		text += "; rma-sync=fence"
	}
	return text
}

// hasRMA says whether the suite has a one-sided operation.
func hasRMA(s *skampi.Setup) bool {
	for _, op := range s.Ops {
		if skampi.Ops[op].RMA() {
			return true
		}
	}
	return false
}

// pairText renders "a b host-a host-b rtt-us".
func pairText(v string) string {
	var a, b int
	var ha, hb string
	var rtt float64
	if _, err := fmt.Sscan(v, &a, &b, &ha, &hb, &rtt); err != nil {
		return v
	}
	return fmt.Sprintf("ranks %d (%s) and %d (%s), 1-byte round trip %s µs", a, ha, b, hb, results.Num(rtt, 4, 3))
}

func (p *Folded) writeFigures(w io.Writer) {
	fmt.Fprintf(w, "\nFigures\n")
	t := results.Text{W: w, Width: 64}
	figs := p.Figures()
	for _, f := range figs {
		t.Figure(f.Label, results.Num(f.Value, 5, 3), results.UnitText(f.Unit))
	}
	if len(figs) == 0 {
		t.Absent("headline figures", "neither send-recv nor barrier on all processes measured")
	}
}

// writeTables writes a table per curve: its varied parameters, the
// point's times in µs and its accuracy; a point that did not reach ε is
// marked *, one without a value -, a length refinement added +.
func (p *Folded) writeTables(w io.Writer) {
	for _, t := range p.Curves {
		added := ""
		if t.Added > 0 {
			added = fmt.Sprintf("; refinement added %d length%s (+)", t.Added, results.Plural(t.Added))
		}
		method := ""
		if t.Method != "" {
			method = ", " + methodText[t.Method]
		}
		fmt.Fprintf(w, "\nSuite %s, %s (%s%s): %s; times in µs%s\n", t.Suite.Name, t.Op.Name, t.Op.Pattern, method, t.Op.Call, added)
		tab := results.TextTable{Left: 1}
		of := slices.ContainsFunc(t.Rows, func(m *Measurement) bool { return m.OfRatio > 0 })
		head := append(append([]string{"point"}, "mean", "median", "min", "p90", "p99", "rse", "n", "invalid", "calls"), extraHead(t.Op, of)...)
		if t.Method != "" {
			head = append(head, "÷ contig")
		}
		if p.Sources != nil {
			head = append(head, "runs", "run min", "run max")
		}
		tab.Add(head...)
		for _, m := range t.Rows {
			row := append(rowCells(m), pointCells(t.Op, m, of)...)
			if t.Method != "" {
				row = append(row, ratioCell(m))
			}
			if p.Sources != nil {
				row = append(row, runCells(m)...)
			}
			tab.Add(row...)
		}
		tab.Write(w)
	}
}

// methodText says what each method of a typed suite moves.
var methodText = map[string]string{
	skampi.MethodDatatype: "the derived datatype",
	skampi.MethodPack:     "MPI_Pack, MPI_PACKED, MPI_Unpack",
	skampi.MethodManual:   "copied by hand to contiguous bytes and back",
	skampi.MethodContig:   "the payload as contiguous bytes",
}

// ratioCell is a typed point's time over the contiguous method's.
func ratioCell(m *Measurement) string {
	if m.Contig <= 0 {
		return "-"
	}
	return results.Num(m.Contig, 3, 3)
}

func rowCells(m *Measurement) []string {
	name := m.Name
	if m.Refined {
		name += " +"
	}
	if !m.Has {
		return []string{name + " -", "-", "-", "-", "-", "-", "-", strconv.Itoa(m.N), strconv.Itoa(m.Invalid), strconv.Itoa(m.Calls)}
	}
	if !m.Converged() {
		name += " *"
	}
	rse := "-"
	if m.HasRSE {
		rse = results.Num(m.RSE, 3, 3)
	}
	n := func(v float64) string { return results.Num(v, 4, 3) }
	return []string{name, n(m.Us), n(m.Median), n(m.Min), n(m.P90), n(m.P99), rse, strconv.Itoa(m.N), strconv.Itoa(m.Invalid), strconv.Itoa(m.Calls)}
}

// runCells are a merged point's runs and the spread of its value.
func runCells(m *Measurement) []string {
	if !m.Has {
		return []string{strconv.Itoa(m.Runs), "-", "-"}
	}
	return []string{strconv.Itoa(m.Runs), results.Num(m.RunMin, 4, 3), results.Num(m.RunMax, 4, 3)}
}

// extraHead heads the columns of the operation's pattern and family;
// of: a column of its time over its blocking operation's.
func extraHead(o skampi.Op, of bool) []string {
	var out []string
	switch o.Pattern {
	case skampi.Collective:
		out = []string{"rank min", "rank med", "rank max"}
	case skampi.PingPong, skampi.OneSided:
		out = []string{"MB/s"}
	}
	switch {
	case o.NonBlocking():
		out = append(out, "ovrl", "ovrl rse", "cpu", "in MPI", "overlap %")
	case o.Persistent():
		out = append(out, "init")
	}
	if o.Family == skampi.FamilyPartitioned {
		out = append(out, "threads")
	}
	if of {
		out = append(out, "÷ "+o.Of)
	}
	return out
}

// formCells are the cells of a non-blocking or persistent form's point:
// the measurement with the computation, the init calls, the time over
// the blocking operation's.
func formCells(o skampi.Op, m *Measurement, of bool) []string {
	n := func(v float64, ok bool) string {
		if !ok {
			return "-"
		}
		return results.Num(v, 4, 3)
	}
	var out []string
	switch {
	case o.NonBlocking():
		rse := "-"
		if m.HasOvrlRSE {
			rse = results.Num(m.OvrlRSE, 3, 3)
		}
		out = append(out, n(m.OvrlUs, m.HasOvrl), rse, n(m.CPUUs, m.HasOvrl), n(m.InMPIUs, m.HasOvrl), n(m.OverlapPct, m.HasOvrl))
	case o.Persistent():
		out = append(out, n(m.InitUs, m.InitUs > 0))
	}
	if o.Family == skampi.FamilyPartitioned {
		out = append(out, strconv.Itoa(m.Threads))
	}
	if of {
		out = append(out, n(m.OfRatio, m.OfRatio > 0))
	}
	return out
}

func extraCells(o skampi.Op, m *Measurement) []string {
	n := func(v float64) string {
		if !m.Has {
			return "-"
		}
		return results.Num(v, 4, 3)
	}
	switch o.Pattern {
	case skampi.Collective:
		return []string{n(m.RankMin), n(m.RankMed), n(m.RankMax)}
	case skampi.PingPong, skampi.OneSided:
		if m.Len == 0 {
			return []string{"-"}
		}
		return []string{n(m.MBps)}
	}
	return nil
}

// pointCells are the cells of a point beyond the common ones.
func pointCells(o skampi.Op, m *Measurement, of bool) []string {
	return append(extraCells(o, m), formCells(o, m, of)...)
}

// writeClockMiss lists the points the clocks' error leaves unvouched.
func (p *Folded) writeClockMiss(w io.Writer) {
	if len(p.ClockMiss) == 0 {
		return
	}
	fmt.Fprintf(w, "\nPoints NOT VALID: the clocks' error exceeded their window's margin\n")
	for _, m := range p.ClockMiss {
		fmt.Fprintf(w, "  %s: %s\n", m.Name, m.ClockMiss)
	}
}

// writeNotConverged lists the points that did not reach ε, and why.
func (p *Folded) writeNotConverged(w io.Writer) {
	list := append(append([]*Measurement(nil), p.NoValue...), p.NotConverged...)
	if len(list) == 0 {
		return
	}
	fmt.Fprintf(w, "\nPoints that did not reach their suite's ε\n")
	for _, m := range list {
		why := "the repetition maximum"
		if m.Stop == skampi.HitBudget {
			why = "the time budget"
		}
		rse := "no error (fewer than two valid repetitions)"
		if m.HasRSE {
			rse = "rse " + results.Num(m.RSE, 3, 3)
		}
		fmt.Fprintf(w, "  %s: stopped at %s after %d valid and %d discarded repetitions, %s\n", m.Name, why, m.N, m.Invalid, rse)
	}
}
