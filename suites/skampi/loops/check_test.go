package loops

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/beff-suite/beff/internal/mpi"
)

// What the SKaMPI loop refuses before any C runs; no MPI needed.

// TestBatchAndTypesRefused: a SKaMPI batch or typed point the C code
// cannot run is refused before C.
func TestBatchAndTypesRefused(t *testing.T) {
	for name, b := range map[string]Batch{
		"no repetitions":  {Op: 0, Reps: 0, Calls: 1},
		"no calls":        {Op: 0, Reps: 1, Calls: 0},
		"too many chunks": {Op: 0, Reps: 1, Calls: 1, Chunks: MaxChunks + 1},
		"unknown op":      {Op: -1, Reps: 1, Calls: 1},
		"negative length": {Op: 0, Reps: 1, Calls: 1, Len: -8},
		"length too big":  {Op: 0, Reps: 1, Calls: 1, Len: MaxMessage + 1},
		"grid of 1":       {Op: 0, Reps: 1, Calls: 1, Topo: TopoCart, Dims: []int{4}},
		"grid of 0":       {Op: 0, Reps: 1, Calls: 1, Topo: TopoStencil, Dims: []int{2, 0}},
		"grid, no topo":   {Op: 0, Reps: 1, Calls: 1, Dims: []int{2, 2}},
		"grid past int":   {Op: 0, Reps: 1, Calls: 1, Topo: TopoCart, Dims: []int{1 << 16, 1 << 16}},
		"calls too many":  {Op: 0, Reps: 1, Calls: mpi.MaxInt32 + 1},
	} {
		_, _, err := RunBatch(&b)
		assert.ErrorContains(t, err, "skampi batch:", name)
	}
	side := TypeSide{Prog: []int64{0, 1}, Runs: []int64{0, 8}, Count: 1, Extent: 8}
	for name, bad := range map[string]TypeSide{
		"odd runs":      {Prog: side.Prog, Runs: []int64{0}, Count: 1, Extent: 8},
		"no program":    {Runs: side.Runs, Count: 1, Extent: 8},
		"no instances":  {Prog: side.Prog, Runs: side.Runs, Count: 0, Extent: 8},
		"count too big": {Prog: side.Prog, Runs: side.Runs, Count: mpi.MaxInt32 + 1, Extent: 8},
		"no extent":     {Prog: side.Prog, Runs: side.Runs, Count: 1},
	} {
		_, err := NewTypes(side, bad)
		assert.ErrorContains(t, err, "skampi types:", name)
	}
	var none *Types
	none.Free() // nil is fine
}

// TestNames: the one-sided synchronisations' names, in value order.
func TestNames(t *testing.T) {
	var got []string
	for _, s := range RMASyncs {
		got = append(got, s.String())
	}
	assert.Equal(t, []string{"fence", "pscw", "lock", "lock-all-flush", "lock-all-flush-local"}, got)
}
