//go:build mpi

package mpi

/*
#cgo LDFLAGS: -ldl
#include "mpi4.h"
*/
import "C"

func init() { mpi4Calls = cMPI4Calls }

func cMPI4Calls() map[string]bool {
	out := map[string]bool{}
	for i := range C.int(C.MPI4_NCALLS) {
		out[C.GoString(C.mpi4_name(i))] = C.mpi4_sym(i) != nil
	}
	return out
}
