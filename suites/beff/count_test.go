package beff

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCountsByFormula: the counts the ring, worst-cycle and Cartesian
// patterns are made with (in O(1)) are those of their steps, counted rank
// by rank, on 1 to 300 processes, in the set and in the reference set.
func TestCountsByFormula(t *testing.T) {
	for n := 1; n <= 300; n++ {
		for _, s := range []*PatternSet{PureSet(n, 1, 1), PureSet(n, 1, 1).Reference()} {
			for _, p := range s.Patterns {
				if p.Kind == KindRandom {
					continue // counted on first use
				}
				m, q := p.messages, p.participants
				p.count()
				assert.Equal(t, [2]int{p.messages, p.participants}, [2]int{m, q}, "n=%d %s", n, p.Name)
			}
		}
	}
}
