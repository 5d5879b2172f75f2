package skampi

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/results/resultstest"
)

// The loop's files written from Ops.
const (
	opTablePath  = "loops/skampi_optab.c"
	opHeaderPath = "loops/skampi_ops.h"
)

// TestOpTableC: the C table of the operations and its header are written
// from Ops (BEFF_UPDATE=1 rewrites both): an operation added to Ops without
// them fails here, without MPI.
func TestOpTableC(t *testing.T) {
	for path, want := range map[string]string{opTablePath: OpTableC(), opHeaderPath: OpTableH()} {
		if resultstest.Update() {
			require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, want, string(got), "%s is not written from Ops: BEFF_UPDATE=1 go test ./suites/skampi", path)
	}
}

// TestOpRows: the rows of the table follow from the operations.
func TestOpRows(t *testing.T) {
	for name, want := range map[string]cRow{
		"send-recv":            {fn: "send_recv", mode: "M_BLOCK", needs: "-1", per: "PER_PROC"},
		"bsend-recv":           {fn: "bsend_recv", bsend: 1, mode: "M_BLOCK", needs: "-1", per: "PER_PROC"},
		"ireduce-scatter":      {fn: "reduce_scatter", blocks: 1, mode: "M_NB", needs: "-1", per: "PER_PROC"},
		"gather-persistent":    {fn: "gather", blocks: 1, mode: "M_PERSIST", needs: "MPI4_GATHER_INIT", per: "PER_PROC"},
		"send-recv-persistent": {fn: "send_recv_persistent", mode: "M_PERSIST", needs: "-1", per: "PER_PROC"},
		"put-all-one":          {fn: "put_all", blocks: 1, rma: 1, mode: "M_BLOCK", needs: "-1", per: "PER_PROC"},
		"ineighbor-alltoall":   {fn: "neighbor_alltoall", blocks: 1, mode: "M_NB", needs: "-1", per: "PER_NBR"},
		"psend-precv":          {fn: "psend_precv", blocks: 1, mode: "M_PERSIST", needs: "MPI4_PSEND_INIT", per: "PER_PART"},
		"send-recv-c":          {fn: "send_recv_c", mode: "M_BLOCK", needs: "MPI4_SEND_C", per: "PER_PROC", count64: 1},
	} {
		i := OpIndex(name)
		require.GreaterOrEqual(t, i, 0, name)
		assert.Equal(t, want, Ops[i].cRow(), name)
	}
}
