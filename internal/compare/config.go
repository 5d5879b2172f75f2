package compare

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/fold"
)

// A Setting is one configuration line that decides what a run measures.
type Setting struct {
	Key, Value string
}

// A Config is the part of a side's configuration that must be equal for
// two sides to measure the same thing: the settings of its b_eff runs and
// of its b_eff_io runs (nil when the side has none).
type Config struct {
	Beff []Setting
	IO   []Setting
}

// beffSettings are the settings of a b_eff run that change what it
// measures: the processes, the message sizes and the patterns.
func beffSettings(c *fold.Config) []Setting {
	patterns := "(all)"
	if c.Patterns != nil {
		patterns = strings.Join(c.Patterns, ",")
	}
	return []Setting{
		{"mpi-procs", strconv.Itoa(c.N)},
		{"beff-lmax", strconv.FormatInt(c.Lmax, 10)},
		{"beff-sizes", joinInts(c.Sizes)},
		{"beff-patterns", patterns},
		{"beff-random-patterns", strconv.Itoa(c.Random)},
		{"beff-mode", c.Mode},
	}
}

// ioSettings are the settings of a b_eff_io run that change what it
// measures: the processes, the partitions, the pattern table (MPART), the
// rewritten types and the scheduled time.
func ioSettings(c *fold.IOConfig) []Setting {
	ns := make([]int64, len(c.Partitions))
	for i, n := range c.Partitions {
		ns[i] = int64(n)
	}
	return []Setting{
		{"mpi-procs", strconv.Itoa(c.N)},
		{"beffio-partitions", joinInts(ns)},
		{"beffio-mpart", strconv.FormatInt(c.MPART, 10)},
		{"beffio-rewrite", string(c.Rewrite)},
		{"beffio-t-s", strconv.FormatFloat(c.T, 'g', -1, 64)},
		{"beff-mode", c.Mode},
	}
}

// diffSettings lists the settings in which a and b differ, as
// "key: <a> vs <b>" with long values abbreviated. Both lists come from the
// same function, so their keys are in the same order.
func diffSettings(a, b []Setting) []string {
	var d []string
	for i := range a {
		if a[i].Value != b[i].Value {
			va, vb := abbrevPair(a[i].Value, b[i].Value)
			d = append(d, fmt.Sprintf("%s: %s vs %s", a[i].Key, va, vb))
		}
	}
	return d
}

// describe renders settings as "key value, key value, ...", long values
// abbreviated.
func describe(s []Setting) string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = x.Key + " " + abbrev(x.Value)
	}
	return strings.Join(parts, ", ")
}

// Describe says which configuration the side's runs have, one line per
// benchmark, e.g. "b_eff: mpi-procs 2, beff-lmax 98729984, ...".
func (c *Config) Describe() []string {
	var lines []string
	if c.Beff != nil {
		lines = append(lines, "b_eff: "+describe(c.Beff))
	}
	if c.IO != nil {
		lines = append(lines, "b_eff_io: "+describe(c.IO))
	}
	return lines
}

// abbrevLen is the longest value shown in full.
const abbrevLen = 40

// abbrev shortens a long comma-separated value to
// "<n> values <first>…<last>".
func abbrev(v string) string {
	if len(v) <= abbrevLen {
		return v
	}
	items := strings.Split(v, ",")
	if len(items) < 3 {
		return v[:abbrevLen] + "…"
	}
	return fmt.Sprintf("%d values %s…%s", len(items), items[0], items[len(items)-1])
}

// abbrevPair abbreviates two different values so that the difference
// stays visible: when their abbreviations are equal, it names the first
// item in which they differ.
func abbrevPair(a, b string) (string, string) {
	sa, sb := abbrev(a), abbrev(b)
	if sa != sb {
		return sa, sb
	}
	ia, ib := strings.Split(a, ","), strings.Split(b, ",")
	for i := range min(len(ia), len(ib)) {
		if ia[i] != ib[i] {
			return fmt.Sprintf("%s (item %d: %s)", sa, i+1, ia[i]), fmt.Sprintf("%s (item %d: %s)", sb, i+1, ib[i])
		}
	}
	return a, b
}

func joinInts(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, ",")
}
