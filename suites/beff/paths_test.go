package beff

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/results"
)

// TestRingPaths: 8 processes on 4 hosts of 2 under two switches (hosts 0,1
// on s0), placed in blocks and cyclic. In blocks the neighbours of ring2
// share a host; cyclic none does. Every message of a pattern is counted
// once: the counts sum to the pattern's messages.
func TestRingPaths(t *testing.T) {
	const n = 8
	for _, c := range []struct {
		name   string
		hostOf func(r int) int
		ring2  map[string]int
	}{
		{"block", func(r int) int { return r / 2 }, map[string]int{results.PathNode: 8}},
		{"cyclic", func(r int) int { return r % 4 }, map[string]int{results.PathSwitch: 8}}, // pairs (0,1), (2,3): hosts 0,1 and 2,3
	} {
		path := func(a, b int) string {
			ha, hb := c.hostOf(a), c.hostOf(b)
			sw := func(h int) string { return "s" + string(rune('0'+h/2)) }
			return results.Path(string(rune('a'+ha)), sw(ha), string(rune('a'+hb)), sw(hb))
		}
		ps := RingPaths(n, path)
		require.Len(t, ps, len(RingNames))
		assert.Equal(t, "ring2", ps[0].Name)
		assert.Equal(t, c.ring2, ps[0].Count, c.name)
		for i, p := range ps {
			sum := 0
			for _, k := range p.Count {
				sum += k
			}
			assert.Equal(t, RingPattern(n, i).Messages(), sum, "%s %s", c.name, p.Name)
		}
		back, err := ParsePaths(FormatPaths(ps))
		require.NoError(t, err)
		assert.Equal(t, ps, back, c.name)
	}
}

func TestParsePathsHostile(t *testing.T) {
	for _, v := range []string{"", "ring3 node=1", "ring2 node=x", "ring2 moon=1", "ring2 node=-1", "ring2 node", "ring2;ring2;ring2;ring2;ring2;ring2;ring2"} {
		_, err := ParsePaths(v)
		assert.Error(t, err, "%q", v)
	}
	ps, err := ParsePaths("ring2 node=4 spine=2; ringall network=8")
	require.NoError(t, err)
	assert.Equal(t, []PatternPaths{{"ring2", map[string]int{"node": 4, "spine": 2}}, {"ringall", map[string]int{"network": 8}}}, ps)
}
