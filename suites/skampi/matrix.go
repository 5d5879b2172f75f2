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
// rank. Above FullPairs processes the matrix is kept per node (when the
// job has at most FullPairs nodes) or per leaf switch (when Slurm gave the
// topology and there are at most FullPairs switches): a cell is the
// fastest round trip the search measured between a process of one group
// and a process of the other, the diagonal the fastest within a group
// (between different nodes, at the level of switches).

// Configuration keys of the matrix.
const (
	KeyRTT   = "skampi-rtt-"   // KeyRTT+"<a>-<b>": round trips (µs) of a to b, b+1, …
	KeyPlace = "skampi-place-" // KeyPlace+"<member>": its host and topology address ("-" when none)
	KeyRTTOf = "skampi-rtt-of" // what the members are when they are not ranks: "node 12", "switch 3"
)

// What the rows of a matrix are.
const (
	OfRanks    = "rank"
	OfNodes    = "node"
	OfSwitches = "switch"
)

// RTTChunk is the most round trips on one line.
const RTTChunk = 64

// A Matrix holds the round trips of every pair of its N members, µs (NaN:
// not measured), and each member's place. The members are the ranks, or
// (Of) the nodes or the leaf switches: their matrix has a diagonal.
type Matrix struct {
	N      int
	Of     string    // OfRanks, OfNodes or OfSwitches
	RTT    []float32 // N×N, symmetric
	Places []Place
}

// A Place is where a process ran: its host and its switch (the topology
// address without its last part, the node; "" when the job had none).
type Place struct{ Host, Switch string }

// NewMatrix is an empty matrix of n processes.
func NewMatrix(n int) *Matrix { return newMatrixOf(n, OfRanks) }

func newMatrixOf(n int, of string) *Matrix {
	m := &Matrix{N: n, Of: of, RTT: make([]float32, n*n), Places: make([]Place, n)}
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

// Grouped says whether the members are groups of processes (nodes or
// switches), whose matrix has a diagonal.
func (m *Matrix) Grouped() bool { return m.Of != OfRanks }

// first is the first column of row a the matrix holds: a itself when it
// has a diagonal.
func (m *Matrix) first(a int) int {
	if m.Grouped() {
		return a
	}
	return a + 1
}

// Lines are the matrix's configuration lines, key and value: what its
// members are (grouped matrices), the places, then the rows.
func (m *Matrix) Lines() [][2]string {
	var out [][2]string
	if m.Grouped() {
		out = append(out, [2]string{KeyRTTOf, m.Of + " " + strconv.Itoa(m.N)})
	}
	for r, p := range m.Places {
		sw := p.Switch
		if sw == "" {
			sw = "-"
		}
		out = append(out, [2]string{KeyPlace + strconv.Itoa(r), p.Host + " " + sw})
	}
	for a := 0; a < m.N; a++ {
		for b0 := m.first(a); b0 < m.N; b0 += RTTChunk {
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

// ParseMatrix reads the matrix of a run of n processes from its
// configuration: nil without one (no line, or a matrix of ranks with n
// above FullPairs, whose lines are ignored). A line that does not fit the
// matrix is an error.
func ParseMatrix(n int, cfg map[string]string) (*Matrix, error) {
	members, of, err := matrixSize(n, cfg[KeyRTTOf])
	if err != nil || members == 0 {
		return nil, err
	}
	var m *Matrix
	for k, v := range cfg {
		var err error
		switch {
		case k == KeyRTTOf:
		case strings.HasPrefix(k, KeyRTT):
			m = orNew(m, members, of)
			err = m.parseRow(k, v)
		case strings.HasPrefix(k, KeyPlace):
			m = orNew(m, members, of)
			err = m.parsePlace(k, v)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", k, err)
		}
	}
	return m, nil
}

// matrixSize is the members of the matrix of a run of n processes and
// what they are, from the value of KeyRTTOf ("" for ranks); 0 when the
// run has no matrix to read.
func matrixSize(n int, of string) (int, string, error) {
	if of == "" {
		if n < 2 || n > FullPairs {
			return 0, "", nil
		}
		return n, OfRanks, nil
	}
	kind, count, _ := strings.Cut(of, " ")
	g, err := strconv.Atoi(count)
	if (kind != OfNodes && kind != OfSwitches) || err != nil || g < 1 || g > FullPairs || g > n {
		return 0, "", fmt.Errorf("%s: %q: want node or switch and a count from 1 to %d and the %d processes", KeyRTTOf, of, FullPairs, n)
	}
	return g, kind, nil
}

func orNew(m *Matrix, n int, of string) *Matrix {
	if m == nil {
		return newMatrixOf(n, of)
	}
	return m
}

func (m *Matrix) parseRow(k, v string) error {
	as, bs, ok := strings.Cut(strings.TrimPrefix(k, KeyRTT), "-")
	a, err1 := strconv.Atoi(as)
	b0, err2 := strconv.Atoi(bs)
	if !ok || err1 != nil || err2 != nil || a < 0 || a >= m.N || b0 < m.first(a) || b0 >= m.N {
		rel := "<"
		if m.Grouped() {
			rel = "<="
		}
		return fmt.Errorf("not a row of the round trips of %d %ss (%s<a>-<b>, 0 <= a %s b < %d)", m.N, m.Of, KeyRTT, rel, m.N)
	}
	vals := strings.Fields(v)
	if len(vals) > RTTChunk || b0+len(vals) > m.N {
		return fmt.Errorf("%d round trips from %s %d on: more than the line or the %d %ss hold", len(vals), m.Of, b0, m.N, m.Of)
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
		return fmt.Errorf("not the place of one of %d %ss (%s<member>: host switch)", m.N, m.Of, KeyPlace)
	}
	if f[1] == "-" {
		f[1] = ""
	}
	m.Places[r] = Place{Host: f[0], Switch: f[1]}
	return nil
}

// Order is the members ordered by switch, host and index: the order of
// the heat map's rows and columns.
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

// A RankPair is one measured pair of the matrix's members (A == B: the
// diagonal of a grouped matrix).
type RankPair struct {
	A, B int
	Us   float64
}

// Extremes are the k slowest and the k fastest measured pairs, slowest
// first and fastest first.
func (m *Matrix) Extremes(k int) (slow, fast []RankPair) {
	var all []RankPair
	for a := 0; a < m.N; a++ {
		for b := m.first(a); b < m.N; b++ {
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

// Crossing says where the path between a and b goes (results.Path); on
// the diagonal of a grouped matrix, within the node or the switch.
func (m *Matrix) Crossing(a, b int) string {
	if a == b && m.Of == OfNodes {
		return results.PathNode
	}
	if a == b && m.Of == OfSwitches {
		return results.PathSwitch
	}
	pa, pb := m.Places[a], m.Places[b]
	return results.Path(pa.Host, pa.Switch, pb.Host, pb.Switch)
}

// Groups decides what the matrix of a job keeps, from each rank's host
// and topology address (addrs: "" each, or nil, without one): the ranks
// up to limit processes (group nil), else the nodes when there are at
// most limit, else the leaf switches when every rank has one and there
// are at most limit, else nothing (of ""). group[r] is the member rank r
// belongs to, places are the members'.
func Groups(hosts, addrs []string, limit int) (of string, group []int64, places []Place) {
	if len(hosts) <= limit {
		return OfRanks, nil, nil
	}
	addr := func(r int) string {
		if r < len(addrs) {
			return addrs[r]
		}
		return ""
	}
	group, places = groupBy(len(hosts), func(r int) (string, Place) {
		return hosts[r], PlaceOf(hosts[r], addr(r))
	})
	if len(places) <= limit {
		return OfNodes, group, places
	}
	for r := range hosts {
		if results.SwitchOf(addr(r)) == "" {
			return "", nil, nil
		}
	}
	group, places = groupBy(len(hosts), func(r int) (string, Place) {
		sw := results.SwitchOf(addr(r))
		return sw, Place{Host: sw, Switch: sw}
	})
	if len(places) <= limit {
		return OfSwitches, group, places
	}
	return "", nil, nil
}

// groupBy numbers the keys of n ranks in the order they first appear.
func groupBy(n int, key func(r int) (string, Place)) ([]int64, []Place) {
	index := map[string]int64{}
	group := make([]int64, n)
	var places []Place
	for r := range n {
		k, p := key(r)
		g, ok := index[k]
		if !ok {
			g = int64(len(places))
			index[k] = g
			places = append(places, p)
		}
		group[r] = g
	}
	return group, places
}

// GroupMins are the fastest round trips between g groups, picoseconds,
// as the triangle of g(g+1)/2 cells (a <= b) in which every process
// gathers its own and a reduction with MPI_MIN combines them on rank 0;
// NoRTT marks a cell without a measurement.
type GroupMins []int64

// NoRTT is a cell of GroupMins without a measurement.
const NoRTT = math.MaxInt64

// NewGroupMins is the empty triangle of g groups.
func NewGroupMins(g int) GroupMins {
	t := make(GroupMins, g*(g+1)/2)
	for i := range t {
		t[i] = NoRTT
	}
	return t
}

// cell is where the pair (a, b) of g groups lies in the triangle.
func cell(a, b, g int) int {
	if a > b {
		a, b = b, a
	}
	return a*g - a*(a-1)/2 + b - a
}

// Add takes a round trip of ps between groups a and b of g.
func (t GroupMins) Add(a, b, g int, ps int64) {
	i := cell(a, b, g)
	t[i] = min(t[i], ps)
}

// Matrix is the matrix of the groups (of, with their places) that the
// triangle holds, µs.
func (t GroupMins) Matrix(of string, places []Place) *Matrix {
	g := len(places)
	m := newMatrixOf(g, of)
	copy(m.Places, places)
	for a := range g {
		for b := a; b < g; b++ {
			if ps := t[cell(a, b, g)]; ps != NoRTT {
				m.Set(a, b, float64(ps)/1e6)
			}
		}
	}
	return m
}
