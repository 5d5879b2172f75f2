// Package loops is the SKaMPI suite's timed loop, in C: a batch of
// repetitions of one operation of the suite's table (RunBatch), each
// started on the synchronised clock or after a barrier, with the typed
// datatypes of a point (NewTypes), the round trips of the
// preparation (PairRTT) and the calibrated computation of
// overlap points (ComputeSteps).
//
// The C table of operations, skampi_optab.c, is written from the one
// declaration of every operation, the Go table Ops of package skampi
// (BEFF_UPDATE=1 go test ./suites/skampi rewrites it); each row's C
// function sk_op_<name> lives in the file of its family (skampi_p2p.c,
// skampi_coll.c, skampi_neighbor.c, skampi_rma.c, skampi_dtype.c,
// skampi_mw.c, skampi_local.c, skampi_wire.c), sharing skampi_ctx.h; the
// timed loop is skampi.c, the computation compute.c, the threads that mark
// partitions ready pready.c. MPI 4.0's calls come through the binding's
// mpi4.h. skampi.go has the types and checks that need no MPI,
// skampi_cgo.go (tag mpi) the cgo calls, skampi_stub.go what a build
// without MPI gets.
package loops
