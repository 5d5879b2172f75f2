package skampi

import (
	_ "embed"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// DefaultSuites is the suite file of the standard run (default.yaml).
//
//go:embed default.yaml
var DefaultSuites []byte

// DefaultSuitesName names DefaultSuites in messages and configuration.
const DefaultSuitesName = "default"

// A Given is a field's value as text and where it was given: file:line,
// or the flag that gave it.
type Given struct{ Value, At string }

// Layers are the values of a suite's fields besides its own entry in the
// file.
type Layers struct {
	Procs int              // the job's processes, N in counts
	Base  map[string]Given // for fields neither the entry nor the file's defaults give (flag defaults)
	Over  map[string]Given // replace every other value where they apply (flags set on the command line)
	Short bool             // -test.short: shorten every suite (Shorten)
}

// Shortened values of -test.short.
const (
	ShortTo     = 4 << 10 // longest message
	ShortStep   = 8       // least factor between lengths
	ShortMax    = 100     // most repetitions
	ShortBudget = 0.05    // seconds per point
)

// ParseSuites reads a suite file (YAML: a mapping with an optional
// defaults: mapping of fields and a suites: list of suites, each a
// mapping of fields with a name). Every error is "file:line: what is
// wrong" (or names the flag that gave the value). An operation that a
// pattern in ops brings in is left out of a suite that cannot vary it,
// (named on its own, that is an error), and out of every suite when the
// job has too few processes for it (named in the notes): a file plans
// runs of any size.
func ParseSuites(file string, data []byte, l Layers) ([]*Setup, []string, error) {
	if err := checkOver(l); err != nil {
		return nil, nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, yamlError(file, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil, fmt.Errorf("%s: empty: want a list of suites under suites:", file)
	}
	defaults, list, named, err := readTop(file, doc.Content[0])
	if err != nil {
		return nil, nil, err
	}
	var out []*Setup
	var notes []string
	seen := map[string]string{}
	for _, e := range list.Content {
		entry, err := readFields(file, e, true, named)
		if err != nil {
			return nil, nil, err
		}
		s, note, err := resolve(entry, defaults, l, at(file, e))
		if err != nil {
			return nil, nil, err
		}
		if prev, ok := seen[s.Name]; ok {
			return nil, nil, fmt.Errorf("%s: suite %s again (first at %s)", entry["name"].At, s.Name, prev)
		}
		seen[s.Name] = entry["name"].At
		notes = append(notes, note...)
		if len(s.Ops) > 0 {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("%s: no suite left to measure on %d process%s", at(file, list), l.Procs, plural(l.Procs))
	}
	return out, notes, nil
}

// checkOver checks every value of the command line, also those no suite
// of the file uses.
func checkOver(l Layers) error {
	for _, name := range slices.Sorted(maps.Keys(l.Over)) {
		g := l.Over[name]
		if f := findField(name); f != nil {
			if err := f.set(&Setup{}, g.Value, l.Procs); err != nil {
				return fmt.Errorf("%s: %s: %v", g.At, name, err)
			}
		}
	}
	return nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns the YAML library's error into file:line: message.
func yamlError(file string, err error) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		return fmt.Errorf("%s:%s: %s", file, m[1], m[2])
	}
	return fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
}

func at(file string, n *yaml.Node) string { return fmt.Sprintf("%s:%d", file, n.Line) }

// readTop reads the top mapping: defaults: and types: (optional) and
// suites:.
func readTop(file string, root *yaml.Node) (map[string]Given, *yaml.Node, map[string]*Type, error) {
	if root.Kind != yaml.MappingNode {
		return nil, nil, nil, fmt.Errorf("%s: want a mapping with suites: (and defaults:, types:)", at(file, root))
	}
	var defaults map[string]Given
	var list *yaml.Node
	named := map[string]*Type{}
	nodes := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if !slices.Contains([]string{"defaults", "types", "suites"}, k.Value) {
			return nil, nil, nil, fmt.Errorf("%s: unknown key %q: want defaults, types or suites", at(file, k), k.Value)
		}
		nodes[k.Value] = v
	}
	var err error
	if v := nodes["types"]; v != nil { // first: the defaults may name types
		err = readTypes(file, v, named)
	}
	if v := nodes["defaults"]; v != nil && err == nil {
		defaults, err = readFields(file, v, false, named)
	}
	if v := nodes["suites"]; v != nil && err == nil {
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			err = fmt.Errorf("%s: suites: want a list of suites (- name: …)", at(file, v))
		}
		list = v
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if list == nil {
		return nil, nil, nil, fmt.Errorf("%s: no suites: list", at(file, root))
	}
	return defaults, list, named, nil
}

// readTypes reads the named types: a mapping of names to descriptions,
// each of which may use the names before it.
func readTypes(file string, n *yaml.Node, named map[string]*Type) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("%s: types: want a mapping of names to type descriptions", at(file, n))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if err := checkName(k.Value); err != nil {
			return fmt.Errorf("%s: type name %v", at(file, k), err)
		}
		if _, err := ParseType(k.Value, nil); err == nil || slices.Contains(ctorNames[:], k.Value) || k.Value == TypeBytes || k.Value == TypeSame {
			return fmt.Errorf("%s: type name %q is a word of the type language", at(file, k), k.Value)
		}
		if _, ok := named[k.Value]; ok {
			return fmt.Errorf("%s: type %s again", at(file, k), k.Value)
		}
		if v.Kind != yaml.ScalarNode {
			return fmt.Errorf("%s: type %s: want a description such as vector(4,1,8,double)", at(file, v), k.Value)
		}
		t, err := ParseType(v.Value, named)
		if err != nil {
			return fmt.Errorf("%s: %v", at(file, v), err)
		}
		named[k.Value] = t
	}
	return nil
}

// readFields reads a mapping of fields (a suite when entry, the defaults
// otherwise): known names, each once, scalar values or lists of scalars
// (joined by commas); a type field's named types are written out.
func readFields(file string, n *yaml.Node, entry bool, named map[string]*Type) (map[string]Given, error) {
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a mapping of fields (%s)", at(file, n), strings.Join(SuiteFieldNames(), ", "))
	}
	out := map[string]Given{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if findField(k.Value) == nil && (k.Value != "name" || !entry) {
			return nil, fmt.Errorf("%s: unknown field %q: want one of %s", at(file, k), k.Value, strings.Join(fieldChoices(entry), ", "))
		}
		if prev, ok := out[k.Value]; ok {
			return nil, fmt.Errorf("%s: %s again (first at %s)", at(file, k), k.Value, prev.At)
		}
		val, err := scalarText(file, k.Value, v)
		if err == nil && (k.Value == "send-type" || k.Value == "recv-type") {
			val, err = typeText(file, v, val, named)
		}
		if err != nil {
			return nil, err
		}
		out[k.Value] = Given{val, at(file, k)}
	}
	if _, ok := out["name"]; entry && !ok {
		return nil, fmt.Errorf("%s: a suite without a name", at(file, n))
	}
	return out, nil
}

// typeText is a type field's description with its named types written
// out (bytes and same stay).
func typeText(file string, v *yaml.Node, val string, named map[string]*Type) (string, error) {
	if val == TypeBytes || val == TypeSame {
		return val, nil
	}
	t, err := ParseType(val, named)
	if err != nil {
		return "", fmt.Errorf("%s: %v", at(file, v), err)
	}
	return t.String(), nil
}

func fieldChoices(entry bool) []string {
	if entry {
		return SuiteFieldNames()
	}
	return SuiteFieldNames()[1:]
}

// scalarText is a field's value as text: a scalar, or a list of scalars
// joined by commas.
func scalarText(file, field string, v *yaml.Node) (string, error) {
	switch v.Kind {
	case yaml.ScalarNode:
		return v.Value, nil
	case yaml.SequenceNode:
		var parts []string
		for _, c := range v.Content {
			if c.Kind != yaml.ScalarNode {
				return "", fmt.Errorf("%s: %s: want a list of plain values", at(file, c), field)
			}
			parts = append(parts, c.Value)
		}
		return strings.Join(parts, ","), nil
	}
	return "", fmt.Errorf("%s: %s: want a value or a list of values", at(file, v), field)
}

// resolve makes a suite of an entry: each field from the command line,
// the entry, the file's defaults or the base, in that order; then the
// checks across fields, the operations the suite can measure, and
// -test.short.
func resolve(entry, defaults map[string]Given, l Layers, where string) (*Setup, []string, error) {
	name := entry["name"]
	if err := checkName(name.Value); err != nil {
		return nil, nil, fmt.Errorf("%s: name: %v", name.At, err)
	}
	s := &Setup{Name: name.Value}
	given := map[string]Given{}
	set := func(f *suiteField, g Given) error {
		if err := f.set(s, g.Value, l.Procs); err != nil {
			return fmt.Errorf("%s: %s: %v", g.At, f.name, err)
		}
		given[f.name] = g
		return nil
	}
	ops, ok := pick("ops", entry, defaults, l)
	if !ok {
		return nil, nil, fmt.Errorf("%s: suite %s: no ops (operations, patterns or all)", where, s.Name)
	}
	if err := set(findField("ops"), ops); err != nil {
		return nil, nil, err
	}
	s.Vary = defaultVary(s.Ops)
	for _, f := range suiteFields[1:] {
		lay := l
		if !appliesTo(f.name, s.Vary) {
			lay.Over = nil
		}
		if g, ok := pick(f.name, entry, defaults, lay); ok {
			if err := set(&f, g); err != nil {
				return nil, nil, err
			}
		} else if f.usual != "" {
			f.set(s, f.usual, l.Procs) // a usual value is valid
		}
	}
	if l.Short {
		s.shorten(given, l.Over)
	}
	if err := checkSuite(s, given); err != nil {
		return nil, nil, err
	}
	notes, err := s.keepOps(given["ops"], l.Procs)
	return s, notes, err
}

// appliesTo says whether a flag for field replaces it in a suite that
// varies v: the fields of the range and refinement only where the length
// varies, the fixed length only where it does not, the counts only where
// they vary.
func appliesTo(field string, v Vary) bool {
	switch field {
	case "lengths", "step", "refine", "points", "time":
		return v == VaryLength
	case "length":
		return v != VaryLength
	case "procs", "procs-step":
		return v == VaryProcs
	case "chunks":
		return v == VaryChunks
	}
	return true
}

// pick returns a field's value from the first layer that gives it.
func pick(field string, entry, defaults map[string]Given, l Layers) (Given, bool) {
	for _, m := range []map[string]Given{l.Over, entry, defaults, l.Base} {
		if g, ok := m[field]; ok {
			return g, true
		}
	}
	return Given{}, false
}

// defaultVary is none for local operations, the length otherwise.
func defaultVary(ops []int) Vary {
	for _, i := range ops {
		if Ops[i].Pattern != Simple {
			return VaryLength
		}
	}
	return 0
}

// checkSuite checks the fields against each other.
func checkSuite(s *Setup, given map[string]Given) error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("%s: %s: %s", given[field].At, field, fmt.Sprintf(format, args...))
	}
	switch {
	case s.Lengths.From > s.Lengths.To:
		return bad("lengths", "the start %d is above the end %d", s.Lengths.From, s.Lengths.To)
	case s.Rule.Min > s.Rule.Max:
		return bad("min-reps", "%d is above max-reps %d (%s)", s.Rule.Min, s.Rule.Max, given["max-reps"].At)
	case s.Vary != VaryProcs && len(s.Procs) != 1:
		return bad("procs", "a list of counts needs vary: procs (suite %s varies %s)", s.Name, s.Vary)
	case s.Vary != VaryChunks && len(s.Chunks) != 1:
		return bad("chunks", "a list of counts needs vary: chunks (suite %s varies %s)", s.Name, s.Vary)
	case s.Refine && s.Vary != VaryLength:
		return bad("refine", "refinement is over the message length; suite %s varies %s", s.Name, s.Vary)
	}
	return s.checkTypes(given)
}

// keepOps keeps the operations the suite can measure on n processes.
// One the suite cannot vary is an error when named on its own and left
// out when a pattern or all brought it in; one that needs more
// processes is left out and noted.
func (s *Setup) keepOps(ops Given, n int) ([]string, error) {
	named := map[string]bool{}
	for _, w := range strings.Split(ops.Value, ",") {
		named[strings.TrimSpace(w)] = true
	}
	var keep []int
	var notes []string
	for _, i := range s.Ops {
		o := Ops[i]
		why := ""
		switch {
		case s.Vary != 0 && o.Vary&s.Vary == 0:
			why = fmt.Sprintf("%s has no %s to vary", o.Name, s.Vary)
		case s.Typed() && !o.Typed:
			why = fmt.Sprintf("%s takes no datatype (suite %s has send-type %s)", o.Name, s.Name, s.SendType)
		case !s.Typed() && o.Name == "type-create":
			why = fmt.Sprintf("%s needs a send-type (suite %s moves bytes)", o.Name, s.Name)
		case o.MinProcs() > n:
			why = fmt.Sprintf("%s is a %s operation and needs %d processes; the job has %d", o.Name, o.Pattern, o.MinProcs(), n)
		}
		switch {
		case why == "":
			keep = append(keep, i)
		case o.MinProcs() > n:
			notes = append(notes, fmt.Sprintf("suite %s: %s", s.Name, why))
		case named[o.Name]:
			return nil, fmt.Errorf("%s: ops: %s", ops.At, why)
		}
	}
	s.Ops = keep
	return notes, nil
}

// shorten applies -test.short to the fields the command line did not
// give: lengths up to ShortTo at a step of at least ShortStep, at most
// ShortMax repetitions (fewer at least when the file asks for more) and
// ShortBudget per point. What it changes is given by -test.short.
func (s *Setup) shorten(given, over map[string]Given) {
	short := func(field string, changed bool) {
		if changed {
			given[field] = Given{Value: findField(field).get(s), At: "-test.short"}
		}
	}
	cut := func(field string) bool { _, ok := over[field]; return !ok }
	if cut("lengths") && s.Lengths.To > ShortTo {
		s.Lengths.To, s.Lengths.From = ShortTo, min(s.Lengths.From, ShortTo)
		short("lengths", true)
	}
	if cut("step") {
		short("step", s.Lengths.Step < ShortStep)
		s.Lengths.Step = max(s.Lengths.Step, ShortStep)
	}
	if cut("max-reps") {
		short("max-reps", s.Rule.Max > ShortMax)
		s.Rule.Max = min(s.Rule.Max, ShortMax)
		if cut("min-reps") {
			short("min-reps", s.Rule.Min > s.Rule.Max)
			s.Rule.Min = min(s.Rule.Min, s.Rule.Max)
		}
	}
	if cut("budget") {
		short("budget", s.Rule.Budget > ShortBudget)
		s.Rule.Budget = min(s.Rule.Budget, ShortBudget)
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}
