package compare

import (
	"fmt"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// diffSettings lists the settings in which a and b differ, as
// "key: <a> vs <b>" with long values abbreviated. Both lists come from the
// same function, so their keys are in the same order.
func diffSettings(a, b []results.Setting) []string {
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
func describe(s []results.Setting) string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = x.Key + " " + abbrev(x.Value)
	}
	return strings.Join(parts, ", ")
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
