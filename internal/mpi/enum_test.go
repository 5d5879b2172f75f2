//go:build mpi

package mpi

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beffio"
	"github.com/beff-suite/beff/suites/skampi"
)

// TestEnumsAgree checks that every enum Go and C share has the same names
// in the same order on both sides: the Go value is what the C code gets.
func TestEnumsAgree(t *testing.T) {
	var methods []string
	for i, m := range beff.Methods {
		assert.Equal(t, beff.Method(i), m, "beff.Methods is in value order")
		methods = append(methods, m.String())
	}
	assert.Equal(t, methods, cMethods(), "b_eff methods: beff.Methods vs beff_method_names in beff.c")

	var types []string
	for i, ty := range beffio.Types {
		assert.Equal(t, beffio.Type(i), ty, "beffio.Types is in value order")
		types = append(types, ty.String())
	}
	assert.Equal(t, types, cTypes(), "b_eff_io pattern types: beffio.Types vs beffio_type_names in beffio.c")

	assert.Equal(t, []string{Max.String(), Min.String(), Sum.String()}, cOps(), "reductions: mpi.Op vs ctl_op_names in control.c")
	assert.Equal(t, []string{OpenCreate.String(), OpenWrite.String(), OpenRead.String()}, cOpenModes(),
		"open modes: mpi.OpenMode vs ctl_open_mode_names in file.c")
	assert.Equal(t, []OpenFlags{Unique, DeleteOnClose, ReadWrite}, cOpenFlags(), "open flags: mpi.OpenFlags vs enum ctl_open_flag in control.h")
	assert.Equal(t, MaxSteps, int(cMaxSteps), "MaxSteps vs BEFF_MAXSTEPS in beff.h")
	assert.Equal(t, skampi.OpNames(), cSkampiOps(), "SKaMPI operations: skampi.Ops vs the table of skampi.c")
	var blocks []string
	for _, o := range skampi.Ops {
		if o.Blocks {
			blocks = append(blocks, o.Name)
		}
	}
	assert.Equal(t, blocks, cSkampiBlocks(), "SKaMPI operations with a block per process: skampi.Op.Blocks vs the table of skampi.c")
	assert.Equal(t, MaxChunks, int(cMaxChunks), "MaxChunks vs SKAMPI_MAXCHUNKS in skampi.h")
	assert.Equal(t, skampi.MaxChunks, MaxChunks, "skampi.MaxChunks vs mpi.MaxChunks")
}
