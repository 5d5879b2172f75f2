// Package mpi is beff's own small binding to the MPI C library: the control
// plane the harness needs (ranks, barrier, broadcast, reductions,
// communicators, Cartesian topologies, clocks, MPI-IO files) and the timed
// loops the suites measure with, which run in C over C memory — one cgo
// call per measurement, never one per message.
//
// It speaks MPI's terms and imports no suite: a loop takes communicators,
// buffers, counts and its own small enums (how a b_eff step exchanges its
// messages, how a b_eff_io pattern lays out its calls, which operation of
// its table SKaMPI's loop runs, how one-sided epochs are synchronised),
// and each suite's driver maps its definitions onto them.
//
// The files come in pairs of Go and C: control_cgo.go and control.c (the
// control plane), file_cgo.go and file.c (MPI-IO), and one pair per loop
// (beff_cgo.go and beff.c, beffio_cgo.go and beffio.c, skampi_cgo.go and
// skampi.c). A loop's Go types and entry point live in a file without
// build tag (beff.go, beffio.go, skampi.go), which calls its C code
// through a function variable that the cgo file sets: without MPI the
// variable stays nil and the call fails with ErrNoMPI. The enums that Go
// and C share are one table on each side, with a test that they agree.
// Three C files serve the SKaMPI loop: mpi4.c (with mpi4.go and
// mpi4_cgo.go) finds MPI 4.0's calls in the running library by symbol,
// so one build runs on libraries with and without them (Provides);
// compute.c is the calibrated computation of overlap points; pready.c
// the threads that mark a partitioned message's partitions ready.
//
// It is the only package of beff with import "C". Built with the "mpi" build
// tag it links the MPI library found through pkg-config (Debian's mpi-c, an
// alternative that points at Open MPI or MPICH); without the tag it is a
// pure-Go stub whose Init reports ErrNoMPI, so that tests of the pure logic
// build anywhere and the benchmarks refuse to run.
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
