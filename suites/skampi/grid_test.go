package skampi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseRangeBound: a range is refused when it would give more
// lengths than a curve may have, before any is made.
func TestParseRangeBound(t *testing.T) {
	r, err := ParseRange("1:4Mi", 1.4142)
	require.NoError(t, err)
	assert.InDelta(t, float64(len(r.Lengths(1))), r.count(), 2)
	_, err = ParseRange("1:1Gi", 1.0000001)
	assert.ErrorContains(t, err, "lengths, more than the 10000 a curve may have")
	_, err = ParseRange("0:0", 2)
	assert.NoError(t, err)
}
