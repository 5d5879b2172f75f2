//go:build mpi

package driver

import (
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/beff-suite/beff/internal/mpi"
)

// TestMain runs the tests built with MPI as a singleton MPI process: the
// fake loops of the point and pair tests still read MPI_Wtime, which
// MPICH refuses before MPI_Init.
func TestMain(m *testing.M) {
	runtime.LockOSThread()
	if _, err := mpi.Init("single"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	mpi.Finalize()
	os.Exit(code)
}
