package beff_test

import (
	"flag"
	"testing"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/suites/beff/driver"
	beffio "github.com/beff-suite/beff/suites/beffio/driver"
	congestion "github.com/beff-suite/beff/suites/congestion/driver"
	links "github.com/beff-suite/beff/suites/links/driver"
	skampi "github.com/beff-suite/beff/suites/skampi/driver"
)

// TestMain hands the test binary to the MPI harness: MPI init and finalize,
// flag checks decided on rank 0, configuration lines, stdout on rank 0 only.
// It owns the binary's flag set, flag.CommandLine (the one testing
// parses): each suite's driver puts its flags there, then the harness its
// own.
func TestMain(m *testing.M) {
	fs := flag.CommandLine
	beffSuite, beffioSuite = driver.New(fs), beffio.New(fs)
	skampiSuite, congestionSuite, linksSuite = skampi.New(fs), congestion.New(fs), links.New(fs)
	harness.Main(m, fs, beffSuite.Driver, beffioSuite.Driver, skampiSuite.Driver, congestionSuite.Driver, linksSuite.Driver)
}

// beffSuite is the suite's driver, made by TestMain.
var beffSuite *driver.Driver

// BenchmarkBeff measures the effective bandwidth b_eff: every pattern, message
// size and method is a sub-benchmark pat=<pattern>/L=<bytes>/mthd=<method>.
// Run it under mpirun on a binary built with -tags mpi, then fold the output
// with `go run ./cmd/beff fold FILE`.
func BenchmarkBeff(b *testing.B) { beffSuite.Benchmark(b) }
