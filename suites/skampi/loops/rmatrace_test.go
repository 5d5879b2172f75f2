//go:build mpi && rmatrace

package loops_test

import (
	"testing"

	"github.com/beff-suite/beff/suites/skampi/loops"
	"github.com/stretchr/testify/assert"
)

// TestRMAAssertions: with rma-assert nocheck the loop really passes
// MPI_MODE_NOCHECK to MPI_Win_lock and MPI_Win_lock_all and
// MPI_MODE_NOSTORE to the fences of its calls, and nothing without it
// (recorded through MPI's profiling interface: -tags rmatrace).
func TestRMAAssertions(t *testing.T) {
	put := loopOp("put")
	for _, tt := range []struct {
		sync                 loops.RMASync
		nocheck              bool
		lock, lockAll, fence int
	}{
		{loops.SyncLock, true, loops.ModeNoCheck, -1, -1},
		{loops.SyncLock, false, 0, -1, -1},
		{loops.SyncFlush, true, -1, loops.ModeNoCheck, -1},
		{loops.SyncFlushLocal, false, -1, 0, -1},
		{loops.SyncFence, true, -1, -1, loops.ModeNoStore},
		{loops.SyncFence, false, -1, -1, 0},
	} {
		loops.ResetRMAAsserts()
		b := selfBatch(t, put, 64)
		b.RMASync, b.RMANoCheck, b.RMAAllocate = tt.sync, tt.nocheck, true
		_, f, err := loops.RunBatch(b)
		assert.NoError(t, err, tt.sync)
		assert.Zero(t, f.Count, tt.sync)
		lock, lockAll, fence := loops.RMAAsserts()
		assert.Equal(t, []int{tt.lock, tt.lockAll, tt.fence}, []int{lock, lockAll, fence}, "%s nocheck=%v: the assertions of lock, lock-all, fence", tt.sync, tt.nocheck)
	}
}
