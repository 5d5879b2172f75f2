package beff_test

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/beff"
)

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
