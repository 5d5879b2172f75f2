//go:build mpi && rmatrace

/* rmatrace.c: for a test only (-tags rmatrace), the synchronisations of
 * windows through MPI's profiling interface, recording the assertions
 * the SKaMPI loop passes. */
#include <mpi.h>

int rmatrace_lock = -1, rmatrace_lockall = -1, rmatrace_fence = -1;

int MPI_Win_lock(int type, int rank, int assert, MPI_Win win) {
	rmatrace_lock = assert;
	return PMPI_Win_lock(type, rank, assert, win);
}

int MPI_Win_lock_all(int assert, MPI_Win win) {
	rmatrace_lockall = assert;
	return PMPI_Win_lock_all(assert, win);
}

int MPI_Win_fence(int assert, MPI_Win win) {
	rmatrace_fence = assert;
	return PMPI_Win_fence(assert, win);
}
