package report

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"

	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beffio"
	"github.com/beff-suite/beff/internal/fold"
)

// The data of the pages, embedded as JSON and drawn by assets/report.js.

// A num is a figure in the page data: 6 significant digits, null when NaN
// (not measured).
type num float64

func (v num) MarshalJSON() ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', 6, 64), nil
}

var missing = num(math.NaN())

// Method names of the b_eff data: "best" (the best of the methods, the
// value b_eff uses) and the methods.
func methodNames() []string {
	out := []string{"best"}
	for _, m := range beff.Methods {
		out = append(out, m.String())
	}
	return out
}

// beffData is what the plots of one b_eff run need.
type beffData struct {
	N     int      `json:"n"`
	Sizes []int64  `json:"sizes"` // message sizes, bytes
	X     []num    `json:"x"`     // their positions on the seed's size axis
	Ticks []string `json:"ticks"` // their labels
	// Methods are the keys of Curve.Y: "best", then the methods.
	Methods []string `json:"methods"`
	// Curves: the classes "rings" and "random" (logavg over their
	// patterns), then every pattern in measurement order.
	Curves []curve `json:"curves"`
}

// A curve is the bandwidth of a pattern or class over the sizes, in MB/s
// (not per process), per method; null where a method was not measured.
type curve struct {
	Name string           `json:"name"`
	Kind string           `json:"kind"` // class, ring, random or extra
	Y    map[string][]num `json:"y"`
}

// sizePos is the position of message size l on the seed's size axis
// (SPEC §1.2): the 13 sizes 1 B … 4 KiB and the 8 geometric sizes up to
// lmax are equidistant, so size index i sits at i.
func sizePos(l, lmax int64) float64 {
	if l <= 4096 || lmax <= 4096 {
		return math.Log2(float64(l))
	}
	return 12 + 8*math.Log(float64(l)/4096)/math.Log(float64(lmax)/4096)
}

// newBeffData computes the curves of protocol p.
func newBeffData(p *fold.Protocol) *beffData {
	cfg := &p.Run.Config
	d := &beffData{N: cfg.N, Sizes: cfg.Sizes, Methods: methodNames()}
	for _, l := range cfg.Sizes {
		x := sizePos(l, cfg.Lmax)
		if r := math.Round(x); math.Abs(x-r) < 0.02 {
			x = r // round(4096·a^k) sits at k up to the rounding
		}
		d.X = append(d.X, num(x))
		d.Ticks = append(d.Ticks, bytesLabel(l))
	}
	values := func(t *fold.PatternTable, method string) []num {
		y := make([]num, len(t.Rows))
		for i, row := range t.Rows {
			y[i] = missing
			for _, m := range row.Measured {
				if method == "best" && m == row.Best || m.Method.String() == method {
					y[i] = num(m.MBps)
				}
			}
		}
		return y
	}
	var all []curve
	for _, t := range p.Patterns {
		c := curve{Name: t.Name, Kind: t.Kind.String(), Y: map[string][]num{}}
		for _, m := range d.Methods {
			if m == "best" || slices.ContainsFunc(t.Methods, func(x beff.Method) bool { return x.String() == m }) {
				c.Y[m] = values(t, m)
			}
		}
		all = append(all, c)
	}
	for _, class := range []struct{ kind, name string }{
		{beff.KindRing.String(), "rings (logavg)"},
		{beff.KindRandom.String(), "random (logavg)"},
	} {
		c := curve{Name: class.name, Kind: "class", Y: map[string][]num{}}
		for _, m := range d.Methods {
			y := make([]num, len(cfg.Sizes))
			for i := range y {
				var v []float64
				for _, pc := range all {
					if pc.Kind == class.kind {
						if py, ok := pc.Y[m]; ok && !math.IsNaN(float64(py[i])) {
							v = append(v, float64(py[i]))
						} else {
							v = nil // a pattern lacks the method here: no average
							break
						}
					}
				}
				y[i] = missing
				if x, err := beff.LogAvg(v); err == nil && len(v) > 0 {
					y[i] = num(x)
				}
			}
			c.Y[m] = y
		}
		d.Curves = append(d.Curves, c)
	}
	d.Curves = append(d.Curves, all...)
	return d
}

// ioData is what the plots of one b_eff_io run need.
type ioData struct {
	N        int      `json:"n"`
	Best     int      `json:"best"` // the partition of b_eff_io
	Accesses []string `json:"accesses"`
	Types    []string `json:"types"`
	// Chunks are the points of the chunk-size axis, ascending.
	Chunks     []chunk  `json:"chunks"`
	Partitions []ioPart `json:"partitions"`
}

// A chunk is one disk chunk size l on the pseudo-logarithmic axis of the
// b_eff_io plots: the chunk sizes of the pattern table (1 KiB, 1 KiB+8,
// 32 KiB, 32 KiB+8, 1 MiB, 1 MiB+8, MPART) are equidistant, in size
// order, as on the seed's plots; so the non-wellformed "+8" twins stand
// beside their well-formed sizes, and MPART, which differs between
// systems, has the same place in every run.
type chunk struct {
	L     int64  `json:"l"`
	X     int    `json:"x"`
	Label string `json:"label"` // e.g. "32 KiB+8", "MPART 94.2 MiB"
	Tick  string `json:"tick"`  // the same, without MPART's size
}

// An ioPart is one partition: its value and the pattern bandwidths in MB/s
// per access method, pattern type and chunk (null: none).
type ioPart struct {
	N     int       `json:"n"`
	Value num       `json:"value"`
	BW    [][][]num `json:"bw"`
}

// plotted reports whether pattern p is a point of the b_eff_io curves: not
// the warm-ups and the fill patterns (U = 0), not the scatter pattern whose
// memory chunk is twice its 1 MiB disk chunk (it would share the 1 MiB point
// with the scatter pattern whose chunks are equal).
func plotted(p beffio.Pattern) bool {
	return p.U > 0 && !p.Fill && !(p.Type == beffio.Scatter && p.Mem == 2*p.L)
}

// newIOData computes the points of protocol p.
func newIOData(p *fold.IOProtocol) *ioData {
	cfg := &p.Run.Config
	d := &ioData{N: cfg.N, Best: p.BestN}
	for _, a := range beffio.Accesses {
		d.Accesses = append(d.Accesses, a.String())
	}
	for _, t := range beffio.Types {
		d.Types = append(d.Types, t.String())
	}
	table := beffio.Table(cfg.MPART)
	seen := map[int64]bool{}
	for _, pat := range table {
		if plotted(pat) && !seen[pat.L] {
			seen[pat.L] = true
			c := chunk{L: pat.L, Label: chunkLabel(pat.L)}
			c.Tick = c.Label
			if pat.L == cfg.MPART {
				c.Label, c.Tick = "MPART "+c.Label, "MPART"
			}
			d.Chunks = append(d.Chunks, c)
		}
	}
	sort.Slice(d.Chunks, func(i, j int) bool { return d.Chunks[i].L < d.Chunks[j].L })
	index := map[int64]int{}
	for i := range d.Chunks {
		d.Chunks[i].X = i
		index[d.Chunks[i].L] = i
	}
	for _, part := range p.Partitions {
		ip := ioPart{N: part.N, Value: num(part.Value)}
		for _, a := range beffio.Accesses {
			byType := make([][]num, len(beffio.Types))
			for t := range byType {
				byType[t] = make([]num, len(d.Chunks))
				for i := range byType[t] {
					byType[t][i] = missing
				}
			}
			done := map[[2]int64]bool{}
			for _, m := range part.Patterns[a] {
				pat := table[m.Pat]
				k := [2]int64{int64(m.Type), pat.L}
				if !plotted(pat) || done[k] {
					continue
				}
				done[k] = true
				byType[m.Type][index[pat.L]] = num(m.MBps)
			}
			ip.BW = append(ip.BW, byType)
		}
		d.Partitions = append(d.Partitions, ip)
	}
	return d
}

// bytesLabel writes a message size for an axis: bytes up to 4 KiB in
// powers of two ("1", "4K"), else in KiB or MiB with 3 significant digits.
func bytesLabel(l int64) string {
	const kib, mib = 1 << 10, 1 << 20
	switch {
	case l < kib:
		return strconv.FormatInt(l, 10)
	case l%kib == 0 && l < mib:
		return strconv.FormatInt(l/kib, 10) + "K"
	case l < mib:
		return sig3(float64(l)/kib) + "K"
	case l%mib == 0:
		return strconv.FormatInt(l/mib, 10) + "M"
	}
	return sig3(float64(l)/mib) + "M"
}

// chunkLabel writes a disk chunk as the seed's plots do: "1 KiB",
// "32 KiB+8", "1 MiB+8", "94.2 MiB".
func chunkLabel(l int64) string {
	const kib, mib = 1 << 10, 1 << 20
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
		return sig3(float64(l)/mib) + " MiB" + plus
	case l >= kib:
		return sig3(float64(l)/kib) + " KiB" + plus
	}
	return strconv.FormatInt(l, 10) + " B" + plus
}

// sig3 formats v with 3 significant digits, without exponent.
func sig3(v float64) string {
	dec := max(0, 2-int(math.Floor(math.Log10(v))))
	return strconv.FormatFloat(v, 'f', dec, 64)
}
