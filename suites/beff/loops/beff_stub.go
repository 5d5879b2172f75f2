//go:build !mpi

package loops

import "github.com/beff-suite/beff/internal/mpi"

// Without MPI the loop runs nothing: it fails with mpi.ErrNoMPI.

func measure(m *BeffTiming) (float64, Fault, error) { return 0, Fault{}, mpi.ErrNoMPI }
