package driver

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/beff-suite/beff/suites/skampi"
)

// TestBindingMaps: every synchronisation and typed method a suite file
// may name has a counterpart in the C loop.
func TestBindingMaps(t *testing.T) {
	for _, s := range skampi.RMASyncs {
		assert.Contains(t, rmaSyncs, s)
	}
	assert.Len(t, rmaSyncs, len(skampi.RMASyncs))
	for _, m := range []string{skampi.MethodContig, skampi.MethodDatatype, skampi.MethodPack, skampi.MethodManual} {
		assert.Contains(t, methods, m)
	}
}
