// Package loops is the links suite's timed loop, in C: one measurement
// of one pair of processes (Run) — a ping-pong latency, a one-way
// bandwidth either way, or both ways at once — stopped after a number of
// exchanges or a time cap, whichever comes first, with every message's
// stamps checked.
//
// links.go has the types and the checks that need no MPI; links_cgo.go
// (tag mpi) the cgo call; links.c and links.h the loop, on the binding's
// control.h; links_stub.go what a build without MPI gets (mpi.ErrNoMPI).
package loops
