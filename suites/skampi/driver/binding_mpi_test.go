//go:build mpi

package driver

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/skampi"
	"github.com/beff-suite/beff/suites/skampi/loops"
)

// TestLoopOps: every operation of skampi.Ops is in the C loop's table,
// with the same use of one block per process, and the table has no
// other; the work items of a master-worker call are capped alike.
func TestLoopOps(t *testing.T) {
	blocks := loops.LoopOpBlocks()
	for i, o := range skampi.Ops {
		k := loopOp(i)
		require.GreaterOrEqual(t, k, 0, "%s: not in the C loop's table", o.Name)
		assert.Equal(t, o.Blocks, blocks[k], "%s: a block per process", o.Name)
	}
	assert.Len(t, loops.LoopOps(), len(skampi.Ops), "the C loop's table has the suite's operations only")
	assert.Equal(t, skampi.MaxChunks, loops.MaxChunks)
}

// TestProvides: the MPI 4 calls the loops use are all in MPICH 4, none in
// Open MPI 4, and in Open MPI 5 all but the large-count ones (MPI_Send_c,
// MPI_Recv_c: found missing from 5.0.7's libmpi by this test).
func TestProvides(t *testing.T) {
	lib := mpi.LibraryVersion()
	has := mpi.Provides()
	require.NotEmpty(t, has)
	for call, ok := range has {
		want := true
		switch {
		case strings.HasPrefix(lib, "Open MPI v4.") || strings.HasPrefix(lib, "Open MPI v3."):
			want = false
		case strings.HasPrefix(lib, "Open MPI v5."):
			want = !strings.HasSuffix(call, "_c")
		}
		assert.Equal(t, want, ok, "%s in %s", call, strings.SplitN(lib, "\n", 2)[0])
	}
	for _, o := range skampi.Ops {
		if o.Needs != "" {
			assert.Contains(t, has, o.Needs, "%s: the C layer looks up what the operation needs", o.Name)
		}
	}
}
