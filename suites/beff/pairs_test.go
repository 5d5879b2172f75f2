package beff_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/beff"
)

func TestBisectPairs(t *testing.T) {
	type pairs = [][2]int
	tests := []struct {
		n           int
		best, worst pairs
	}{
		{1, nil, nil},
		{2, pairs{{0, 1}}, pairs{{0, 1}}},
		{3, pairs{{0, 1}}, pairs{{0, 1}}},
		{4, pairs{{0, 1}, {2, 3}}, pairs{{0, 3}, {1, 2}}},
		{5, pairs{{0, 1}, {2, 3}}, pairs{{0, 3}, {1, 2}}},
		{6, pairs{{0, 1}, {2, 3}, {4, 5}}, pairs{{0, 5}, {1, 4}, {2, 3}}},
		{7, pairs{{0, 1}, {2, 3}, {4, 5}}, pairs{{0, 5}, {1, 4}, {2, 3}}},
		{8, pairs{{0, 1}, {2, 3}, {4, 5}, {6, 7}}, pairs{{0, 7}, {1, 6}, {2, 5}, {3, 4}}},
		{9, pairs{{0, 1}, {2, 3}, {4, 5}, {6, 7}}, pairs{{0, 7}, {1, 6}, {2, 5}, {3, 4}}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			assert.Equal(t, tt.best, beff.BestBisectPairs(tt.n))
			assert.Equal(t, tt.worst, beff.WorstBisectPairs(tt.n))
			set := beff.PureSet(tt.n, 0, 1)
			for _, c := range []struct {
				name  string
				pairs pairs
			}{{"bestbisect", tt.best}, {"worstbisect", tt.worst}} {
				p := set.Lookup(c.name)
				if len(c.pairs) == 0 {
					assert.Nil(t, p, "%s has no message on N=%d and is left out", c.name, tt.n)
					continue
				}
				require.NotNil(t, p, c.name)
				checkPairs(t, p, tt.n, c.pairs)
				assert.Equal(t, beff.Methods, p.Methods())
			}
		})
	}
}

// checkPairs: the first of each pair sends (ping) then receives (pong), the
// second receives then sends back; every other rank idles.
func checkPairs(t *testing.T, p *beff.Pattern, n int, pairs [][2]int) {
	t.Helper()
	busy := map[int]bool{}
	for _, pr := range pairs {
		a, b := pr[0], pr[1]
		assert.Equal(t, []beff.Step{{Dest: b, Src: none}, {Dest: none, Src: b}}, p.Steps(a), "%s rank %d", p.Name, a)
		assert.Equal(t, []beff.Step{{Dest: none, Src: a}, {Dest: a, Src: none}}, p.Steps(b), "%s rank %d", p.Name, b)
		busy[a], busy[b] = true, true
	}
	for r := 0; r < n; r++ {
		if !busy[r] {
			assert.Empty(t, p.Steps(r), "%s rank %d idles", p.Name, r)
		}
	}
	assert.Equal(t, 2*len(pairs), p.Messages(), p.Name)
	assert.Equal(t, 2*len(pairs), p.Participants(), p.Name)
	assert.Equal(t, beff.KindExtra, p.Kind)
	assert.Equal(t, n, p.CommSize)
	assert.NoError(t, p.Check())
}

func TestPingPong(t *testing.T) {
	assert.Nil(t, beff.PureSet(1, 0, 1).Lookup("pingpong"), "no ping-pong on one process")
	for n := 2; n <= 9; n++ {
		p := beff.PureSet(n, 0, 1).Lookup("pingpong")
		require.NotNil(t, p)
		assert.True(t, p.SendrecvOnly)
		assert.Equal(t, []beff.Method{beff.Sendrecv}, p.Methods())
		checkPairs(t, p, n, [][2]int{{0, 1}})
	}
}
