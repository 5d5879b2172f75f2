package mpitest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBuffers: two distinct buffers of the size asked for, zeroed.
func TestBuffers(t *testing.T) {
	s, r := Buffers(t, 32)
	assert.Equal(t, int64(32), s.Len())
	assert.Equal(t, int64(32), r.Len())
	assert.Equal(t, make([]byte, 32), r.Bytes())
	s.Bytes()[0] = 1
	assert.Zero(t, r.Bytes()[0], "two buffers")
}
