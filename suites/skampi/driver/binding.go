package driver

import (
	"slices"
	"sync"

	"github.com/beff-suite/beff/suites/skampi"
	"github.com/beff-suite/beff/suites/skampi/loops"
)

// The SKaMPI loop (package loops) speaks its own terms: its operations by
// their number in its table (loops.LoopOps), the methods of typed messages
// and the one-sided synchronisations by its enums. The suite's
// definitions are mapped onto them here.

// methods maps a typed point's method to the C loop's.
var methods = map[string]loops.Method{
	"": loops.MethodContig, skampi.MethodContig: loops.MethodContig, skampi.MethodDatatype: loops.MethodDatatype,
	skampi.MethodPack: loops.MethodPack, skampi.MethodManual: loops.MethodManual,
}

// rmaSyncs maps a suite's synchronisation to the C loop's.
var rmaSyncs = map[string]loops.RMASync{
	skampi.RMAFence: loops.SyncFence, skampi.RMAPSCW: loops.SyncPSCW, skampi.RMALock: loops.SyncLock,
	skampi.RMAFlush: loops.SyncFlush, skampi.RMAFlushLocal: loops.SyncFlushLocal,
}

// loopOps is, for each of skampi.Ops, its number in the C loop's table,
// found by name (-1 where the table lacks it: a test rules that out).
var loopOps = sync.OnceValue(func() []int {
	table := loops.LoopOps()
	out := make([]int, len(skampi.Ops))
	for i, o := range skampi.Ops {
		out[i] = slices.Index(table, o.Name)
	}
	return out
})

// loopOp is the C loop's number of operation op of skampi.Ops.
func loopOp(op int) int { return loopOps()[op] }
