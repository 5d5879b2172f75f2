//go:build mpi

package driver

import (
	"os"
	"testing"

	"github.com/beff-suite/beff/internal/mpi"
)

// TestMain runs the tests built with MPI as a singleton MPI process: the
// fake loops of the point and pair tests still read MPI_Wtime, which
// MPICH refuses before MPI_Init.
func TestMain(m *testing.M) { os.Exit(mpi.Singleton("single", m.Run)) }
