package driver

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/beff-suite/beff/suites/beffio"
	"github.com/beff-suite/beff/suites/beffio/loops"
)

// TestIOLayouts: every pattern type has a layout of its own.
func TestIOLayouts(t *testing.T) {
	seen := map[loops.IOLayout]bool{}
	for _, ty := range beffio.Types {
		l, ok := ioLayouts[ty]
		assert.True(t, ok, "type %s", ty)
		assert.False(t, seen[l], "type %s: layout %s taken twice", ty, l)
		seen[l] = true
	}
	assert.Len(t, seen, len(loops.IOLayouts))
}
