//go:build mpi

package loops

/*
#cgo CFLAGS: -I${SRCDIR}/../../../internal/mpi
#include <stdlib.h>
#include "skampi.h"
#include "compute.h"
*/
import "C"

import (
	"unsafe"

	"github.com/beff-suite/beff/internal/mpi"
)

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

func runBatch(b *Batch) (Times, SkampiFault, error) {
	cb := C.skampi_batch_t{op: C.int(b.Op), comm: C.MPI_Fint(b.Comm), len: C.int64_t(b.Len),
		chunks: C.int(b.Chunks), calls: C.int(b.Calls), reps: C.int(b.Reps),
		window_sync: cbool(b.Window), clk_at: C.double(b.Clock[0]), clk_off: C.double(b.Clock[1]), clk_drift: C.double(b.Clock[2]), window: C.double(b.WindowLen),
		lead: C.double(b.Lead), sbuf: (*C.uchar)(b.Send.Pointer()), rbuf: (*C.uchar)(b.Recv.Pointer()),
		buflen: C.int64_t(min(b.Send.Len(), b.Recv.Len())), cycle: cbool(b.Cycle), span: C.int64_t(b.Span), seq: C.int64_t(b.Seq),
		inject: C.int(b.Inject), yield: cbool(b.Yield),
		passive: cbool(b.Passive), nosync: cbool(b.NoSync), method: C.int(b.Method), full: cbool(b.Full),
		rma_sync: C.int(b.RMASync), rma_allocate: cbool(b.RMAAllocate), rma_nocheck: cbool(b.RMANoCheck),
		steps: C.int64_t(b.Steps), topo: C.int(b.Topo), ndims: C.int(len(b.Dims)), periodic: cbool(b.Periodic),
		threads: C.int(max(1, b.Threads)), progress: (*C.int64_t)(mpi.ProgressCounter())}
	for i, d := range b.Dims {
		cb.dims[i] = C.int(d)
	}
	if b.Types != nil {
		cb.types = (*C.skampi_types)(b.Types.p)
	}
	t := Times{Arrive: make([]float64, b.Reps), Start: make([]float64, b.Reps), End: make([]float64, b.Reps),
		Busy: make([]float64, b.Reps)}
	var w, t0, init C.double
	var f C.skampi_fault
	rc := mpi.OnMain(func() C.int {
		return C.skampi_batch(&cb, (*C.double)(&t.Arrive[0]), (*C.double)(&t.Start[0]),
			(*C.double)(&t.End[0]), (*C.double)(&t.Busy[0]), &init, &w, &t0, &f)
	})
	t.Window, t.First, t.Init = float64(w), float64(t0), float64(init)
	fault := SkampiFault{Count: int64(f.count), Call: int64(f.call), Sender: int(f.sender),
		At: int64(f.at), Expect: int(f.expect), Got: int(f.got)}
	return t, fault, mpi.CallError("SKaMPI loop ("+cSkampiOp(b.Op)+")", int(rc))
}

// cI64 copies v to C memory (the programs' pointers go into an array C
// reads, which Go memory may not hold); call the func to free it. C types
// are a package's own, so the binding's helper of this name cannot serve.
func cI64(v []int64) (*C.int64_t, func()) {
	p := C.malloc(C.size_t(8 * max(1, len(v))))
	copy(unsafe.Slice((*int64)(p), len(v)), v)
	return (*C.int64_t)(p), func() { C.free(p) }
}

func newTypes(send, recv TypeSide) (*Types, error) {
	var prog, runs [2]*C.int64_t
	var nprog, nruns, count, ext [2]C.int64_t
	for i, s := range []TypeSide{send, recv} {
		p, freeP := cI64(s.Prog)
		defer freeP()
		r, freeR := cI64(s.Runs)
		defer freeR()
		prog[i], runs[i] = p, r
		nprog[i], nruns[i], count[i], ext[i] = C.int64_t(len(s.Prog)), C.int64_t(len(s.Runs)/2), C.int64_t(s.Count), C.int64_t(s.Extent)
	}
	var out *C.skampi_types
	rc := mpi.OnMain(func() C.int {
		return C.skampi_types_new(&prog[0], &nprog[0], &runs[0], &nruns[0], &count[0], &ext[0], &out)
	})
	if err := mpi.CallError("building the datatypes of a point", int(rc)); err != nil {
		return nil, err
	}
	return &Types{p: unsafe.Pointer(out)}, nil
}

func freeTypes(t *Types) {
	mpi.OnMain(func() int { C.skampi_types_free((*C.skampi_types)(t.p)); return 0 })
}

func typeInfo(t *Types, side int) (TypeInfo, error) {
	var v [5]C.int64_t
	rc := mpi.OnMain(func() C.int { return C.skampi_type_info((*C.skampi_types)(t.p), C.int(side), &v[0]) })
	return TypeInfo{int64(v[0]), int64(v[1]), int64(v[2]), int64(v[3]), int64(v[4])}, mpi.CallError("MPI_Type_get_extent", int(rc))
}

func pairRTT(c mpi.Comm, partner int, initiator bool, rounds int) (float64, error) {
	var best C.double
	rc := mpi.OnMain(func() C.int {
		return C.skampi_rtt(C.MPI_Fint(c), C.int(partner), cbool(initiator), C.int(rounds), &best)
	})
	return float64(best), mpi.CallError("round trips of a pair", int(rc))
}

func timerCosts(n int) []float64 {
	d := make([]float64, max(n, 1))
	mpi.OnMain(func() int { C.skampi_timer((*C.double)(&d[0]), C.int(len(d))); return 0 })
	return d[:n]
}

func computeSteps(seconds float64) int64 {
	return int64(mpi.OnMain(func() C.int64_t { return C.compute_steps(C.double(seconds)) }))
}

func cSkampiOp(i int) string { return C.GoString(C.skampi_op_name(C.int(i))) }

// LoopOps are the names of the operations the SKaMPI loop measures, in
// the order of a Batch's Op (the table of skampi.c).
func LoopOps() []string {
	out := make([]string, C.SKAMPI_NOPS)
	for i := range out {
		out[i] = cSkampiOp(i)
	}
	return out
}

// LoopOpBlocks says, for each of LoopOps, whether the operation uses one
// block of the length per process.
func LoopOpBlocks() []bool {
	out := make([]bool, C.SKAMPI_NOPS)
	for i := range out {
		out[i] = C.skampi_op_blocks(C.int(i)) != 0
	}
	return out
}

// cRMASyncs are SKAMPI_FENCE … SKAMPI_FLUSH_LOCAL.
var cRMASyncs = []RMASync{C.SKAMPI_FENCE, C.SKAMPI_PSCW, C.SKAMPI_LOCK, C.SKAMPI_FLUSH, C.SKAMPI_FLUSH_LOCAL}

// cTopos are SKAMPI_TOPO_NONE … SKAMPI_TOPO_STENCIL.
var cTopos = []Topo{C.SKAMPI_TOPO_NONE, C.SKAMPI_TOPO_CART, C.SKAMPI_TOPO_STENCIL}

// cMaxChunks is SKAMPI_MAXCHUNKS.
const cMaxChunks = C.SKAMPI_MAXCHUNKS
