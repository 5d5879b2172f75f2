package beff_test

import (
	"testing"

	"github.com/beff-suite/beff/suites/beffio/driver"
)

// beffioSuite is the suite's driver, made by TestMain (beff_test.go).
var beffioSuite *driver.Driver

// BenchmarkBeffIO measures the effective I/O bandwidth b_eff_io through
// MPI-IO: for each access method, partition and pattern type, every pattern
// is a sub-benchmark n=<n>/acc=<acc>/type=<type>/pat=<No>/l=<l>/L=<L>, then
// the type's total (pat=total) and the partition's phase time (pat=phase).
// Run it under mpirun on a binary built with -tags mpi, then fold the output
// with `go run ./cmd/beff fold FILE`.
func BenchmarkBeffIO(b *testing.B) { beffioSuite.Benchmark(b) }
