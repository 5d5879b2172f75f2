package beff_test

import (
	"testing"

	"github.com/beff-suite/beff/suites/congestion/driver"
)

// congestionSuite is the suite's driver, made by TestMain (beff_test.go).
var congestionSuite *driver.Driver

// BenchmarkCongestion measures what the network delivers while others
// use it: canaries isolated and under congestors, their Congestion
// Impact Factors and the congestors' own bandwidth (see
// docs/congestion.md).
func BenchmarkCongestion(b *testing.B) { congestionSuite.Benchmark(b) }
