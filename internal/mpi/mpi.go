// Package mpi is beff's own small binding to the MPI C library: the control
// plane the harness needs (ranks, barrier, broadcast, reductions,
// communicators, Cartesian topologies, clocks) and the timed measurement
// loops, which run in C over C memory — one cgo call per measurement, never
// one per message.
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
	"os"
	"strconv"
)

// Comm is a communicator, as its MPI Fortran handle.
type Comm int32

// Op is a reduction operation.
type Op int

const (
	Max Op = iota
	Min
	Sum
)

// Error is a failed MPI call.
type Error struct {
	Call string // the MPI function, e.g. "MPI_Bcast"
	Code int    // the MPI error code
	Msg  string // the MPI library's error string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s (MPI error %d)", e.Call, e.Msg, e.Code) }

// ErrNoMPI is returned by Init when beff was built without the mpi tag.
var ErrNoMPI = errors.New("beff was built without MPI: build with -tags mpi (for example: go test -c -tags mpi -o beff.test .), which needs an MPI library (Debian: apt-get install openmpi-bin libopenmpi-dev) and pkg-config")

// LauncherSize returns the number of processes the MPI launcher says the job
// has, from the environment (Open MPI, PMIx, MPICH/Hydra, Slurm), and whether
// it found one. A binary built without MPI uses it to notice that it was
// started as one of several processes.
func LauncherSize() (int, bool) {
	for _, k := range []string{"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS"} {
		if v, ok := os.LookupEnv(k); ok {
			if n, err := strconv.Atoi(v); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

// LauncherRank returns this process's rank as the launcher's environment
// gives it, or 0.
func LauncherRank() int {
	for _, k := range []string{"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"} {
		if v, ok := os.LookupEnv(k); ok {
			if n, err := strconv.Atoi(v); err == nil {
				return n
			}
		}
	}
	return 0
}

// Plan is what one rank does in one iteration of a b_eff pattern: up to
// MaxSteps exchanges, each with a destination and a source (ProcNull for
// none), in the ranks of the pattern's communicator.
type Plan struct {
	Dest, Src []int
}

// Fault describes the first validation failure a rank saw in a measurement.
type Fault struct {
	Count                 int64 // failed checks in the measurement
	Iter                  int64 // iteration (0 is the first untimed one when there is one)
	Step, Partner         int
	Offset                int64 // offset of the message in the receive buffer
	ExpectFirst, GotFirst int
	ExpectLast, GotLast   int
}

// Method codes of Measure, in the order of beff.Methods.
const (
	MethodSendrecv    = 0
	MethodAlltoallv   = 1
	MethodNonblocking = 2
)

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

// Pattern types of RunIOCalls, in the order of package beffio.
const (
	IOScatter = iota
	IOShared
	IOSeparated
	IOSegmented
	IOSegColl
)

// MaxInt32 is the largest int count of an MPI call.
const MaxInt32 = 1<<31 - 1

// IOCalls describes one b_eff_io pattern on this rank (see package beffio
// for the layouts).
type IOCalls struct {
	File            File
	Read            bool
	Type            int   // IOScatter … IOSegColl
	Len, L          int64 // memory chunk per call, disk chunk
	N, Rank         int   // partition size, rank in it
	Base, Lseg      int64 // start of the pattern's region, segment size
	Pattern, Access int   // enter the validation values
	ExplicitOffsets bool  // shared type without the shared file pointer
}

// IOFault is the first chunk of a read that failed validation.
type IOFault struct {
	Rep, Offset           int64
	ExpectFirst, GotFirst uint64
	ExpectLast, GotLast   uint64
}
