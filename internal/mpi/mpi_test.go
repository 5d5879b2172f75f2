//go:build mpi

package mpi_test

import (
	"os"
	"testing"
	"time"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/beff"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run as a singleton MPI process (no mpirun): the timed loop is
// exercised on a ring of one process, which sends to itself.
func TestMain(m *testing.M) { os.Exit(mpi.Singleton("serialized", m.Run)) }

func TestWorld(t *testing.T) {
	r, err := mpi.World.Rank()
	require.NoError(t, err)
	s, err := mpi.World.Size()
	require.NoError(t, err)
	assert.Equal(t, 0, r)
	assert.Equal(t, 1, s)
	assert.Greater(t, mpi.Wtick(), 0.0)
	assert.NotEmpty(t, mpi.LibraryVersion())
}

func TestControlPlane(t *testing.T) {
	buf := []byte("decision")
	require.NoError(t, mpi.World.BcastBytes(buf, 0))
	assert.Equal(t, "decision", string(buf))
	out := make([]float64, 2)
	require.NoError(t, mpi.World.ReduceFloat64([]float64{1.5, -2}, out, mpi.Max, 0))
	assert.Equal(t, []float64{1.5, -2}, out)
	io := make([]int64, 1)
	require.NoError(t, mpi.World.AllreduceInt64([]int64{7}, io, mpi.Sum))
	assert.Equal(t, int64(7), io[0])
	assert.Error(t, mpi.World.ReduceFloat64([]float64{1}, nil, mpi.Max, 0), "a nil out must be refused, not crash")
	assert.Error(t, mpi.World.ReduceInt64([]int64{1}, nil, mpi.Min, 0), "on the root too")
	assert.Error(t, mpi.World.AllreduceInt64([]int64{1}, nil, mpi.Sum), "an allreduce's out is everywhere")
	big := make([]byte, mpi.MaxInt32+1) // not touched: the count is refused first
	assert.ErrorContains(t, mpi.World.BcastBytes(big, 0), "an MPI count is 0 to 2147483647")
	assert.ErrorContains(t, mpi.World.GatherBytes(big, nil, 0), "an MPI count")
	dims, err := mpi.DimsCreate(12, 2)
	require.NoError(t, err)
	assert.Equal(t, beff.DimsCreate(12, 2), dims)
	c, err := mpi.World.CartCreate([]int{1}, []bool{true}, false)
	require.NoError(t, err)
	src, dst, err := c.CartShift(0, 1)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 0}, []int{src, dst})
	require.NoError(t, c.Free())
	_, err = mpi.World.Split(-1, 0)
	require.NoError(t, err)
	require.NoError(t, mpi.World.QuietBarrier(time.Millisecond))
	require.NoError(t, mpi.Self.QuietBarrier(0), "a poll below 1 µs is taken as 1 µs")
	assert.NotEqual(t, mpi.World, mpi.Self)
}
