package beff_test

import (
	"testing"

	"github.com/beff-suite/beff/suites/links/driver"
)

// linksSuite is the suite's driver, made by TestMain (beff_test.go).
var linksSuite *driver.Driver

// BenchmarkLinks measures every pair of nodes (or of processes) for
// latency and bandwidth, in rounds of disjoint pairs, and names the slow
// node and the slow link (see docs/links.md).
func BenchmarkLinks(b *testing.B) { linksSuite.Benchmark(b) }
