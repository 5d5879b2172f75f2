//go:build mpi

package loops

/*
#cgo CFLAGS: -I${SRCDIR}/../../../internal/mpi
#include "beff.h"
*/
import "C"

import "github.com/beff-suite/beff/internal/mpi"

// measure runs a checked measurement in C.
func measure(m *BeffTiming) (float64, Fault, error) {
	var p C.beff_plan
	p.nsteps = C.int(len(m.Plan.Dest))
	for i := range m.Plan.Dest {
		p.dest[i] = C.int(m.Plan.Dest[i])
		p.src[i] = C.int(m.Plan.Src[i])
	}
	var el C.double
	var f C.beff_fault
	var base, carry *C.int64_t
	if m.RefBase != nil {
		base = (*C.int64_t)(m.RefBase)
	}
	if m.Carry != nil {
		carry = (*C.int64_t)(&m.Carry[0])
	}
	rc := mpi.OnMain(func() C.int {
		return C.beff_measure(C.MPI_Fint(m.Barrier), C.MPI_Fint(m.Comm), &p, C.int(m.Method), C.int(m.Len),
			C.int(m.SizeIndex), C.int(m.LoopLen), C.int(m.Warm), (*C.uchar)(m.Send.Pointer()), (*C.uchar)(m.Recv.Pointer()),
			C.int64_t(m.Send.Len()), carry, base, cbool(m.Inject), cbool(m.Quiet), (*C.int64_t)(mpi.ProgressCounter()), &el, &f)
	})
	fault := Fault{Count: int64(f.count), Iter: int64(f.iter), Step: int(f.step), Partner: int(f.partner),
		Offset: int64(f.offset), ExpectFirst: int(f.expect_first), GotFirst: int(f.got_first),
		ExpectLast: int(f.expect_last), GotLast: int(f.got_last)}
	return float64(el), fault, mpi.CallError(methodCall(m.Method), int(rc))
}

func methodCall(m Exchange) string {
	switch m {
	case ExchangeSendrecv:
		return "b_eff loop (MPI_Sendrecv)"
	case ExchangeAlltoallv:
		return "b_eff loop (MPI_Alltoallv)"
	}
	return "b_eff loop (MPI_Isend/MPI_Irecv/MPI_Waitall)"
}

// FirstByte and LastByte are the validation values the loop writes (for tests).
func FirstByte(iter int64, step, sizeIndex, sender int) byte {
	return byte(C.beff_first_byte(C.int64_t(iter), C.int(step), C.int(sizeIndex), C.int(sender)))
}
func LastByte(iter int64, step, sizeIndex, sender int) byte {
	return byte(C.beff_last_byte(C.int64_t(iter), C.int(step), C.int(sizeIndex), C.int(sender)))
}

// cMethods are the names of the C table of methods, in enum order.
func cMethods() []string {
	out := make([]string, C.BEFF_NMETHODS)
	for i := range out {
		out[i] = C.GoString(C.beff_method_names[i])
	}
	return out
}

// cMaxSteps is BEFF_MAXSTEPS.
const cMaxSteps = C.BEFF_MAXSTEPS

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
