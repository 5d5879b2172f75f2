//go:build mpi

package loops

/*
#cgo CFLAGS: -I${SRCDIR}/../../../internal/mpi
#include "links.h"
*/
import "C"

import "github.com/beff-suite/beff/internal/mpi"

func run(p *Pair) (Result, error) {
	var sec C.double
	var count C.int
	var faults C.int64_t
	lower := C.int(0)
	if p.Lower {
		lower = 1
	}
	rc := mpi.OnMain(func() C.int {
		return C.links_pair(C.MPI_Fint(p.Comm), C.int(p.Partner), lower, C.int(p.Measure), C.int64_t(p.Len), C.int(p.Reps),
			C.double(p.Cap), (*C.uchar)(p.Send.Pointer()), (*C.uchar)(p.Recv.Pointer()), &sec, &count, &faults)
	})
	return Result{Seconds: float64(sec), Count: int(count), Faults: int64(faults)}, mpi.CallError("the links "+p.Measure.String()+" loop", int(rc))
}

// cMeasures are the names of the C table of measurements, in enum order.
func cMeasures() []string {
	out := make([]string, C.LINKS_NMEAS)
	for i := range out {
		out[i] = C.GoString(C.links_meas_names[i])
	}
	return out
}
