package driver

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// sixRanks is a job of 6 processes, two on each of n0, n1 (leaf0) and n2
// (leaf1).
var sixRanks = harness.Job{
	Hosts:     []string{"n0", "n0", "n1", "n1", "n2", "n2"},
	TopoAddrs: []string{"s.l0.n0", "s.l0.n0", "s.l0.n1", "s.l0.n1", "s.l1.n2", "s.l1.n2"},
}

// fakeRTT is a round trip by the path, ps: within a node 1 µs, through a
// switch 10 µs, across the spine 100 µs, plus (a+b)/10 µs to tell the
// pairs apart.
func fakeRTT(a, b int) int64 {
	j := sixRanks
	path := results.Path(j.Hosts[a], results.SwitchOf(j.TopoAddrs[a]), j.Hosts[b], results.SwitchOf(j.TopoAddrs[b]))
	base := map[string]float64{results.PathNode: 1, results.PathSwitch: 10, results.PathSpine: 100}[path]
	return int64((base + float64(a+b)/10) * 1e6)
}

// searchMatrix runs the pair search's bookkeeping on the 6 simulated
// ranks with the fake round trips and returns rank 0's matrix.
func searchMatrix(t *testing.T, limit int) *skampi.Matrix {
	t.Helper()
	var mu sync.Mutex
	var m *skampi.Matrix
	harnesstest.Fine(t, harnesstest.Run(t, 6, sixRanks, func(s *harness.Session) {
		keep := planMatrix(s, limit)
		for r := range skampi.RoundCount(s.Size) {
			if q := skampi.Partner(r, s.Rank, s.Size); q > s.Rank {
				keep.add(s, q, fakeRTT(s.Rank, q))
			}
		}
		got := keep.finish(s)
		if s.IsRoot() {
			mu.Lock()
			m = got
			mu.Unlock()
		} else {
			assert.Nil(t, got, "rank %d holds no matrix", s.Rank)
		}
	}))
	require.NotNil(t, m)
	return m
}

// TestMatrixOfRanks: up to the limit every pair's round trip reaches rank
// 0 as measured, with each rank's place.
func TestMatrixOfRanks(t *testing.T) {
	m := searchMatrix(t, 6)
	assert.Equal(t, skampi.OfRanks, m.Of)
	for a := range 6 {
		for b := a + 1; b < 6; b++ {
			v, ok := m.At(a, b)
			require.True(t, ok, "%d-%d", a, b)
			assert.InDelta(t, float64(fakeRTT(a, b))/1e6, v, 1e-3, "%d-%d", a, b)
		}
	}
	assert.Equal(t, skampi.Place{Host: "n2", Switch: "s.l1"}, m.Places[5])
}

// TestMatrixOfNodes: above the limit each pair of nodes keeps the fastest
// round trip between their processes, the diagonal the fastest within a
// node.
func TestMatrixOfNodes(t *testing.T) {
	m := searchMatrix(t, 4)
	require.Equal(t, skampi.OfNodes, m.Of)
	require.Equal(t, 3, m.N)
	want := map[[2]int]int64{
		{0, 0}: fakeRTT(0, 1), {1, 1}: fakeRTT(2, 3), {2, 2}: fakeRTT(4, 5),
		{0, 1}: fakeRTT(0, 2), {0, 2}: fakeRTT(0, 4), {1, 2}: fakeRTT(2, 4),
	}
	for k, ps := range want {
		v, ok := m.At(k[0], k[1])
		require.True(t, ok, "%v", k)
		assert.InDelta(t, float64(ps)/1e6, v, 1e-3, "nodes %v: the fastest of their pairs", k)
	}
	slow, fast := m.Extremes(1)
	assert.Equal(t, "spine", m.Crossing(slow[0].A, slow[0].B))
	assert.Equal(t, "node", m.Crossing(fast[0].A, fast[0].B))
}

// TestMatrixOfSwitches: with more nodes than the limit, the leaf
// switches: leaf0's diagonal counts only pairs on different nodes (n0
// with n1), leaf1's none (its two processes share n2).
func TestMatrixOfSwitches(t *testing.T) {
	m := searchMatrix(t, 2)
	require.Equal(t, skampi.OfSwitches, m.Of)
	require.Equal(t, 2, m.N)
	v, ok := m.At(0, 0)
	require.True(t, ok)
	assert.InDelta(t, float64(fakeRTT(0, 2))/1e6, v, 1e-3, "leaf0 between its nodes")
	v, ok = m.At(0, 1)
	require.True(t, ok)
	assert.InDelta(t, float64(fakeRTT(0, 4))/1e6, v, 1e-3, "across the spine")
	_, ok = m.At(1, 1)
	assert.False(t, ok, "leaf1 has one node")
}

// searchWith runs the pair search on the 6 simulated ranks with round
// trips rtt(a, b, n) in ps (n: how many times a-b was timed before) and
// returns every rank's result and how often each pair was timed.
func searchWith(t *testing.T, rtt func(a, b, n int) int64) ([]Prepared, map[[2]int]int) {
	t.Helper()
	old := pairRTT
	t.Cleanup(func() { pairRTT = old; rttMatrix = nil })
	var mu sync.Mutex
	met := map[[2]int]int{}
	pairRTT = func(s *harness.Session, q int, initiator bool, rounds int) (float64, error) {
		if !initiator {
			return 0, nil
		}
		mu.Lock()
		defer mu.Unlock()
		want := skampi.RTTRounds
		if met[[2]int{s.Rank, q}] > 0 {
			want = skampi.RetimeRounds
		}
		assert.Equal(t, want, rounds, "round trips of %d-%d", s.Rank, q)
		k := [2]int{s.Rank, q}
		met[k]++
		return float64(rtt(s.Rank, q, met[k]-1)) / 1e12, nil
	}
	got := make([]Prepared, 6)
	harnesstest.Fine(t, harnesstest.Run(t, 6, sixRanks, func(s *harness.Session) {
		p := pairSearch(s, 1024)
		mu.Lock()
		got[s.Rank] = p
		mu.Unlock()
	}))
	return got, met
}

// TestPairSearch: every pair meets once in the rounds of disjoint pairs,
// the slowest skampi.RetimeTimes more; the job's slowest and fastest pairs and
// their round trips reach every rank; the matrix reaches rank 0.
func TestPairSearch(t *testing.T) {
	got, met := searchWith(t, func(a, b, _ int) int64 { return fakeRTT(a, b) })
	assert.Len(t, met, 15, "every pair of 6")
	for k, n := range met {
		if k != [2]int{3, 5} {
			assert.Equal(t, 1, n, "pair %v met once", k)
		}
	}
	assert.Equal(t, 1+skampi.RetimeTimes, met[[2]int{3, 5}], "the slowest re-timed")
	// the slowest: across the spine, the largest a+b (3, 5); the fastest:
	// within a node, the smallest a+b (0, 1)
	for r, p := range got {
		assert.Equal(t, skampi.Pair{A: 3, B: 5}, p.Max, "rank %d", r)
		assert.Equal(t, skampi.Pair{A: 0, B: 1}, p.Min, "rank %d", r)
		assert.InDelta(t, 100.8e-6, p.MaxRTT, 1e-12)
		assert.InDelta(t, 1.1e-6, p.MinRTT, 1e-12)
		assert.Equal(t, 5, p.PairRounds)
		assert.False(t, p.Sampled)
		assert.Equal(t, 1, p.Retimed)
	}
	require.NotNil(t, rttMatrix)
	assert.Equal(t, 6, rttMatrix.N)
	assert.Equal(t, "all 5 rounds of disjoint pairs; slowest re-timed: 1 pair", got[0].searchLine(6))
}

// TestPairSearchNoise: pairs in shared memory that a burst of noise made
// the slowest in the search are re-timed, take their fresh round trips
// (in their lines, not in the matrix, which keeps the search's), and
// leave the place to the slowest link.
func TestPairSearchNoise(t *testing.T) {
	noisy := map[[2]int]int64{{0, 1}: 900e6, {2, 3}: 500e6}
	got, met := searchWith(t, func(a, b, n int) int64 {
		if v, ok := noisy[[2]int{a, b}]; ok && n == 0 {
			return v
		}
		return fakeRTT(a, b)
	})
	for r, p := range got {
		assert.Equal(t, skampi.Pair{A: 3, B: 5}, p.Max, "rank %d", r)
		assert.InDelta(t, 100.8e-6, p.MaxRTT, 1e-12)
		assert.Equal(t, 3, p.Retimed, "0-1, 2-3, then 3-5 confirmed")
	}
	for _, k := range [][2]int{{0, 1}, {2, 3}, {3, 5}} {
		assert.Equal(t, 1+skampi.RetimeTimes, met[k], "%v re-timed", k)
	}
	v, ok := rttMatrix.At(0, 1)
	require.True(t, ok)
	assert.InDelta(t, 900, v, 1e-3, "the matrix keeps the search's round trip")
}

// TestPairSearchAlikeLinks: a re-timing within a factor of 2 confirms
// the slowest pair, which keeps the search's round trip (here the links
// are faster on every re-timing, as a network that calmed down).
func TestPairSearchAlikeLinks(t *testing.T) {
	got, met := searchWith(t, func(a, b, n int) int64 {
		if n > 0 {
			return fakeRTT(a, b) * 6 / 10
		}
		return fakeRTT(a, b)
	})
	for _, p := range got {
		assert.Equal(t, skampi.Pair{A: 3, B: 5}, p.Max)
		assert.InDelta(t, 100.8e-6, p.MaxRTT, 1e-12, "the search's round trip")
		assert.Equal(t, 1, p.Retimed)
	}
	assert.Equal(t, 1+skampi.RetimeTimes, met[[2]int{3, 5}])
	v, ok := rttMatrix.At(3, 5)
	require.True(t, ok)
	assert.InDelta(t, 100.8, v, 1e-3, "the matrix agrees with the pair's line")
}

// TestPairSearchRetimeLimit: when every re-timing hands the slowest place
// on, the search stops after skampi.RetimeLimit pairs with the slowest it has.
func TestPairSearchRetimeLimit(t *testing.T) {
	got, met := searchWith(t, func(a, b, n int) int64 {
		if n == 0 {
			return fakeRTT(a, b) + 1000e6 // every pair noisy in the search
		}
		return fakeRTT(a, b)
	})
	retimed := 0
	for _, n := range met {
		if n > 1 {
			retimed++
		}
	}
	assert.Equal(t, skampi.RetimeLimit, retimed)
	for _, p := range got {
		assert.Equal(t, skampi.RetimeLimit, p.Retimed)
		assert.Equal(t, "all 5 rounds of disjoint pairs; slowest re-timed: 8 pairs", p.searchLine(6))
		assert.Equal(t, 1, met[[2]int{p.Max.A, p.Max.B}], "the slowest left is one not re-timed")
		assert.Greater(t, p.MaxRTT, 1000e-6)
	}
}
