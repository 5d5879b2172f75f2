// Package beff is the root of the beff module: its test files are the
// benchmark binary that runs under mpirun (TestMain hands over to the
// harness; BenchmarkBeff, BenchmarkBeffIO and BenchmarkSkampi run the
// suites) and its integration tests, which start real mpirun, Slurm and
// emulated-cluster jobs. It has no code of its own; see README.md and
// docs/architecture.md.
package beff
