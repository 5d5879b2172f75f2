//go:build mpi

package mpi

/*
#cgo LDFLAGS: -ldl
#include "mpi4.h"
*/
import "C"

// Provides says which of the calls of MPI 4.0 that the loops use where
// the library has them (mpi4.h) the running library provides, by name
// (MPI_Bcast_init, MPI_Isendrecv, …): they are found by symbol, so one
// build serves a library with and one without them. Without MPI it
// provides none (stub.go).
func Provides() map[string]bool {
	out := map[string]bool{}
	for i := range C.int(C.MPI4_NCALLS) {
		out[C.GoString(C.mpi4_name(i))] = C.mpi4_sym(i) != nil
	}
	return out
}
