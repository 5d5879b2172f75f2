package skampi

import (
	"fmt"
	"slices"
	"strings"
)

// The C table of the operations (suites/skampi/loops/skampi_optab.c), which
// the timed loop runs them by, and its header (skampi_ops.h: the length and
// the rows' functions) are written from Ops: every operation is declared
// once, here. TestOpTableC holds the files to Ops (BEFF_UPDATE=1 rewrites
// them).

// OpTableC is the text of suites/skampi/loops/skampi_optab.c: one row of the C
// table per operation of Ops, in its order.
func OpTableC() string {
	var b strings.Builder
	b.WriteString(`//go:build mpi

/* skampi_optab.c: the table of the SKaMPI suite's operations, which the
 * timed loop runs them by (loops.LoopOps names them by their index).
 * WRITTEN FROM suites/skampi/ops.go, the one declaration of every
 * operation: do not edit; BEFF_UPDATE=1 go test ./suites/skampi rewrites
 * it. Each row: name, the function of one call (skampi_*.c), needs an
 * attached buffer, one block per process, one-sided, mode, the MPI 4 call
 * it needs, what its blocks are per, its length an MPI_Count. */
#include "skampi_ctx.h"

`)
	fmt.Fprintf(&b, "const optab sk_ops[SKAMPI_NOPS] = {\n")
	for _, o := range Ops {
		c := o.cRow()
		fmt.Fprintf(&b, "\t{%q, sk_op_%s, %d, %d, %d, %s, %s, %s, %d},\n", o.Name, c.fn, c.bsend, c.blocks, c.rma, c.mode, c.needs, c.per, c.count64)
	}
	fmt.Fprintf(&b, "};\n\n_Static_assert(sizeof sk_ops / sizeof sk_ops[0] == SKAMPI_NOPS, \"SKAMPI_NOPS is the length of the table\");\n")
	return b.String()
}

// OpTableH is the text of suites/skampi/loops/skampi_ops.h: the table's
// length and the prototype of each function its rows name, once each.
func OpTableH() string {
	var b strings.Builder
	b.WriteString(`/* skampi_ops.h: the length of the SKaMPI suite's table of operations and
 * the function of each row (defined in the file of its family, skampi_*.c).
 * WRITTEN FROM suites/skampi/ops.go: do not edit; BEFF_UPDATE=1 go test
 * ./suites/skampi rewrites it. */
#ifndef SKAMPI_OPS_H
#define SKAMPI_OPS_H

`)
	fmt.Fprintf(&b, "#define SKAMPI_NOPS %d\n\ntypedef struct sk_ctx ctx;\n\n", len(Ops))
	seen := map[string]bool{}
	for _, o := range Ops {
		if fn := o.cRow().fn; !seen[fn] {
			seen[fn] = true
			fmt.Fprintf(&b, "int sk_op_%s(ctx *c);\n", fn)
		}
	}
	b.WriteString("\n#endif\n")
	return b.String()
}

// A cRow is an operation's row of the C table.
type cRow struct {
	fn                          string
	bsend, blocks, rma, count64 int
	mode, needs, per            string
}

// cRow is the operation's row: its function is sk_op_<name> (dashes as
// underscores), a form's that of the operation it is a form of (isForm),
// put-all's the one they share; its mode, MPI 4 call and blocks follow
// from its family.
func (o Op) cRow() cRow {
	fn := o.Name
	switch {
	case o.isForm():
		fn = o.Of
	case strings.HasPrefix(o.Name, "put-all-"):
		fn = "put-all"
	}
	r := cRow{fn: strings.ReplaceAll(fn, "-", "_"), mode: "M_BLOCK", needs: "-1", per: "PER_PROC"}
	r.bsend = bit(strings.Contains(o.Name, "bsend"))
	r.blocks = bit(o.Blocks)
	r.rma = bit(o.RMA())
	r.count64 = bit(o.Count64)
	switch {
	case o.Family == FamilyNonblocking || o.Family == FamilyNeighborhood && strings.HasPrefix(o.Name, "i"):
		r.mode = "M_NB"
	case o.Persistent():
		r.mode = "M_PERSIST"
	}
	if o.Needs != "" {
		r.needs = "MPI4_" + strings.ToUpper(strings.TrimPrefix(o.Needs, "MPI_"))
	}
	switch o.Family {
	case FamilyNeighborhood:
		r.per = "PER_NBR"
	case FamilyPartitioned:
		r.per = "PER_PART"
	}
	return r
}

// isForm says whether the operation is a non-blocking or persistent form
// that forms makes, or a non-blocking neighborhood collective: the same
// exchange as its blocking operation, run by that operation's function.
func (o Op) isForm() bool {
	switch o.Family {
	case FamilyNonblocking, FamilyPersistent:
		return slices.Contains(formOf, o.Of)
	case FamilyNeighborhood:
		return o.Of != ""
	}
	return false
}

func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}
