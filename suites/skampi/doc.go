// Package skampi holds the definition of the SKaMPI suite (Reussner,
// Sanders, Prechelt and Müller; docs/skampi.md) as plain Go that needs no
// MPI: the table of operations and their patterns (ops.go), the suite
// files that plan a run and the layered defaults of their fields
// (suitefile.go, suite.go), the grid of a curve and its refinement where
// the time leaves a straight line (grid.go, refine.go), the stopping rule
// of a point and its statistics (stats.go), the window schedule that
// starts repetitions together (window.go), the search for the slowest and
// the fastest pair and the round-trip matrix (pairs.go, matrix.go), the
// derived datatypes and their layouts (dtype.go, typing.go, layout.go),
// the plan with its predicted time and memory (plan.go), resuming after a
// crash (resume.go), and the names a results file uses (names.go, with
// the suite's identity ID).
//
// SKaMPI's own word for one named measurement setup of a run is a suite,
// and the suite files and the results' suite= names keep it; in Go such an
// entry is a Setup, so that the type name Suite means one of beff's
// benchmark families, of which SKaMPI is one, everywhere.
package skampi
