package loops

import (
	"fmt"
	"unsafe"

	"github.com/beff-suite/beff/internal/mpi"
)

// A Batch is one call of the SKaMPI loop: Reps repetitions of one
// operation on this rank, each of Calls calls (see skampi.h).
type Batch struct {
	Op     int      // the operation: its index in LoopOps()
	Comm   mpi.Comm // the point's communicator
	Len    int64
	Chunks int // master-worker: work items per call
	Calls  int
	Reps   int
	// Window selects the window schedule (else a barrier before each
	// repetition); Clock maps this rank's MPI_Wtime to rank 0's time, a
	// model (at, offset, drift): t + offset + drift·(t − at); WindowLen
	// and Lead are rank 0's window and how far ahead it starts the batch.
	Window          bool
	NoSync          bool // without Window: nothing before a repetition (else a barrier)
	Clock           [3]float64
	WindowLen, Lead float64
	Send, Recv      *mpi.Buffer
	Cycle           bool  // call n of the point uses the n-th part of the buffers, round them
	Span            int64 // Cycle: over the first Span bytes of each buffer (0: all of it)
	Seq             int64 // calls of the point before this batch
	Yield           bool  // yield the processor while waiting (oversubscribed nodes)
	Passive         bool  // window mode: this rank only answers and does not wait for the windows
	// Types are a typed point's datatypes (nil: bytes), Method how its
	// messages travel (MethodContig for untyped points).
	Types  *Types
	Method Method
	Full   bool // stamp and check every byte of every message and the holes of the layout
	// One-sided: the synchronisation of the epochs, a window from
	// MPI_Win_allocate (else MPI_Win_create over Recv), and the
	// assertions that hold passed.
	RMASync     RMASync
	RMAAllocate bool
	RMANoCheck  bool
	// Inject is a test's fault: InjectByte corrupts the first received
	// message, InjectLayout skews one run in manual unpacking.
	Inject Inject
	// Steps is, for a non-blocking operation, the steps of computation
	// (ComputeSteps) each call runs between its start and its wait: an
	// overlap point (0: the plain start-to-wait time).
	Steps int64
	// Topo is the topology a neighborhood collective runs on (TopoNone
	// for the others), on the grid Dims (2 or 3 of them, their product
	// the communicator's size), every dimension wrapping if Periodic.
	Topo     Topo
	Dims     []int
	Periodic bool
	// Threads is, for a partitioned operation, the threads that mark its
	// partitions ready (0 or 1: the calling thread; more need the job's
	// MPI_THREAD_MULTIPLE).
	Threads int
}

// A Topo is the topology of a neighborhood collective (SKAMPI_TOPO_* in
// skampi.h, in this order).
type Topo int

const (
	TopoNone    Topo = iota
	TopoCart         // MPI_Cart_create: 2 neighbors per dimension
	TopoStencil      // every process within one step in each dimension, MPI_Dist_graph_create_adjacent
)

// An RMASync is how the epochs of a one-sided operation are synchronised
// (SKAMPI_FENCE… in skampi.h, in this order).
type RMASync int

const (
	SyncFence      RMASync = iota // MPI_Win_fence after each call's operations
	SyncPSCW                      // MPI_Win_start/complete at the origin, MPI_Win_post/wait at the target
	SyncLock                      // MPI_Win_lock/unlock around each call's operations
	SyncFlush                     // MPI_Win_lock_all for the batch, MPI_Win_flush after each call
	SyncFlushLocal                // the same with MPI_Win_flush_local
)

// RMASyncs lists the synchronisations in value order.
var RMASyncs = []RMASync{SyncFence, SyncPSCW, SyncLock, SyncFlush, SyncFlushLocal}

var rmaSyncNames = [...]string{"fence", "pscw", "lock", "lock-all-flush", "lock-all-flush-local"}

func (s RMASync) String() string { return rmaSyncNames[s] }

// A Method is how a typed message travels (SKAMPI_CONTIG… in skampi.h).
type Method int

const (
	MethodContig   Method = iota // the payload as contiguous bytes
	MethodDatatype               // the derived datatype handed to MPI
	MethodPack                   // MPI_Pack, MPI_PACKED, MPI_Unpack
	MethodManual                 // a copy loop into contiguous bytes and back
)

// An Inject is a fault a test asks a batch to make.
type Inject int

const (
	InjectNone    Inject = iota
	InjectByte           // corrupt the first received message
	InjectLayout         // the manual method's unpacking puts the middle run of a message a byte too far
	InjectLostPut        // a one-sided origin skips its put in the full check
)

// A TypeSide is one side (send or receive) of a typed point: the
// program its datatype is built from (a list of constructor codes, see
// skampi.h), its runs of data
// as (offset, bytes) pairs in typemap order, the instances per message
// and the bytes between them.
type TypeSide struct {
	Prog   []int64
	Runs   []int64
	Count  int64
	Extent int64
}

// TypeInfo is what MPI says of a committed datatype.
type TypeInfo struct {
	Size, LB, Extent, TrueLB, TrueExtent int64
}

// Types are the committed datatypes of a typed point (C memory; Free
// them after the point).
type Types struct{ p unsafe.Pointer }

// NewTypes builds and commits the datatypes of both sides.
func NewTypes(send, recv TypeSide) (*Types, error) {
	for _, s := range []TypeSide{send, recv} {
		if len(s.Runs) < 2 || len(s.Runs)%2 != 0 || len(s.Prog) < 2 || s.Count < 1 || s.Count > mpi.MaxInt32 || s.Extent < 1 {
			return nil, fmt.Errorf("skampi types: a side of %d runs, %d instances of extent %d", len(s.Runs)/2, s.Count, s.Extent)
		}
	}
	return newTypes(send, recv)
}

// Free releases the datatypes (nil is fine).
func (t *Types) Free() {
	if t != nil && t.p != nil {
		freeTypes(t)
		t.p = nil
	}
}

// Info is MPI's view of side 0 (send) or 1 (receive).
func (t *Types) Info(side int) (TypeInfo, error) {
	return typeInfo(t, side)
}

// Times are what a batch measured on this rank, per repetition, in
// seconds on the corrected clock.
type Times struct {
	Arrive, Start, End []float64 // Arrive: ready to wait for the start (window mode)
	Busy               []float64 // seconds the calls computed (overlap points)
	Window             float64   // the window the batch used (window mode)
	First              float64   // the start of its first repetition (window mode)
	Init               float64   // persistent operations: seconds of the calls that made the requests
}

// SkampiFault is the first validation failure a rank saw in a batch.
type SkampiFault struct {
	Count, Call int64
	Sender      int
	At          int64 // byte offset in the message
	Expect, Got int
}

// MaxThreads is the most threads a partitioned batch may mark with.
const MaxThreads = 64

// MaxMessage is the longest length a batch takes (1 TiB); the C loop
// refuses one above 2^31−1 bytes for every operation but the large-count
// ones.
const MaxMessage = 1 << 40

// MaxChunks is the most work items of a master-worker call
// (SKAMPI_MAXCHUNKS in skampi.h).
const MaxChunks = 30000

// ComputeSteps calibrates on this process the computation of overlap
// points: the steps that last about seconds (0 for seconds ≤ 0, and
// without MPI).
func ComputeSteps(seconds float64) int64 {
	return computeSteps(seconds)
}

// RunBatch runs b in C.
func RunBatch(b *Batch) (Times, SkampiFault, error) {
	if b.Reps < 1 || b.Calls < 1 || b.Reps > mpi.MaxInt32 || b.Calls > mpi.MaxInt32 || b.Chunks < 0 || b.Chunks > MaxChunks || b.Op < 0 || b.Len < 0 || b.Len > MaxMessage || b.Steps < 0 || !b.gridOK() || b.Threads < 0 || b.Threads > MaxThreads {
		return Times{}, SkampiFault{}, fmt.Errorf("skampi batch: operation %d, %d repetitions of %d calls, %d chunks, %d bytes", b.Op, b.Reps, b.Calls, b.Chunks, b.Len)
	}
	return runBatch(b)
}

// gridOK says whether a batch's topology grid is one C takes: none, or 2
// or 3 positive dimensions.
func (b *Batch) gridOK() bool {
	if b.Topo == TopoNone {
		return len(b.Dims) == 0
	}
	if len(b.Dims) < 2 || len(b.Dims) > 3 {
		return false
	}
	prod := 1
	for _, d := range b.Dims {
		if d < 1 || d > mpi.MaxInt32 || prod > mpi.MaxInt32/d {
			return false
		}
		prod *= d
	}
	return true
}

// PairRTT runs rounds 1-byte round trips with partner in c; the initiator
// gets the fastest, the other side 0.
func PairRTT(c mpi.Comm, partner int, initiator bool, rounds int) (float64, error) {
	return pairRTT(c, partner, initiator, rounds)
}

// TimerCosts returns n empty measurements: two consecutive MPI_Wtime.
func TimerCosts(n int) []float64 {
	return timerCosts(n)
}
