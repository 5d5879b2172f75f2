//go:build mpi

package loops_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/beffio/loops"
)

// TestFileLoop: the b_eff_io loop writes its stamped chunks through
// MPI-IO, reads them back with every chunk checked, and finds the chunk
// a disk changed; the file has exactly the bytes the calls wrote.
func TestFileLoop(t *testing.T) {
	path := filepath.Join(t.TempDir(), "own.dat")
	buf, err := mpi.NewBuffer(64 << 10)
	require.NoError(t, err)
	defer buf.Free()
	info, err := mpi.NewInfo(map[string]string{"access_style": "write_once"})
	require.NoError(t, err)
	defer info.Free()

	fh, err := mpi.OpenFile(mpi.Self, path, mpi.OpenCreate, 0, info)
	require.NoError(t, err)
	calls := &loops.PatternCalls{File: fh, Layout: loops.IOOwnFile, Len: 8192, L: 4096, N: 1, Pattern: 7, Stamp: 0}
	errs, _, err := loops.RunCalls(calls, 0, 5, buf)
	require.NoError(t, err)
	assert.Zero(t, errs, "writes check nothing")
	require.NoError(t, fh.Sync())
	_, err = fh.Hints() // Open MPI 5's OMPIO reports none, the others theirs
	require.NoError(t, err)
	require.NoError(t, fh.Close())
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, int64(5*8192), fi.Size(), "five calls of 8 KiB")

	read := func() (int64, loops.ChunkFault) {
		fh, err := mpi.OpenFile(mpi.Self, path, mpi.OpenRead, 0, mpi.InfoNull())
		require.NoError(t, err)
		defer fh.Close()
		rc := *calls
		rc.File, rc.Read = fh, true
		errs, f, err := loops.RunCalls(&rc, 0, 5, buf)
		require.NoError(t, err)
		return errs, f
	}
	errs, _ = read()
	assert.Zero(t, errs, "everything read back as stamped")

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	data[3*4096] ^= 0xff // the first element of the fourth disk chunk
	require.NoError(t, os.WriteFile(path, data, 0o644))
	errs, f := read()
	assert.Equal(t, int64(1), errs, "one bad chunk")
	assert.Equal(t, int64(1), f.Rep, "in the second call")
	assert.NotEqual(t, f.ExpectFirst, f.GotFirst)
	assert.Equal(t, f.ExpectLast, f.GotLast)

	stamped := *calls
	stamped.Stamp = 2 // what a rewrite stamps: a read expecting it finds every chunk different
	fh, err = mpi.OpenFile(mpi.Self, path, mpi.OpenRead, 0, mpi.InfoNull())
	require.NoError(t, err)
	stamped.File, stamped.Read = fh, true
	errs, _, err = loops.RunCalls(&stamped, 0, 5, buf)
	require.NoError(t, err)
	assert.Equal(t, int64(10), errs, "ten disk chunks, none of the rewrite")
	require.NoError(t, fh.Close())

	require.NoError(t, mpi.DeleteFile(path))
	assert.NoFileExists(t, path)
	_, err = mpi.OpenFile(mpi.Self, path, mpi.OpenRead, 0, mpi.InfoNull())
	var e *mpi.Error
	assert.ErrorAs(t, err, &e, "a file that is not there")
}
