package driver

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
