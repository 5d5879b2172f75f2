package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/beff-suite/beff/internal/results"
	befffold "github.com/beff-suite/beff/suites/beff/fold"
	beffiofold "github.com/beff-suite/beff/suites/beffio/fold"
	congestionfold "github.com/beff-suite/beff/suites/congestion/fold"
	linksfold "github.com/beff-suite/beff/suites/links/fold"
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
		linksfold.New(),
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

// benchPattern is the -test.bench pattern of beff run's -bench: suite
// names separated by commas or spaces, each a suite's name, key or
// benchmark in any case ("b_eff", "beffio", "SKaMPI",
// "BenchmarkCongestion"), or "all"; else, as before names, a pattern of
// the benchmarks' names that selects at least one suite. A selection of
// no suite is refused with the list.
func benchPattern(sel string, list []results.Suite) (string, error) {
	words := strings.FieldsFunc(sel, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	var benches []string
	for _, w := range words {
		n := len(benches)
		for _, s := range list {
			if strings.EqualFold(w, "all") || namesSuite(w, s.ID()) {
				benches = append(benches, s.ID().Benchmark())
			}
		}
		if len(benches) == n {
			benches = nil
			break
		}
	}
	if len(benches) > 0 {
		slices.Sort(benches)
		return "^(" + strings.Join(slices.Compact(benches), "|") + ")$", nil
	}
	first, _, _ := strings.Cut(sel, "/")
	if re, err := regexp.Compile(first); err == nil && sel != "" {
		for _, s := range list {
			if re.MatchString(s.ID().Benchmark()) {
				return sel, nil
			}
		}
	}
	var names []string
	for _, s := range list {
		names = append(names, s.ID().Name)
	}
	return "", fmt.Errorf("-bench=%q names no suite; the suites are %s (any case; several separated by commas; all)", sel, strings.Join(names, ", "))
}

// namesSuite reports whether w names the suite of id, in any case.
func namesSuite(w string, id *results.Identity) bool {
	for _, n := range []string{id.Key, id.Name, id.JSONKey, id.Bench, id.Benchmark()} {
		if strings.EqualFold(w, n) {
			return true
		}
	}
	return false
}
