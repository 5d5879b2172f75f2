package beff_test

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/beff-suite/beff/internal/ring"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/beff"
)

// refRingSizes is docs/beff.md "Patterns" in integer arithmetic:
// floor(n/s + 0.4) = floor((10n + 4s) / (10s)).
func refRingSizes(n, s int) []int {
	if s > n {
		s = n
	}
	rings := (10*n + 4*s) / (10 * s)
	rings = max(1, min(rings, n/2))
	low := n / rings
	high := low + 1
	highCount := n - low*rings
	lowCount := rings - highCount
	var out []int
	rep := func(size, count int) {
		for range count {
			out = append(out, size)
		}
	}
	if low%2 == 1 && highCount > 0 {
		rep(high, highCount)
		rep(low, lowCount)
	} else {
		rep(low, lowCount)
		rep(high, highCount)
	}
	return out
}

func TestRingSizesHand(t *testing.T) {
	tests := []struct {
		n, s int
		want []int
	}{
		{1, 2, []int{1}},
		{2, 2, []int{2}},
		{3, 2, []int{3}}, // floor(1.5+0.4) = 1
		{4, 2, []int{2, 2}},
		{5, 2, []int{2, 3}}, // rings 2, low 2 even: low first
		{7, 2, []int{2, 2, 3}},
		{7, 4, []int{4, 3}}, // floor(1.75+0.4) = 2, low 3 odd: high first
		{7, 8, []int{7}},    // s capped at 7
		{9, 2, []int{2, 2, 2, 3}},
		{9, 4, []int{4, 5}},
		{9, 8, []int{9}},
		{10, 4, []int{5, 5}},
		{11, 4, []int{4, 4, 3}}, // rings 3, low 3, highCount 2
		{13, 4, []int{4, 4, 5}},
		{15, 2, []int{2, 2, 2, 2, 2, 2, 3}},
		{21, 4, []int{4, 4, 4, 4, 5}},
		{23, 8, []int{8, 8, 7}},
		{25, 16, []int{25}},     // floor(1.5625+0.4) = 1
		{26, 16, []int{13, 13}}, // floor(1.625+0.4) = 2
		{27, 16, []int{14, 13}}, // low 13 odd, highCount 1
		{64, 32, []int{32, 32}},
		{64, 64, []int{64}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("N=%d/s=%d", tt.n, tt.s), func(t *testing.T) {
			assert.Equal(t, tt.want, beff.RingSizes(tt.n, tt.s))
			assert.Equal(t, tt.want, refRingSizes(tt.n, tt.s), "the reference in the test")
		})
	}
}

func TestStandardRingSizes(t *testing.T) {
	tests := []struct {
		n    int
		want [6]int
	}{
		{1, [6]int{1, 1, 1, 1, 1, 1}},
		{2, [6]int{2, 2, 2, 2, 2, 2}},
		{3, [6]int{2, 3, 3, 3, 3, 3}},
		{7, [6]int{2, 4, 7, 7, 7, 7}},
		{10, [6]int{2, 4, 8, 10, 10, 10}},
		{20, [6]int{2, 4, 8, 16, 20, 20}},
		{64, [6]int{2, 4, 8, 16, 32, 64}},
		{100, [6]int{2, 4, 8, 25, 50, 100}},
		{130, [6]int{2, 4, 8, 32, 65, 130}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			assert.Equal(t, tt.want, beff.StandardRingSizes(tt.n))
		})
	}
}

// rings cuts 0..n-1 consecutively into rings of the given sizes.
func rings(sizes []int) [][]int {
	var out [][]int
	p := 0
	for _, s := range sizes {
		var r []int
		for i := 0; i < s; i++ {
			r = append(r, p+i)
		}
		out = append(out, r)
		p += s
	}
	return out
}

// wantRingSteps is the rule of docs/beff.md "Patterns" for one rank of one ring: ping to
// the right, receive from the left, then pong; one step in a ring of 1 or 2.
func wantRingSteps(ring []int, pos int) []beff.Step {
	m := len(ring)
	left, right := ring[(pos+m-1)%m], ring[(pos+1)%m]
	if m <= 2 {
		return []beff.Step{{Dest: right, Src: left}}
	}
	return []beff.Step{{Dest: right, Src: left}, {Dest: left, Src: right}}
}

func checkRingPattern(t *testing.T, p *beff.Pattern, n int, rs [][]int) {
	t.Helper()
	msgs := 0
	for _, r := range rs {
		for pos, me := range r {
			want := wantRingSteps(r, pos)
			assert.Equal(t, want, p.Steps(me), "%s N=%d rank %d in ring %v", p.Name, n, me, r)
			msgs += len(want)
		}
	}
	assert.Equal(t, msgs, p.Messages(), p.Name)
	assert.Equal(t, n, p.Participants(), p.Name)
	assert.Equal(t, n, p.CommSize, p.Name)
	assert.NoError(t, p.Check())
}

func TestRingPatterns(t *testing.T) {
	for n := 1; n <= 64; n++ {
		std := beff.StandardRingSizes(n)
		want := [6]int{2, 4, 8, max(16, n/4), max(32, n/2), n}
		for i := 0; i < 6; i++ {
			t.Run(fmt.Sprintf("N=%d/%s", n, beff.RingNames[i]), func(t *testing.T) {
				assert.Equal(t, min(want[i], n), std[i], "standard ring size capped at N")
				got := beff.RingSizes(n, std[i])
				ref := refRingSizes(n, std[i])
				require.Equal(t, ref, got)
				sum := 0
				for _, s := range got {
					sum += s
					if n >= 2 {
						assert.GreaterOrEqual(t, s, 2, "no ring of 1 when N ≥ 2")
					}
				}
				assert.Equal(t, n, sum, "ring sizes add up to N")
				// At most two sizes, differing by one; the order rule.
				lo, hi := slices.Min(got), slices.Max(got)
				assert.LessOrEqual(t, hi-lo, 1)
				if lo%2 == 1 && hi > lo {
					assert.Equal(t, hi, got[0], "odd low with high rings: high first")
				} else {
					assert.Equal(t, lo, got[0], "low first")
				}
				assert.True(t, slices.IsSorted(got) || lo%2 == 1, "rings of one size are contiguous")

				p := beff.RingPattern(n, i)
				assert.Equal(t, beff.RingNames[i], p.Name)
				assert.Equal(t, beff.KindRing, p.Kind)
				assert.False(t, p.SendrecvOnly)
				assert.Equal(t, beff.Methods, p.Methods())
				checkRingPattern(t, p, n, rings(ref))
			})
		}
	}
}

// The paper's example: N=7, s=2 gives rings {0,1}, {2,3}, {4,5,6}.
func TestRingPatternPaperExample(t *testing.T) {
	require.Equal(t, []int{2, 2, 3}, beff.RingSizes(7, 2))
	p := beff.RingPattern(7, 0)
	want := map[int][]beff.Step{
		0: {{Dest: 1, Src: 1}}, // 2-ring: the pong is dropped
		1: {{Dest: 0, Src: 0}},
		2: {{Dest: 3, Src: 3}},
		3: {{Dest: 2, Src: 2}},
		4: {{Dest: 5, Src: 6}, {Dest: 6, Src: 5}},
		5: {{Dest: 6, Src: 4}, {Dest: 4, Src: 6}},
		6: {{Dest: 4, Src: 5}, {Dest: 5, Src: 4}},
	}
	for r, st := range want {
		assert.Equal(t, st, p.Steps(r), "rank %d", r)
	}
	assert.Nil(t, p.Steps(7))
	assert.Nil(t, p.Steps(-1))
	assert.Equal(t, 4+6, p.Messages())
	assert.Equal(t, 7, p.Participants())
}

func TestRandomPermutations(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 5, 8, 17, 64} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			perms := beff.RandomPermutations(n, 30, 42)
			require.Len(t, perms, 30)
			for _, p := range perms {
				s := append([]int(nil), p...)
				sort.Ints(s)
				for i := range s {
					require.Equal(t, i, s[i], "permutation of 0..N-1: %v", p)
				}
			}
			assert.Equal(t, perms, beff.RandomPermutations(n, 30, 42), "same seed, same permutations")
			if n >= 4 {
				assert.NotEqual(t, perms, beff.RandomPermutations(n, 30, 43), "different seed")
				assert.NotEqual(t, perms, beff.RandomPermutations(n, 30, 0), "different seed")
				// The 30 draws are not all the same permutation.
				distinct := map[string]bool{}
				for _, p := range perms {
					distinct[fmt.Sprint(p)] = true
				}
				assert.Greater(t, len(distinct), 1)
			}
			// A shorter list is a prefix of the longer one from the same seed.
			assert.Equal(t, perms[:3], beff.RandomPermutations(n, 3, 42))
		})
	}
}

func TestRandomPatterns(t *testing.T) {
	for n := 1; n <= 64; n++ {
		perms := beff.RandomPermutations(n, 30, uint64(n)*7919)
		for i, perm := range perms {
			p := beff.RandomPattern(i, perm)
			require.Equal(t, fmt.Sprintf("random%02d", i+1), p.Name)
			require.Equal(t, beff.KindRandom, p.Kind)
			checkRingPattern(t, p, n, [][]int{perm})
		}
	}
	assert.Equal(t, "random01", beff.RandomName(0))
	assert.Equal(t, "random30", beff.RandomName(29))
}

// TestWorstCycleOrder: b_eff's worstcycle pattern is a ring in the order
// of the worst-case cycle (package ring).
func TestWorstCycleOrder(t *testing.T) {
	for n := 1; n <= 9; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			p := beff.PureSet(n, 0, 1).Lookup("worstcycle")
			require.NotNil(t, p)
			checkRingPattern(t, p, n, [][]int{ring.WorstOrder(n)})
		})
	}
}

// The float rule of the package and the integer rule of the test agree far
// beyond 64 processes.
func TestRingSizesLargeN(t *testing.T) {
	for n := 65; n <= 5000; n++ {
		for i, s := range beff.StandardRingSizes(n) {
			got := beff.RingSizes(n, s)
			if !slices.Equal(refRingSizes(n, s), got) {
				t.Fatalf("N=%d %s (s=%d): %v, want %v", n, beff.RingNames[i], s, got, refRingSizes(n, s))
			}
		}
	}
}

func TestIsRandomName(t *testing.T) {
	for i := range beff.MaxRandom {
		assert.True(t, beff.IsRandomName(beff.RandomName(i)), beff.RandomName(i))
	}
	for _, name := range append(beff.RingNames[:], append(beff.ExtraNames, "random", "random1", "randomxx", "xrandom01")...) {
		assert.False(t, beff.IsRandomName(name), name)
	}
}
