package mpi

// The calls of MPI 4.0 that the loops use where the library has them
// (mpi4.h): they are found in the running library by symbol, so one build
// serves a library with and one without them.

// mpi4Calls lists them; nil without MPI (mpi4_cgo.go).
var mpi4Calls func() map[string]bool

// Provides says which of the MPI 4.0 calls the loops can use the running
// library provides, by name (MPI_Bcast_init, MPI_Isendrecv, …). Without
// MPI it provides none.
func Provides() map[string]bool {
	if mpi4Calls == nil {
		return map[string]bool{}
	}
	return mpi4Calls()
}
