package compare

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/machine"
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

// A ConfigRow is one line of the table of how the sides' configurations
// differ: what, and its value on each side.
type ConfigRow struct {
	What   string
	Values []string
}

// ConfigTable lists how the configurations of the sides differ: the
// machine (its hosts with their processes), the MPI library and, suite by
// suite, its runs where a side has none, and every setting (the drawn
// ones too) whose value is not the same on all sides that have the suite.
// A side with several values of one shows how many and the first ("3
// values: …"), one without the suite a dash. Nil when the sides agree.
func ConfigTable(sides []*Side) []ConfigRow {
	var rows []ConfigRow
	add := func(what string, values []string) {
		var have []string
		for _, v := range values {
			if v != "–" {
				have = append(have, v)
			}
		}
		if slices.ContainsFunc(have, func(v string) bool { return v != have[0] }) {
			rows = append(rows, ConfigRow{what, values})
		}
	}
	hosts := distinct(sides, func(r *results.Run) string { return r.FileConfig[results.KeyHosts] })
	add("machine", severalEach(hosts))
	libs := distinct(sides, func(r *results.Run) string { return r.FileConfig[results.KeyLibrary] })
	add("MPI library", severalEach(shortLibraries(libs)))
	for _, r := range MachineRows(sides) {
		add(r.What, r.Values)
	}
	for i, set := range sides[0].Sets {
		su := set.Suite
		runs := make([]string, len(sides))
		for j, s := range sides {
			runs[j] = strconv.Itoa(len(s.Sets[i].Runs))
		}
		if slices.Contains(runs, "0") && slices.ContainsFunc(runs, func(v string) bool { return v != "0" }) {
			rows = append(rows, ConfigRow{su.ID().Name + " runs", runs})
		}
		var keys []string
		for _, s := range sides {
			for _, st := range s.Sets[i].Settings {
				if !slices.Contains(keys, st.Key) {
					keys = append(keys, st.Key)
				}
			}
		}
		for _, k := range keys {
			add(su.ID().Name+" "+k, settingValues(sides, i, k))
		}
		if len(su.ID().Drawn) > 0 && differentDraws(sides, i) {
			rows = append(rows, ConfigRow{su.ID().Name + " " + strings.Join(su.ID().Drawn, ", "), drawValues(sides, i)})
		}
	}
	return rows
}

// MachineRows are the lines of machine.RecordLines (CPU, memory, network,
// kernel, operating system, kinds of node, the MPI's settings) with each
// side's value, a long one cut; of the MPI's settings each side shows
// those the others lack. Rows whose value all sides share are left out.
func MachineRows(sides []*Side) []ConfigRow {
	var rows []ConfigRow
	for _, l := range machine.RecordLines {
		vals := machineValues(sides, l.Key)
		if !slices.ContainsFunc(vals, func(v string) bool { return v != vals[0] }) {
			continue
		}
		if l.Key == machine.KeyMPIEnv {
			vals = ownSettings(vals)
		}
		for i, v := range vals {
			if len(v) > machineLen {
				vals[i] = strings.ToValidUTF8(v[:machineLen], "") + "…"
			}
		}
		rows = append(rows, ConfigRow{l.Label, vals})
	}
	return rows
}

// machineLen is the longest value of the machine's lines shown in full
// in the table.
const machineLen = 100

// machineValues are, per side, the values of the record's line key (one
// of machine.RecordLines): "not recorded" where a run lacks it (a file of
// an older beff).
func machineValues(sides []*Side, key string) []string {
	vals := distinct(sides, func(r *results.Run) string {
		if v := r.FileConfig[key]; v != "" {
			return v
		}
		return "not recorded"
	})
	out := make([]string, len(vals))
	for i, vs := range vals {
		switch len(vs) {
		case 0:
			out[i] = "–"
		case 1:
			out[i] = vs[0]
		default:
			out[i] = fmt.Sprintf("%d values: %s; …", len(vs), vs[0])
		}
	}
	return out
}

// ownSettings shows of each side's mpi-env value (settings separated by
// spaces) only the settings no other side has, where every side has one
// value: what one side set and the others did not.
func ownSettings(vals []string) []string {
	sets := make([][]string, len(vals))
	for i, v := range vals {
		if strings.Contains(v, "values: ") || v == "–" || v == "not recorded" {
			return vals
		}
		sets[i] = strings.Fields(v)
	}
	out := make([]string, len(vals))
	for i := range vals {
		var own []string
		for _, f := range sets[i] {
			shared := true
			for j := range sets {
				if j != i && !slices.Contains(sets[j], f) {
					shared = false
				}
			}
			if !shared {
				own = append(own, f)
			}
		}
		out[i] = strings.Join(own, " ")
		if len(own) == 0 {
			out[i] = "(none of its own)"
		} else if len(own) < len(sets[i]) {
			out[i] += fmt.Sprintf(" (and %d shared)", len(sets[i])-len(own))
		}
	}
	return out
}

// distinct are, per side, the distinct values of what its runs say (of
// every suite), in order.
func distinct(sides []*Side, of func(r *results.Run) string) [][]string {
	out := make([][]string, len(sides))
	for i, s := range sides {
		for _, r := range s.runs() {
			if v := of(r); !slices.Contains(out[i], v) {
				out[i] = append(out[i], v)
			}
		}
	}
	return out
}

// severalEach describes the values of each side (several).
func severalEach(values [][]string) []string {
	out := make([]string, len(values))
	for i, vs := range values {
		out[i] = several(vs)
	}
	return out
}

// settingValues are, per side, the value of the setting key of suite i.
func settingValues(sides []*Side, i int, key string) []string {
	out := make([]string, len(sides))
	for j, s := range sides {
		set := s.Sets[i]
		out[j] = "–"
		if len(set.Runs) == 0 {
			continue
		}
		out[j] = "none" // the suite's runs lack the setting
		for _, st := range set.Settings {
			if st.Key == key {
				out[j] = abbrev(st.Value)
			}
		}
	}
	return out
}

// differentDraws reports whether the sides that have runs of suite i
// drew differently: not the same draws on all of them.
func differentDraws(sides []*Side, i int) bool {
	first, seen := "", false
	for _, s := range sides {
		if len(s.Sets[i].Runs) == 0 {
			continue
		}
		ds := strings.Join(sorted(s.Sets[i].Draws), "|")
		if seen && ds != first {
			return true
		}
		first, seen = ds, true
	}
	return false
}

// drawValues are, per side, the draw of the runs of suite i, or how many
// draws they are.
func drawValues(sides []*Side, i int) []string {
	out := make([]string, len(sides))
	for j, s := range sides {
		if len(s.Sets[i].Runs) == 0 {
			out[j] = "–"
			continue
		}
		switch ds := s.Sets[i].Draws; len(ds) {
		case 1:
			out[j] = abbrev(drawValue(ds[0]))
		default:
			out[j] = strconv.Itoa(len(ds)) + " draws"
		}
	}
	return out
}

// drawValue is a draw without its keys: "42" of "beff-seed 42".
func drawValue(d string) string {
	parts := strings.Split(d, ", ")
	for i, p := range parts {
		if _, v, ok := strings.Cut(p, " "); ok {
			parts[i] = v
		}
	}
	return strings.Join(parts, ", ")
}

// several describes values: the one, or "N values: a, b, …" (the first
// three), or "–" for none.
func several(vs []string) string {
	switch len(vs) {
	case 0:
		return "–"
	case 1:
		return abbrev(vs[0])
	}
	shown := make([]string, 0, 3)
	for _, v := range vs[:min(3, len(vs))] {
		shown = append(shown, abbrev(v))
	}
	more := ""
	if len(vs) > 3 {
		more = ", …"
	}
	return fmt.Sprintf("%d values: %s%s", len(vs), strings.Join(shown, "; "), more)
}

// shortLibraries shows MPI libraries by the part of their line before the
// first comma ("Open MPI v4.1.4") where that tells them apart.
func shortLibraries(values [][]string) [][]string {
	short := map[string]string{}
	full := map[string]string{}
	for _, vs := range values {
		for _, v := range vs {
			sh, _, _ := strings.Cut(v, ",")
			if f, ok := full[sh]; ok && f != v {
				return values // two libraries of one name: in full
			}
			short[v], full[sh] = sh, v
		}
	}
	out := make([][]string, len(values))
	for i, vs := range values {
		for _, v := range vs {
			out[i] = append(out[i], short[v])
		}
	}
	return out
}
