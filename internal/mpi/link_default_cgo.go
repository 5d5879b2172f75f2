//go:build mpi && !mpich && !openmpi

package mpi

// Without a library tag, the MPI library is pkg-config's mpi-c: on Debian an
// alternative that points at Open MPI or MPICH, whichever the system chose.

// #cgo pkg-config: mpi-c
import "C"
