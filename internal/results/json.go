package results

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
)

// The types of this file are the JSON document that `beff fold -json`
// writes (schema beff-fold/1); docs/fold-json.md describes the same fields
// with an example. NewJSONFile fills them from folded runs,
// WriteJSONFolded (jsonstream.go) writes them. Each suite adds its details to its runs under its JSONKey.
//
// Field names are snake_case and carry their unit where it is not in the
// value's own unit field: _mbps MB/s (1e6 bytes per second), _mb MB (1e6
// bytes), _us microseconds, _s seconds, _ms milliseconds, _bytes bytes,
// _gflops GFlop/s. Metric keys of experiments are the units exactly as the
// benchmark printed them ("MB/s", "ns/op", "looplen", …). Object keys come
// out in a fixed order: struct fields in declaration order, map keys
// sorted.

// JSONSchema is the value of JSONDoc.Schema. It changes when a field
// changes its meaning or goes away; fields may be added without a change.
const JSONSchema = "beff-fold/1"

// A Float is a JSON number with one rule for values JSON cannot carry: NaN,
// +Inf and -Inf are written as null. A null therefore always means "no
// value": either the fold has none (each field says when) or it is not a
// finite number. Reading null gives NaN.
type Float float64

// MarshalJSON writes f as encoding/json writes a float64, or null when f
// is not finite.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads a number, or null as NaN.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = Float(v)
	return nil
}

// OrNull is v, or NaN (null) for the zero that means "not given".
func OrNull(v float64) Float {
	if v == 0 {
		return Float(math.NaN())
	}
	return Float(v)
}

// A JSONDoc is the whole document: the schema name and one entry per input
// file, in command-line order.
type JSONDoc struct {
	Schema string     `json:"schema"` // JSONSchema, "beff-fold/1"
	Files  []JSONFile `json:"files"`
	// Merged are the runs of the suites that merge runs (Merger), one
	// per group of runs of one configuration; absent when none.
	Merged []JSONRun `json:"merged,omitempty"`
}

// A JSONFile is one input file: its name as given on the command line and
// its runs, grouped by suite in the order of the suites, each suite's in
// the order they start in the file.
type JSONFile struct {
	Name string    `json:"name"`
	Runs []JSONRun `json:"runs"`
}

// A JSONRun is the folded result of one run of a suite's benchmark. Its
// object ends with the suite's details under the suite's JSON key (Key and
// Detail), which MarshalJSON writes.
type JSONRun struct {
	// Benchmark is the suite's name: "b_eff", "b_eff_io".
	Benchmark string `json:"benchmark"`
	// Index is the 1-based number of the run among the runs of the same
	// suite in the file (as in the text protocol's "Run 2 of …").
	Index int `json:"index"`
	// Line is the line of the run's first measurement in the file.
	Line int `json:"line"`
	// Config holds every file configuration line in effect for the run's
	// measurements, key → value as written. Command-line overrides
	// (-rmax) are not in it.
	Config map[string]string `json:"config"`
	// Valid reports whether the result is valid for comparing systems;
	// Reasons says why not (empty when valid), as the NOT VALID line.
	Valid   bool     `json:"valid"`
	Reasons []string `json:"reasons"`
	// Notes are the notes of the text protocol, in its order.
	Notes []string `json:"notes"`
	// Figures are the folded figures, the same and in the same order as
	// the Benchmark<FoldBench>/fig=<name> lines that fold appends.
	Figures []JSONFigure `json:"figures"`
	// Experiments are the benchmark lines of the run in file order.
	Experiments []JSONExperiment `json:"experiments"`
	// Key and Detail are the suite's details: "beff", "beff_io".
	Key    string `json:"-"`
	Detail any    `json:"-"`
}

// jsonRun is JSONRun without its methods, for MarshalJSON.
type jsonRun JSONRun

// MarshalJSON writes the run's fields in order, then "<Key>": Detail.
func (r JSONRun) MarshalJSON() ([]byte, error) {
	head, err := marshal(jsonRun(r))
	if err != nil || r.Key == "" || r.Detail == nil {
		return head, err
	}
	key, err := marshal(r.Key)
	if err != nil {
		return nil, err
	}
	detail, err := marshal(r.Detail)
	if err != nil {
		return nil, err
	}
	out := append(head[:len(head)-1], ',') // drop the closing brace
	out = append(append(append(out, key...), ':'), detail...)
	return append(out, '}'), nil
}

// marshal is json.Marshal without HTML escaping and the final newline of
// an Encoder.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// A JSONFigure is one folded figure.
type JSONFigure struct {
	Name  string `json:"name"`  // as in Benchmark<FoldBench>/fig=<name>, e.g. "beff", "partition/n=2"
	Label string `json:"label"` // what it is, for people
	Value Float  `json:"value"`
	Unit  string `json:"unit"` // MB/s, us, B/F or min
}

// A JSONExperiment is one benchmark line of a run.
type JSONExperiment struct {
	// Name is the sub-benchmark name without "Benchmark<Bench>/" and
	// without a -GOMAXPROCS suffix.
	Name string `json:"name"`
	// Line is the line in the file.
	Line int `json:"line"`
	// Metrics holds every metric of the line: unit as printed → value as
	// printed.
	Metrics map[string]Float `json:"metrics"`
}

// NewJSONFile returns the entry of the file name with the folded runs, in
// the order given.
func NewJSONFile(name string, folded []Folded) JSONFile {
	f := JSONFile{Name: name, Runs: []JSONRun{}}
	for _, p := range folded {
		f.Runs = append(f.Runs, NewJSONRun(p))
	}
	return f
}

// NewJSONRun returns p as a run of the JSON document.
func NewJSONRun(p Folded) JSONRun {
	r, v := p.Source(), p.Verdict()
	out := JSONRun{
		Benchmark:   r.Suite.ID().Name,
		Index:       r.Index,
		Line:        r.Line,
		Config:      jsonConfig(r.FileConfig),
		Valid:       v.Valid(),
		Reasons:     nonNil(v.Reasons),
		Notes:       nonNil(v.Notes),
		Figures:     []JSONFigure{},
		Experiments: make([]JSONExperiment, 0, len(r.Lines)),
		Key:         r.Suite.ID().JSONKey,
		Detail:      p.JSONDetail(),
	}
	for _, f := range p.Figures() {
		out.Figures = append(out.Figures, JSONFigure{f.Name, f.Label, Float(f.Value), f.Unit})
	}
	for _, l := range r.Lines {
		m := make(map[string]Float, len(l.Metrics))
		for k, v := range l.Metrics {
			m[k] = Float(v)
		}
		out.Experiments = append(out.Experiments, JSONExperiment{l.Name, l.Line, m})
	}
	return out
}

// jsonConfig copies c, so that the document does not share the run's map;
// nil becomes empty.
func jsonConfig(c Config) map[string]string {
	out := maps.Clone(map[string]string(c))
	if out == nil {
		out = map[string]string{}
	}
	return out
}

// nonNil returns s, or an empty slice for nil, so that JSON has [] and not
// null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
