//go:build mpi

package mpi

/*
#include "skampi.h"
#include "compute.h"
*/
import "C"

import "unsafe"

func init() {
	runBatch, pairRTT, clockOffset = cRunBatch, cPairRTT, cClockOffset
	timerCosts, wtimeGlobal = cTimerCosts, cWtimeGlobal
	newTypes, freeTypes, typeInfo = cNewTypes, cFreeTypes, cTypeInfo
	rmaProbe = cRMAProbe
	computeSteps = cComputeSteps
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

func cRunBatch(b *Batch) (Times, SkampiFault, error) {
	cb := C.skampi_batch_t{op: C.int(b.Op), comm: C.MPI_Fint(b.Comm), len: C.int64_t(b.Len),
		chunks: C.int(b.Chunks), calls: C.int(b.Calls), reps: C.int(b.Reps),
		window_sync: cbool(b.Window), offset: C.double(b.Offset), window: C.double(b.WindowLen),
		lead: C.double(b.Lead), sbuf: (*C.uchar)(b.Send.p), rbuf: (*C.uchar)(b.Recv.p),
		buflen: C.int64_t(min(b.Send.n, b.Recv.n)), cycle: cbool(b.Cycle), span: C.int64_t(b.Span), seq: C.int64_t(b.Seq),
		inject: C.int(b.Inject), yield: cbool(b.Yield),
		passive: cbool(b.Passive), nosync: cbool(b.NoSync), method: C.int(b.Method), full: cbool(b.Full),
		rma_sync: C.int(b.RMASync), rma_allocate: cbool(b.RMAAllocate), rma_nocheck: cbool(b.RMANoCheck),
		steps: C.int64_t(b.Steps), topo: C.int(b.Topo), ndims: C.int(len(b.Dims)), periodic: cbool(b.Periodic),
		threads: C.int(max(1, b.Threads))}
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
	rc := onMain(func() C.int {
		return C.skampi_batch(&cb, (*C.double)(&t.Arrive[0]), (*C.double)(&t.Start[0]),
			(*C.double)(&t.End[0]), (*C.double)(&t.Busy[0]), &init, &w, &t0, &f)
	})
	t.Window, t.First, t.Init = float64(w), float64(t0), float64(init)
	fault := SkampiFault{Count: int64(f.count), Call: int64(f.call), Sender: int(f.sender),
		At: int64(f.at), Expect: int(f.expect), Got: int(f.got)}
	return t, fault, mpiErr("SKaMPI loop ("+cSkampiOp(b.Op)+")", rc)
}

func cNewTypes(send, recv TypeSide) (*Types, error) {
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
	rc := onMain(func() C.int {
		return C.skampi_types_new(&prog[0], &nprog[0], &runs[0], &nruns[0], &count[0], &ext[0], &out)
	})
	if err := mpiErr("building the datatypes of a point", rc); err != nil {
		return nil, err
	}
	return &Types{p: unsafe.Pointer(out)}, nil
}

func cFreeTypes(t *Types) {
	onMain(func() int { C.skampi_types_free((*C.skampi_types)(t.p)); return 0 })
}

func cTypeInfo(t *Types, side int) (TypeInfo, error) {
	var v [5]C.int64_t
	rc := onMain(func() C.int { return C.skampi_type_info((*C.skampi_types)(t.p), C.int(side), &v[0]) })
	return TypeInfo{int64(v[0]), int64(v[1]), int64(v[2]), int64(v[3]), int64(v[4])}, mpiErr("MPI_Type_get_extent", rc)
}

func cPairRTT(c Comm, partner int, initiator bool, rounds int) (float64, error) {
	var best C.double
	rc := onMain(func() C.int {
		return C.skampi_rtt(C.MPI_Fint(c), C.int(partner), cbool(initiator), C.int(rounds), &best)
	})
	return float64(best), mpiErr("round trips of a pair", rc)
}

func cClockOffset(c Comm, me, peer, rounds int) (float64, float64, error) {
	var off, rtt C.double
	rc := onMain(func() C.int {
		return C.skampi_offset(C.MPI_Fint(c), C.int(me), C.int(peer), C.int(rounds), &off, &rtt)
	})
	return float64(off), float64(rtt), mpiErr("clock offsets", rc)
}

func cTimerCosts(n int) []float64 {
	d := make([]float64, max(n, 1))
	onMain(func() int { C.skampi_timer((*C.double)(&d[0]), C.int(len(d))); return 0 })
	return d[:n]
}

func cWtimeGlobal() (bool, error) {
	var g C.int
	rc := onMain(func() C.int { return C.skampi_wtime_is_global(&g) })
	return g != 0, mpiErr("MPI_Comm_get_attr(MPI_WTIME_IS_GLOBAL)", rc)
}

func cRMAProbe(c Comm, allocate bool) (bool, error, error) {
	var ok, why C.int
	rc := onMain(func() C.int { return C.skampi_rma_probe(C.MPI_Fint(c), cbool(allocate), &ok, &why) })
	call := "MPI_Win_create"
	if allocate {
		call = "MPI_Win_allocate"
	}
	return ok != 0, mpiErr(call, why), mpiErr("MPI_Allreduce", rc)
}

func cComputeSteps(seconds float64) int64 {
	return int64(onMain(func() C.int64_t { return C.compute_steps(C.double(seconds)) }))
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
