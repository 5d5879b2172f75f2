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
	// Blocks are the distinct configurations the benchmark's lines were
	// written under, in the order they first occur: one for the output of
	// one job, more when outputs of several jobs were put together.
	Blocks []Block
}

// A Block is one configuration of a partial output and the line of its
// first result line of the benchmark.
type Block struct {
	Config map[string]string
	Line   int
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
	last := 0
	blocks := blockTracker{watch: configWatch{in: in, epoch: -1}, index: map[string]int{}}
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
			_, last = rec.Pos()
			if err := blocks.take(p, rec, last); err != nil {
				return nil, &InputError{fileName, last, err.Error()}
			}
			ms := savedMetrics(rec)
			for _, m := range ms {
				if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
					return nil, &InputError{fileName, last, fmt.Sprintf("%s: %v %s is not a finite number", name, m.Value, m.Unit)}
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

// blockTracker keeps each distinct configuration of a partial output's
// lines once (configWatch says when it may have changed).
type blockTracker struct {
	watch configWatch
	sig   string
	index map[string]int // signature → index in Blocks
}

func (b *blockTracker) take(p *PartialOutput, rec *benchfmt.Result, line int) error {
	sig, changed, err := b.watch.changed(rec)
	if err != nil || !changed || sig == b.sig && p.Config != nil {
		return err
	}
	b.sig = sig
	i, ok := b.index[sig]
	if !ok {
		i = len(p.Blocks)
		b.index[sig] = i
		p.Blocks = append(p.Blocks, Block{Config: fileConfig(rec, b.watch.in.Stale), Line: line})
	}
	p.Config = p.Blocks[i].Config
	return nil
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

// notMeasured are keys that describe a job without deciding what it
// measures: a resume need not share them (b_eff's keys share their
// prefix).
var notMeasured = map[string]bool{KeyVersion: true, KeyCommit: true, KeyGoVersion: true, KeyDate: true, KeyPartial: true, KeyMode: true}

// Counts returns how many lines the partial holds of each name.
func (p *PartialOutput) Counts() map[string]int {
	out := map[string]int{}
	for _, s := range p.Points {
		out[s.Name]++
	}
	return out
}

// Differs names, for the first configuration block that differs from
// want, every key of want and every key of the block with one of the
// prefixes (but not a <suite>-resumed line) where the two differ: "key:
// the file has …, this run …". With several blocks, the first line says
// where the block starts: every line of the file must be of this run's
// configuration.
func (p *PartialOutput) Differs(want map[string]string, prefixes ...string) []string {
	for _, b := range p.Blocks {
		if d := diffConfig(b.Config, want, prefixes); len(d) > 0 {
			if len(p.Blocks) > 1 {
				d = append([]string{fmt.Sprintf("the lines from line %d on (%d configurations in the file):", b.Line, len(p.Blocks))}, d...)
			}
			return d
		}
	}
	return nil
}

// diffConfig is Differs for one configuration.
func diffConfig(cfg, want map[string]string, prefixes []string) []string {
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range cfg {
		for _, pre := range prefixes {
			if strings.HasPrefix(k, pre) && !strings.HasSuffix(k, ResumedSuffix) && !notMeasured[k] {
				keys[k] = true
			}
		}
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		got, ok := cfg[k]
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
