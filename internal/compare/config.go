package compare

import (
	"fmt"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// diffSettings lists the settings in which a and b differ, as
// "key: <a> vs <b>" with long values abbreviated, in a's order, then the
// keys only b has; a key one side lacks shows as "none".
func diffSettings(a, b []results.Setting) []string {
	bv := map[string]string{}
	for _, s := range b {
		bv[s.Key] = s.Value
	}
	var d []string
	seen := map[string]bool{}
	for _, s := range a {
		seen[s.Key] = true
		if v, ok := bv[s.Key]; !ok || v != s.Value {
			d = append(d, diffLine(s.Key, s.Value, orNone(v, ok)))
		}
	}
	for _, s := range b {
		if !seen[s.Key] {
			d = append(d, diffLine(s.Key, "none", s.Value))
		}
	}
	return d
}

func diffLine(key, a, b string) string {
	va, vb := abbrevPair(a, b)
	return fmt.Sprintf("%s: %s vs %s", key, va, vb)
}

func orNone(v string, ok bool) string {
	if !ok {
		return "none"
	}
	return v
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
// "<n> values <first>…<last>", and a long list of space-separated
// fields to its first field.
func abbrev(v string) string {
	if len(v) <= abbrevLen {
		return v
	}
	if f := strings.Fields(v); len(f) > 1 {
		return abbrev(f[0]) + " …" // field=value list: its first field
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
	if fa, fb := strings.Fields(a), strings.Fields(b); len(fa) > 1 && len(fa) == len(fb) {
		return differingFields(fa, fb)
	}
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

// differingFields shows of two values made of space-separated fields
// (field=value) only the fields that differ.
func differingFields(fa, fb []string) (string, string) {
	var da, db []string
	for i := range fa {
		if fa[i] != fb[i] {
			x, y := abbrevPair(fa[i], fb[i])
			da, db = append(da, x), append(db, y)
		}
	}
	return strings.Join(da, " "), strings.Join(db, " ")
}
