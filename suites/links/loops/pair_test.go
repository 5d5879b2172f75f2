//go:build mpi

package loops_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/mpi/mpitest"
	"github.com/beff-suite/beff/suites/links/loops"
)

// TestPairOfTwo runs every measurement of the pair of two processes, with
// a count bound and then a time bound: both members stop after the same
// message, the lower one has the time and the count, no stamp is wrong.
// It needs mpirun -np 2 (the end-to-end tests run it so); as a singleton
// it is skipped.
func TestPairOfTwo(t *testing.T) {
	n, err := mpi.World.Size()
	require.NoError(t, err)
	if n != 2 {
		t.Skip("a pair needs mpirun -np 2")
	}
	me, err := mpi.World.Rank()
	require.NoError(t, err)
	const l = 1 << 16
	send, recv := mpitest.Buffers(t, l)
	for _, m := range loops.Measures {
		for _, c := range []struct {
			reps int
			cap  float64
		}{{5, 60}, {1 << 30, 0.02}} {
			length := int64(l)
			if m == loops.Latency {
				length = 8
			}
			res, err := loops.Run(&loops.Pair{Comm: mpi.World, Partner: 1 - me, Lower: me == 0, Measure: m, Len: length,
				Reps: c.reps, Cap: c.cap, Send: send, Recv: recv})
			require.NoError(t, err, m)
			assert.Zero(t, res.Faults, "%s: stamps", m)
			if me == 0 {
				assert.Positive(t, res.Seconds, m)
				if c.reps == 5 {
					assert.Equal(t, 5, res.Count, "%s: the exchanges asked for", m)
				} else {
					assert.GreaterOrEqual(t, res.Seconds, 0.02, "%s: stopped by the cap, not before", m)
					assert.Less(t, res.Count, 1<<30, m)
				}
			}
			require.NoError(t, mpi.World.Barrier())
		}
	}
	v := loops.Values{}
	if me == 0 {
		v = loops.Values{1.5, 900, 800, 1700}
	}
	require.NoError(t, loops.Share(mpi.World, 1-me, me == 0, &v))
	assert.Equal(t, loops.Values{1.5, 900, 800, 1700}, v, "both members hold the pair's values")
}

// TestMultiOfTwo runs the multi-pair windows one way and both ways, with
// a count bound and a time bound: both stop after the same window, both
// have the time and the count, no stamp is wrong. It needs mpirun -np 2.
func TestMultiOfTwo(t *testing.T) {
	n, err := mpi.World.Size()
	require.NoError(t, err)
	if n != 2 {
		t.Skip("a pair needs mpirun -np 2")
	}
	me, err := mpi.World.Rank()
	require.NoError(t, err)
	const l, w = 1 << 12, 8
	send, _ := mpitest.Buffers(t, l)
	recv, _ := mpitest.Buffers(t, l*w)
	for _, both := range []bool{false, true} {
		for _, c := range []struct {
			reps int
			cap  float64
		}{{5, 60}, {1 << 30, 0.02}} {
			res, err := loops.RunMulti(&loops.Multi{Comm: mpi.World, Partner: 1 - me, Lower: me == 0, Both: both, Len: l, Window: w,
				Reps: c.reps, Cap: c.cap, Send: send, Recv: recv})
			require.NoError(t, err, "both=%v", both)
			assert.Zero(t, res.Faults, "stamps")
			assert.Positive(t, res.Seconds)
			if c.reps == 5 {
				assert.Equal(t, 5, res.Count, "both=%v: the windows asked for", both)
			} else {
				assert.Less(t, res.Count, 1<<30)
				if me == 0 {
					assert.GreaterOrEqual(t, res.Seconds, 0.02, "stopped by the cap, not before")
				}
			}
			most, least := make([]int64, 1), make([]int64, 1)
			require.NoError(t, mpi.World.AllreduceInt64([]int64{int64(res.Count)}, most, mpi.Max))
			require.NoError(t, mpi.World.AllreduceInt64([]int64{-int64(res.Count)}, least, mpi.Max))
			assert.Equal(t, most[0], -least[0], "both=%v: both stopped after the same window", both)
		}
	}
}
