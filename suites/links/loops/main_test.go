//go:build mpi

package loops_test

import (
	"os"
	"testing"

	"github.com/beff-suite/beff/internal/mpi"
)

// The tests with MPI run as a singleton MPI process (no mpirun).
func TestMain(m *testing.M) { os.Exit(mpi.Singleton("serialized", m.Run)) }
