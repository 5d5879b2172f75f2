package resultstest

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/beff-suite/beff/internal/results"
)

// A DecodedRun is a run of a JSON document: its common part, decoded
// strictly, and the suite's details, raw.
type DecodedRun struct {
	results.JSONRun
	Detail json.RawMessage
}

// DecodeRuns decodes the document data (WriteJSON) strictly: per
// file its runs, each with the details under key. A field the types do not
// have fails the test.
func DecodeRuns(t *testing.T, data []byte, key string) [][]DecodedRun {
	t.Helper()
	var doc struct {
		Schema string `json:"schema"`
		Files  []struct {
			Name string                       `json:"name"`
			Runs []map[string]json.RawMessage `json:"runs"`
		} `json:"files"`
	}
	Strict(t, data, &doc)
	if doc.Schema != results.JSONSchema {
		t.Fatalf("schema %q", doc.Schema)
	}
	var out [][]DecodedRun
	for _, f := range doc.Files {
		var runs []DecodedRun
		for _, r := range f.Runs {
			d := DecodedRun{Detail: r[key]}
			delete(r, key)
			common, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			Strict(t, common, &d.JSONRun)
			runs = append(runs, d)
		}
		out = append(out, runs)
	}
	return out
}

// Strict decodes data into v, refusing fields v does not have.
func Strict(t *testing.T, data []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
}

// CheckCommon checks the common part of a JSON run against the folded run.
func CheckCommon(t *testing.T, d DecodedRun, p results.Folded) {
	t.Helper()
	r, v := p.Source(), p.Verdict()
	check := func(ok bool, what string, got, want any) {
		t.Helper()
		if !ok {
			t.Errorf("%s: got %v, want %v", what, got, want)
		}
	}
	check(d.Benchmark == r.Suite.ID().Name, "benchmark", d.Benchmark, r.Suite.ID().Name)
	check(d.Index == r.Index, "index", d.Index, r.Index)
	check(d.Line == r.Line, "line", d.Line, r.Line)
	check(d.Valid == v.Valid(), "valid", d.Valid, v.Valid())
	check(len(d.Reasons) == len(v.Reasons), "reasons", d.Reasons, v.Reasons)
	check(len(d.Notes) == len(v.Notes), "notes", d.Notes, v.Notes)
	check(len(d.Config) == len(r.FileConfig), "config", d.Config, r.FileConfig)
	for k, val := range r.FileConfig {
		check(d.Config[k] == val, "config "+k, d.Config[k], val)
	}
	figs := p.Figures()
	check(len(d.Figures) == len(figs), "figures", d.Figures, figs)
	for i := range min(len(figs), len(d.Figures)) {
		f, j := figs[i], d.Figures[i]
		check(f.Name == j.Name && f.Label == j.Label && f.Unit == j.Unit && f.Value == float64(j.Value), "figure", j, f)
	}
	check(len(d.Experiments) == len(r.Lines), "experiments", len(d.Experiments), len(r.Lines))
	for i := range min(len(r.Lines), len(d.Experiments)) {
		l, e := r.Lines[i], d.Experiments[i]
		check(l.Name == e.Name && l.Line == e.Line && len(l.Metrics) == len(e.Metrics), "experiment", e, l)
	}
}

// WriteJSON writes the JSON document of files and merged runs whole, with
// json.Encoder as fold -json's document is defined (two spaces of indent,
// a final newline, < and & not escaped): the reference that
// results.WriteJSONFolded, which streams it run by run, is held against,
// and what the suites' JSON tests read back.
func WriteJSON(w io.Writer, files []results.JSONFile, merged []results.Folded) error {
	if files == nil {
		files = []results.JSONFile{}
	}
	doc := results.JSONDoc{Schema: results.JSONSchema, Files: files}
	for _, p := range merged {
		doc.Merged = append(doc.Merged, results.NewJSONRun(p))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
