//go:build mpi

package mpi_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/mpi"
)

// TestCommunicators: the communicators the harness and the drivers make,
// on the one process: a split, no split, a group of ranges, the node's
// processes; each freed to CommNull. Gathering and scattering bytes at
// the root.
func TestCommunicators(t *testing.T) {
	split, err := mpi.World.Split(0, 0)
	require.NoError(t, err)
	none, err := mpi.World.Split(-1, 0)
	require.NoError(t, err)
	assert.Equal(t, mpi.CommNull, none, "no color, no communicator")
	group, err := mpi.World.CreateRanges([]mpi.RankRange{{First: 0, Last: 0, Stride: 1}}, 7)
	require.NoError(t, err)
	node, err := mpi.World.SplitShared()
	require.NoError(t, err)
	for _, c := range []*mpi.Comm{&split, &group, &node} {
		n, err := c.Size()
		require.NoError(t, err)
		assert.Equal(t, 1, n)
		require.NoError(t, c.Free())
		assert.Equal(t, mpi.CommNull, *c, "freed")
	}
	require.NoError(t, none.Free(), "freeing CommNull does nothing")
	_, err = mpi.World.CreateRanges(nil, 7)
	assert.ErrorContains(t, err, "MPI_Comm_create_group: a group of no ranges")

	all := make([]byte, 3)
	require.NoError(t, mpi.World.GatherBytes([]byte("abc"), all, 0))
	assert.Equal(t, "abc", string(all))
	own := make([]byte, 3)
	require.NoError(t, mpi.World.ScatterBytes([]byte("xyz"), own, 0))
	assert.Equal(t, "xyz", string(own))
	assert.ErrorContains(t, mpi.World.GatherBytes([]byte("abc"), make([]byte, 2), 0), "MPI_Gather", "the root's buffer holds every rank's")
}

// TestFiles: an MPI-IO file made, written through its view, synced,
// given hints and closed; reopened for reading; deleted. A missing file
// is an error naming the call.
func TestFiles(t *testing.T) {
	none, err := mpi.NewInfo(nil)
	require.NoError(t, err)
	assert.Equal(t, mpi.InfoNull(), none, "no hints: MPI_INFO_NULL")
	info, err := mpi.NewInfo(map[string]string{"access_style": "write_once", "collective_buffering": "true"})
	require.NoError(t, err)
	defer info.Free()
	key, val := mpi.InfoLimits()
	assert.Positive(t, key)
	assert.Positive(t, val)

	path := filepath.Join(t.TempDir(), "f.dat")
	fh, err := mpi.OpenFile(mpi.Self, path, mpi.OpenCreate, mpi.ReadWrite, info)
	require.NoError(t, err)
	require.NoError(t, fh.SetViewScatter(0, 4096, 1, mpi.InfoNull()))
	require.NoError(t, fh.SeekSet(0))
	require.NoError(t, fh.SetInfo(info))
	require.NoError(t, fh.Sync())
	_, err = fh.Hints()
	require.NoError(t, err)
	require.NoError(t, fh.Close())
	assert.FileExists(t, path)

	fh, err = mpi.OpenFile(mpi.Self, path, mpi.OpenRead, 0, mpi.InfoNull())
	require.NoError(t, err)
	require.NoError(t, fh.Close())
	require.NoError(t, mpi.DeleteFile(path))
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err), "deleted")

	_, err = mpi.OpenFile(mpi.Self, path, mpi.OpenRead, 0, mpi.InfoNull())
	assert.ErrorContains(t, err, "MPI_File_open")
	assert.ErrorContains(t, mpi.DeleteFile(path), "MPI_File_delete")

	gone := filepath.Join(t.TempDir(), "gone.dat")
	fh, err = mpi.OpenFile(mpi.Self, gone, mpi.OpenCreate, mpi.DeleteOnClose, mpi.InfoNull())
	require.NoError(t, err)
	require.NoError(t, fh.Close())
	assert.NoFileExists(t, gone, "deleted on close")
}

// TestLibrary: what the binding says of the library it runs on.
func TestLibrary(t *testing.T) {
	assert.NotEmpty(t, mpi.HeaderVersion())
	assert.NotEmpty(t, mpi.ProcessorName())
	assert.NotEmpty(t, mpi.Provides(), "the MPI 4 calls the loops look for")
	_, err := mpi.WtimeIsGlobal()
	require.NoError(t, err)
	ok, why, err := mpi.RMAProbe(mpi.World, true)
	require.NoError(t, err)
	assert.Equal(t, ok, why == nil, "a window that cannot be made says why")
	assert.GreaterOrEqual(t, mpi.Wtime(), 0.0)
}
