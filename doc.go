// Package beff is the root of the beff module and the benchmark binary:
// its test files are what runs under mpirun (TestMain hands over to the
// harness; BenchmarkBeff, BenchmarkBeffIO, BenchmarkSkampi,
// BenchmarkCongestion and BenchmarkLinks run the suites). It has no code and no tests of its
// own: the end-to-end tests, which build this package and run real jobs,
// are in e2e/. See README.md and docs/architecture.md.
package beff
