package skampi

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// The round-trip matrix: up to FullPairs processes the pair search times
// every pair, and the run keeps all of those round trips, written as short
// configuration lines (each row of the upper triangle in chunks of
// RTTChunk values) with each rank's place (host and topology address), so
// that the report can draw them as a heat map ordered by switch, node and
// rank. Above FullPairs processes no matrix is kept.

// Configuration keys of the matrix.
const (
	KeyRTT   = "skampi-rtt-"   // KeyRTT+"<a>-<b>": round trips (µs) of a to b, b+1, …
	KeyPlace = "skampi-place-" // KeyPlace+"<rank>": its host and topology address ("-" when none)
)

// RTTChunk is the most round trips on one line.
const RTTChunk = 64

// A Matrix holds the round trips of every pair of N processes, µs (NaN:
// not measured), and each process's place.
type Matrix struct {
	N      int
	RTT    []float32 // N×N, symmetric
	Places []Place
}

// A Place is where a process ran: its host and its switch (the topology
// address without its last part, the node; "" when the job had none).
type Place struct{ Host, Switch string }

// NewMatrix is an empty matrix of n processes.
func NewMatrix(n int) *Matrix {
	m := &Matrix{N: n, RTT: make([]float32, n*n), Places: make([]Place, n)}
	for i := range m.RTT {
		m.RTT[i] = float32(math.NaN())
	}
	return m
}

// Set sets the round trip of a and b, µs.
func (m *Matrix) Set(a, b int, us float64) {
	m.RTT[a*m.N+b], m.RTT[b*m.N+a] = float32(us), float32(us)
}

// At is the round trip of a and b, µs, and whether it was measured.
func (m *Matrix) At(a, b int) (float64, bool) {
	v := m.RTT[a*m.N+b]
	return float64(v), !math.IsNaN(float64(v))
}

// PlaceOf is the place of a process from its host and its topology
// address ("spine.leaf0.n3": switch "spine.leaf0").
func PlaceOf(host, addr string) Place { return Place{Host: host, Switch: results.SwitchOf(addr)} }

// Lines are the matrix's configuration lines, key and value: the places,
// then the rows.
func (m *Matrix) Lines() [][2]string {
	var out [][2]string
	for r, p := range m.Places {
		sw := p.Switch
		if sw == "" {
			sw = "-"
		}
		out = append(out, [2]string{KeyPlace + strconv.Itoa(r), p.Host + " " + sw})
	}
	for a := 0; a < m.N; a++ {
		for b0 := a + 1; b0 < m.N; b0 += RTTChunk {
			var vals []string
			for b := b0; b < min(m.N, b0+RTTChunk); b++ {
				v, ok := m.At(a, b)
				if !ok {
					vals = append(vals, "-")
					continue
				}
				vals = append(vals, strconv.FormatFloat(v, 'g', 4, 64))
			}
			out = append(out, [2]string{fmt.Sprintf("%s%d-%d", KeyRTT, a, b0), strings.Join(vals, " ")})
		}
	}
	return out
}

// ParseMatrix reads the matrix of n processes from a run's configuration:
// nil without one (no line, or n above FullPairs, whose lines are
// ignored). A line that does not fit n is an error.
func ParseMatrix(n int, cfg map[string]string) (*Matrix, error) {
	if n < 2 || n > FullPairs {
		return nil, nil
	}
	var m *Matrix
	for k, v := range cfg {
		var err error
		switch {
		case strings.HasPrefix(k, KeyRTT):
			m = orNew(m, n)
			err = m.parseRow(k, v)
		case strings.HasPrefix(k, KeyPlace):
			m = orNew(m, n)
			err = m.parsePlace(k, v)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", k, err)
		}
	}
	return m, nil
}

func orNew(m *Matrix, n int) *Matrix {
	if m == nil {
		return NewMatrix(n)
	}
	return m
}

func (m *Matrix) parseRow(k, v string) error {
	as, bs, ok := strings.Cut(strings.TrimPrefix(k, KeyRTT), "-")
	a, err1 := strconv.Atoi(as)
	b0, err2 := strconv.Atoi(bs)
	if !ok || err1 != nil || err2 != nil || a < 0 || b0 <= a || b0 >= m.N {
		return fmt.Errorf("not a row of the round trips of %d processes (%s<a>-<b>, 0 <= a < b < %d)", m.N, KeyRTT, m.N)
	}
	vals := strings.Fields(v)
	if len(vals) > RTTChunk || b0+len(vals) > m.N {
		return fmt.Errorf("%d round trips from process %d on: more than the line or the %d processes hold", len(vals), b0, m.N)
	}
	for i, s := range vals {
		if s == "-" {
			continue
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || x > math.MaxFloat32 {
			return fmt.Errorf("round trip %q: not a time in µs", s)
		}
		m.Set(a, b0+i, x)
	}
	return nil
}

func (m *Matrix) parsePlace(k, v string) error {
	r, err := strconv.Atoi(strings.TrimPrefix(k, KeyPlace))
	f := strings.Fields(v)
	if err != nil || r < 0 || r >= m.N || len(f) != 2 {
		return fmt.Errorf("not the place of one of %d processes (%s<rank>: host switch)", m.N, KeyPlace)
	}
	if f[1] == "-" {
		f[1] = ""
	}
	m.Places[r] = Place{Host: f[0], Switch: f[1]}
	return nil
}

// Order is the ranks ordered by switch, host and rank: the order of the
// heat map's rows and columns.
func (m *Matrix) Order() []int {
	order := make([]int, m.N)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		pa, pb := m.Places[a], m.Places[b]
		return cmp.Or(cmp.Compare(pa.Switch, pb.Switch), cmp.Compare(pa.Host, pb.Host))
	})
	return order
}

// A RankPair is one measured pair of the matrix.
type RankPair struct {
	A, B int
	Us   float64
}

// Extremes are the k slowest and the k fastest measured pairs, slowest
// first and fastest first.
func (m *Matrix) Extremes(k int) (slow, fast []RankPair) {
	var all []RankPair
	for a := 0; a < m.N; a++ {
		for b := a + 1; b < m.N; b++ {
			if v, ok := m.At(a, b); ok {
				all = append(all, RankPair{a, b, v})
			}
		}
	}
	slices.SortStableFunc(all, func(x, y RankPair) int { return cmp.Compare(y.Us, x.Us) })
	slow = all[:min(k, len(all))]
	fast = slices.Clone(all[max(0, len(all)-k):])
	slices.Reverse(fast)
	return slow, fast
}

// Crossing says where the path between a and b goes (results.Path).
func (m *Matrix) Crossing(a, b int) string {
	pa, pb := m.Places[a], m.Places[b]
	return results.Path(pa.Host, pa.Switch, pb.Host, pb.Switch)
}
