//go:build mpi

package driver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/skampi"
)

// TestLoopOps: every operation of skampi.Ops is in the C loop's table,
// with the same use of one block per process, and the table has no
// other; the work items of a master-worker call are capped alike.
func TestLoopOps(t *testing.T) {
	blocks := mpi.LoopOpBlocks()
	for i, o := range skampi.Ops {
		k := loopOp(i)
		require.GreaterOrEqual(t, k, 0, "%s: not in the C loop's table", o.Name)
		assert.Equal(t, o.Blocks, blocks[k], "%s: a block per process", o.Name)
	}
	assert.Len(t, mpi.LoopOps(), len(skampi.Ops), "the C loop's table has the suite's operations only")
	assert.Equal(t, skampi.MaxChunks, mpi.MaxChunks)
}
