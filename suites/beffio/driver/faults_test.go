package driver

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/beffio"
)

// TestUnlinkHeld: the name is gone at once and the process still holds the
// data (its release waits for the exit, not for the removal).
func TestUnlinkHeld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.dat")
	require.NoError(t, os.WriteFile(path, []byte("payload"), 0o644))
	n := len(held)
	unlinkHeld(path)
	assert.NoFileExists(t, path)
	require.Len(t, held, n+1)
	f := held[n]
	defer func() { f.Close(); held = held[:n] }()
	_, err := f.Seek(0, io.SeekStart)
	require.NoError(t, err)
	data, err := io.ReadAll(f)
	require.NoError(t, err)
	assert.Equal(t, "payload", string(data))

	unlinkHeld(path) // a name that is gone: nothing held, no error
	assert.Len(t, held, n+1)
}

// TestFileComm: the separated type's files are opened on MPI_COMM_SELF,
// every other type's on the partition (no communicator is made for either).
func TestFileComm(t *testing.T) {
	p := &partition{n: 4, comm: mpi.World}
	for _, ty := range beffio.Types {
		want := mpi.World
		if ty == beffio.Separated {
			want = mpi.Self
		}
		assert.Equal(t, want, fileComm(p, ty), "type %s", ty)
	}
	assert.NotEqual(t, mpi.World, mpi.Self)
}

// TestSweeper: 4 to 8 ranks of a job sweep the scratch directory, spread
// over the ranks, rank 0 always; every rank of a job of up to 8.
func TestSweeper(t *testing.T) {
	for _, size := range []int{1, 2, 8, 9, 64, 1000, 1 << 20} {
		var ranks []int
		for r := range size {
			if sweeper(r, size) {
				ranks = append(ranks, r)
			}
		}
		assert.Equal(t, 0, ranks[0], "size %d", size)
		assert.LessOrEqual(t, len(ranks), 8, "size %d", size)
		assert.GreaterOrEqual(t, len(ranks), min(size, 4), "size %d: %v", size, ranks)
		assert.GreaterOrEqual(t, ranks[len(ranks)-1], size-(size+7)/8, "size %d: the last sweeper lies in the last eighth", size)
	}
}
