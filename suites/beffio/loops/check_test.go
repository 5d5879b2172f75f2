package loops

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/mpi"
)

// What the b_eff_io loop refuses before any C runs, and the MPI-IO calls
// it names; no MPI needed.

// TestRunCallsRefuses: b_eff_io's calls whose chunks do not fit the
// buffer or an MPI count, or a time-driven read, are refused before C.
func TestRunCallsRefuses(t *testing.T) {
	buf, err := mpi.NewBuffer(4 << 20)
	require.NoError(t, err)
	defer buf.Free()
	good := PatternCalls{Layout: IOStrided, Len: 2 << 20, L: 1 << 20}
	assert.True(t, good.fits(buf))
	for name, p := range map[string]PatternCalls{
		"no disk chunk":           {Layout: IOStrided, Len: 1 << 20},
		"memory below disk chunk": {Layout: IOStrided, Len: 1 << 10, L: 1 << 20},
		"not whole chunks":        {Layout: IOStrided, Len: 3 << 19, L: 1 << 20},
		"larger than the buffer":  {Layout: IOStrided, Len: 8 << 20, L: 1 << 20},
		"unknown layout":          {Layout: IOLayout(9), Len: 1 << 20, L: 1 << 20},
	} {
		_, _, err := RunCalls(&p, 0, 1, buf)
		var e *mpi.Error
		require.True(t, errors.As(err, &e), name)
		assert.Equal(t, "bad chunk sizes for the buffer", e.Msg, name)
		_, err = RunCallsUntil(&p, mpi.World, 0, 1, 0, buf)
		assert.Error(t, err, name)
	}
	assert.False(t, good.fits(nil), "no buffer")
	read := good
	read.Read = true
	_, err = RunCallsUntil(&read, mpi.World, 0, 1, 0, buf)
	assert.ErrorContains(t, err, "or a read", "the time-driven loop writes only")
}

// TestCallNames: the MPI-IO function each layout's calls use.
func TestCallNames(t *testing.T) {
	for _, tt := range []struct {
		layout   IOLayout
		read     bool
		explicit bool
		want     string
	}{
		{IOStrided, false, false, "MPI_File_write_all"},
		{IOStrided, true, false, "MPI_File_read_all"},
		{IOOrdered, false, false, "MPI_File_write_ordered"},
		{IOOrdered, true, true, "MPI_File_read_at_all"},
		{IOOwnFile, false, false, "MPI_File_write"},
		{IOSegment, true, false, "MPI_File_read"},
		{IOSegmentAll, false, false, "MPI_File_write_all"},
	} {
		p := PatternCalls{Layout: tt.layout, Read: tt.read, ExplicitOffsets: tt.explicit}
		assert.Equal(t, tt.want, p.callName(), "%s read=%v explicit=%v", tt.layout, tt.read, tt.explicit)
	}
}

// TestNames: the layouts' names, in value order.
func TestNames(t *testing.T) {
	var got []string
	for _, l := range IOLayouts {
		got = append(got, l.String())
	}
	assert.Equal(t, []string{"strided", "ordered", "ownfile", "segment", "segment-all"}, got)
}
