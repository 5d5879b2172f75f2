package loops

import "github.com/beff-suite/beff/internal/mpi"

// An IOLayout is how the b_eff_io loop places its calls in the file and
// which MPI-IO calls it makes (the C table beffio_layout_names in beffio.c
// has their names, in this order). Each chunk of Len bytes a call moves
// goes to disk chunks of L bytes.
type IOLayout int

const (
	// IOStrided: collective calls through a fileview that strides the
	// processes' disk chunks (MPI_File_write_all, MPI_File_read_all).
	IOStrided IOLayout = iota
	// IOOrdered: collective calls at the shared file pointer
	// (MPI_File_write_ordered, MPI_File_read_ordered).
	IOOrdered
	// IOOwnFile: individual calls, each process in a file of its own.
	IOOwnFile
	// IOSegment: individual calls, each process in a segment of Lseg
	// bytes of one file.
	IOSegment
	// IOSegmentAll: as IOSegment with collective calls.
	IOSegmentAll
)

// IOLayouts lists the layouts in value order.
var IOLayouts = []IOLayout{IOStrided, IOOrdered, IOOwnFile, IOSegment, IOSegmentAll}

var ioLayoutNames = [...]string{"strided", "ordered", "ownfile", "segment", "segment-all"}

func (l IOLayout) String() string { return ioLayoutNames[l] }

// PatternCalls describes the calls of one b_eff_io pattern on this rank.
type PatternCalls struct {
	File            mpi.File
	Read            bool
	Layout          IOLayout
	Len, L          int64 // memory chunk per call, disk chunk
	N, Rank         int   // partition size, rank in it
	Base, Lseg      int64 // start of the pattern's region, segment size
	Pattern         int   // the pattern number, enters the validation values
	Stamp           int   // enters the validation values too: what wrote the data (a small number)
	ExplicitOffsets bool  // IOOrdered at explicit offsets instead of the shared file pointer
}

// ChunkFault is the first chunk of a read that failed validation.
type ChunkFault struct {
	Rep, Offset           int64
	ExpectFirst, GotFirst uint64
	ExpectLast, GotLast   uint64
}

// RunCalls runs calls c0 … c0+k-1 of a pattern in C over buf (at least
// Len bytes). On reads it returns the number of chunks that failed
// validation and the first failure.
func RunCalls(p *PatternCalls, c0, k int64, buf *mpi.Buffer) (int64, ChunkFault, error) {
	if !p.fits(buf) {
		return 0, ChunkFault{}, &mpi.Error{Call: "b_eff_io calls", Msg: "bad chunk sizes for the buffer"}
	}
	return runCalls(p, c0, k, buf)
}

// fits says whether the calls' chunks fit the buffer and an MPI count: a
// memory chunk of whole disk chunks, at most buf and 2^31−1 bytes.
func (p *PatternCalls) fits(buf *mpi.Buffer) bool {
	return buf != nil && p.L > 0 && p.Len >= p.L && p.Len%p.L == 0 && p.Len <= buf.Len() && p.Len <= mpi.MaxInt32 &&
		p.Layout >= 0 && int(p.Layout) < len(ioLayoutNames)
}

// UntilCalls is what RunCallsUntil did on this rank.
type UntilCalls struct {
	Done      int64   // calls made
	Decisions int64   // stop decisions, one per call
	Seconds   float64 // time in the decisions' barriers and broadcasts
	Capped    bool    // rank 0: the limit stopped the calls before the target
}

// RunCallsUntil runs the writes of a time-driven pattern under the
// reference code's stop rule, one decision per call, all in C: after each
// call the processes of comm (the partition) meet in a barrier, its rank 0
// goes on while (now − t0)·(r+1)/r ≤ target after r calls (and r < limit
// where limit > 0), and broadcasts the decision. t0 is the pattern's start
// on this rank's clock. A failed call does not end the loop early; its
// error is returned at the end.
func RunCallsUntil(p *PatternCalls, comm mpi.Comm, t0, target float64, limit int64, buf *mpi.Buffer) (UntilCalls, error) {
	if p.Read || !p.fits(buf) {
		return UntilCalls{}, &mpi.Error{Call: "b_eff_io calls", Msg: "bad chunk sizes for the buffer, or a read"}
	}
	return runCallsUntil(p, comm, t0, target, limit, buf)
}

// callName is the MPI-IO function that the calls of p use.
func (p *PatternCalls) callName() string {
	verb := "write"
	if p.Read {
		verb = "read"
	}
	switch p.Layout {
	case IOStrided, IOSegmentAll:
		return "MPI_File_" + verb + "_all"
	case IOOrdered:
		if p.ExplicitOffsets {
			return "MPI_File_" + verb + "_at_all"
		}
		return "MPI_File_" + verb + "_ordered"
	}
	return "MPI_File_" + verb
}
