package fold

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beffio"
)

// WriteText writes the b_eff_io protocol for people. The first line is
// "b_eff_io = <value> MB/s", the second "VALID" or "NOT VALID: <reason>;
// <reason>…". Then come the run, the figures of docs/beffio.md "The numbers", the notes, a
// table of the partitions, the table of docs/beffio.md "What a run reports" (per partition and
// access method the bandwidth per chunk size and pattern type, with the
// pattern-type totals) and per partition every pattern line.
func (p *Folded) WriteText(w io.Writer) error {
	head := "b_eff_io"
	if p.Rules == beffio.RulesReference {
		head = "b_eff_io (reference code 2.1 rules)"
	}
	return results.WriteProtocol(w, head, p.BeffIO, &p.Validity, p.writeRun, p.writeFigures,
		p.writePartitions, p.writeMatrices, p.writePatterns)
}

// writeRun writes what the run is.
func (p *Folded) writeRun(w io.Writer) {
	cfg := p.Run.Config
	fmt.Fprintf(w, "b_eff_io run %d of %s (from line %d): %d lines\n", p.Run.Index, p.Run.File, p.Run.Line, len(p.Run.Measurements))
	t := results.Text{W: w}
	t.Job(&cfg.Common)
	t.Info("processes (N)", strconv.Itoa(cfg.N))
	t.Info("partitions", strings.ReplaceAll(results.JoinInts(cfg.Partitions), ",", ", "))
	t.Info("scheduled T", fmt.Sprintf("%s s (%s s per partition)", results.Seconds(cfg.T), results.Seconds(cfg.TPartition())))
	t.Info("directory", cfg.Dir)
	t.Info("file system", cfg.FS)
	t.Info("rules", string(cfg.Rules))
	t.Info("rewrite", string(cfg.Rewrite))
	t.Info("stop rule", cfg.Stop)
	t.Info("drop caches", cfg.DropCaches)
}

// onProcs is the unit of a figure of partition n.
func onProcs(n int) string {
	return "MB/s on " + results.Processes(n)
}

// writeFigures writes the figures of docs/beffio.md "The numbers".
func (p *Folded) writeFigures(w io.Writer) {
	cfg := p.Run.Config
	fmt.Fprintf(w, "\nFigures\n")
	t := results.Text{W: w, Width: 44}
	t.Figure("b_eff_io", results.Num(p.BeffIO, 5, 1), onProcs(p.BestN)+", "+p.comparable())
	for _, a := range beffio.Accesses {
		t.Figure("weighted average bandwidth for "+a.String(), results.Num(p.Access[a], 5, 1),
			fmt.Sprintf("%s (%g%%)", onProcs(p.BestN), a.Weight()*100))
	}
	if p.Rules == beffio.RulesReference {
		t.Figure("the paper's formula", results.Num(p.Paper, 5, 1), onProcs(p.PaperN)+" (secondary, not b_eff_io)")
	} else {
		t.Figure("b_eff_io 2.1 formula", results.Num(p.Reference, 5, 1), onProcs(p.ReferenceN)+" ("+p.removalNote()+")")
	}
	for _, a := range beffio.Accesses {
		unit := "MB"
		if cfg.TotalMiB > 0 {
			unit = fmt.Sprintf("MB (%.1f %% of the total memory)", p.DataPct[a])
		}
		t.Figure("data per access method, "+a.String(), results.Num(p.Data[a], 5, 1), unit)
	}
	p.writeMemory(t)
	t.Figure("validation errors", strconv.FormatInt(p.Errors, 10), "")
	if p.SharedSubstituted > 0 {
		t.Figure("shared file pointer", "substituted", fmt.Sprintf("(explicit offsets in %d of %d type-shared pattern lines)", p.SharedSubstituted, p.SharedLines))
	} else {
		t.Figure("shared file pointer", "used", "")
	}
	t.Figure("stop decisions, initial write of types 0-2", strconv.FormatInt(p.Decisions, 10), fmt.Sprintf("(%s ms)", results.Num(p.StopMs, 4, 1)))
	t.Figure("time of the access phases", results.Num(p.Time, 4, 1), fmt.Sprintf("s (scheduled T = %s s)", results.Seconds(cfg.T)))
}

// writeMemory writes the figures of the memory, MPART and the cache.
func (p *Folded) writeMemory(t results.Text) {
	cfg := p.Run.Config
	if cfg.TotalMiB > 0 {
		t.Figure("total memory (MT)", strconv.FormatInt(cfg.TotalMiB, 10), "MiB")
		t.Figure("total memory / b_eff_io", results.Num(p.MemMinutes, 4, 1), "min")
	} else {
		t.Absent("total memory (MT)", "not recorded")
		t.Absent("total memory / b_eff_io", "no total memory")
	}
	if cfg.MemMiB > 0 {
		t.Figure("memory per process (M)", strconv.FormatInt(cfg.MemMiB, 10), "MiB")
	} else {
		t.Absent("memory per process (M)", "not recorded")
	}
	t.Figure("MPART", strconv.FormatInt(cfg.MPART, 10), "bytes ("+sizeLabel(cfg.MPART)+")")
	if cfg.CacheMiB >= 0 {
		t.Figure("file-system cache", strconv.FormatFloat(cfg.CacheMiB, 'g', -1, 64),
			"MiB (data per access method / cache: "+p.cacheRatios()+")")
	} else {
		t.Absent("file-system cache", "not recorded")
	}
}

// writePartitions writes the table of the partitions.
func (p *Folded) writePartitions(w io.Writer) {
	fmt.Fprintf(w, "\nPartitions: access-method values, the paper's partition value, the read value with the\n")
	fmt.Fprintf(w, "removal of the files in its time and the reference code 2.1's formula over it in MB/s;\n")
	fmt.Fprintf(w, "time of the access phases and scheduled time T / partitions in s\n")
	pt := results.TextTable{}
	pt.Add("n", "write", "rewrite", "read", "paper", "read+rm", "2.1", "time", "scheduled", "")
	for _, part := range p.Partitions {
		mark := ""
		if part.N == p.BestN {
			mark = "b_eff_io"
		}
		rm := "-"
		if p.Removal != RemovalNone {
			rm = results.Num(part.ReadRemovalValue, 5, 1)
		}
		pt.Add(strconv.Itoa(part.N), results.Num(part.Access[beffio.Write], 5, 1), results.Num(part.Access[beffio.Rewrite], 5, 1),
			results.Num(part.Access[beffio.Read], 5, 1), results.Num(part.Value, 5, 1), rm, results.Num(part.Reference, 5, 1),
			results.Num(part.Time, 4, 1), results.Seconds(part.Scheduled), mark)
	}
	pt.Write(w)
}

// writeMatrices writes the table of docs/beffio.md "What a run reports" per partition and access.
func (p *Folded) writeMatrices(w io.Writer) {
	fmt.Fprintf(w, "\nBandwidth per chunk size and pattern type in MB/s; total: the pattern-type bandwidth\n")
	if p.Rules == beffio.RulesReference {
		fmt.Fprintf(w, "(Σ bytes / (open + Σ pattern times + close)); l: disk chunk, L: memory chunk of type 0 (= l otherwise)\n")
	} else {
		fmt.Fprintf(w, "(Σ bytes / Σ time from open to close); l: disk chunk, L: memory chunk of type 0 (= l otherwise)\n")
	}
	pats := beffio.Table(p.Run.Config.MPART)
	for _, part := range p.Partitions {
		for _, a := range beffio.Accesses {
			fmt.Fprintf(w, "\nPartition n=%d, %s: %s MB/s (access-method value), phase %s s\n",
				part.N, a, results.Num(part.Access[a], 5, 1), results.Num(part.Phase[a].Seconds, 4, 1))
			writeMatrix(w, pats, part, a, p.Removal == RemovalApart)
		}
	}
}

// writePatterns writes every pattern line of each partition.
func (p *Folded) writePatterns(w io.Writer) {
	for _, part := range p.Partitions {
		fmt.Fprintf(w, "\nPattern lines of partition n=%d\n", part.N)
		tab := results.TextTable{Left: 2}
		tab.Add("access", "type", "pat", "l", "L", "reps", "MB", "s", "MB/s", "errors", "decisions", "stop ms", "sharedfp")
		for _, a := range beffio.Accesses {
			for _, m := range part.Patterns[a] {
				tab.Add(patternRow(m)...)
			}
		}
		tab.Write(w)
	}
}

// patternRow is the row of pattern line m.
func patternRow(m *Measurement) []string {
	l, L := "fill", "fill"
	if !m.Fill {
		l, L = sizeLabel(m.L), sizeLabel(m.Mem)
	}
	errs, dec, stop, fp := "-", "-", "-", "-"
	if m.Access == beffio.Read || m.Errors > 0 {
		errs = strconv.FormatInt(m.Errors, 10)
	}
	if m.HasStop {
		dec, stop = strconv.FormatInt(m.Decisions, 10), results.Num(m.StopMs, 4, 1)
	}
	if m.SharedFP >= 0 {
		fp = strconv.Itoa(m.SharedFP)
	}
	return []string{m.Access.String(), m.Type.String(), strconv.Itoa(m.Pat), l, L, strconv.FormatInt(m.Reps, 10),
		results.Num(m.MB, 5, 1), results.Num(m.Seconds, 4, 1), results.Num(m.MBps, 5, 1), errs, dec, stop, fp}
}

// matrixRow is the row of the table of docs/beffio.md "What a run reports" that pattern p belongs to:
// rows 0..8 are the patterns of type 0; the patterns of the other types
// share the row of the type-0 pattern with the same chunk (the type-0
// pattern with l = 1 MiB, L = 2 MiB, row 2, has no counterpart); row 9
// holds the fill patterns.
func matrixRow(pats []beffio.AccessPattern, p beffio.AccessPattern) int {
	if p.Fill {
		return 9
	}
	first := 0 // the number of the type's first pattern
	for _, q := range pats {
		if q.Type == p.Type {
			first = q.No
			break
		}
	}
	i := p.No - first
	if p.Type == beffio.Scatter || i < 2 {
		return i
	}
	return i + 1
}

// writeMatrix writes the table of docs/beffio.md "What a run reports" for one partition and access
// method: one row per chunk size, one column per pattern type, and the
// pattern-type totals.
// On the read with the removal timed apart (removal) a last row gives the
// pattern-type bandwidths with the removal in their time.
func writeMatrix(w io.Writer, pats []beffio.AccessPattern, part *Partition, a beffio.Access, removal bool) {
	const rows = 10
	var cells [rows][5]string
	for r := range cells {
		for t := range cells[r] {
			cells[r][t] = "-"
		}
	}
	for _, m := range part.Patterns[a] {
		cells[matrixRow(pats, pats[m.Pat])][m.Type] = results.Num(m.MBps, 4, 1)
	}
	var labels [rows][2]string
	for _, p := range pats {
		if p.Type == beffio.Scatter {
			labels[p.No] = [2]string{sizeLabel(p.L), sizeLabel(p.Mem)}
		}
	}
	labels[0][0] += " (warm-up)"
	labels[1][0] += " (MPART)"
	labels[9] = [2]string{"fill", ""}
	tab := results.TextTable{Left: 2}
	head := []string{"l", "L"}
	for _, t := range beffio.Types {
		head = append(head, t.String())
	}
	tab.Add(head...)
	for r := range rows {
		tab.Add(append(labels[r][:], cells[r][:]...)...)
	}
	total := []string{"total", ""}
	for _, t := range beffio.Types {
		v := "-"
		if m := part.Totals[a][t]; m != nil {
			v = results.Num(m.MBps, 4, 1)
		}
		total = append(total, v)
	}
	tab.Add(total...)
	if removal && a == beffio.Read {
		row := []string{"total+removal", ""}
		for _, t := range beffio.Types {
			row = append(row, results.Num(part.ReadRemoval[t], 4, 1))
		}
		tab.Add(row...)
	}
	tab.Write(w)
}

// sizeLabel writes a chunk size exactly in MiB, KiB and bytes: "1 MiB",
// "32 KiB+8", "1 MiB+8 KiB", "1 MiB+256".
func sizeLabel(b int64) string {
	var parts []string
	if m := b / beffio.MiB; m > 0 {
		parts = append(parts, fmt.Sprintf("%d MiB", m))
	}
	rest := b % beffio.MiB
	if rest >= beffio.KiB && (rest%beffio.KiB == 0 || len(parts) == 0) {
		parts = append(parts, fmt.Sprintf("%d KiB", rest/beffio.KiB))
		rest %= beffio.KiB
	}
	if rest > 0 || len(parts) == 0 {
		parts = append(parts, strconv.FormatInt(rest, 10))
	}
	return strings.Join(parts, "+")
}
