package beff_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/beff"
)

const none = beff.None

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
