package skampi

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/beff-suite/beff/internal/results"
)

// A Partial is the output of a run that stopped before its end (or any
// output of a run): its configuration and its points in file order.
type Partial struct {
	File   string
	Config map[string]string
	Points []Saved
}

// A Saved point is one line of a Partial: its name (without
// BenchmarkSkampi/), its curve (Curve.Key) and its metrics as written.
type Saved struct {
	Name    string
	Curve   string
	Metrics []Metric
}

// A Metric is a value and its unit as a line gives them.
type Metric struct {
	Unit  string
	Value float64
}

// ReadPartial reads the points of BenchmarkSkampi from r. A line that
// does not parse is an error, except the last one: a job killed while
// rank 0 wrote leaves half a line, and the curve of the last point is
// measured again anyway.
func ReadPartial(r io.Reader, file string) (*Partial, error) {
	p := &Partial{File: file, Config: map[string]string{}}
	br := benchfmt.NewReader(results.LimitLines(r, file), file)
	var pending error
	for br.Scan() {
		if pending != nil {
			return nil, pending
		}
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			pending = rec
		case *benchfmt.Result:
			if err := p.add(rec); err != nil {
				return nil, err
			}
		}
	}
	if err := br.Err(); err != nil {
		return nil, results.ReaderErr(err)
	}
	if len(p.Points) == 0 {
		return nil, fmt.Errorf("%s: no point of Benchmark%s to resume from", file, Bench)
	}
	return p, nil
}

func (p *Partial) add(rec *benchfmt.Result) error {
	full := string(rec.Name.Full())
	name, ok := strings.CutPrefix(full, Bench+"/")
	if !ok {
		return nil
	}
	for _, c := range rec.Config {
		p.Config[c.Key] = string(c.Value)
	}
	parts := strings.SplitN(name, "/", 3)
	if len(parts) < 2 || !strings.HasPrefix(parts[0], "suite=") || !strings.HasPrefix(parts[1], "op=") {
		_, line := rec.Pos()
		return fmt.Errorf("%s:%d: Benchmark%s: want suite=<name>/op=<operation>/…", p.File, line, full)
	}
	method := ""
	if len(parts) == 3 {
		if m, ok := strings.CutPrefix(parts[2], "method="); ok {
			method, _, _ = strings.Cut(m, "/")
		}
	}
	s := Saved{Name: name, Curve: CurveKey(strings.TrimPrefix(parts[0], "suite="), strings.TrimPrefix(parts[1], "op="), method)}
	for _, v := range rec.Values {
		m := Metric{v.Unit, v.Value}
		if v.OrigUnit != "" {
			m = Metric{v.OrigUnit, v.OrigValue}
		}
		s.Metrics = append(s.Metrics, m)
	}
	p.Points = append(p.Points, s)
	return nil
}

// Plan splits the run's curves (keys in run order) by the partial
// output: done holds the points of every curve the output finished; order
// is the curves to go through, in run order, with the curve that was
// running when the output stopped (that of its last point) moved to the
// end, so that a curve that crashed the job runs after all others.
func (p *Partial) Plan(keys []string) (done map[string][]Saved, order []string) {
	running := p.Points[len(p.Points)-1].Curve
	done = map[string][]Saved{}
	for _, s := range p.Points {
		if s.Curve != running {
			done[s.Curve] = append(done[s.Curve], s)
		}
	}
	last := false
	for _, k := range keys {
		if k == running {
			last = true
			continue
		}
		order = append(order, k)
	}
	if last {
		order = append(order, running)
	}
	for k := range done {
		if !slices.Contains(keys, k) {
			delete(done, k)
		}
	}
	return done, order
}

// Differs names every key of want, and every suite line of either side,
// where the partial output's configuration differs: "key: the file has
// …, this run …".
func (p *Partial) Differs(want map[string]string) []string {
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range p.Config {
		if strings.HasPrefix(k, KeySuite) {
			keys[k] = true
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
