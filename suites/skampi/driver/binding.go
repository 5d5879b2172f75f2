package driver

import (
	"slices"
	"sync"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/skampi"
)

// The SKaMPI loop of internal/mpi speaks its own terms: its operations by
// their number in its table (mpi.LoopOps), the methods of typed messages
// and the one-sided synchronisations by its enums. The suite's
// definitions are mapped onto them here.

// methods maps a typed point's method to the C loop's.
var methods = map[string]mpi.Method{
	"": mpi.MethodContig, skampi.MethodContig: mpi.MethodContig, skampi.MethodDatatype: mpi.MethodDatatype,
	skampi.MethodPack: mpi.MethodPack, skampi.MethodManual: mpi.MethodManual,
}

// rmaSyncs maps a suite's synchronisation to the C loop's.
var rmaSyncs = map[string]mpi.RMASync{
	skampi.RMAFence: mpi.SyncFence, skampi.RMAPSCW: mpi.SyncPSCW, skampi.RMALock: mpi.SyncLock,
	skampi.RMAFlush: mpi.SyncFlush, skampi.RMAFlushLocal: mpi.SyncFlushLocal,
}

// loopOps is, for each of skampi.Ops, its number in the C loop's table,
// found by name (-1 where the table lacks it: a test rules that out).
var loopOps = sync.OnceValue(func() []int {
	table := mpi.LoopOps()
	out := make([]int, len(skampi.Ops))
	for i, o := range skampi.Ops {
		out[i] = slices.Index(table, o.Name)
	}
	return out
})

// loopOp is the C loop's number of operation op of skampi.Ops.
func loopOp(op int) int { return loopOps()[op] }
