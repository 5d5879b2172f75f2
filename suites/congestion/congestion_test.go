package congestion

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostsOf places per processes on each of nodes hosts, block by block.
func hostsOf(nodes, per int) []string {
	var out []string
	for n := range nodes {
		for range per {
			out = append(out, fmt.Sprintf("node%d", n+1))
		}
	}
	return out
}

func TestDecideSplit(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		nodes, per            int
		o                     SplitOptions
		by, mix               string
		canaries, canaryNodes int
		setProcs              []int
		err                   string
	}{
		{name: "3 nodes × 2: by processes, one congestor at a time", nodes: 3, per: 2, o: SplitOptions{Share: 0.2, Congestors: 4},
			by: SplitProcs, mix: MixEach, canaries: 3, canaryNodes: 3, setProcs: []int{3}},
		{name: "3 nodes × 4: by processes, together", nodes: 3, per: 4, o: SplitOptions{Share: 0.2, Congestors: 4},
			by: SplitProcs, mix: MixTogether, canaries: 3, canaryNodes: 3, setProcs: []int{3, 2, 2, 2}},
		{name: "10 nodes × 2: GPCNeT's split", nodes: 10, per: 2, o: SplitOptions{Share: 0.2, Congestors: 4},
			by: SplitNodes, mix: MixTogether, canaries: 4, canaryNodes: 2, setProcs: []int{4, 4, 4, 4}},
		{name: "4 nodes: 2 canary nodes at least", nodes: 4, per: 2, o: SplitOptions{Share: 0.2, Congestors: 4},
			by: SplitNodes, mix: MixEach, canaries: 4, canaryNodes: 2, setProcs: []int{4}},
		{name: "named canary nodes", nodes: 3, per: 2, o: SplitOptions{CanaryNodes: []string{"node2"}, Congestors: 2},
			by: SplitList, mix: MixTogether, canaries: 2, canaryNodes: 1, setProcs: []int{2, 2}},
		{name: "one node", nodes: 1, per: 4, o: SplitOptions{Share: 0.5, Congestors: 1},
			by: SplitProcs, mix: MixTogether, canaries: 2, canaryNodes: 1, setProcs: []int{2}},
		{name: "congestors only", nodes: 2, per: 4, o: SplitOptions{Only: true, Congestors: 4},
			mix: MixTogether, setProcs: []int{2, 2, 2, 2}},
		{name: "one node: 2 canaries", nodes: 1, per: 4, o: SplitOptions{Share: 0.2, Congestors: 1},
			by: SplitProcs, mix: MixTogether, canaries: 2, canaryNodes: 1, setProcs: []int{2}},
		{name: "one canary cannot ring", nodes: 1, per: 4, o: SplitOptions{CanaryNodes: []string{"node1"}, Congestors: 1}, err: "0 congestor processes"},
		{name: "one canary process", nodes: 3, per: 1, o: SplitOptions{CanaryNodes: []string{"node1"}, Congestors: 1}, err: "1 canary process: a ring needs 2"},
		{name: "no congestors left", nodes: 2, per: 1, o: SplitOptions{By: SplitProcs, Share: 0.2, Congestors: 1}, err: "0 congestor processes"},
		{name: "unknown canary node", nodes: 3, per: 2, o: SplitOptions{CanaryNodes: []string{"nodeX"}, Congestors: 1}, err: `"nodeX" runs none`},
		{name: "every node a canary", nodes: 3, per: 1, o: SplitOptions{CanaryNodes: []string{"node1", "node2", "node3"}, Congestors: 1}, err: "0 congestor processes"},
		{name: "together without the processes", nodes: 3, per: 2, o: SplitOptions{Share: 0.2, Congestors: 4, Mix: MixTogether}, err: "need 2 processes each"},
		{name: "by nodes on 3", nodes: 3, per: 2, o: SplitOptions{Share: 0.2, By: SplitNodes, Congestors: 1}, err: "2 canary nodes and 2 congestor nodes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hosts := hostsOf(tc.nodes, tc.per)
			s, err := DecideSplit(hosts, tc.o)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.by, s.By)
			assert.Equal(t, tc.mix, s.Mix)
			assert.Equal(t, tc.canaries, s.CanaryProcs)
			assert.Equal(t, tc.canaryNodes, s.CanaryNodes)
			assert.Equal(t, tc.setProcs, s.SetProcs)
			checkRoles(t, s, hosts)
			again, _ := DecideSplit(hosts, tc.o)
			assert.Equal(t, s, again, "the same seed, the same split")
		})
	}
}

// checkRoles checks that the roles and orders agree with the counts: each
// role's orders are 0…n−1, and congestor sets spread over nodes.
func checkRoles(t *testing.T, s *Split, hosts []string) {
	t.Helper()
	count := map[int]int{}
	orders := map[int]map[int]bool{}
	for r, role := range s.Role {
		count[role]++
		if orders[role] == nil {
			orders[role] = map[int]bool{}
		}
		assert.False(t, orders[role][s.Order[r]], "order %d twice in role %d", s.Order[r], role)
		orders[role][s.Order[r]] = true
	}
	assert.Equal(t, s.CanaryProcs, count[0])
	congestorNodes := map[string]bool{}
	for r, role := range s.Role {
		if role > 0 {
			congestorNodes[hosts[r]] = true
		}
	}
	for i, n := range s.SetProcs {
		assert.Equal(t, n, count[1+i], "set %d", i)
		assert.GreaterOrEqual(t, s.SetNodes[i], min(2, len(congestorNodes)), "set %d spans nodes", i)
	}
}

func TestSplitSeedShuffles(t *testing.T) {
	hosts := hostsOf(20, 1)
	seen := map[string]bool{}
	for seed := range uint64(8) {
		s, err := DecideSplit(hosts, SplitOptions{Share: 0.2, Congestors: 4, Seed: seed})
		require.NoError(t, err)
		seen[s.Details()] = true
	}
	assert.Greater(t, len(seen), 4, "the canary nodes change with the seed")
}

func TestHistQuantile(t *testing.T) {
	h := Hist{Counts: make([]int64, 2560), Min: 1e-9, Ratio: 1.01}
	bin := func(t float64) int { return int(math.Floor(math.Log(t/h.Min) / math.Log(h.Ratio))) }
	for i := 1; i <= 1000; i++ { // 1 µs … 1 ms
		h.Counts[bin(float64(i)*1e-6)]++
	}
	assert.EqualValues(t, 1000, h.N())
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999, 1} {
		exact := q * 1000 * 1e-6
		assert.InEpsilon(t, exact, h.Quantile(q), 0.01, "q=%g within a bin", q)
	}
	assert.True(t, math.IsNaN(Hist{Counts: make([]int64, 4), Min: 1, Ratio: 2}.Quantile(0.5)))
}

func TestPlan(t *testing.T) {
	p := Plan{Canaries: []string{"rr-lat", "allreduce"}, Congestors: []string{"incast", "bcast"}, Mix: MixTogether, Reps: 1, Time: 1}
	assert.Equal(t, []string{
		"canary=rr-lat/load=isolated/rep=1", "canary=allreduce/load=isolated/rep=1",
		"congestor=incast/load=isolated/rep=1", "congestor=bcast/load=isolated/rep=1",
		"canary=rr-lat/load=congested/rep=1", "congestor=incast/load=rr-lat/rep=1", "congestor=bcast/load=rr-lat/rep=1",
		"canary=allreduce/load=congested/rep=1", "congestor=incast/load=allreduce/rep=1", "congestor=bcast/load=allreduce/rep=1",
	}, p.Names())
	assert.Equal(t, 5, p.Measurements(), "the congestors without canaries: one phase")
	p.Mix = MixEach
	assert.Equal(t, []string{
		"canary=rr-lat/load=isolated/rep=1", "canary=allreduce/load=isolated/rep=1",
		"congestor=incast/load=isolated/rep=1", "congestor=bcast/load=isolated/rep=1",
		"canary=rr-lat/load=incast/rep=1", "congestor=incast/load=rr-lat/rep=1",
		"canary=rr-lat/load=bcast/rep=1", "congestor=bcast/load=rr-lat/rep=1",
		"canary=allreduce/load=incast/rep=1", "congestor=incast/load=allreduce/rep=1",
		"canary=allreduce/load=bcast/rep=1", "congestor=bcast/load=allreduce/rep=1",
	}, p.Names())
	assert.Equal(t, 8, p.Measurements())
	assert.InDelta(t, 8*(1+PhaseSlack), p.Seconds(), 1e-9)
	p = Plan{Congestors: []string{"incast", "bcast"}, Mix: MixTogether, Only: true, Reps: 2, Time: 1}
	assert.Equal(t, []string{
		"congestor=incast/load=isolated/rep=1", "congestor=bcast/load=isolated/rep=1",
		"congestor=incast/load=together/rep=1", "congestor=bcast/load=together/rep=1",
		"congestor=incast/load=isolated/rep=2", "congestor=bcast/load=isolated/rep=2",
		"congestor=incast/load=together/rep=2", "congestor=bcast/load=together/rep=2",
	}, p.Names())
}

func TestNames(t *testing.T) {
	assert.Equal(t, "p99-us", QuantileMetric(0.99, false))
	assert.Equal(t, "p99.9-MB/s", QuantileMetric(0.999, true))
	assert.Equal(t, "p50-us", QuantileMetric(0.5, false))
	l, err := ParseList("-x", "incast, bcast", CongestorNames)
	require.NoError(t, err)
	assert.Equal(t, []string{"incast", "bcast"}, l)
	_, err = ParseList("-x", "incast,incast", CongestorNames)
	assert.ErrorContains(t, err, "twice")
	_, err = ParseList("-x", "", CongestorNames)
	assert.ErrorContains(t, err, "unknown name")
}

func TestWholeReps(t *testing.T) {
	p := Plan{Canaries: []string{"rr-lat"}, Congestors: []string{"incast"}, Mix: MixTogether, Reps: 3, Time: 1}
	saved := map[string]int{}
	for _, n := range p.Names() {
		if RepOf(n) != 2 || n != CongestorName("incast", "rr-lat", 2) {
			saved[n] = 1
		}
	}
	delete(saved, CanaryName("rr-lat", LoadIsolated, 3))
	assert.Equal(t, map[int]bool{1: true, 2: false, 3: false}, WholeReps(p, saved))
	assert.Equal(t, 12, RepOf("canary=x/load=y/rep=12"))
	assert.Equal(t, 0, RepOf("canary=x/load=y"))
}
