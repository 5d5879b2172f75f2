//go:build mpi

package loops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEnumsAgree checks that every enum Go and C share has the same names
// in the same order on both sides: the Go value is what the C code gets.
func TestEnumsAgree(t *testing.T) {
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
	assert.Equal(t, gc, canaries, "canaries: Canaries vs cong_canary_names in congestion.c")
	assert.Equal(t, gg, congestors, "congestors: Congestors vs cong_congestor_names in congestion.c")
	assert.Equal(t, []any{HistBins, HistMin, HistRatio}, []any{bins, lo, ratio}, "the histogram: Hist* vs CONG_HIST_* in congestion.h")
}
