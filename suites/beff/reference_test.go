package beff

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRefBound(t *testing.T) {
	for _, c := range []struct {
		pre  float64
		want int
	}{
		{0.001, 5000}, // 10 iterations of all patterns took 1 ms: 0.5 s holds 5000
		{0.004, 1250},
		{1.0, RefPreLoops}, // never below the opening sweep's 10
		{0, 1 << 20},       // no time measured: no bound from it
	} {
		assert.Equal(t, c.want, RefBound(c.pre), "pre %g", c.pre)
	}
	assert.Equal(t, 2500, RefFirstLoopLength(5000))
	assert.Equal(t, 5, RefFirstLoopLength(11), "integer halving")
}

func TestRefLoopLength(t *testing.T) {
	for _, c := range []struct {
		name         string
		prev         int
		prevT, ratio float64
		bound, want  int
	}{
		{"sweep took half the target: twice the loops, half for the size", 2500, 0.25, 2, 5000, 2500},
		{"sweep took the target", 2500, 0.5, 2, 5000, 1250},
		{"sweep took longer: only the size counts", 2500, 1.0, 2, 5000, 1250},
		{"truncated", 3, 0.5, 2, 100, 1},
		{"at least 1", 1, 10, 2.59, 100, 1},
		{"at most the bound", 4000, 0.01, 2, 5000, 5000},
		{"no time: unchanged", 7, 0, 2, 100, 7},
	} {
		assert.Equal(t, c.want, RefLoopLength(c.prev, c.prevT, c.ratio, c.bound), c.name)
	}
}

func TestRefShortcutTime(t *testing.T) {
	a := GeometricFactor(8 << 20) // M = 1 GiB: a = 2048^(1/8)
	// fastest loop at the third-largest size 2 ms for 2 iterations, 49
	// patterns, 3 methods
	want := 0.002 / 2 * 49 * 4 * (a + a*a) * 3 * 3
	assert.InDelta(t, want, RefShortcutTime(0.002, 2, 49, 3, a), 1e-12)
	assert.Less(t, RefShortcutTime(0.002, 2, 49, 3, a), 60.0, "M = 1 GiB on shared memory: no shortcut")
}

func TestRefRatio(t *testing.T) {
	sizes := Sizes(8 << 20)
	assert.Equal(t, 2.0, RefRatio(sizes, 1))
	assert.Equal(t, 2.0, RefRatio(sizes, 12))
	assert.InDelta(t, math.Pow(2048, 1.0/8), RefRatio(sizes, 13), 1e-12, "the factor, not the rounded sizes' ratio")
	assert.Equal(t, RefFactor(sizes), RefRatio(sizes, 20))
	short := []int64{1, 64, 4096, 65536, 1 << 20}
	assert.Equal(t, 64.0, RefRatio(short, 1))
	assert.Equal(t, 16.0, RefFactor(short))
}

// TestSetReference: the reference code's pattern set leaves out the
// directions of size-1 dimensions: on 3 processes the 2-D layout is 3×1
// and the 3-D one 3×1×1, so only the x patterns and the -all patterns
// (with the x direction alone) remain of the Cartesian ones.
func TestSetReference(t *testing.T) {
	full := PureSet(3, 3, 0)
	ref := full.Reference()
	var names []string
	for _, p := range ref.Patterns {
		names = append(names, p.Name)
		assert.NoError(t, p.Check())
		for r := range p.CommSize {
			for _, s := range p.Steps(r) {
				assert.False(t, s.Dest == s.Src && (s.Dest == r || s.Dest == None), "%s rank %d: %v", p.Name, r, s)
			}
		}
	}
	for _, gone := range []string{"cyclic-2dim-y", "cyclic-3dim-y", "cyclic-3dim-z"} {
		assert.NotContains(t, names, gone)
		assert.NotNil(t, full.Lookup(gone), "beff's default measures %s", gone)
	}
	all := ref.Lookup("cyclic-3dim-all")
	assert.Equal(t, ref.Lookup("cyclic-3dim-x").Messages(), all.Messages(), "the -all pattern is its x direction")
	assert.Equal(t, full.Lookup("ring2").Messages(), ref.Lookup("ring2").Messages())
	// the reference code's order: the non-periodic Cartesian patterns first
	assert.Equal(t, []string{"pingpong", "acyclic-2dim-all", "acyclic-3dim-all", "cyclic-2dim-x", "cyclic-2dim-all", "cyclic-3dim-x", "cyclic-3dim-all"},
		names[len(names)-7:])
	// 8 processes: 2×2×2, nothing to leave out
	assert.Len(t, PureSet(8, 3, 0).Reference().Patterns, len(PureSet(8, 3, 0).Patterns))
}
