//go:build mpi

package mpi

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
	assert.Equal(t, exchanges, cMethods(), "b_eff exchanges: mpi.Exchanges vs beff_method_names in beff.c")

	var layouts []string
	for i, l := range IOLayouts {
		assert.Equal(t, IOLayout(i), l, "IOLayouts is in value order")
		layouts = append(layouts, l.String())
	}
	assert.Equal(t, layouts, cLayouts(), "b_eff_io layouts: mpi.IOLayouts vs beffio_layout_names in beffio.c")

	assert.Equal(t, []string{Max.String(), Min.String(), Sum.String()}, cOps(), "reductions: mpi.ReduceOp vs ctl_op_names in control.c")
	assert.Equal(t, []string{OpenCreate.String(), OpenWrite.String(), OpenRead.String()}, cOpenModes(),
		"open modes: mpi.OpenMode vs ctl_open_mode_names in file.c")
	assert.Equal(t, []OpenFlags{Unique, DeleteOnClose, ReadWrite}, cOpenFlags(), "open flags: mpi.OpenFlags vs enum ctl_open_flag in control.h")
	assert.Equal(t, MaxSteps, int(cMaxSteps), "MaxSteps vs BEFF_MAXSTEPS in beff.h")
	assert.Equal(t, RMASyncs, cRMASyncs, "one-sided synchronisations: mpi.RMASyncs vs SKAMPI_FENCE… in skampi.h")
	assert.Len(t, LoopOpBlocks(), len(LoopOps()))
	assert.Equal(t, MaxChunks, int(cMaxChunks), "MaxChunks vs SKAMPI_MAXCHUNKS in skampi.h")
	assert.Equal(t, []Topo{TopoNone, TopoCart, TopoStencil}, cTopos, "topologies: mpi.Topo vs SKAMPI_TOPO_* in skampi.h")

	canaries, congestors, bins, lo, ratio := cCongestionNames()
	var gc, gg []string
	for i, c := range Canaries {
		assert.Equal(t, Canary(i), c, "Canaries is in value order")
		gc = append(gc, c.String())
	}
	for i, c := range Congestors {
		assert.Equal(t, Congestor(i), c, "Congestors is in value order")
		gg = append(gg, c.String())
	}
	assert.Equal(t, gc, canaries, "canaries: mpi.Canaries vs cong_canary_names in congestion.c")
	assert.Equal(t, gg, congestors, "congestors: mpi.Congestors vs cong_congestor_names in congestion.c")
	assert.Equal(t, []any{HistBins, HistMin, HistRatio}, []any{bins, lo, ratio}, "the histogram: mpi.Hist* vs CONG_HIST_* in congestion.h")
}
