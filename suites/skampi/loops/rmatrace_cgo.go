//go:build mpi && rmatrace

package loops

/*
#include <mpi.h>
extern int rmatrace_lock, rmatrace_lockall, rmatrace_fence;
static void rmatrace_reset(void) { rmatrace_lock = rmatrace_lockall = rmatrace_fence = -1; }
*/
import "C"

// RMAAsserts are the assertions last passed to MPI_Win_lock,
// MPI_Win_lock_all and MPI_Win_fence (−1: not called since
// ResetRMAAsserts); a test build (-tags rmatrace) records them.
func RMAAsserts() (lock, lockAll, fence int) {
	return int(C.rmatrace_lock), int(C.rmatrace_lockall), int(C.rmatrace_fence)
}

// ResetRMAAsserts forgets the recorded assertions.
func ResetRMAAsserts() { C.rmatrace_reset() }

// The assertions' values in this library.
const (
	ModeNoCheck = int(C.MPI_MODE_NOCHECK)
	ModeNoStore = int(C.MPI_MODE_NOSTORE)
)
