package main

import (
	"github.com/beff-suite/beff/internal/results"
	befffold "github.com/beff-suite/beff/suites/beff/fold"
	beffiofold "github.com/beff-suite/beff/suites/beffio/fold"
	congestionfold "github.com/beff-suite/beff/suites/congestion/fold"
	skampifold "github.com/beff-suite/beff/suites/skampi/fold"
)

// suites returns the suites beff knows, in the order their runs appear in
// protocols, tables and the site. Each command gets a fresh list: a suite
// may hold the command's options.
func suites() []results.Suite {
	return []results.Suite{
		befffold.New(),
		beffiofold.New(),
		skampifold.New(),
		congestionfold.New(),
	}
}

// benchmarks names the suites' benchmarks: "BenchmarkBeff and
// BenchmarkBeffIO".
func benchmarks(list []results.Suite) string {
	var names []string
	for _, s := range list {
		names = append(names, s.ID().Benchmark())
	}
	return results.JoinWith(names, "and")
}
