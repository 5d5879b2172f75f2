//go:build mpi

package loops

/*
#cgo CFLAGS: -I${SRCDIR}/../../../internal/mpi
#cgo LDFLAGS: -lm
#include "congestion.h"
#include <stdlib.h>
*/
import "C"

import (
	"unsafe"

	"github.com/beff-suite/beff/internal/mpi"
)

// world is the world handle of a loaded call, MPI_COMM_NULL otherwise.
func world(c mpi.Comm, loaded bool) C.MPI_Fint {
	if loaded {
		return C.MPI_Fint(c)
	}
	return C.ctl_comm_null()
}

func runCanary(r *CanaryRun) (Samples, error) {
	o := (*C.cong_samples)(C.calloc(1, C.sizeof_cong_samples)) // 20 KiB: not on the stack of the main thread
	defer C.free(unsafe.Pointer(o))
	rc := mpi.OnMain(func() C.int {
		return C.cong_canary(C.MPI_Fint(r.Comm), world(r.World, r.Loaded), C.int(r.Canary), C.int(r.Left), C.int(r.Right),
			C.int64_t(r.Len), C.double(r.Duration), (*C.uchar)(r.Send.Pointer()), (*C.uchar)(r.Recv.Pointer()), (*C.int64_t)(mpi.ProgressCounter()), o)
	})
	s := Samples{Hist: make([]int64, HistBins), N: int64(o.n), Sum: float64(o.sum),
		Max: float64(o.max), Elapsed: float64(o.elapsed), Iters: int64(o.iters), Faults: int64(o.faults)}
	for i := range s.Hist {
		s.Hist[i] = int64(o.hist[i])
	}
	return s, mpi.CallError("the "+r.Canary.String()+" canary", int(rc))
}

func runCongestor(r *CongestorRun) (Load, error) {
	var o C.cong_load
	rc := mpi.OnMain(func() C.int {
		return C.cong_congestor(C.MPI_Fint(r.Comm), world(r.World, r.Loaded), C.int(r.Congestor), C.int(r.Left), C.int(r.Right), C.int64_t(r.Len),
			C.double(r.Duration), (*C.uchar)(r.Send.Pointer()), (*C.uchar)(r.Recv.Pointer()), (*C.int64_t)(mpi.ProgressCounter()), &o)
	})
	return Load{Calls: int64(o.calls), Bytes: int64(o.bytes), Elapsed: float64(o.elapsed)}, mpi.CallError("the "+r.Congestor.String()+" congestor", int(rc))
}

// cCongestionNames are the C tables of canaries and congestors, and the
// histogram's constants, for the test that they match.
func cCongestionNames() (canaries, congestors []string, bins int, lo, ratio float64) {
	for i := 0; i < C.CONG_NCANARIES; i++ {
		canaries = append(canaries, C.GoString(C.cong_canary_names[i]))
	}
	for i := 0; i < C.CONG_NCONGESTORS; i++ {
		congestors = append(congestors, C.GoString(C.cong_congestor_names[i]))
	}
	return canaries, congestors, C.CONG_HIST_BINS, float64(C.cong_hist_min), float64(C.cong_hist_ratio)
}
