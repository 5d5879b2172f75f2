//go:build mpi && rmatrace

package mpi_test

import (
	"testing"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/stretchr/testify/assert"
)

// TestRMAAssertions: with rma-assert nocheck the loop really passes
// MPI_MODE_NOCHECK to MPI_Win_lock and MPI_Win_lock_all and
// MPI_MODE_NOSTORE to the fences of its calls, and nothing without it
// (recorded through MPI's profiling interface: -tags rmatrace).
func TestRMAAssertions(t *testing.T) {
	put := loopOp("put")
	for _, tt := range []struct {
		sync                 mpi.RMASync
		nocheck              bool
		lock, lockAll, fence int
	}{
		{mpi.SyncLock, true, mpi.ModeNoCheck, -1, -1},
		{mpi.SyncLock, false, 0, -1, -1},
		{mpi.SyncFlush, true, -1, mpi.ModeNoCheck, -1},
		{mpi.SyncFlushLocal, false, -1, 0, -1},
		{mpi.SyncFence, true, -1, -1, mpi.ModeNoStore},
		{mpi.SyncFence, false, -1, -1, 0},
	} {
		mpi.ResetRMAAsserts()
		b := selfBatch(t, put, 64)
		b.RMASync, b.RMANoCheck, b.RMAAllocate = tt.sync, tt.nocheck, true
		_, f, err := mpi.RunBatch(b)
		assert.NoError(t, err, tt.sync)
		assert.Zero(t, f.Count, tt.sync)
		lock, lockAll, fence := mpi.RMAAsserts()
		assert.Equal(t, []int{tt.lock, tt.lockAll, tt.fence}, []int{lock, lockAll, fence}, "%s nocheck=%v: the assertions of lock, lock-all, fence", tt.sync, tt.nocheck)
	}
}
