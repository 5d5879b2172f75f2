package driver

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beff/loops"
)

// TestExchanges: every method of b_eff has the exchange of its name.
func TestExchanges(t *testing.T) {
	for _, m := range beff.Methods {
		e, ok := exchanges[m]
		assert.True(t, ok, "method %s", m)
		assert.Equal(t, m.String(), e.String(), "method %s", m)
	}
	assert.Len(t, exchanges, len(loops.Exchanges))
}
