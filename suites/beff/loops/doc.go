// Package loops is the b_eff suite's timed loop, in C over C memory: one
// cgo call (Measure) runs a whole measurement — the barrier, the timed
// iterations of one pattern at one message length with one exchange
// method, the validation of every received message — and returns its
// elapsed time and the first fault seen.
//
// beff.go has the types and the checks that need no MPI; beff_cgo.go (tag
// mpi) the cgo call; beff.c and beff.h the loop, on the binding's
// control.h; beff_stub.go what a build without MPI gets (mpi.ErrNoMPI).
// The driver (package driver) maps the suite's definitions onto it.
package loops
