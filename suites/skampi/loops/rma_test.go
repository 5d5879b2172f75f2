//go:build mpi

package loops_test

import (
	"slices"
	"testing"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/mpi/mpitest"
	"github.com/beff-suite/beff/suites/skampi"
	"github.com/beff-suite/beff/suites/skampi/loops"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// selfBatch is a batch of 3 repetitions of 2 calls of op on the one
// process, which reaches into its own window.
func selfBatch(t *testing.T, op int, l int64) *loops.Batch {
	t.Helper()
	send, recv := mpitest.Buffers(t, 1<<16)
	return &loops.Batch{Op: op, Comm: mpi.World, Len: l, Calls: 2, Reps: 3, Send: send, Recv: recv}
}

// loopOp is the number of the named operation in the loop's table.
func loopOp(name string) int { return slices.Index(loops.LoopOps(), name) }

// TestRMASelf runs every one-sided operation under every
// synchronisation on one process, the full check included: everything
// that reached the window and came back checks. (Open MPI 4 cannot
// MPI_Win_create in a singleton: the windows of MPI_Win_create are
// exercised by the mpirun jobs of the integration tests.)
func TestRMASelf(t *testing.T) {
	for _, o := range skampi.Ops {
		if !o.RMA() {
			continue
		}
		l := int64(0)
		if o.Vary&skampi.VaryLength != 0 {
			l = 64
		}
		for _, sync := range loops.RMASyncs {
			for _, full := range []bool{false, true} {
				b := selfBatch(t, loopOp(o.Name), l)
				b.RMASync, b.RMAAllocate, b.Full = sync, true, full
				times, f, err := loops.RunBatch(b)
				require.NoError(t, err, "%s %s full=%v", o.Name, sync, full)
				assert.Zero(t, f.Count, "%s %s full=%v: %+v", o.Name, sync, full, f)
				assert.Len(t, times.End, 3)
			}
		}
	}
}

// TestRMALostPut: a put the origin skips in the full check is found at
// the target: its window kept the fill.
func TestRMALostPut(t *testing.T) {
	for _, sync := range loops.RMASyncs {
		b := selfBatch(t, loopOp("put"), 256)
		b.RMASync, b.RMAAllocate, b.Full, b.Inject = sync, true, true, loops.InjectLostPut
		_, f, err := loops.RunBatch(b)
		require.NoError(t, err, sync)
		assert.Positive(t, f.Count, "%s: the lost put is found", sync)
		assert.Equal(t, 0xA5, f.Got, "%s: the window kept its fill", sync)
	}
}
