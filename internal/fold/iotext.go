package fold

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/suites/beffio"
)

// WriteIOText writes the b_eff_io protocol p for people. The first line is
// "b_eff_io = <value> MB/s", the second "VALID" or "NOT VALID: <reason>;
// <reason>…". Then come the run, the figures of SPEC §2.6, the notes, a
// table of the partitions, the table of SPEC §2.8 (per partition and access
// method the bandwidth per chunk size and pattern type, with the
// pattern-type totals) and per partition every pattern line. Like
// WriteText, no line parses as benchfmt.
func WriteIOText(w io.Writer, p *IOProtocol) error {
	bw := bufio.NewWriter(w)
	cfg := &p.Run.Config
	fmt.Fprintf(bw, "b_eff_io = %s MB/s\n", num(p.BeffIO, 5, 1))
	if p.Valid() {
		fmt.Fprintf(bw, "VALID\n\n")
	} else {
		fmt.Fprintf(bw, "NOT VALID: %s\n\n", strings.Join(p.Reasons, "; "))
	}

	fmt.Fprintf(bw, "b_eff_io run %d of %s (from line %d): %d lines\n", p.Run.Index, p.Run.File, p.Run.Line, len(p.Run.Measurements))
	info := func(label, v string) {
		if v != "" {
			fmt.Fprintf(bw, "  %-16s %s\n", label, v)
		}
	}
	info("mode", cfg.Mode)
	info("date", cfg.Date)
	info("mpi library", cfg.Library)
	info("hosts", cfg.Hosts)
	info("beff version", cfg.Version)
	info("processes (N)", strconv.Itoa(cfg.N))
	info("partitions", strings.ReplaceAll(joinInts(cfg.Partitions), ",", ", "))
	info("scheduled T", fmt.Sprintf("%s s (%s s per partition)", seconds(cfg.T), seconds(cfg.TPartition())))
	info("directory", cfg.Dir)
	info("rewrite", string(cfg.Rewrite))
	info("stop rule", cfg.Stop)
	info("drop caches", cfg.DropCaches)

	fmt.Fprintf(bw, "\nFigures\n")
	fig := func(label, value, unit string) {
		fmt.Fprintf(bw, "  %-44s %14s", label, value)
		if unit != "" {
			fmt.Fprintf(bw, " %s", unit)
		}
		fmt.Fprintln(bw)
	}
	absent := func(label, why string) {
		fmt.Fprintf(bw, "  %-44s %14s (%s)\n", label, "-", why)
	}
	on := func(n int) string {
		if n == 1 {
			return "MB/s on 1 process"
		}
		return fmt.Sprintf("MB/s on %d processes", n)
	}
	fig("b_eff_io", num(p.BeffIO, 5, 1), on(p.BestN))
	for _, a := range beffio.Accesses {
		fig("weighted average bandwidth for "+a.String(), num(p.Access[a], 5, 1),
			fmt.Sprintf("%s (%g%%)", on(p.BestN), a.Weight()*100))
	}
	fig(Release2Label, num(p.Release2, 5, 1), on(p.Release2N))
	for _, a := range beffio.Accesses {
		unit := "MB"
		if cfg.TotalMemMiB > 0 {
			unit = fmt.Sprintf("MB (%.1f %% of the total memory)", p.DataPct[a])
		}
		fig("data per access method, "+a.String(), num(p.Data[a], 5, 1), unit)
	}
	if cfg.TotalMemMiB > 0 {
		fig("total memory (MT)", strconv.FormatInt(cfg.TotalMemMiB, 10), "MiB")
		fig("total memory / b_eff_io", num(p.MemMinutes, 4, 1), "min")
	} else {
		absent("total memory (MT)", "not recorded")
		absent("total memory / b_eff_io", "no total memory")
	}
	if cfg.MemMiB > 0 {
		fig("memory per process (M)", strconv.FormatInt(cfg.MemMiB, 10), "MiB")
	} else {
		absent("memory per process (M)", "not recorded")
	}
	fig("MPART", strconv.FormatInt(cfg.MPART, 10), "bytes ("+sizeLabel(cfg.MPART)+")")
	if cfg.CacheMiB >= 0 {
		fig("file-system cache", strconv.FormatFloat(cfg.CacheMiB, 'g', -1, 64),
			"MiB (data per access method / cache: "+p.cacheRatios()+")")
	} else {
		absent("file-system cache", "not recorded")
	}
	fig("validation errors", strconv.FormatInt(p.Errors, 10), "")
	if p.SharedSubstituted > 0 {
		fig("shared file pointer", "substituted", fmt.Sprintf("(explicit offsets in %d of %d type-shared pattern lines)", p.SharedSubstituted, p.SharedLines))
	} else {
		fig("shared file pointer", "used", "")
	}
	fig("stop decisions, initial write of types 0-2", strconv.FormatInt(p.Decisions, 10), fmt.Sprintf("(%s ms)", num(p.StopMs, 4, 1)))
	fig("time of the access phases", num(p.Time, 4, 1), fmt.Sprintf("s (scheduled T = %s s)", seconds(cfg.T)))

	if len(p.Notes) > 0 {
		fmt.Fprintf(bw, "\nNotes\n")
		for _, n := range p.Notes {
			fmt.Fprintf(bw, "  - %s\n", n)
		}
	}

	fmt.Fprintf(bw, "\nPartitions: access-method values, partition value and %s in MB/s;\n", Release2Label)
	fmt.Fprintf(bw, "time of the access phases and scheduled time T / partitions in s\n")
	pt := table{left: 0}
	pt.add("n", "write", "rewrite", "read", "partition", "release-2", "time", "scheduled", "")
	for _, part := range p.Partitions {
		mark := ""
		if part.N == p.BestN {
			mark = "b_eff_io"
		}
		pt.add(strconv.Itoa(part.N), num(part.Access[beffio.Write], 5, 1), num(part.Access[beffio.Rewrite], 5, 1),
			num(part.Access[beffio.Read], 5, 1), num(part.Value, 5, 1), num(part.Release2, 5, 1),
			num(part.Time, 4, 1), seconds(part.Scheduled), mark)
	}
	pt.write(bw)

	fmt.Fprintf(bw, "\nBandwidth per chunk size and pattern type in MB/s; total: the pattern-type bandwidth\n")
	fmt.Fprintf(bw, "(Σ bytes / Σ time from open to close); l: disk chunk, L: memory chunk of type 0 (= l otherwise)\n")
	pats := beffio.Table(cfg.MPART)
	for _, part := range p.Partitions {
		for _, a := range beffio.Accesses {
			fmt.Fprintf(bw, "\nPartition n=%d, %s: %s MB/s (access-method value), phase %s s\n",
				part.N, a, num(part.Access[a], 5, 1), num(part.Phase[a].Seconds, 4, 1))
			writeMatrix(bw, pats, part, a)
		}
	}

	for _, part := range p.Partitions {
		fmt.Fprintf(bw, "\nPattern lines of partition n=%d\n", part.N)
		tab := table2()
		for _, a := range beffio.Accesses {
			for _, m := range part.Patterns[a] {
				l, L := "fill", "fill"
				if !m.Fill {
					l, L = sizeLabel(m.L), sizeLabel(m.Mem)
				}
				errs, dec, stop, fp := "-", "-", "-", "-"
				if m.Access == beffio.Read || m.Errors > 0 {
					errs = strconv.FormatInt(m.Errors, 10)
				}
				if m.HasStop {
					dec, stop = strconv.FormatInt(m.Decisions, 10), num(m.StopMs, 4, 1)
				}
				if m.SharedFP >= 0 {
					fp = strconv.Itoa(m.SharedFP)
				}
				tab.add(a.String(), m.Type.String(), strconv.Itoa(m.Pat), l, L, strconv.FormatInt(m.Reps, 10),
					num(m.MB, 5, 1), num(m.Seconds, 4, 1), num(m.MBps, 5, 1), errs, dec, stop, fp)
			}
		}
		tab.write(bw)
	}
	return bw.Flush()
}

// table2 is the table of pattern lines with its header.
func table2() *table {
	t := &table{left: 2}
	t.add("access", "type", "pat", "l", "L", "reps", "MB", "s", "MB/s", "errors", "decisions", "stop ms", "sharedfp")
	return t
}

// matrixRow is the row of the table of SPEC §2.8 that pattern p belongs to:
// rows 0..8 are the patterns of type 0; the patterns of the other types
// share the row of the type-0 pattern with the same chunk (the type-0
// pattern with l = 1 MiB, L = 2 MiB, row 2, has no counterpart); row 9
// holds the fill patterns.
func matrixRow(pats []beffio.Pattern, p beffio.Pattern) int {
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

// writeMatrix writes the table of SPEC §2.8 for one partition and access
// method: one row per chunk size, one column per pattern type, and the
// pattern-type totals.
func writeMatrix(w io.Writer, pats []beffio.Pattern, part *IOPartition, a beffio.Access) {
	const rows = 10
	var cells [rows][5]string
	for r := range cells {
		for t := range cells[r] {
			cells[r][t] = "-"
		}
	}
	for _, m := range part.Patterns[a] {
		cells[matrixRow(pats, pats[m.Pat])][m.Type] = num(m.MBps, 4, 1)
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
	tab := table{left: 2}
	head := []string{"l", "L"}
	for _, t := range beffio.Types {
		head = append(head, t.String())
	}
	tab.add(head...)
	for r := range rows {
		tab.add(append(labels[r][:], cells[r][:]...)...)
	}
	total := []string{"total", ""}
	for _, t := range beffio.Types {
		v := "-"
		if m := part.Totals[a][t]; m != nil {
			v = num(m.MBps, 4, 1)
		}
		total = append(total, v)
	}
	tab.add(total...)
	tab.write(w)
}

// sizeLabel writes a chunk size in MiB, KiB and bytes: "1 MiB",
// "32 KiB+8", "1 MiB+8 KiB", "1 MiB+256".
func sizeLabel(b int64) string {
	const kib, mib = 1 << 10, 1 << 20
	var parts []string
	if m := b / mib; m > 0 {
		parts = append(parts, fmt.Sprintf("%d MiB", m))
	}
	rest := b % mib
	if rest >= kib && (rest%kib == 0 || len(parts) == 0) {
		parts = append(parts, fmt.Sprintf("%d KiB", rest/kib))
		rest %= kib
	}
	if rest > 0 || len(parts) == 0 {
		parts = append(parts, strconv.FormatInt(rest, 10))
	}
	return strings.Join(parts, "+")
}
