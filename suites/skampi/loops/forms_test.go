//go:build mpi

package loops_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/mpi/mpitest"
	"github.com/beff-suite/beff/suites/skampi"
	"github.com/beff-suite/beff/suites/skampi/loops"
)

// TestFormsOnOneProcess runs every non-blocking and persistent collective
// on this singleton process, each message checked in full: no validation
// failure, the persistent ones report their init time, the overlap
// computation is counted; an operation whose MPI 4 call the library lacks
// is refused by the C loop.
func TestFormsOnOneProcess(t *testing.T) {
	send, recv := mpitest.Buffers(t, 1<<16)
	has, lib := mpi.Provides(), strings.Join(strings.Fields(strings.SplitN(mpi.LibraryVersion(), "\n", 2)[0]), " ")
	for _, o := range skampi.Ops {
		if o.Family == "" || o.Pattern != skampi.Collective || skampi.BrokenIn(lib, o.Name) {
			continue
		}
		for _, topo := range []loops.Topo{loops.TopoNone, loops.TopoCart, loops.TopoStencil} {
			if (topo != loops.TopoNone) != (o.Family == skampi.FamilyNeighborhood) {
				continue
			}
			b := &loops.Batch{Op: loopOp(o.Name), Comm: mpi.World, Len: 64, Calls: 3, Reps: 2, Send: send, Recv: recv, Full: true}
			if topo != loops.TopoNone { // one process: its own neighbor in every direction
				b.Topo, b.Dims, b.Periodic = topo, []int{1, 1, 1}, true
			}
			if o.NonBlocking() {
				b.Steps = loops.ComputeSteps(2e-6)
			}
			times, fault, err := loops.RunBatch(b)
			if o.Needs != "" && !has[o.Needs] {
				assert.Error(t, err, "%s without %s", o.Name, o.Needs)
				continue
			}
			require.NoError(t, err, "%s on topology %d", o.Name, topo)
			assert.Zero(t, fault.Count, "%s on topology %d: validation", o.Name, topo)
			assert.Equal(t, o.Family == skampi.FamilyPersistent, times.Init > 0, "%s: init time", o.Name)
			for k, busy := range times.Busy {
				assert.Equal(t, o.NonBlocking(), busy > 0, "%s: computation in repetition %d", o.Name, k)
				assert.LessOrEqual(t, busy, times.End[k]-times.Start[k], "%s: computed within the repetition", o.Name)
			}
		}
	}
	b := &loops.Batch{Op: loopOp("neighbor-alltoall"), Comm: mpi.World, Len: 64, Calls: 1, Reps: 1,
		Send: send, Recv: recv, Topo: loops.TopoCart, Dims: []int{2, 1}}
	_, _, err := loops.RunBatch(b)
	assert.Error(t, err, "a grid of 2 on 1 process")
	b = &loops.Batch{Op: loopOp("bcast"), Comm: mpi.World, Len: 1 << 31, Calls: 1, Reps: 1, Send: send, Recv: recv}
	_, _, err = loops.RunBatch(b)
	require.Error(t, err)
	assert.Regexp(t, `(?i)count`, err.Error(), "a length past an int, to an operation that passes it as one")
	assert.Positive(t, loops.ComputeSteps(1e-6))
	assert.Zero(t, loops.ComputeSteps(0))
}
