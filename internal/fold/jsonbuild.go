package fold

import (
	"encoding/json"
	"io"
	"maps"
	"math"

	"github.com/beff-suite/beff/suites/beffio"
)

// WriteJSON writes the document {"schema": JSONSchema, "files": files} to
// w, indented by two spaces, with a final newline. Characters such as <
// and & are written as they are, not escaped for HTML.
func WriteJSON(w io.Writer, files []JSONFile) error {
	if files == nil {
		files = []JSONFile{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(JSONDoc{Schema: JSONSchema, Files: files})
}

// NewJSONFile returns the entry of the file name: the runs of the b_eff
// protocols ps, then those of the b_eff_io protocols ios.
func NewJSONFile(name string, ps []*Protocol, ios []*IOProtocol) JSONFile {
	f := JSONFile{Name: name, Runs: []JSONRun{}}
	for _, p := range ps {
		f.Runs = append(f.Runs, p.JSONRun())
	}
	for _, p := range ios {
		f.Runs = append(f.Runs, p.JSONRun())
	}
	return f
}

// JSONRun returns p as a run of the JSON document.
func (p *Protocol) JSONRun() JSONRun {
	r := p.Run
	out := JSONRun{
		Benchmark:   "b_eff",
		Index:       r.Index,
		Line:        r.Line,
		Config:      jsonConfig(r.FileConfig),
		Valid:       p.Valid(),
		Reasons:     strings0(p.Reasons),
		Notes:       strings0(p.Notes),
		Figures:     jsonFigures(p.Figures()),
		Experiments: make([]JSONExperiment, 0, len(r.Measurements)),
		Beff: &JSONBeff{
			RmaxGflops: orNull(p.Rmax),
			TotalTimeS: Float(p.TotalTime.Seconds()),
			Shortcut:   p.Shortcut,
			Patterns:   make([]JSONPattern, 0, len(p.Patterns)),
		},
	}
	for _, m := range r.Measurements {
		out.Experiments = append(out.Experiments, JSONExperiment{m.Key.String(), m.Line, jsonMetrics(m.Metrics)})
	}
	for _, t := range p.Patterns {
		jp := JSONPattern{
			Name:         t.Name,
			Kind:         t.Kind.String(),
			Participants: t.Participants,
			Messages:     t.Messages,
			Methods:      make([]string, len(t.Methods)),
			AvgMBps:      Float(t.Avg),
			LatencyUs:    orNull(t.Latency),
			Rows:         make([]JSONPatternRow, 0, len(t.Rows)),
		}
		for i, m := range t.Methods {
			jp.Methods[i] = m.String()
		}
		for _, row := range t.Rows {
			jr := JSONPatternRow{SizeBytes: row.L, MBps: map[string]Float{},
				BestMethod: row.Best.Method.String(), BestMBps: Float(row.Best.MBps)}
			for _, m := range row.Measured {
				jr.MBps[m.Method.String()] = Float(m.MBps)
			}
			jp.Rows = append(jp.Rows, jr)
		}
		out.Beff.Patterns = append(out.Beff.Patterns, jp)
	}
	return out
}

// JSONRun returns p as a run of the JSON document.
func (p *IOProtocol) JSONRun() JSONRun {
	r := p.Run
	cfg := &r.Config
	out := JSONRun{
		Benchmark:   "b_eff_io",
		Index:       r.Index,
		Line:        r.Line,
		Config:      jsonConfig(r.FileConfig),
		Valid:       p.Valid(),
		Reasons:     strings0(p.Reasons),
		Notes:       strings0(p.Notes),
		Figures:     jsonFigures(p.Figures()),
		Experiments: make([]JSONExperiment, 0, len(r.Measurements)),
	}
	for _, m := range r.Measurements {
		out.Experiments = append(out.Experiments, JSONExperiment{m.IOKey.String(), m.Line, jsonMetrics(m.Metrics)})
	}
	jio := &JSONBeffIO{
		BestN:             p.BestN,
		Release2N:         p.Release2N,
		Errors:            p.Errors,
		SharedLines:       p.SharedLines,
		SharedSubstituted: p.SharedSubstituted,
		Capped:            p.Capped,
		Decisions:         p.Decisions,
		StopMs:            Float(p.StopMs),
		TimeS:             Float(p.Time),
		Access:            make([]JSONIOAccess, 0, len(beffio.Accesses)),
		Partitions:        make([]JSONPartition, 0, len(p.Partitions)),
	}
	for _, a := range beffio.Accesses {
		ja := JSONIOAccess{Access: a.String(), ValueMBps: Float(p.Access[a]), DataMB: Float(p.Data[a]),
			DataPct: Float(math.NaN()), CacheRatio: Float(p.CacheRatio[a])}
		if cfg.TotalMemMiB > 0 {
			ja.DataPct = Float(p.DataPct[a])
		}
		if cfg.CacheMiB < 0 {
			ja.CacheRatio = Float(math.NaN()) // cache unknown; a cache of 0 gives +Inf
		}
		jio.Access = append(jio.Access, ja)
	}
	for _, part := range p.Partitions {
		jp := JSONPartition{
			N:            part.N,
			ValueMBps:    Float(part.Value),
			Release2MBps: Float(part.Release2),
			TimeS:        Float(part.Time),
			ScheduledS:   Float(part.Scheduled),
			Access:       make([]JSONPartitionAccess, 0, len(beffio.Accesses)),
		}
		for _, a := range beffio.Accesses {
			ja := JSONPartitionAccess{Access: a.String(), ValueMBps: Float(part.Access[a]),
				PhaseS: Float(part.Phase[a].Seconds), Types: []JSONTypeTotal{}}
			for _, t := range beffio.Types {
				if m := part.Totals[a][t]; m != nil {
					ja.Types = append(ja.Types, JSONTypeTotal{Type: t.String(), MBps: Float(m.MBps), MB: Float(m.MB), S: Float(m.Seconds)})
				}
			}
			jp.Access = append(jp.Access, ja)
		}
		jio.Partitions = append(jio.Partitions, jp)
	}
	out.BeffIO = jio
	return out
}

func jsonFigures(figs []Figure) []JSONFigure {
	out := make([]JSONFigure, len(figs))
	for i, f := range figs {
		out[i] = JSONFigure{f.Name, f.Label, Float(f.Value), f.Unit}
	}
	return out
}

func jsonMetrics(m map[string]float64) map[string]Float {
	out := make(map[string]Float, len(m))
	for k, v := range m {
		out[k] = Float(v)
	}
	return out
}

// jsonConfig copies c, so that the document does not share the run's map;
// nil becomes empty.
func jsonConfig(c map[string]string) map[string]string {
	out := maps.Clone(c)
	if out == nil {
		out = map[string]string{}
	}
	return out
}

// strings0 returns s, or an empty slice for nil, so that JSON has [] and
// not null.
func strings0(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// orNull is v, or NaN (null) for the zero that means "not given".
func orNull(v float64) Float {
	if v == 0 {
		return Float(math.NaN())
	}
	return Float(v)
}
