package exitcode

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestKnown: the table's codes and a signal's are known, no other.
func TestKnown(t *testing.T) {
	for _, c := range Table {
		assert.Equal(t, c.Code != Signal, Known(c.Code), c.Name)
	}
	assert.True(t, Known(Signal+15), "SIGTERM")
	for _, c := range []int{6, 7, 9, 17, 127, 213, 255} {
		assert.False(t, Known(c), "%d is no code of beff's", c)
	}
}
