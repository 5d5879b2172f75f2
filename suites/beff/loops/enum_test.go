//go:build mpi

package loops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEnumsAgree checks that every enum Go and C share has the same names
// in the same order on both sides: the Go value is what the C code gets.
func TestEnumsAgree(t *testing.T) {
	var exchanges []string
	for i, e := range Exchanges {
		assert.Equal(t, Exchange(i), e, "Exchanges is in value order")
		exchanges = append(exchanges, e.String())
	}
	assert.Equal(t, exchanges, cMethods(), "b_eff exchanges: Exchanges vs beff_method_names in beff.c")
	assert.Equal(t, MaxSteps, int(cMaxSteps), "MaxSteps vs BEFF_MAXSTEPS in beff.h")
}
