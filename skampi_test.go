package beff_test

import (
	"testing"

	"github.com/beff-suite/beff/suites/skampi/driver"
)

// skampiSuite is the suite's driver, made by TestMain (beff_test.go).
var skampiSuite *driver.Driver

// BenchmarkSkampi measures single MPI operations as SKaMPI does: every
// operation, pair or process count and message length is a sub-benchmark
// op=<operation>/…/L=<bytes> with its accuracy (see docs/skampi.md).
func BenchmarkSkampi(b *testing.B) { skampiSuite.Benchmark(b) }
