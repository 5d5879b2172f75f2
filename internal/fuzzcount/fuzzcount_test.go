package fuzzcount

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), "n")
	t.Setenv(Env, "")
	One()
	assert.NoFileExists(t, path)
	t.Setenv(Env, path)
	One()
	One()
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, int64(2), fi.Size())
}
