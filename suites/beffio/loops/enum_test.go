//go:build mpi

package loops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEnumsAgree checks that every enum Go and C share has the same names
// in the same order on both sides: the Go value is what the C code gets.
func TestEnumsAgree(t *testing.T) {
	var layouts []string
	for i, l := range IOLayouts {
		assert.Equal(t, IOLayout(i), l, "IOLayouts is in value order")
		layouts = append(layouts, l.String())
	}
	assert.Equal(t, layouts, cLayouts(), "b_eff_io layouts: IOLayouts vs beffio_layout_names in beffio.c")
}
