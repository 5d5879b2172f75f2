//go:build mpi

package loops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEnumsAgree checks that every enum Go and C share has the same names
// in the same order on both sides: the Go value is what the C code gets.
func TestEnumsAgree(t *testing.T) {
	assert.Equal(t, RMASyncs, cRMASyncs, "one-sided synchronisations: RMASyncs vs SKAMPI_FENCE… in skampi.h")
	assert.Len(t, LoopOpBlocks(), len(LoopOps()))
	assert.Equal(t, MaxChunks, int(cMaxChunks), "MaxChunks vs SKAMPI_MAXCHUNKS in skampi.h")
	assert.Equal(t, []Topo{TopoNone, TopoCart, TopoStencil}, cTopos, "topologies: Topo vs SKAMPI_TOPO_* in skampi.h")
}
