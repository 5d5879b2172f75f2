package beff_test

import (
	"testing"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/suites/beff/driver"
)

// TestMain hands the test binary to the MPI harness: MPI init and finalize,
// flag checks decided on rank 0, configuration lines, stdout on rank 0 only.
func TestMain(m *testing.M) { harness.Main(m) }

// BenchmarkBeff measures the effective bandwidth b_eff: every pattern, message
// size and method is a sub-benchmark pat=<pattern>/L=<bytes>/mthd=<method>.
// Run it under mpirun on a binary built with -tags mpi, then fold the output
// with `go run ./cmd/beff fold FILE`.
func BenchmarkBeff(b *testing.B) { driver.Benchmark(b) }
