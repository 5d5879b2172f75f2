package mpi

import "github.com/beff-suite/beff/suites/beffio"

// PatternCalls describes one b_eff_io pattern on this rank (see package
// beffio for the layouts).
type PatternCalls struct {
	File            File
	Read            bool
	Type            beffio.Type
	Len, L          int64 // memory chunk per call, disk chunk
	N, Rank         int   // partition size, rank in it
	Base, Lseg      int64 // start of the pattern's region, segment size
	Pattern         int   // the pattern number, enters the validation values
	Access          beffio.Access
	ExplicitOffsets bool // shared type without the shared file pointer
}

// ChunkFault is the first chunk of a read that failed validation.
type ChunkFault struct {
	Rep, Offset           int64
	ExpectFirst, GotFirst uint64
	ExpectLast, GotLast   uint64
}

// runCalls is the C loop of b_eff_io (beffio_cgo.go); nil without MPI.
var runCalls func(p *PatternCalls, c0, k int64, buf *Buffer) (int64, ChunkFault, error)

// RunCalls runs calls c0 … c0+k-1 of a pattern in C over buf (at least
// Len bytes). On reads it returns the number of chunks that failed
// validation and the first failure.
func RunCalls(p *PatternCalls, c0, k int64, buf *Buffer) (int64, ChunkFault, error) {
	if runCalls == nil {
		return 0, ChunkFault{}, ErrNoMPI
	}
	if p.L <= 0 || p.Len < p.L || p.Len%p.L != 0 || p.Len > buf.Len() || p.Len > MaxInt32 {
		return 0, ChunkFault{}, &Error{Call: "b_eff_io calls", Msg: "bad chunk sizes for the buffer"}
	}
	return runCalls(p, c0, k, buf)
}

// UntilCalls is what RunCallsUntil did on this rank.
type UntilCalls struct {
	Done      int64   // calls made
	Decisions int64   // stop decisions, one per call
	Seconds   float64 // time in the decisions' barriers and broadcasts
	Capped    bool    // rank 0: the limit stopped the calls before the target
}

// runCallsUntil is the C loop of the reference stop rule (beffio_cgo.go).
var runCallsUntil func(p *PatternCalls, comm Comm, t0, target float64, limit int64, buf *Buffer) (UntilCalls, error)

// RunCallsUntil runs the writes of a time-driven pattern under the
// reference code's stop rule, one decision per call, all in C: after each
// call the processes of comm (the partition) meet in a barrier, its rank 0
// goes on while (now − t0)·(r+1)/r ≤ target after r calls (and r < limit
// where limit > 0), and broadcasts the decision. t0 is the pattern's start
// on this rank's clock. A failed call does not end the loop early; its
// error is returned at the end.
func RunCallsUntil(p *PatternCalls, comm Comm, t0, target float64, limit int64, buf *Buffer) (UntilCalls, error) {
	if runCallsUntil == nil {
		return UntilCalls{}, ErrNoMPI
	}
	if p.Read || p.L <= 0 || p.Len < p.L || p.Len%p.L != 0 || p.Len > buf.Len() || p.Len > MaxInt32 {
		return UntilCalls{}, &Error{Call: "b_eff_io calls", Msg: "bad chunk sizes for the buffer, or a read"}
	}
	return runCallsUntil(p, comm, t0, target, limit, buf)
}

// callName is the MPI-IO function that the calls of p use.
func (p *PatternCalls) callName() string {
	verb := "write"
	if p.Read {
		verb = "read"
	}
	switch p.Type {
	case beffio.Scatter, beffio.SegColl:
		return "MPI_File_" + verb + "_all"
	case beffio.Shared:
		if p.ExplicitOffsets {
			return "MPI_File_" + verb + "_at_all"
		}
		return "MPI_File_" + verb + "_ordered"
	}
	return "MPI_File_" + verb
}
