//go:build !mpi

package loops

import "github.com/beff-suite/beff/internal/mpi"

// Without MPI the loop runs nothing: it fails with mpi.ErrNoMPI.

func run(p *Pair) (Result, error) { return Result{}, mpi.ErrNoMPI }

func share(c mpi.Comm, partner int, lower bool, v *Values) error { return mpi.ErrNoMPI }

func runMulti(m *Multi) (Result, error) { return Result{}, mpi.ErrNoMPI }
