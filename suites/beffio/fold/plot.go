package fold

import (
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beffio"
)

// PlotData is what the 3+5 plots of one b_eff_io run need (site/plot.js
// draws them).
type PlotData struct {
	N        int      `json:"n"`
	Best     int      `json:"best"` // the partition of b_eff_io
	Accesses []string `json:"accesses"`
	Types    []string `json:"types"`
	// Chunks are the points of the chunk-size axis, ascending.
	Chunks     []Chunk         `json:"chunks"`
	Partitions []PlotPartition `json:"partitions"`
}

// A Chunk is one disk chunk size l on the pseudo-logarithmic axis of the
// b_eff_io plots: the chunk sizes of the pattern table (1 KiB, 1 KiB+8,
// 32 KiB, 32 KiB+8, 1 MiB, 1 MiB+8, MPART) are equidistant, in size
// order, as on the seed's plots; so the non-wellformed "+8" twins stand
// beside their well-formed sizes, and MPART, which differs between
// systems, has the same place in every run.
type Chunk struct {
	L     int64  `json:"l"`
	X     int    `json:"x"`
	Label string `json:"label"` // e.g. "32 KiB+8", "MPART 94.2 MiB"
	Tick  string `json:"tick"`  // the same, without MPART's size
	// Odd marks a non-wellformed "+8" twin: the plots draw the twins as a
	// curve of their own, never joined to the well-formed sizes beside
	// them.
	Odd bool `json:"odd,omitempty"`
}

// A PlotPartition is one partition: its value and the pattern bandwidths
// in MB/s per access method, pattern type and chunk (null: none).
type PlotPartition struct {
	N     int                  `json:"n"`
	Value report.PlotNum       `json:"value"`
	BW    [][][]report.PlotNum `json:"bw"`
}

// plotted reports whether pattern p is a point of the b_eff_io curves: not
// the warm-ups and the fill patterns (U = 0), not the scatter pattern whose
// memory chunk is twice its 1 MiB disk chunk (it would share the 1 MiB point
// with the scatter pattern whose chunks are equal).
func plotted(p beffio.AccessPattern) bool {
	return p.U > 0 && !p.Fill && !(p.Type == beffio.Scatter && p.Mem == 2*p.L)
}

// newPlotData computes the points of folded run p.
func newPlotData(p *Folded) *PlotData {
	cfg := p.Run.Config
	d := &PlotData{N: cfg.N, Best: p.BestN}
	for _, a := range beffio.Accesses {
		d.Accesses = append(d.Accesses, a.String())
	}
	for _, t := range beffio.Types {
		d.Types = append(d.Types, t.String())
	}
	table := beffio.Table(cfg.MPART)
	d.Chunks = chunks(table, cfg.MPART)
	index := map[int64]int{}
	for i, c := range d.Chunks {
		index[c.L] = i
	}
	for _, part := range p.Partitions {
		pp := PlotPartition{N: part.N, Value: report.PlotNum(part.Value)}
		for _, a := range beffio.Accesses {
			pp.BW = append(pp.BW, bandwidths(table, part.Patterns[a], index, len(d.Chunks)))
		}
		d.Partitions = append(d.Partitions, pp)
	}
	return d
}

// chunks are the points of the chunk-size axis of the table.
func chunks(table []beffio.AccessPattern, mpart int64) []Chunk {
	var out []Chunk
	seen := map[int64]bool{}
	for _, pat := range table {
		if plotted(pat) && !seen[pat.L] {
			seen[pat.L] = true
			c := Chunk{L: pat.L, Label: chunkLabel(pat.L)}
			c.Tick, c.Odd = c.Label, strings.HasSuffix(c.Label, "+8")
			if pat.L == mpart {
				c.Label, c.Tick = "MPART "+c.Label, "MPART"
			}
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].L < out[j].L })
	for i := range out {
		out[i].X = i
	}
	return out
}

// bandwidths places the pattern lines of one access method: per type, the
// bandwidth at each chunk.
func bandwidths(table []beffio.AccessPattern, lines []*Measurement, index map[int64]int, n int) [][]report.PlotNum {
	byType := make([][]report.PlotNum, len(beffio.Types))
	for t := range byType {
		byType[t] = make([]report.PlotNum, n)
		for i := range byType[t] {
			byType[t][i] = report.Missing
		}
	}
	done := map[[2]int64]bool{}
	for _, m := range lines {
		pat := table[m.Pat]
		k := [2]int64{int64(m.Type), pat.L}
		if !plotted(pat) || done[k] {
			continue
		}
		done[k] = true
		byType[m.Type][index[pat.L]] = report.PlotNum(m.MBps)
	}
	return byType
}

// chunkLabel writes a disk chunk as the seed's plots do: "1 KiB",
// "32 KiB+8", "1 MiB+8", "94.2 MiB".
func chunkLabel(l int64) string {
	const kib, mib = beffio.KiB, beffio.MiB
	plus := ""
	if w := l - 8; w > 0 && bits.OnesCount64(uint64(w)) == 1 && w >= kib {
		l, plus = w, "+8"
	}
	switch {
	case l%mib == 0:
		return fmt.Sprintf("%d MiB%s", l/mib, plus)
	case l%kib == 0 && l < mib:
		return fmt.Sprintf("%d KiB%s", l/kib, plus)
	case l >= mib:
		return results.Sig3(float64(l)/mib) + " MiB" + plus
	case l >= kib:
		return results.Sig3(float64(l)/kib) + " KiB" + plus
	}
	return strconv.FormatInt(l, 10) + " B" + plus
}
