package beff_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/beff"
)

// setFor is the pattern set as rank me of n builds it under MPI (random
// rings drawn one at a time and kept as me's own steps).
func setFor(n, random int, seed uint64, me int) *beff.PatternSet {
	next := beff.PermStream(n, seed)
	rnd := make([]*beff.Pattern, random)
	for i := range rnd {
		rnd[i] = beff.RandomPatternFor(i, next(), me)
	}
	return beff.NewPatternSet(n, rnd, beff.PureCart(n, 2), beff.PureCart(n, 3))
}

// TestRandomPatternForAgrees: a rank's own view of a random ring has the
// steps and counts of the full pattern.
func TestRandomPatternForAgrees(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 64} {
		full := beff.PureSet(n, 5, 99)
		for me := range n {
			own := setFor(n, 5, 99, me)
			for i := range 5 {
				f, o := full.Lookup(beff.RandomName(i)), own.Lookup(beff.RandomName(i))
				require.NotNil(t, o)
				assert.Equal(t, f.Steps(me), o.Steps(me), "n=%d rank %d %s", n, me, f.Name)
				assert.Equal(t, f.Messages(), o.Messages(), "n=%d %s", n, f.Name)
				assert.Equal(t, f.Participants(), o.Participants())
			}
		}
	}
}

// TestPatternSetupAtAMillion builds the patterns as one rank of 2^20 does
// and takes its steps of every pattern: the memory kept grows with the
// patterns, not with the processes (the permutations are drawn and
// dropped one at a time).
func TestPatternSetupAtAMillion(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 30 permutations of 2^20 processes")
	}
	const n, random = 1 << 20, 30
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	set := setFor(n, random, 7, n/3)
	steps := 0
	for _, p := range set.Patterns {
		steps += len(p.Steps(n / 3))
	}
	took := time.Since(t0)
	runtime.GC()
	runtime.ReadMemStats(&after)
	kept := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("p = %d: %d patterns, %d steps of rank %d, set up in %v, %d bytes kept", n, len(set.Patterns), steps, n/3, took, kept)
	assert.Len(t, set.Patterns, 6+random+13)
	assert.Less(t, kept, int64(1<<20), "a rank keeps O(1) per pattern (one permutation alone is 8 MiB)")
	for _, p := range set.Patterns[:6] {
		assert.Equal(t, n, p.Participants(), p.Name)
	}
}
