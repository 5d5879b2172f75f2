package crash

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSave: the details go to a file that names the command, the panic
// and the stack; the line says where.
func TestSave(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	line := Save([]string{"beff", "fold", "x.txt"}, "boom")
	require.True(t, strings.HasPrefix(line, "details in "), line)
	path := strings.TrimSuffix(strings.TrimPrefix(line, "details in "), "; please report it")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(data), "beff fold x.txt\npanic: boom\n")
	assert.Contains(t, string(data), "TestSave")
}
