//go:build !mpi

package loops

import "github.com/beff-suite/beff/internal/mpi"

// Without MPI the loops run nothing: each fails with mpi.ErrNoMPI.

func runCanary(r *CanaryRun) (Samples, error) {
	return Samples{}, mpi.ErrNoMPI
}

func runCongestor(r *CongestorRun) (Load, error) {
	return Load{}, mpi.ErrNoMPI
}
