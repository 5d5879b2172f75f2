// Package loops is the congestion suite's timed loops, in C: a canary
// (RunCanary), sampled into a histogram of latencies for a duration, alone
// or under load, and a congestor (RunCongestor), which loads the network
// until the canaries of the job are done.
//
// congestion.go has the types and the checks that need no MPI;
// congestion_cgo.go (tag mpi) the cgo calls; congestion.c and
// congestion.h the loops, on the binding's control.h; congestion_stub.go
// what a build without MPI gets (mpi.ErrNoMPI).
package loops
