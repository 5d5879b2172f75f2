package driver

import "github.com/beff-suite/beff/suites/congestion/loops"

// canaries and congestors map the suite's names onto the binding's
// loops.
var (
	canaries = map[string]loops.Canary{
		"rr-lat":    loops.CanaryRingLatency,
		"rr-bw":     loops.CanaryRingBandwidth,
		"allreduce": loops.CanaryAllreduce,
	}
	congestors = map[string]loops.Congestor{
		"incast":      loops.CongestorIncast,
		"rma-incast":  loops.CongestorRMAIncast,
		"bcast":       loops.CongestorBcast,
		"alltoall":    loops.CongestorAlltoall,
		"worst-cycle": loops.CongestorWorstCycle,
	}
)
