// Package loops is the b_eff_io suite's timed loop, in C: the MPI-IO calls
// of one access pattern on this rank (RunCalls), with every chunk a read
// returns validated, and the reference code's stop rule of a time-driven
// pattern, one decision per call (RunCallsUntil).
//
// beffio.go has the types and the checks that need no MPI; beffio_cgo.go
// (tag mpi) the cgo calls; beffio.c and beffio.h the loop, on the
// binding's control.h and its files; beffio_stub.go what a build without
// MPI gets (mpi.ErrNoMPI). The driver maps the suite's patterns onto it.
package loops
