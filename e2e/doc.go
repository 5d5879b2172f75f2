// Package e2e holds the end-to-end tests of beff: they build the
// benchmark binary (the module's root package, with -tags mpi) and the
// beff command once per test process, and run real jobs with them under
// the MPI on PATH, on emulated clusters and under Slurm. It has no code of
// its own; see docs/testing.md.
package e2e
