package skampi

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTopology(t *testing.T) {
	top, err := ParseTopology("stencil-3d-periodic")
	require.NoError(t, err)
	assert.Equal(t, Topology{Stencil: true, NDims: 3, Periodic: true}, top)
	_, err = ParseTopology("torus")
	assert.ErrorContains(t, err, `"torus": want one of cart-2d, cart-2d-periodic`)
	for _, c := range []struct {
		name string
		p    int
		grid []int
		text string
	}{
		{"cart-2d-periodic", 1, []int{1, 1}, "1×1, 4 neighbors"},
		{"cart-2d-periodic", 12, []int{4, 3}, "4×3, 4 neighbors"},
		{"cart-2d", 4, []int{2, 2}, "2×2, 2 neighbors"},
		{"cart-2d", 9, []int{3, 3}, "3×3, 2–4 neighbors"},
		{"cart-3d", 8, []int{2, 2, 2}, "2×2×2, 3 neighbors"},
		{"cart-3d", 7, []int{7, 1, 1}, "7×1×1, 1–2 neighbors"},
		{"stencil-2d", 9, []int{3, 3}, "3×3, 3–8 neighbors"},
		{"stencil-2d", 2, []int{2, 1}, "2×1, 1 neighbor"},
		{"stencil-3d-periodic", 64, []int{4, 4, 4}, "4×4×4, 26 neighbors"},
		{"stencil-3d", 27, []int{3, 3, 3}, "3×3×3, 7–26 neighbors"},
		{"cart-3d-periodic", 1 << 20, []int{128, 128, 64}, "128×128×64, 6 neighbors"},
	} {
		top, err := ParseTopology(c.name)
		require.NoError(t, err)
		assert.Equal(t, c.grid, top.Grid(c.p), "%s on %d", c.name, c.p)
		assert.Equal(t, c.text, top.Describe(c.p), "%s on %d", c.name, c.p)
	}
	assert.Equal(t, []int{12, 6, 4, 3, 2, 1}, divisors(12))
	assert.Equal(t, []int{1}, divisors(1))
}

// TestTopologyLine: a line per suite, of at most TopologyCounts counts
// whatever the process counts.
func TestTopologyLine(t *testing.T) {
	s := &Setup{Topology: "cart-2d-periodic", Procs: []int{1, 2, 4}}
	assert.Equal(t, "cart-2d-periodic; 1: 1×1, 4 neighbors; 2: 2×1, 4 neighbors; 4: 2×2, 4 neighbors", s.TopologyLine(4))
	assert.Equal(t, "cart-2d-periodic; 1: 1×1, 4 neighbors; 2: 2×1, 4 neighbors", s.TopologyLine(2), "counts above the job's left out")
	s.Procs = make([]int, MaxCounts)
	for i := range s.Procs {
		s.Procs[i] = i + 1
	}
	line := s.TopologyLine(MaxCounts)
	assert.Equal(t, TopologyCounts+1, strings.Count(line, ";"), line)
	assert.Contains(t, line, "; …; 10000: 100×100, 4 neighbors")
}
