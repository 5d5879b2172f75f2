//go:build mpi

package mpi

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEnumsAgree checks that every enum Go and C share has the same names
// in the same order on both sides: the Go value is what the C code gets.
func TestEnumsAgree(t *testing.T) {
	assert.Equal(t, []string{Max.String(), Min.String(), Sum.String()}, cOps(), "reductions: mpi.ReduceOp vs ctl_op_names in control.c")
	assert.Equal(t, []string{OpenCreate.String(), OpenWrite.String(), OpenRead.String()}, cOpenModes(),
		"open modes: mpi.OpenMode vs ctl_open_mode_names in file.c")
	assert.Equal(t, []OpenFlags{Unique, DeleteOnClose, ReadWrite}, cOpenFlags(), "open flags: mpi.OpenFlags vs enum ctl_open_flag in control.h")
}
