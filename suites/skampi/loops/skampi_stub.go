//go:build !mpi

package loops

import "github.com/beff-suite/beff/internal/mpi"

// Without MPI the loops run nothing: each fails with mpi.ErrNoMPI.

func runBatch(b *Batch) (Times, SkampiFault, error) {
	return Times{}, SkampiFault{}, mpi.ErrNoMPI
}

func pairRTT(c mpi.Comm, partner int, initiator bool, rounds int) (float64, error) {
	return 0, mpi.ErrNoMPI
}

func timerCosts(n int) []float64 { return nil }

func newTypes(send, recv TypeSide) (*Types, error) {
	return nil, mpi.ErrNoMPI
}

func freeTypes(t *Types) {}

func typeInfo(t *Types, side int) (TypeInfo, error) {
	return TypeInfo{}, mpi.ErrNoMPI
}

func computeSteps(seconds float64) int64 { return 0 }

// LoopOps and LoopOpBlocks: the SKaMPI loop's table (empty without MPI).
func LoopOps() []string    { return nil }
func LoopOpBlocks() []bool { return nil }
