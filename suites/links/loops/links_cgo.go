//go:build mpi

package loops

/*
#cgo CFLAGS: -I${SRCDIR}/../../../internal/mpi
#include "links.h"
*/
import "C"

import "github.com/beff-suite/beff/internal/mpi"

func run(p *Pair) (Result, error) {
	var sec, typical C.double
	var count C.int
	var faults C.int64_t
	lower := C.int(0)
	if p.Lower {
		lower = 1
	}
	rc := mpi.OnMain(func() C.int {
		return C.links_pair(C.MPI_Fint(p.Comm), C.int(p.Partner), lower, C.int(p.Measure), C.int64_t(p.Len), C.int(p.Reps),
			C.double(p.Cap), (*C.uchar)(p.Send.Pointer()), (*C.uchar)(p.Recv.Pointer()), &sec, &count, &typical, &faults)
	})
	mpi.Advance() // a measurement, at most its cap long
	return Result{Seconds: float64(sec), Count: int(count), Typical: float64(typical), Faults: int64(faults)}, mpi.CallError("the links "+p.Measure.String()+" loop", int(rc))
}

func runMulti(m *Multi) (Result, error) {
	var sec C.double
	var count C.int
	var faults C.int64_t
	lower, both := C.int(0), C.int(0)
	if m.Lower {
		lower = 1
	}
	if m.Both {
		both = 1
	}
	rc := mpi.OnMain(func() C.int {
		return C.links_multi(C.MPI_Fint(m.Comm), C.int(m.Partner), lower, both, C.int64_t(m.Len), C.int(m.Window), C.int(m.Reps),
			C.double(m.Cap), (*C.uchar)(m.Send.Pointer()), (*C.uchar)(m.Recv.Pointer()), &sec, &count, &faults)
	})
	mpi.Advance()
	return Result{Seconds: float64(sec), Count: int(count), Faults: int64(faults)}, mpi.CallError("the links multi-pair loop", int(rc))
}

func share(c mpi.Comm, partner int, lower bool, v *Values) error {
	l := C.int(0)
	if lower {
		l = 1
	}
	var cv [len(measureNames)]C.double
	for i, x := range v {
		cv[i] = C.double(x)
	}
	rc := mpi.OnMain(func() C.int { return C.links_share(C.MPI_Fint(c), C.int(partner), l, &cv[0], C.int(len(cv))) })
	for i := range v {
		v[i] = float64(cv[i])
	}
	return mpi.CallError("handing a pair's values over", int(rc))
}

// cMeasures are the names of the C table of measurements, in enum order.
func cMeasures() []string {
	out := make([]string, C.LINKS_NMEAS)
	for i := range out {
		out[i] = C.GoString(C.links_meas_names[i])
	}
	return out
}
