package driver

import (
	"testing"

	"github.com/beff-suite/beff/suites/congestion"
	"github.com/beff-suite/beff/suites/congestion/loops"
	"github.com/stretchr/testify/assert"
)

// TestBindingComplete: every canary and congestor of the definition has
// its loop in the binding, named alike, and the constants agree.
func TestBindingComplete(t *testing.T) {
	assert.Len(t, canaries, len(congestion.CanaryNames))
	for _, c := range congestion.CanaryNames {
		assert.Equal(t, c, canaries[c].String())
	}
	assert.Len(t, congestors, len(congestion.CongestorNames))
	for _, c := range congestion.CongestorNames {
		assert.Equal(t, c, congestors[c].String())
	}
	assert.Equal(t, congestion.BwOutstanding, loops.CanaryOutstanding)
}
