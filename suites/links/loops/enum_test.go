//go:build mpi

package loops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEnumsAgree: Go's measurements are the C table's, in order.
func TestEnumsAgree(t *testing.T) {
	var names []string
	for _, m := range Measures {
		names = append(names, m.String())
	}
	assert.Equal(t, names, cMeasures(), "links measurements: Measures vs links_meas_names in links.c")
}
