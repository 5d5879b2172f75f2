package skampi

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toyMatrix is 5 processes: 0,1 on a (leaf0), 2,3 on b (leaf0), 4 on c
// (leaf1); the round trip grows with the path: node 1, switch 10, spine 100
// (+ the ranks, to tell pairs apart); pair 1-3 was not measured.
func toyMatrix() *Matrix {
	m := NewMatrix(5)
	hosts := []string{"a", "a", "b", "b", "c"}
	for r, h := range hosts {
		sw := "spine.leaf0"
		if h == "c" {
			sw = "spine.leaf1"
		}
		m.Places[r] = PlaceOf(h, sw+"."+h)
	}
	for a := 0; a < 5; a++ {
		for b := a + 1; b < 5; b++ {
			if a == 1 && b == 3 {
				continue
			}
			base := map[string]float64{"node": 1, "switch": 10, "spine": 100}[m.Crossing(a, b)]
			m.Set(a, b, base+float64(a+b)/10)
		}
	}
	return m
}

func TestMatrixRoundTrip(t *testing.T) {
	m := toyMatrix()
	cfg := map[string]string{}
	for _, l := range m.Lines() {
		cfg[l[0]] = l[1]
	}
	assert.Equal(t, "a spine.leaf0", cfg["skampi-place-0"])
	assert.Equal(t, "10.3 - 100.5", cfg["skampi-rtt-1-2"], "an unmeasured pair is -")
	got, err := ParseMatrix(5, cfg)
	require.NoError(t, err)
	assert.Equal(t, m.Places, got.Places)
	for a := 0; a < 5; a++ {
		for b := 0; b < 5; b++ {
			x, okx := m.At(a, b)
			y, oky := got.At(a, b)
			assert.Equal(t, okx, oky, "%d-%d", a, b)
			if okx {
				assert.InDelta(t, x, y, 1e-3, "%d-%d", a, b)
			}
		}
	}
	none, err := ParseMatrix(5, map[string]string{"skampi-suites": "default"})
	assert.NoError(t, err)
	assert.Nil(t, none, "no lines, no matrix")
	big, err := ParseMatrix(FullPairs+1, cfg)
	assert.NoError(t, err)
	assert.Nil(t, big, "above FullPairs no matrix is read")
}

func TestMatrixChunks(t *testing.T) {
	m := NewMatrix(2*RTTChunk + 3)
	for b := 1; b < m.N; b++ {
		m.Set(0, b, float64(b))
	}
	rows := 0
	for _, l := range m.Lines() {
		if strings.HasPrefix(l[0], KeyRTT+"0-") {
			rows++
			assert.LessOrEqual(t, len(strings.Fields(l[1])), RTTChunk, l[0])
		}
	}
	assert.Equal(t, 3, rows, "row 0 of %d processes in chunks of %d", m.N, RTTChunk)
}

func TestParseMatrixHostile(t *testing.T) {
	for k, v := range map[string]string{
		"skampi-rtt-0-5":        "1",         // b out of range
		"skampi-rtt-3-1":        "1",         // b below a
		"skampi-rtt--1-2":       "1",         // negative
		"skampi-rtt-0":          "1",         // no b
		"skampi-rtt-0-1":        "1 2 3 4 5", // past the last process
		"skampi-rtt-0-2":        "NaN",       // not a time
		"skampi-rtt-1-2":        "-3",        // negative time
		"skampi-rtt-2-3":        "1e400",     // infinite
		"skampi-rtt-x-3":        "1",         // not a number
		"skampi-place-5":        "h -",       // rank out of range
		"skampi-place-0":        "h",         // no switch
		"skampi-rtt-0-1 ":       strings.Repeat("1 ", RTTChunk+1),
		"skampi-rtt-999999-1":   "1",
		"skampi-place-99999999": "h -",
	} {
		_, err := ParseMatrix(5, map[string]string{k: v})
		assert.Error(t, err, "%s: %s", k, v)
	}
}

func TestMatrixExtremesAndOrder(t *testing.T) {
	m := toyMatrix()
	slow, fast := m.Extremes(2)
	assert.Equal(t, []RankPair{{3, 4, 100.7}, {2, 4, 100.6}}, round(slow))
	assert.Equal(t, []RankPair{{0, 1, 1.1}, {2, 3, 1.5}}, round(fast))
	for _, p := range slow {
		assert.Equal(t, "spine", m.Crossing(p.A, p.B))
	}
	m.Places[0], m.Places[4] = m.Places[4], m.Places[0] // rank 0 on c, rank 4 on a
	assert.Equal(t, []int{1, 4, 2, 3, 0}, m.Order(), "by switch, host, rank")
	m.Places[2].Switch = ""
	assert.Equal(t, "network", m.Crossing(2, 0))
}

func round(ps []RankPair) []RankPair {
	for i := range ps {
		ps[i].Us = math.Round(ps[i].Us*10) / 10
	}
	return ps
}

func ExampleMatrix_Lines() {
	m := NewMatrix(3)
	m.Places = []Place{{"n0", "s.l0"}, {"n0", "s.l0"}, {"n1", ""}}
	m.Set(0, 1, 1.5)
	m.Set(0, 2, 40)
	m.Set(1, 2, 41.25)
	for _, l := range m.Lines() {
		fmt.Printf("%s: %s\n", l[0], l[1])
	}
	// Output:
	// skampi-place-0: n0 s.l0
	// skampi-place-1: n0 s.l0
	// skampi-place-2: n1 -
	// skampi-rtt-0-1: 1.5 40
	// skampi-rtt-1-2: 41.25
}

// TestGroups: up to the limit a row per rank; above it a row per node, or
// per leaf switch when the nodes are too many too and every rank has a
// topology address; else nothing.
func TestGroups(t *testing.T) {
	hosts := []string{"n0", "n0", "n1", "n1", "n2", "n2"}
	addrs := []string{"s.l0.n0", "s.l0.n0", "s.l0.n1", "s.l0.n1", "s.l1.n2", "s.l1.n2"}
	of, group, places := Groups(hosts, addrs, 6)
	assert.Equal(t, OfRanks, of)
	assert.Nil(t, group)
	assert.Nil(t, places)

	of, group, places = Groups(hosts, addrs, 5)
	assert.Equal(t, OfNodes, of)
	assert.Equal(t, []int64{0, 0, 1, 1, 2, 2}, group)
	assert.Equal(t, []Place{{"n0", "s.l0"}, {"n1", "s.l0"}, {"n2", "s.l1"}}, places)

	of, group, places = Groups(hosts, addrs, 2)
	assert.Equal(t, OfSwitches, of)
	assert.Equal(t, []int64{0, 0, 0, 0, 1, 1}, group)
	assert.Equal(t, []Place{{"s.l0", "s.l0"}, {"s.l1", "s.l1"}}, places)

	of, _, _ = Groups(hosts, nil, 2)
	assert.Equal(t, "", of, "too many nodes and no switches")
	of, _, _ = Groups(hosts, addrs, 1)
	assert.Equal(t, "", of, "too many switches")
}

// TestGroupMins: the triangle keeps the fastest round trip of each pair
// of groups in either order, and becomes the grouped matrix, diagonal
// included, whose lines read back.
func TestGroupMins(t *testing.T) {
	g := NewGroupMins(3)
	assert.Len(t, g, 6)
	g.Add(2, 0, 3, 9e6)
	g.Add(0, 2, 3, 7e6)
	g.Add(1, 1, 3, 5e5)
	g.Add(0, 0, 3, 1e5)
	seen := map[int]bool{}
	for a := range 3 {
		for b := a; b < 3; b++ {
			i := cell(a, b, 3)
			assert.False(t, seen[i], "cell %d-%d", a, b)
			seen[i] = true
		}
	}
	places := []Place{{"n0", "s.l0"}, {"n1", "s.l0"}, {"n2", "s.l1"}}
	m := g.Matrix(OfNodes, places)
	v, ok := m.At(2, 0)
	assert.True(t, ok)
	assert.Equal(t, 7.0, v, "the faster of two")
	_, ok = m.At(0, 1)
	assert.False(t, ok, "not timed")
	assert.Equal(t, "node", m.Crossing(1, 1))
	assert.Equal(t, "spine", m.Crossing(0, 2))
	slow, fast := m.Extremes(1)
	assert.Equal(t, []RankPair{{0, 2, 7}}, slow)
	assert.Equal(t, []RankPair{{0, 0, 0.1}}, round(fast), "the diagonal counts")

	cfg := map[string]string{}
	for _, l := range m.Lines() {
		cfg[l[0]] = l[1]
	}
	assert.Equal(t, "node 3", cfg[KeyRTTOf])
	assert.Equal(t, "0.1 - 7", cfg["skampi-rtt-0-0"])
	got, err := ParseMatrix(2000, cfg)
	require.NoError(t, err)
	assert.Equal(t, OfNodes, got.Of)
	assert.Equal(t, places, got.Places)
	v, _ = got.At(1, 1)
	assert.InDelta(t, 0.5, v, 1e-6)

	sw := NewGroupMins(2)
	sw.Add(0, 1, 2, 3e6)
	ms := sw.Matrix(OfSwitches, []Place{{"s.l0", "s.l0"}, {"s.l1", "s.l1"}})
	assert.Equal(t, "switch", ms.Crossing(0, 0))
	assert.Equal(t, "spine", ms.Crossing(0, 1))
}

// TestParseGroupedHostile: a grouped matrix's lines that do not fit are
// errors.
func TestParseGroupedHostile(t *testing.T) {
	for _, cfg := range []map[string]string{
		{KeyRTTOf: "rack 3"},
		{KeyRTTOf: "node"},
		{KeyRTTOf: "node 0"},
		{KeyRTTOf: "node 1025"},
		{KeyRTTOf: "node 9"},                              // more nodes than processes
		{KeyRTTOf: "node 3", "skampi-rtt-2-1": "1"},       // below the diagonal
		{KeyRTTOf: "node 3", "skampi-rtt-3-3": "1"},       // no such node
		{KeyRTTOf: "node 3", "skampi-rtt-1-1": "1 2 3"},   // past the last node
		{KeyRTTOf: "switch 2", "skampi-place-2": "s -"},   // no such switch
		{KeyRTTOf: "switch 2", "skampi-rtt-0-0": "1e999"}, // infinite
	} {
		_, err := ParseMatrix(8, cfg)
		assert.Error(t, err, "%v", cfg)
	}
}
