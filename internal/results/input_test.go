package results_test

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/results"
)

// TestFileKinds: every reader of an input file takes a regular file
// (through a link too) and refuses anything else at once with the path
// and the kind, without waiting for a writer or reading for ever (a
// reader that blocks on the named pipe never returns).
func TestFileKinds(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "r.txt")
	require.NoError(t, os.WriteFile(regular, []byte("a\n"), 0o644))
	link := filepath.Join(dir, "link.txt")
	require.NoError(t, os.Symlink(regular, link))
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	sock := filepath.Join(dir, "sock")
	ln, err := net.Listen("unix", sock)
	require.NoError(t, err)
	defer ln.Close()
	devLink := filepath.Join(dir, "zero")
	require.NoError(t, os.Symlink("/dev/zero", devLink))

	for _, tc := range []struct {
		path, kind string // kind "" for a file that reads
	}{
		{regular, ""},
		{link, ""},
		{fifo, "a named pipe (FIFO)"},
		{sock, "no such device or address"},
		{devLink, "a character device"},
		{dir, "a directory"},
		{filepath.Join(dir, "none"), "no such file or directory"},
	} {
		_, rerr := results.ReadInput(tc.path)
		serr := results.ScanFile(tc.path, func(string, int) error { return nil })
		if tc.kind == "" {
			assert.NoError(t, rerr, tc.path)
			assert.NoError(t, serr, tc.path)
			continue
		}
		for _, err := range []error{rerr, serr} {
			require.Error(t, err, tc.path)
			assert.Contains(t, err.Error(), tc.path)
			assert.Contains(t, err.Error(), tc.kind)
		}
	}
}
