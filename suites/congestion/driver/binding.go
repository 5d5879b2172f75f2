package driver

import "github.com/beff-suite/beff/internal/mpi"

// canaries and congestors map the suite's names onto the binding's
// loops.
var (
	canaries = map[string]mpi.Canary{
		"rr-lat":    mpi.CanaryRingLatency,
		"rr-bw":     mpi.CanaryRingBandwidth,
		"allreduce": mpi.CanaryAllreduce,
	}
	congestors = map[string]mpi.Congestor{
		"incast":      mpi.CongestorIncast,
		"rma-incast":  mpi.CongestorRMAIncast,
		"bcast":       mpi.CongestorBcast,
		"alltoall":    mpi.CongestorAlltoall,
		"worst-cycle": mpi.CongestorWorstCycle,
	}
)
