// Package mpi is beff's own small binding to the MPI C library: the control
// plane the harness and the suites need (ranks, barrier, broadcast,
// reductions, communicators, Cartesian topologies, clocks, one-sided
// probes, MPI-IO files), message buffers in C memory, and what the suites'
// timed loops build on. It speaks MPI's terms and imports no suite.
//
// Each suite's timed loops live in the suite's own folder (suites/<s>/loops,
// a small cgo package of its own): they include this package's control.h,
// link against its C, run every call through OnMain, hand their buffers'
// C memory over by Buffer.Pointer and report MPI errors with CallError.
//
// The files come in pairs of Go and C: control_cgo.go and control.c (the
// control plane), file_cgo.go and file.c (MPI-IO), mpi4_cgo.go and mpi4.c,
// which find MPI 4.0's calls in the running library by symbol, so that one
// build runs on libraries with and without them (Provides; SKaMPI's loop
// calls them through mpi4.h). The enums that Go and C share are one table
// on each side, with a test that they agree.
//
// Built with the "mpi" build tag it links the MPI library the build was
// given (mpicc, or CGO_CFLAGS and CGO_LDFLAGS from pkg-config); without the
// tag it is a pure-Go stub (stub.go) whose Init reports ErrNoMPI, so that
// tests of the pure logic build anywhere and the benchmarks refuse to run.
//
// Communicators are MPI Fortran handles (type Comm), which are plain ints in
// every MPI library. MPI errors are returned as *Error values carrying the
// call's name and the library's error string; the error handler of
// MPI_COMM_WORLD is MPI_ERRORS_RETURN.
package mpi

import (
	"errors"
	"fmt"
)

// Comm is a communicator, as its MPI Fortran handle.
type Comm int32

// ReduceOp is a reduction operation.
type ReduceOp int

const (
	Max ReduceOp = iota
	Min
	Sum
)

var opNames = [...]string{"max", "min", "sum"}

func (o ReduceOp) String() string { return opNames[o] }

// Error is a failed MPI call.
type Error struct {
	Call string // the MPI function, e.g. "MPI_Bcast"
	Code int    // the MPI error code
	Msg  string // the MPI library's error string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s (MPI error %d)", e.Call, e.Msg, e.Code) }

// ErrNoMPI is returned by Init when beff was built without the mpi tag.
var ErrNoMPI = errors.New("beff was built without MPI: build with -tags mpi (for example: go test -c -tags mpi -o beff.test .), which needs an MPI library (Debian: apt-get install openmpi-bin libopenmpi-dev) and pkg-config")

// File is an MPI file handle (Fortran handle); Info an MPI_Info.
type (
	File int32
	Info int32
)

// OpenMode selects the access flags of OpenFile.
type OpenMode int

const (
	OpenCreate OpenMode = iota // MPI_MODE_CREATE|MPI_MODE_WRONLY
	OpenWrite                  // MPI_MODE_WRONLY
	OpenRead                   // MPI_MODE_RDONLY
)

var openModeNames = [...]string{"create", "write", "read"}

func (m OpenMode) String() string { return openModeNames[m] }

// OpenFlags are further access flags of OpenFile, or-ed together.
type OpenFlags int

const (
	// Unique is MPI_MODE_UNIQUE_OPEN. b_eff_io's paper asks not to use it
	// (it would let the library defer MPI_File_sync until the close); its
	// reference code 2.1 uses it unless told -nounique.
	Unique OpenFlags = 1 << iota
	// DeleteOnClose is MPI_MODE_DELETE_ON_CLOSE: the close removes the file.
	DeleteOnClose
	// ReadWrite opens the writing modes with MPI_MODE_RDWR instead of
	// MPI_MODE_WRONLY.
	ReadWrite
)

// MaxInt32 is the largest int count of an MPI call.
const MaxInt32 = 1<<31 - 1

// countCheck refuses a count that an MPI call takes as a C int and that
// does not fit one.
func countCheck(call string, n int) error {
	if n < 0 || n > MaxInt32 {
		return &Error{Call: call, Code: -1, Msg: fmt.Sprintf("a count of %d: an MPI count is 0 to %d", n, MaxInt32)}
	}
	return nil
}

// A RankRange is ranks First, First+Stride, … up to Last of a communicator
// (MPI_Group_range_incl's triple).
type RankRange struct{ First, Last, Stride int }
