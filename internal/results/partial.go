package results

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// A PartialOutput is what the output of a job (finished or not) holds of one
// benchmark, as a resume reads it: the configuration in effect at its
// last line and its lines in file order.
type PartialOutput struct {
	File   string
	Config map[string]string
	Points []Saved
}

// A Saved line is one result line of a Partial: its name without
// "Benchmark<bench>/" and its metrics as written.
type Saved struct {
	Name    string
	Metrics []Metric
	Line    int // in the file
}

// Map returns the metrics by unit.
func (s Saved) Map() map[string]float64 {
	m := make(map[string]float64, len(s.Metrics))
	for _, x := range s.Metrics {
		m[x.Unit] = x.Value
	}
	return m
}

// A Metric is a value and its unit as a line gives them.
type Metric struct {
	Unit  string
	Value float64
}

// ReadPartial reads the lines of Benchmark<bench> from r (fileName
// names it in errors). A line that does not parse is an error, except the
// last one: a job killed while rank 0 wrote leaves half a line, which is
// dropped also when it parses (without its line end). The
// configuration is taken only when it may have changed, so that time and
// memory stay proportional to the input.
func ReadPartial(r io.Reader, fileName, bench string) (*PartialOutput, error) {
	p := &PartialOutput{File: fileName}
	in := LimitLines(r, fileName).(*lineLimit)
	br := benchfmt.NewReader(in, fileName)
	var pending error
	epoch, last := -1, 0
	for br.Scan() {
		if pending != nil {
			return nil, pending
		}
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			pending = rec
		case *benchfmt.Result:
			name, ok := strings.CutPrefix(string(rec.Name.Full()), bench+"/")
			if !ok {
				continue
			}
			if in.epoch != epoch {
				epoch, p.Config = in.epoch, fileConfig(rec)
			}
			ms := savedMetrics(rec)
			_, last = rec.Pos()
			for _, m := range ms {
				if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
					return nil, &Error{fileName, last, fmt.Sprintf("%s: %v %s is not a finite number", name, m.Value, m.Unit)}
				}
			}
			p.Points = append(p.Points, Saved{Name: name, Metrics: ms, Line: last})
		}
	}
	if err := br.Err(); err != nil {
		return nil, ReaderErr(err)
	}
	if in.cur > 0 && last == in.line && len(p.Points) > 0 { // cut short
		p.Points = p.Points[:len(p.Points)-1]
	}
	if len(p.Points) == 0 {
		return nil, fmt.Errorf("%s: %w", fileName, &NoLinesError{bench})
	}
	return p, nil
}

// A NoLinesError says that an output holds no line of the benchmark.
type NoLinesError struct{ Bench string }

func (e *NoLinesError) Error() string {
	return "no line of Benchmark" + e.Bench + " to resume from"
}

// savedMetrics are the metrics of rec in the units the benchmark wrote.
func savedMetrics(rec *benchfmt.Result) []Metric {
	out := make([]Metric, 0, len(rec.Values))
	for _, v := range rec.Values {
		m := Metric{v.Unit, v.Value}
		if v.OrigUnit != "" {
			m = Metric{v.OrigUnit, v.OrigValue}
		}
		out = append(out, m)
	}
	return out
}

// ResumedSuffix ends the configuration key that says what a run copied
// from an earlier job's output (skampi-resumed, beff-resumed, …).
const ResumedSuffix = "-resumed"

// jobKeys describe a job without deciding what it measures: a resume
// need not share them (b_eff's keys share their prefix).
var jobKeys = map[string]bool{KeyVersion: true, KeyCommit: true, KeyGoVersion: true, KeyDate: true, KeyPartial: true, KeyMode: true}

// Counts returns how many lines the partial holds of each name.
func (p *PartialOutput) Counts() map[string]int {
	out := map[string]int{}
	for _, s := range p.Points {
		out[s.Name]++
	}
	return out
}

// Differs names every key of want, and every key of the partial output's
// configuration with one of the prefixes (but not a <suite>-resumed
// line), where the two differ: "key: the file has …, this run …".
func (p *PartialOutput) Differs(want map[string]string, prefixes ...string) []string {
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range p.Config {
		for _, pre := range prefixes {
			if strings.HasPrefix(k, pre) && !strings.HasSuffix(k, ResumedSuffix) && !jobKeys[k] {
				keys[k] = true
			}
		}
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		got, ok := p.Config[k]
		w, inRun := want[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s: not in the file, this run %q", k, w))
		case !inRun:
			out = append(out, fmt.Sprintf("%s: the file has %q, not in this run", k, got))
		case got != w:
			out = append(out, fmt.Sprintf("%s: the file has %q, this run %q", k, got, w))
		}
	}
	return out
}
