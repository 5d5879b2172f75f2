//go:build !mpi

package loops

import "github.com/beff-suite/beff/internal/mpi"

// Without MPI the loops run nothing: each fails with mpi.ErrNoMPI.

func runCalls(p *PatternCalls, c0, k int64, buf *mpi.Buffer) (int64, ChunkFault, error) {
	return 0, ChunkFault{}, mpi.ErrNoMPI
}

func runCallsUntil(p *PatternCalls, comm mpi.Comm, t0, target float64, limit int64, buf *mpi.Buffer) (UntilCalls, error) {
	return UntilCalls{}, mpi.ErrNoMPI
}
