package links

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// machine is every pair of n members with bandwidth bw(a, b) and a few
// percent of noise.
func machine(n int, seed uint64, bw func(a, b int) float64) []Link {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []Link
	for a := range n {
		for b := a + 1; b < n; b++ {
			out = append(out, Link{a, b, bw(a, b) * (1 + 0.05*(rng.Float64()-0.5))})
		}
	}
	return out
}

func node(i int) string { return fmt.Sprintf("n%d", i) }

// TestUniformNamesNothing: a machine whose links differ by noise alone
// names no member and no link, whatever the noise draws; so does an
// exactly uniform one.
func TestUniformNamesNothing(t *testing.T) {
	for seed := range uint64(50) {
		for _, n := range []int{3, 6, 10, 33} {
			m, l := Verdicts(n, machine(n, seed, func(a, b int) float64 { return 1000 }), true)
			assert.Empty(t, m, "n=%d seed %d", n, seed)
			assert.Empty(t, l, "n=%d seed %d", n, seed)
		}
	}
	m, l := Verdicts(8, machine(8, 1, func(a, b int) float64 { return 1000 })[:0], true)
	assert.Empty(t, m)
	assert.Empty(t, l)
}

// TestSlowNode: a node whose link runs at a quarter is named, alone, as a
// node, not its links one by one.
func TestSlowNode(t *testing.T) {
	for _, n := range []int{4, 6, 10, 64} {
		links := machine(n, 3, func(a, b int) float64 {
			if a == 2 || b == 2 {
				return 250
			}
			return 1000
		})
		members, slow := Verdicts(n, links, true)
		require.Len(t, members, 1, "n=%d", n)
		assert.Equal(t, 2, members[0].Member)
		assert.Empty(t, slow, "n=%d: the node, not its links", n)
		assert.InDelta(t, 0.25, members[0].Value/members[0].Typical, 0.03)
		assert.Regexp(t, `^slow node n2: bandwidth 2[4-6] % of the median of the nodes \(2\d\d\.?\d* MB/s against \d{3,4}\.?\d*\)$`,
			members[0].Line("node", "bandwidth", "MB/s", node))
	}
}

// TestSlowLink: one slow pair among 6 and 10 nodes is named as a link;
// its nodes are not.
func TestSlowLink(t *testing.T) {
	for _, n := range []int{6, 10} {
		links := machine(n, 5, func(a, b int) float64 {
			if a == 1 && b == 4 {
				return 300
			}
			return 1000
		})
		members, slow := Verdicts(n, links, true)
		assert.Empty(t, members, "n=%d", n)
		require.Len(t, slow, 1, "n=%d", n)
		assert.Equal(t, [2]int{1, 4}, [2]int{slow[0].Member, slow[0].Other})
		assert.Regexp(t, `^slow link n1–n4: bandwidth (29|3\d) % of the median of its nodes' links \(\d+\.?\d* MB/s against \d+\.?\d*\)$`, slow[0].Line("node", "bandwidth", "MB/s", node))
	}
}

// TestLatencyLowerIsBetter: for latency a high value is the bad one.
func TestLatencyLowerIsBetter(t *testing.T) {
	links := machine(8, 9, func(a, b int) float64 {
		if a == 7 || b == 7 {
			return 40
		}
		return 10
	})
	members, _ := Verdicts(8, links, false)
	require.Len(t, members, 1)
	assert.Equal(t, 7, members[0].Member)
	members, _ = Verdicts(8, links, true)
	assert.Empty(t, members, "as a bandwidth, the high one is the best, not an outlier")
}

// TestLatencyFactor: a link or a node takes at least LatencyFactor times
// the typical latency before it is named; a path 1.9 times as long, as
// hops make them in a healthy fabric, is not.
func TestLatencyFactor(t *testing.T) {
	for _, c := range []struct {
		factor float64
		named  bool
	}{{1.9, false}, {2.1, true}} {
		lat := machine(10, 3, func(a, b int) float64 {
			if a == 2 && b == 5 {
				return 10 * c.factor
			}
			return 10
		})
		_, slow := Verdicts(10, lat, false)
		assert.Equal(t, c.named, len(slow) == 1, "a link at %g times", c.factor)
		lat = machine(10, 3, func(a, b int) float64 {
			if a == 4 || b == 4 {
				return 10 * c.factor
			}
			return 10
		})
		members, _ := Verdicts(10, lat, false)
		assert.Equal(t, c.named, len(members) == 1, "a node at %g times", c.factor)
	}
}

// TestSlowBlock: a leaf of 4 nodes whose uplink is slow: its nodes'
// links to the other leaf are slow, within the leaf fast; with half the
// nodes on each side nothing is an outlier against the job, but with a
// small leaf its nodes are named.
func TestSlowBlock(t *testing.T) {
	leaf := func(i int) int { return map[bool]int{true: 0, false: 1}[i < 3] }
	links := machine(12, 11, func(a, b int) float64 {
		if leaf(a) != leaf(b) {
			return 200
		}
		return 1000
	})
	members, _ := Verdicts(12, links, true)
	var names []int
	for _, f := range members {
		names = append(names, f.Member)
	}
	assert.Equal(t, []int{0, 1, 2}, names, "the small leaf's nodes")
}

// TestBadValuesLeftOut: links of no value, of an unknown member or of a
// member with itself are left out, not counted.
func TestBadValuesLeftOut(t *testing.T) {
	links := machine(6, 2, func(a, b int) float64 { return 1000 })
	links = append(links, Link{0, 0, 5}, Link{-1, 2, 5}, Link{1, 9, 5}, Link{1, 2, 0})
	m, l := Verdicts(6, links, true)
	assert.Empty(t, m)
	assert.Empty(t, l)
}

// TestSummaryVerdicts: where only each member's summary is known, a slow
// member and a slow worst link are named as from the whole matrix.
func TestSummaryVerdicts(t *testing.T) {
	for _, c := range []struct {
		name string
		bw   func(a, b int) float64
		node int
		link [2]int
	}{
		{"node", func(a, b int) float64 {
			if a == 2 || b == 2 {
				return 250
			}
			return 1000
		}, 2, [2]int{-1, -1}},
		{"link", func(a, b int) float64 {
			if a == 1 && b == 4 {
				return 300
			}
			return 1000
		}, -1, [2]int{1, 4}},
	} {
		const n = 10
		links := machine(n, 5, c.bw)
		own := make([][]Link, n)
		for _, l := range links {
			own[l.A] = append(own[l.A], l)
			own[l.B] = append(own[l.B], Link{l.B, l.A, l.Value})
		}
		sum := make([]Summary, n)
		for i, ls := range own {
			var v []float64
			sum[i].To = -1
			for _, l := range ls {
				v = append(v, l.Value)
				if sum[i].To < 0 || l.Value < sum[i].Worst {
					sum[i].Worst, sum[i].To = l.Value, l.B
				}
			}
			sum[i].Median, sum[i].MAD = MedianMAD(v)
		}
		members, slow := SummaryVerdicts(sum, true)
		if c.node >= 0 {
			require.Len(t, members, 1, c.name)
			assert.Equal(t, c.node, members[0].Member, c.name)
			assert.Empty(t, slow, c.name)
		} else {
			assert.Empty(t, members, c.name)
			require.Len(t, slow, 1, c.name)
			assert.Equal(t, c.link, [2]int{slow[0].Member, slow[0].Other}, c.name)
		}
	}
}

// TestSummarize: medians, the lesser way, the slowest links and to whom;
// a link that measured nothing is counted but left out of the figures.
func TestSummarize(t *testing.T) {
	s := Summarize([]Own{
		{To: 1, Lat: 2, Fw: 1000, Bk: 900, Both: 1800},
		{To: 2, Lat: 5, Fw: 400, Bk: 800, Both: 1100},
		{To: 3, Lat: 3, Fw: 1000, Bk: 1000, Both: 2000},
		{To: 4, Lat: math.NaN(), Fw: math.NaN(), Bk: math.NaN(), Both: math.NaN()},
	})
	assert.Equal(t, MemberSummary{Lat: 3, Bw: 900, Both: 1800, WorstLat: 5, WorstLatTo: 2, MinBw: 400, MinBwTo: 2,
		MADLat: 1, MADBw: 100, Links: 4}, s)
	none := Summarize(nil)
	assert.True(t, math.IsNaN(none.Lat))
	assert.Equal(t, -1, none.MinBwTo)
}
