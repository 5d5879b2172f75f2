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

const none = beff.None

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

// dimsBrute is MPI_Dims_create by exhaustive search: all non-increasing
// factorisations of n into nd factors with the smallest max - min. It
// returns all of them, so the test can see ties.
func dimsBrute(n, nd int) [][]int {
	var all [][]int
	var rec func(rem, maxf int, cur []int)
	rec = func(rem, maxf int, cur []int) {
		if len(cur) == nd {
			if rem == 1 {
				all = append(all, append([]int(nil), cur...))
			}
			return
		}
		for f := 1; f <= maxf; f++ {
			if rem%f == 0 {
				rec(rem/f, f, append(cur, f))
			}
		}
	}
	rec(n, n, nil)
	best := -1
	var out [][]int
	for _, d := range all {
		spread := d[0] - d[nd-1]
		switch {
		case best < 0 || spread < best:
			best, out = spread, [][]int{d}
		case spread == best:
			out = append(out, d)
		}
	}
	return out
}

// dimsGreedy is the algorithm of Open MPI's MPI_Dims_create: the prime
// factors, largest first, each multiplied into the currently smallest
// dimension; then sorted non-increasing. It is not always the most balanced.
func dimsGreedy(n, nd int) []int {
	var primes []int
	m := n
	for p := 2; p*p <= m; p++ {
		for m%p == 0 {
			primes = append(primes, p)
			m /= p
		}
	}
	if m > 1 {
		primes = append(primes, m)
	}
	d := make([]int, nd)
	for i := range d {
		d[i] = 1
	}
	for i := len(primes) - 1; i >= 0; i-- {
		j := 0
		for k := 1; k < nd; k++ {
			if d[k] < d[j] {
				j = k
			}
		}
		d[j] *= primes[i]
	}
	sort.Sort(sort.Reverse(sort.IntSlice(d)))
	return d
}

func TestDimsCreateHand(t *testing.T) {
	tests := []struct {
		n, nd int
		want  []int
	}{
		{1, 2, []int{1, 1}},
		{2, 2, []int{2, 1}},
		{3, 2, []int{3, 1}},
		{4, 2, []int{2, 2}},
		{6, 2, []int{3, 2}},
		{7, 2, []int{7, 1}},
		{8, 2, []int{4, 2}},
		{9, 2, []int{3, 3}},
		{12, 2, []int{4, 3}},
		{72, 2, []int{9, 8}}, // Open MPI: 12×6
		{1, 3, []int{1, 1, 1}},
		{2, 3, []int{2, 1, 1}},
		{4, 3, []int{2, 2, 1}},
		{6, 3, []int{3, 2, 1}},
		{8, 3, []int{2, 2, 2}},
		{9, 3, []int{3, 3, 1}},
		{12, 3, []int{3, 2, 2}},
		{30, 3, []int{5, 3, 2}},
		{64, 3, []int{4, 4, 4}},
		{360, 3, []int{10, 6, 6}}, // tie with 9·8·5: the larger first factor wins
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d/%dD", tt.n, tt.nd), func(t *testing.T) {
			assert.Equal(t, tt.want, beff.DimsCreate(tt.n, tt.nd))
		})
	}
}

func TestDimsCreateBrute(t *testing.T) {
	for _, nd := range []int{2, 3} {
		for n := 1; n <= 200; n++ {
			got := beff.DimsCreate(n, nd)
			best := dimsBrute(n, nd)
			require.Len(t, best, 1, "n=%d nd=%d: the most balanced factorisation is unique below 200", n, nd)
			require.Equal(t, best[0], got, "n=%d nd=%d", n, nd)
			prod := 1
			for _, d := range got {
				prod *= d
			}
			require.Equal(t, n, prod)
			require.True(t, slices.IsSortedFunc(got, func(a, b int) int { return b - a }), "non-increasing: %v", got)
		}
	}
	// Ties: the first is 360 in 3-D.
	assert.Equal(t, [][]int{{9, 8, 5}, {10, 6, 6}}, dimsBrute(360, 3))
}

// CartCommSize depends only on whether the last dimension is 1, which the
// most balanced factorisation and Open MPI's greedy one agree on.
func TestCartCommSizeIndependentOfDimsAlgorithm(t *testing.T) {
	differ := 0
	for _, nd := range []int{2, 3} {
		for n := 1; n <= 500; n++ {
			g, b := dimsGreedy(n, nd), beff.DimsCreate(n, nd)
			require.Equal(t, g[nd-1] > 1, b[nd-1] > 1, "n=%d nd=%d: greedy %v, balanced %v", n, nd, g, b)
			if !slices.Equal(g, b) {
				differ++
			}
			require.Equal(t, beff.CartCommSize(n, nd, dimsGreedy), beff.CartCommSize(n, nd, beff.DimsCreate), "n=%d nd=%d", n, nd)
		}
	}
	assert.Equal(t, []int{12, 6}, dimsGreedy(72, 2), "the test's greedy is Open MPI's (4.1.4 gives 12×6)")
	assert.Positive(t, differ, "the two algorithms do differ on some n")
}

func TestCartCommSize(t *testing.T) {
	// c = largest c ≤ N with last dim > 1, or c < 4, or c < 8 and even.
	// 2-D: last dim > 1 iff c is composite. 5 and 7 are prime and odd.
	// 3-D: last dim > 1 iff c has ≥ 3 prime factors: 8 qualifies; 5, 7 and
	// 9 (3·3·1) do not; 4 and 6 are even and < 8.
	tests := []struct {
		n          int
		c2, c3     int
		dim2, dim3 []int
	}{
		{1, 1, 1, []int{1, 1}, []int{1, 1, 1}},
		{2, 2, 2, []int{2, 1}, []int{2, 1, 1}},
		{3, 3, 3, []int{3, 1}, []int{3, 1, 1}},
		{4, 4, 4, []int{2, 2}, []int{2, 2, 1}},
		{5, 4, 4, []int{2, 2}, []int{2, 2, 1}},
		{6, 6, 6, []int{3, 2}, []int{3, 2, 1}},
		{7, 6, 6, []int{3, 2}, []int{3, 2, 1}},
		{8, 8, 8, []int{4, 2}, []int{2, 2, 2}},
		{9, 9, 8, []int{3, 3}, []int{2, 2, 2}},
		{11, 10, 8, []int{5, 2}, []int{2, 2, 2}},
		{13, 12, 12, []int{4, 3}, []int{3, 2, 2}},
		{17, 16, 16, []int{4, 4}, []int{4, 2, 2}},
		{29, 28, 28, []int{7, 4}, []int{7, 2, 2}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			assert.Equal(t, tt.c2, beff.CartCommSize(tt.n, 2, beff.DimsCreate), "2-D")
			assert.Equal(t, tt.c3, beff.CartCommSize(tt.n, 3, beff.DimsCreate), "3-D")
			c2, c3 := beff.PureCart(tt.n, 2), beff.PureCart(tt.n, 3)
			assert.Equal(t, tt.c2, c2.Size)
			assert.Equal(t, tt.c3, c3.Size)
			assert.Equal(t, tt.dim2, c2.Dims)
			assert.Equal(t, tt.dim3, c3.Dims)
		})
	}
	// The rule itself, checked against the brute-force dims for N up to 200.
	for _, nd := range []int{2, 3} {
		for n := 1; n <= 200; n++ {
			want := 1
			for c := n; c >= 1; c-- {
				d := dimsBrute(c, nd)[0]
				if d[nd-1] > 1 || c < 4 || (c < 8 && c%2 == 0) {
					want = c
					break
				}
			}
			require.Equal(t, want, beff.CartCommSize(n, nd, beff.DimsCreate), "n=%d nd=%d", n, nd)
		}
	}
}

func TestCartShift(t *testing.T) {
	type nb struct{ src, dest int }
	tests := []struct {
		name     string
		dims     []int
		periodic bool
		rank     int
		want     []nb // per direction
	}{
		// 3×2, row-major, last dimension fastest: rank = 2x + y.
		{"3x2 r0", []int{3, 2}, true, 0, []nb{{4, 2}, {1, 1}}},
		{"3x2 r0 open", []int{3, 2}, false, 0, []nb{{none, 2}, {none, 1}}},
		{"3x2 r3", []int{3, 2}, true, 3, []nb{{1, 5}, {2, 2}}},
		{"3x2 r3 open", []int{3, 2}, false, 3, []nb{{1, 5}, {2, none}}},
		{"3x2 r5", []int{3, 2}, true, 5, []nb{{3, 1}, {4, 4}}},
		{"3x2 r5 open", []int{3, 2}, false, 5, []nb{{3, none}, {4, none}}},
		// 4×3: rank = 3x + y.
		{"4x3 r7", []int{4, 3}, true, 7, []nb{{4, 10}, {6, 8}}},
		{"4x3 r7 open", []int{4, 3}, false, 7, []nb{{4, 10}, {6, 8}}},
		{"4x3 r11", []int{4, 3}, true, 11, []nb{{8, 2}, {10, 9}}},
		{"4x3 r11 open", []int{4, 3}, false, 11, []nb{{8, none}, {10, none}}},
		{"4x3 r0", []int{4, 3}, true, 0, []nb{{9, 3}, {2, 1}}},
		// 2×2×2: rank = 4x + 2y + z; rank 5 = (1,0,1).
		{"2x2x2 r5", []int{2, 2, 2}, true, 5, []nb{{1, 1}, {7, 7}, {4, 4}}},
		{"2x2x2 r5 open", []int{2, 2, 2}, false, 5, []nb{{1, none}, {none, 7}, {4, none}}},
		// 3×2×1: rank = 2x + y; the last dimension has extent 1.
		{"3x2x1 r2", []int{3, 2, 1}, true, 2, []nb{{0, 4}, {3, 3}, {2, 2}}},
		{"3x2x1 r2 open", []int{3, 2, 1}, false, 2, []nb{{0, 4}, {none, 3}, {none, none}}},
		// 3×3×2: rank = 6x + 2y + z; rank 9 = (1,1,1).
		{"3x3x2 r9", []int{3, 3, 2}, true, 9, []nb{{3, 15}, {7, 11}, {8, 8}}},
		{"3x3x2 r16", []int{3, 3, 2}, true, 16, []nb{{10, 4}, {14, 12}, {17, 17}}},
		// 1-D.
		{"5 r0", []int{5}, true, 0, []nb{{4, 1}}},
		{"5 r4 open", []int{5}, false, 4, []nb{{3, none}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Len(t, tt.want, len(tt.dims))
			for d, w := range tt.want {
				src, dest := beff.CartShift(tt.dims, tt.periodic, tt.rank, d)
				assert.Equal(t, w, nb{src, dest}, "direction %d", d)
			}
		})
	}
}

// Shift along every direction and back is the identity for periodic grids;
// the shifts of all ranks form a permutation.
func TestCartShiftInverse(t *testing.T) {
	for _, dims := range [][]int{{2, 2}, {3, 2}, {4, 4}, {5, 3}, {2, 2, 2}, {3, 2, 1}, {4, 3, 2}, {5, 5, 4}} {
		c := 1
		for _, d := range dims {
			c *= d
		}
		for d := range dims {
			for _, periodic := range []bool{true, false} {
				hit := map[int]int{}
				for r := 0; r < c; r++ {
					src, dest := beff.CartShift(dims, periodic, r, d)
					if dest != none {
						s2, _ := beff.CartShift(dims, periodic, dest, d)
						require.Equal(t, r, s2, "dims %v dir %d rank %d", dims, d, r)
						hit[dest]++
					}
					if src != none {
						_, d2 := beff.CartShift(dims, periodic, src, d)
						require.Equal(t, r, d2)
					}
					if periodic {
						require.NotEqual(t, none, src)
						require.NotEqual(t, none, dest)
					}
				}
				want := c
				if !periodic {
					want = c - c/dims[d]
				}
				assert.Len(t, hit, want, "dims %v dir %d periodic %v", dims, d, periodic)
			}
		}
	}
}

func TestCartPatternsN6(t *testing.T) {
	// N=6: 2-D 3×2 (rank = 2x + y), 3-D 3×2×1 (rank = 2x + y).
	set := beff.PureSet(6, 0, 1)
	type steps = []beff.Step
	want := map[string]map[int]steps{
		"cyclic-2dim-x": {
			0: {{Dest: 2, Src: 4}, {Dest: 4, Src: 2}},
			3: {{Dest: 5, Src: 1}, {Dest: 1, Src: 5}},
		},
		"cyclic-2dim-y": { // extent 2: ping and pong go to the same partner, one step
			0: {{Dest: 1, Src: 1}},
			3: {{Dest: 2, Src: 2}},
		},
		"cyclic-2dim-all": {
			0: {{Dest: 2, Src: 4}, {Dest: 4, Src: 2}, {Dest: 1, Src: 1}},
			5: {{Dest: 1, Src: 3}, {Dest: 3, Src: 1}, {Dest: 4, Src: 4}},
		},
		"acyclic-2dim-all": {
			0: {{Dest: 2, Src: none}, {Dest: none, Src: 2}, {Dest: 1, Src: none}, {Dest: none, Src: 1}},
			2: {{Dest: 4, Src: 0}, {Dest: 0, Src: 4}, {Dest: 3, Src: none}, {Dest: none, Src: 3}},
			5: {{Dest: none, Src: 3}, {Dest: 3, Src: none}, {Dest: none, Src: 4}, {Dest: 4, Src: none}},
		},
		"cyclic-3dim-x": {1: {{Dest: 3, Src: 5}, {Dest: 5, Src: 3}}},
		"cyclic-3dim-y": {1: {{Dest: 0, Src: 0}}},
		"cyclic-3dim-z": { // extent 1: the process exchanges with itself
			1: {{Dest: 1, Src: 1}},
		},
		"cyclic-3dim-all": {
			4: {{Dest: 0, Src: 2}, {Dest: 2, Src: 0}, {Dest: 5, Src: 5}, {Dest: 4, Src: 4}},
		},
		"acyclic-3dim-all": {
			4: {{Dest: none, Src: 2}, {Dest: 2, Src: none}, {Dest: 5, Src: none}, {Dest: none, Src: 5}, {Dest: none, Src: none}},
		},
	}
	for name, ranks := range want {
		p := set.Lookup(name)
		require.NotNil(t, p, name)
		for r, st := range ranks {
			assert.Equal(t, st, p.Steps(r), "%s rank %d", name, r)
		}
	}
	// Messages per iteration: periodic extent 3 gives 2 per rank, extent
	// 2 and 1 give 1; an open line of m processes carries 2(m-1).
	msgs := map[string]int{
		"cyclic-2dim-x": 12, "cyclic-2dim-y": 6, "cyclic-2dim-all": 18, "acyclic-2dim-all": 2*4 + 3*2,
		"cyclic-3dim-x": 12, "cyclic-3dim-y": 6, "cyclic-3dim-z": 6, "cyclic-3dim-all": 24, "acyclic-3dim-all": 2*4 + 3*2,
	}
	for name, m := range msgs {
		p := set.Lookup(name)
		assert.Equal(t, m, p.Messages(), name)
		assert.Equal(t, 6, p.Participants(), name)
		assert.Equal(t, 6, p.CommSize, name)
		assert.Equal(t, name[0] != 'a', p.Periodic, name)
	}
	assert.Equal(t, []int{3, 2}, set.Lookup("cyclic-2dim-x").Dims)
	assert.Equal(t, []int{3, 2, 1}, set.Lookup("acyclic-3dim-all").Dims)
}

// The Cartesian patterns against CartShift for N = 1..9: per direction, ping
// to +1 (receiving from -1) then pong back, one step where both neighbours
// are the same process; ranks from c on idle.
func TestCartPatterns(t *testing.T) {
	type cp struct {
		name     string
		nd       int
		periodic bool
		dirs     []int
	}
	cps := []cp{
		{"cyclic-2dim-x", 2, true, []int{0}}, {"cyclic-2dim-y", 2, true, []int{1}}, {"cyclic-2dim-all", 2, true, []int{0, 1}},
		{"cyclic-3dim-x", 3, true, []int{0}}, {"cyclic-3dim-y", 3, true, []int{1}}, {"cyclic-3dim-z", 3, true, []int{2}},
		{"cyclic-3dim-all", 3, true, []int{0, 1, 2}},
		{"acyclic-2dim-all", 2, false, []int{0, 1}}, {"acyclic-3dim-all", 3, false, []int{0, 1, 2}},
	}
	for n := 1; n <= 9; n++ {
		set := beff.PureSet(n, 0, 1)
		for _, c := range cps {
			t.Run(fmt.Sprintf("N=%d/%s", n, c.name), func(t *testing.T) {
				size := beff.CartCommSize(n, c.nd, beff.DimsCreate)
				dims := beff.DimsCreate(size, c.nd)
				msgs, parts := 0, 0
				all := make([][]beff.Step, size)
				for r := 0; r < size; r++ {
					for _, d := range c.dirs {
						src, dest := beff.CartShift(dims, c.periodic, r, d)
						all[r] = append(all[r], beff.Step{Dest: dest, Src: src})
						if src != dest {
							all[r] = append(all[r], beff.Step{Dest: src, Src: dest})
						}
					}
					for _, s := range all[r] {
						if s.Dest != none {
							msgs++
						}
					}
					parts++
				}
				p := set.Lookup(c.name)
				if msgs == 0 {
					assert.Nil(t, p, "no message: left out")
					return
				}
				require.NotNil(t, p)
				assert.Equal(t, size, p.CommSize)
				assert.Equal(t, dims, p.Dims)
				assert.Equal(t, c.periodic, p.Periodic)
				for r := 0; r < size; r++ {
					assert.Equal(t, all[r], p.Steps(r), "rank %d", r)
				}
				for r := size; r < n; r++ {
					assert.Nil(t, p.Steps(r), "rank %d idles", r)
				}
				assert.Equal(t, msgs, p.Messages())
				assert.Equal(t, parts, p.Participants())
				assert.NoError(t, p.Check())
			})
		}
	}
}

func TestExtraPatternsSmallN(t *testing.T) {
	periodic := []string{"cyclic-2dim-x", "cyclic-2dim-y", "cyclic-2dim-all", "cyclic-3dim-x", "cyclic-3dim-y", "cyclic-3dim-z", "cyclic-3dim-all"}
	tests := []struct {
		n    int
		want []string
	}{
		// One process: the worst cycle and the periodic Cartesian patterns
		// are exchanges with itself; bi-sections, ping-pong and the
		// non-periodic patterns have no message at all.
		{1, append([]string{"worstcycle"}, periodic...)},
		{2, beff.ExtraNames},
		{3, beff.ExtraNames},
		{4, beff.ExtraNames},
		{9, beff.ExtraNames},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			set := beff.PureSet(tt.n, 30, 5)
			var names []string
			for _, p := range set.Patterns[36:] {
				names = append(names, p.Name)
			}
			assert.Equal(t, tt.want, names)
		})
	}
	// N=1: everything is the process talking to itself, once per direction.
	set := beff.PureSet(1, 30, 5)
	for _, p := range set.Patterns {
		k := 1
		switch p.Name {
		case "cyclic-2dim-all":
			k = 2
		case "cyclic-3dim-all":
			k = 3
		}
		assert.Equal(t, slices.Repeat([]beff.Step{{Dest: 0, Src: 0}}, k), p.Steps(0), p.Name)
		assert.Equal(t, k, p.Messages(), p.Name)
		assert.Equal(t, 1, p.Participants(), p.Name)
	}
}

func TestExtraNames(t *testing.T) {
	require.Len(t, beff.ExtraNames, 13)
	require.Len(t, beff.RingNames, 6)
}

func TestPureSet(t *testing.T) {
	for n := 1; n <= 64; n++ {
		set := beff.PureSet(n, 30, uint64(n))
		require.Equal(t, n, set.N)
		want := 49
		if n == 1 {
			want = 44 // 5 extra patterns have no message on one process
		}
		require.Len(t, set.Patterns, want, "N=%d", n)
		seen := map[string]bool{}
		for i, p := range set.Patterns {
			require.False(t, seen[p.Name], "N=%d: name %s twice", n, p.Name)
			seen[p.Name] = true
			require.Same(t, p, set.Lookup(p.Name))
			require.NoError(t, p.Check(), "N=%d", n)
			require.Positive(t, p.Messages(), "N=%d %s", n, p.Name)
			require.LessOrEqual(t, p.CommSize, n)
			switch {
			case i < 6:
				require.Equal(t, beff.RingNames[i], p.Name)
				require.Equal(t, beff.KindRing, p.Kind)
			case i < 36:
				require.Equal(t, beff.RandomName(i-6), p.Name)
				require.Equal(t, beff.KindRandom, p.Kind)
			default:
				require.Equal(t, beff.KindExtra, p.Kind)
				require.Contains(t, beff.ExtraNames, p.Name)
			}
			// Every step of a rank in the communicator names ranks inside it.
			for r := 0; r < p.CommSize; r++ {
				for _, s := range p.Steps(r) {
					for _, x := range []int{s.Dest, s.Src} {
						require.True(t, x == none || (x >= 0 && x < p.CommSize), "N=%d %s rank %d: %v", n, p.Name, r, s)
					}
				}
			}
		}
		if n >= 2 {
			for i, name := range beff.ExtraNames {
				require.Equal(t, name, set.Patterns[36+i].Name, "N=%d: measurement order", n)
			}
		}
		assert.Nil(t, set.Lookup("nosuch"))
		// Same seed, same random patterns.
		again := beff.PureSet(n, 30, uint64(n))
		for i := 6; i < 36; i++ {
			for r := 0; r < n; r++ {
				require.Equal(t, set.Patterns[i].Steps(r), again.Patterns[i].Steps(r))
			}
		}
	}
}

func TestMessagesParticipantsHand(t *testing.T) {
	tests := []struct {
		n            int
		name         string
		msgs, partic int
	}{
		{4, "ring2", 4, 4},       // {0,1},{2,3}: one message each
		{4, "ring4", 8, 4},       // one 4-ring: ping and pong
		{3, "ring2", 6, 3},       // N=3, s=2: one 3-ring
		{3, "ringall", 6, 3},     // 3-ring
		{2, "ringall", 2, 2},     // 2-ring: no pong
		{5, "bestbisect", 4, 4},  // (0,1),(2,3); 4 idles
		{5, "worstbisect", 4, 4}, // (0,3),(1,2); 4 idles
		{5, "pingpong", 2, 2},
		{5, "worstcycle", 10, 5},
		{5, "cyclic-2dim-x", 4, 4}, // c = 4, 2×2: extent 2, one message per rank
		{5, "cyclic-2dim-all", 8, 4},
		{5, "acyclic-2dim-all", 8, 4}, // two lines of 2 in each direction
		{5, "cyclic-3dim-z", 4, 4},    // 2×2×1: with itself
		{5, "acyclic-3dim-all", 8, 4},
		{8, "cyclic-3dim-all", 24, 8},  // 2×2×2: three partners, one message each
		{8, "acyclic-3dim-all", 24, 8}, // 4 lines of 2 per direction, 2 messages each
		{9, "cyclic-2dim-all", 36, 9},  // 3×3: 4 messages per rank
		{9, "acyclic-2dim-all", 24, 9}, // 3 lines of 3 per direction, 4 messages each
		{9, "cyclic-3dim-x", 8, 8},     // c = 8
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("N=%d/%s", tt.n, tt.name), func(t *testing.T) {
			p := beff.PureSet(tt.n, 0, 1).Lookup(tt.name)
			require.NotNil(t, p)
			assert.Equal(t, tt.msgs, p.Messages())
			assert.Equal(t, tt.partic, p.Participants())
		})
	}
}

// Check catches steps that do not pair.
func TestCheckCatchesBrokenPattern(t *testing.T) {
	ok := beff.PureSet(6, 0, 1)
	for _, p := range ok.Patterns {
		require.NoError(t, p.Check())
	}
	// Build a broken pattern through NewSet with a shift that is not an
	// inverse pair (both directions point the same way).
	bad := beff.Cart{Size: 3, Dims: []int{3, 1},
		Shift:  func(r, d int) (int, int) { return (r + 1) % 3, (r + 1) % 3 },
		AShift: func(r, d int) (int, int) { return none, (r + 1) % 3 },
	}
	set := beff.NewPatternSet(3, nil, bad, beff.PureCart(3, 3))
	p := set.Lookup("cyclic-2dim-x")
	require.NotNil(t, p)
	assert.ErrorContains(t, p.Check(), "rank 0 sends to 1 in step 0")
	assert.ErrorContains(t, set.Lookup("acyclic-2dim-all").Check(), "sends to")
	// Receives from a rank that sends nothing in that step.
	recvOnly := beff.Cart{Size: 3, Dims: []int{3, 1},
		Shift:  bad.Shift,
		AShift: func(r, d int) (int, int) { return (r + 1) % 3, none },
	}
	set = beff.NewPatternSet(3, nil, recvOnly, beff.PureCart(3, 3))
	assert.ErrorContains(t, set.Lookup("acyclic-2dim-all").Check(), "rank 0 receives from 1 in step 0")
}

func TestMethods(t *testing.T) {
	assert.Equal(t, []beff.Method{beff.Sendrecv, beff.Alltoallv, beff.Nonblocking}, beff.Methods)
	for _, m := range beff.Methods {
		got, ok := beff.ParseMethod(m.String())
		assert.True(t, ok)
		assert.Equal(t, m, got)
	}
	assert.Equal(t, "sendrecv", beff.Sendrecv.String())
	assert.Equal(t, "alltoallv", beff.Alltoallv.String())
	assert.Equal(t, "nonblocking", beff.Nonblocking.String())
	assert.Equal(t, "method7", beff.Method(7).String())
	_, ok := beff.ParseMethod("method7")
	assert.False(t, ok)
	assert.Equal(t, "ring", beff.KindRing.String())
	assert.Equal(t, "random", beff.KindRandom.String())
	assert.Equal(t, "extra", beff.KindExtra.String())
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

// TestCountSet: the fold's set without permutations has the names, kinds
// and counts of the full set, whatever the seed.
func TestCountSet(t *testing.T) {
	for n := 1; n <= 40; n++ {
		full, counted := beff.PureSet(n, 5, uint64(n)), beff.CountSet(n, 5)
		require.Len(t, counted.Patterns, len(full.Patterns), "n=%d", n)
		for i, p := range full.Patterns {
			q := counted.Patterns[i]
			assert.Equal(t, []any{p.Name, p.Kind, p.CommSize, p.Messages(), p.Participants()},
				[]any{q.Name, q.Kind, q.CommSize, q.Messages(), q.Participants()}, "n=%d %s", n, p.Name)
		}
	}
}
