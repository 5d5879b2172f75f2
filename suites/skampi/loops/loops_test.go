//go:build mpi

package loops_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/skampi"
	"github.com/beff-suite/beff/suites/skampi/loops"
)

// TestTypesAgree: the datatypes built from a type's program are what
// beff's own layout of the type says, on both sides, and free cleanly.
func TestTypesAgree(t *testing.T) {
	for _, desc := range []string{"vector(4,1,8,double)", "struct(2:0:int,1:8:vector(2,1,3p,double))", "contiguous(6,double)"} {
		ty, err := skampi.ParseType(desc, nil)
		require.NoError(t, err, desc)
		l, err := skampi.Lay(ty, 1)
		require.NoError(t, err, desc)
		prog, err := skampi.Program(ty, 1)
		require.NoError(t, err, desc)
		side := loops.TypeSide{Prog: prog, Runs: l.CopyRuns(), Count: 3, Extent: l.Extent}
		types, err := loops.NewTypes(side, side)
		require.NoError(t, err, desc)
		for i := range 2 {
			info, err := types.Info(i)
			require.NoError(t, err, desc)
			assert.Equal(t, loops.TypeInfo{Size: l.Size, LB: l.LB, Extent: l.Extent, TrueLB: l.TrueLB, TrueExtent: l.TrueExtent()}, info, "%s side %d", desc, i)
		}
		types.Free()
		types.Free() // twice is fine
	}
}

// TestTimerAndComputation: empty measurements are never negative; the
// calibrated computation takes steps for a positive time, none for none.
func TestTimerAndComputation(t *testing.T) {
	d := loops.TimerCosts(50)
	require.Len(t, d, 50)
	for _, x := range d {
		assert.GreaterOrEqual(t, x, 0.0)
		assert.Less(t, x, 1.0, "two clock reads in a row")
	}
	assert.Empty(t, loops.TimerCosts(0))
	assert.Positive(t, loops.ComputeSteps(1e-4))
	assert.Zero(t, loops.ComputeSteps(0))
	assert.Zero(t, loops.ComputeSteps(-1))
}

// TestLocalAndCollectiveOps runs, on the one process, every operation
// of the table written out one by one that needs no partner and no
// window: the local ones and the blocking collectives over a
// communicator of one (their other forms: TestFormsOnOneProcess); each
// batch times its repetitions and validates what it received.
func TestLocalAndCollectiveOps(t *testing.T) {
	ran := 0
	for _, o := range skampi.Ops {
		if o.Family != "" || o.RMA() || o.Pattern == skampi.PingPong || o.Pattern == skampi.MasterWorker || o.Name == "type-create" {
			continue
		}
		l := int64(0)
		if o.Vary&skampi.VaryLength != 0 {
			l = 64
		}
		b := selfBatch(t, loopOp(o.Name), l)
		times, f, err := loops.RunBatch(b)
		require.NoError(t, err, o.Name)
		assert.Zero(t, f.Count, "%s: %+v", o.Name, f)
		require.Len(t, times.End, 3, o.Name)
		for r := range times.End {
			assert.GreaterOrEqual(t, times.End[r], times.Start[r], "%s: repetition %d ends after it starts", o.Name, r)
		}
		ran++
	}
	assert.Greater(t, ran, 25, "the local operations and the collectives ran")
}

// TestBatchInjectedFault: a corrupted message is found and reported with
// where it was.
func TestBatchInjectedFault(t *testing.T) {
	for _, op := range []string{"alltoall", "allgather", "gather"} {
		b := selfBatch(t, loopOp(op), 64)
		b.Inject = loops.InjectByte
		_, f, err := loops.RunBatch(b)
		require.NoError(t, err, op)
		assert.Positive(t, f.Count, "%s: the fault is counted", op)
	}
}
