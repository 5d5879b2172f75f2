package links

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRoundRobin: for every n up to 64, the rounds pair each member with a
// partner that pairs back, every pair of members meets exactly once, and
// in each round at most one member (n odd) sits out.
func TestRoundRobin(t *testing.T) {
	for n := 0; n <= 64; n++ {
		met := map[[2]int]int{}
		for r := range Rounds(n) {
			out := 0
			for i := range n {
				j := Partner(n, r, i)
				if j < 0 {
					out++
					continue
				}
				require.NotEqual(t, i, j, "n=%d round %d", n, r)
				require.Equal(t, i, Partner(n, r, j), "n=%d round %d: %d and %d pair back", n, r, i, j)
				if i < j {
					met[[2]int{i, j}]++
				}
			}
			assert.Equal(t, n%2, out, "n=%d round %d: who sits out", n, r)
		}
		assert.Len(t, met, n*(n-1)/2, "n=%d: every pair", n)
		for p, k := range met {
			assert.Equal(t, 1, k, "n=%d: %v meets once", n, p)
		}
	}
}

func TestRounds(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 0, 2: 1, 3: 3, 4: 3, 5: 5, 6: 5, 1000: 999, 100001: 100001} {
		assert.Equal(t, want, Rounds(n), "n=%d", n)
	}
	assert.Equal(t, -1, Partner(4, 3, 0), "round out of range")
	assert.Equal(t, -1, Partner(4, 0, 4), "member out of range")
	assert.Equal(t, -1, Partner(1, 0, 0), "one member meets nobody")
}

// TestPartnerAtScale: a member of a round robin of 10^5 works out its
// partner in every round without a table; a sample of rounds pairs back.
func TestPartnerAtScale(t *testing.T) {
	const n = 100_000
	for _, r := range []int{0, 1, 4999, 99_998} {
		for _, i := range []int{0, 1, 77, n - 2, n - 1} {
			j := Partner(n, r, i)
			require.GreaterOrEqual(t, j, 0)
			assert.Equal(t, i, Partner(n, r, j))
		}
	}
}
