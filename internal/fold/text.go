package fold

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteText writes the protocol p for people. The first line is
// "b_eff = <value> MB/s"; then come the run, the figures of SPEC §1.8 with
// their units, the notes, a summary line per pattern and a table per
// pattern with one row per message size. No line of the text parses as a
// benchfmt configuration, result or unit line, so the text may precede
// benchfmt output in one stream.
func WriteText(w io.Writer, p *Protocol) error {
	bw := bufio.NewWriter(w)
	cfg := &p.Run.Config
	fmt.Fprintf(bw, "b_eff = %s MB/s\n\n", num(p.Beff, 5, 1))

	fmt.Fprintf(bw, "Run %d of %s (from line %d): %d measurements\n", p.Run.Index, p.Run.File, p.Run.Line, len(p.Run.Measurements))
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
	sizes := make([]string, len(cfg.Sizes))
	for i, l := range cfg.Sizes {
		sizes[i] = strconv.FormatInt(l, 10)
	}
	info("sizes", strings.Join(sizes, ", ")+" bytes")
	info("random patterns", fmt.Sprintf("%d (seed %s)", cfg.Random, orDash(cfg.Seed)))

	fmt.Fprintf(bw, "\nFigures\n")
	fig := func(label, value, unit string) {
		fmt.Fprintf(bw, "  %-40s %14s", label, value)
		if unit != "" {
			fmt.Fprintf(bw, " %s", unit)
		}
		fmt.Fprintln(bw)
	}
	absent := func(label, why string) {
		fmt.Fprintf(bw, "  %-40s %14s (%s)\n", label, "-", why)
	}
	bwFig := func(label string, v float64) { fig(label, num(v, 5, 1), "MB/s") }
	latFig := func(label string, v float64, why string) {
		if v > 0 {
			fig(label, num(v, 4, 3), "µs")
		} else {
			absent(label, why)
		}
	}
	bwFig("b_eff", p.Beff)
	bwFig("b_eff per process", p.BeffPerProc)
	fig("processes (N)", strconv.Itoa(cfg.N), "")
	fig("Lmax", strconv.FormatInt(cfg.Lmax, 10), "bytes")
	if cfg.MemMiB > 0 {
		fig("memory per process", strconv.FormatInt(cfg.MemMiB, 10), "MiB")
	} else {
		absent("memory per process", "not recorded")
	}
	bwFig("b_eff at Lmax", p.BeffLmax)
	bwFig("b_eff at Lmax per process", p.BeffLmaxPerProc)
	bwFig("b_eff at Lmax per process, rings only", p.BeffLmaxRingsPerProc)
	if p.PingPongLmax > 0 {
		bwFig("ping-pong bandwidth at Lmax", p.PingPongLmax)
	} else {
		absent("ping-pong bandwidth at Lmax", "not measured")
	}
	latFig("latency, rings & random", p.LatRingsRandom, "1 byte not measured")
	latFig("latency, rings only", p.LatRings, "1 byte not measured")
	latFig("latency, ping-pong", p.LatPingPong, "not measured")
	if p.Balance > 0 {
		fig("balance factor b_eff/Rmax", num(p.Balance, 4, 1), fmt.Sprintf("byte/flop (Rmax = %s GFlop/s)", strconv.FormatFloat(p.Rmax, 'g', -1, 64)))
	} else {
		absent("balance factor b_eff/Rmax", "no Rmax given; see -rmax")
	}
	fig("total measurement time", num(p.TotalTime.Seconds(), 4, 1), "s")

	if len(p.Notes) > 0 {
		fmt.Fprintf(bw, "\nNotes\n")
		for _, n := range p.Notes {
			fmt.Fprintf(bw, "  - %s\n", n)
		}
	}

	fmt.Fprintf(bw, "\nPatterns: mean over sizes of the best bandwidth (the value in b_eff), latency at 1 byte\n")
	sum := table{left: 2}
	sum.add("pattern", "kind", "procs", "msgs/iter", "avg MB/s", "latency µs")
	for _, t := range p.Patterns {
		lat := "-"
		if t.Latency > 0 {
			lat = num(t.Latency, 4, 3)
		}
		sum.add(t.Name, t.Kind.String(), strconv.Itoa(t.Participants), strconv.Itoa(t.Messages), num(t.Avg, 5, 1), lat)
	}
	sum.write(bw)

	for _, t := range p.Patterns {
		fmt.Fprintf(bw, "\nPattern %s (%s; %d processes, %d messages per iteration)\n", t.Name, t.Kind, t.Participants, t.Messages)
		tab := table{left: 0}
		head := []string{"L"}
		for _, m := range t.Methods {
			head = append(head, m.String()+" MB/s")
		}
		tab.add(append(head, "best", "looplen", "ms/loop", "min MB/s", "avg MB/s", "max MB/s")...)
		for _, r := range t.Rows {
			row := []string{strconv.FormatInt(r.L, 10)}
			for _, m := range t.Methods {
				v := "-"
				for _, x := range r.Measured {
					if x.Method == m {
						v = num(x.MBps, 4, 0)
					}
				}
				row = append(row, v)
			}
			b := r.Best
			tab.add(append(row, b.Method.String(), strconv.Itoa(b.LoopLen), num(b.MsPerLoop, 4, 0),
				num(b.MinMBps, 4, 0), num(b.AvgMBps, 4, 0), num(b.MBps, 4, 0))...)
		}
		tab.write(bw)
	}
	return bw.Flush()
}

// num formats v with at least digits significant digits and at least
// minDec decimals.
func num(v float64, digits, minDec int) string {
	dec := minDec
	if v != 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
		dec = max(minDec, digits-1-int(math.Floor(math.Log10(math.Abs(v)))))
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// A table aligns columns: the first left columns to the left, the others
// (numbers) to the right. Every line is indented by two spaces.
type table struct {
	left int
	rows [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) {
	var width []int
	for _, r := range t.rows {
		for i, c := range r {
			if i == len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			b.WriteString("  ")
			if i < t.left {
				b.WriteString(c + pad)
			} else {
				b.WriteString(pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
