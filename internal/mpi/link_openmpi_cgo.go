//go:build mpi && openmpi && !mpich

package mpi

// -tags mpi,openmpi links Open MPI whatever mpi-c points at (Debian: ompi-c).

// #cgo pkg-config: ompi-c
import "C"
