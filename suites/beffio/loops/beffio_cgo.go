//go:build mpi

package loops

/*
#cgo CFLAGS: -I${SRCDIR}/../../../internal/mpi
#include "beffio.h"
*/
import "C"

import "github.com/beff-suite/beff/internal/mpi"

// refContinue is the C loop's stop rule, beffio_ref_continue, for the
// tests of its table.
func refContinue(done int64, elapsed, target float64) bool {
	return C.beffio_ref_continue(C.int64_t(done), C.double(elapsed), C.double(target)) != 0
}

func (p *PatternCalls) c() C.beffio_calls_t {
	var c C.beffio_calls_t
	c.fh = C.MPI_Fint(p.File)
	if p.Read {
		c.read = 1
	}
	c.layout = C.int(p.Layout)
	c.len, c.l = C.int64_t(p.Len), C.int64_t(p.L)
	c.n, c.rank = C.int(p.N), C.int(p.Rank)
	c.base, c.lseg = C.int64_t(p.Base), C.int64_t(p.Lseg)
	c.pattern, c.access = C.int(p.Pattern), C.int(p.Stamp)
	if p.ExplicitOffsets {
		c.explicit_offsets = 1
	}
	c.progress = (*C.int64_t)(mpi.ProgressCounter())
	return c
}

// runCalls runs checked calls in C.
func runCalls(p *PatternCalls, c0, k int64, buf *mpi.Buffer) (int64, ChunkFault, error) {
	c := p.c()
	var errs C.int64_t
	var f C.beffio_fault
	rc := mpi.OnMain(func() C.int {
		return C.beffio_calls(&c, C.int64_t(c0), C.int64_t(k), (*C.uchar)(buf.Pointer()), &errs, &f)
	})
	fault := ChunkFault{Rep: int64(f.rep), Offset: int64(f.offset), ExpectFirst: uint64(f.expect_first),
		GotFirst: uint64(f.got_first), ExpectLast: uint64(f.expect_last), GotLast: uint64(f.got_last)}
	return int64(errs), fault, mpi.CallError(p.callName(), int(rc))
}

// runCallsUntil runs the reference code's per-call stop loop in C.
func runCallsUntil(p *PatternCalls, comm mpi.Comm, t0, target float64, limit int64, buf *mpi.Buffer) (UntilCalls, error) {
	c := p.c()
	var u C.beffio_until
	rc := mpi.OnMain(func() C.int {
		return C.beffio_calls_until(&c, C.MPI_Fint(comm), C.double(t0), C.double(target), C.int64_t(limit), (*C.uchar)(buf.Pointer()), &u)
	})
	return UntilCalls{Done: int64(u.done), Decisions: int64(u.decisions), Seconds: float64(u.seconds), Capped: u.capped != 0},
		mpi.CallError(p.callName(), int(rc))
}

// cLayouts are the names of the C table of layouts, in enum order.
func cLayouts() []string {
	out := make([]string, C.BEFFIO_NLAYOUTS)
	for i := range out {
		out[i] = C.GoString(C.beffio_layout_names[i])
	}
	return out
}
