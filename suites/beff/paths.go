package beff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// PatternPaths counts the messages of one iteration of a pattern by where
// their path goes (results.Path: node, switch, spine, network).
type PatternPaths struct {
	Name  string
	Count map[string]int
}

// RingPaths counts, for each ring pattern of n processes, the messages of
// one iteration by the path from sender to receiver (path(a, b)). It is
// what makes block and cyclic placement differ: in blocks the neighbours
// of the short rings share a node. O(n) per pattern, no table over ranks.
func RingPaths(n int, path func(a, b int) string) []PatternPaths {
	out := make([]PatternPaths, 0, len(RingNames))
	for i := range RingNames {
		p := RingPattern(n, i)
		pp := PatternPaths{Name: p.Name, Count: map[string]int{}}
		for r := 0; r < n; r++ {
			for _, st := range p.Steps(r) {
				if st.Dest != r {
					pp.Count[path(r, st.Dest)]++
				}
			}
		}
		out = append(out, pp)
	}
	return out
}

// FormatPaths is the value of beff-ring-paths: "ring2 node=4 switch=2;
// ring4 …", the classes with messages only.
func FormatPaths(ps []PatternPaths) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		f := []string{p.Name}
		for _, c := range results.Paths {
			if n := p.Count[c]; n > 0 {
				f = append(f, c+"="+strconv.Itoa(n))
			}
		}
		parts[i] = strings.Join(f, " ")
	}
	return strings.Join(parts, "; ")
}

// ParsePaths reads beff-ring-paths back; a ring pattern b_eff does not
// have, a class it does not know or a count that is not a number is an
// error.
func ParsePaths(v string) ([]PatternPaths, error) {
	var out []PatternPaths
	for _, part := range strings.Split(v, ";") {
		f := strings.Fields(part)
		if len(f) == 0 || !slices.Contains(RingNames[:], f[0]) {
			return nil, fmt.Errorf("%q: not a ring pattern (want %s)", part, strings.Join(RingNames[:], ", "))
		}
		p := PatternPaths{Name: f[0], Count: map[string]int{}}
		for _, kv := range f[1:] {
			k, val, ok := strings.Cut(kv, "=")
			n, err := strconv.Atoi(val)
			if !ok || err != nil || n < 0 || !slices.Contains(results.Paths, k) {
				return nil, fmt.Errorf("%q: want <path>=<messages>, path one of %s", kv, strings.Join(results.Paths, ", "))
			}
			p.Count[k] = n
		}
		out = append(out, p)
	}
	if len(out) > len(RingNames) {
		return nil, fmt.Errorf("%d ring patterns, b_eff has %d", len(out), len(RingNames))
	}
	return out, nil
}
