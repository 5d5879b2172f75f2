// Package resultstest is a toy suite for the tests of the generic layers
// (results, compare, report): they must work with any suite, so they are
// tested with one that is none of beff's.
//
// The toy benchmark BenchmarkToy prints lines Toy/x=<k> with a metric
// MB/s, for k = 1 … toy-size (a configuration line). A run folds into one
// figure, "toy", the mean of its MB/s; it is NOT VALID when short. A run
// with toy-restricted: yes that misses lines is restricted. A run may
// draw something at random with its toy-seed (a drawn setting): its lines
// x=2 and up are then experiments of the draw, x=1 is not.
package resultstest

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// Suite is the toy suite.
type Suite struct{}

var _ results.Suite = Suite{}

// ID names the toy; its figure is in MB/s.
var ID = &results.Identity{Key: "toy", Name: "toy", Bench: "Toy", JSONKey: "toy", Doc: "internal/results/resultstest/toy.go",
	Units: []string{"MB/s better=higher"}, FoldUnits: []results.Unit{{Name: "MB/s", Better: "higher"}}, Drawn: []string{"toy-seed"}}

func (Suite) ID() *results.Identity { return ID }

// Config is the toy configuration.
type Config struct {
	results.Common
	Size       int
	Restricted bool
	Seed       string // toy-seed, "" without one
}

// reading is the toy's reading of its runs: a *Config and a float64 per
// line.
type reading = results.Reading[*Config, float64]

// ParseConfig reads mpi-procs, toy-size and beff-mode.
func (Suite) ParseConfig(c results.Config) (any, error) { return reading{}.Parsed(parseConfig(c)) }

func parseConfig(c results.Config) (*Config, error) {
	cfg := &Config{Restricted: c["toy-restricted"] == "yes", Seed: c["toy-seed"]}
	r := results.ConfigReader{Config: c, Suite: "toy"}
	if err := cfg.ReadProcs(r); err != nil {
		return nil, err
	}
	n, err := r.PosInt("toy-size")
	if err != nil {
		return nil, err
	}
	cfg.Size = int(n)
	if err := cfg.ReadMode(r); err != nil {
		return nil, err
	}
	cfg.ReadInfo(r)
	return cfg, nil
}

// ParseLine reads x=<k> and MB/s, or in its place a time per call in
// ns/call: a unit none of beff's suites has, for the tests of directions
// that only the files' Unit lines declare.
func (Suite) ParseLine(l *results.Line) (string, any, error) { return reading{}.Line(parseLine(l)) }

func parseLine(l *results.Line) (string, float64, error) {
	if len(l.Parts) != 1 || l.Parts[0].Key != "x" {
		return "", 0, fmt.Errorf("not a toy name (want x=<k>)")
	}
	k, err := strconv.Atoi(l.Parts[0].Value)
	if err != nil || k < 1 {
		return "", 0, fmt.Errorf("x=%s is not a positive number", l.Parts[0].Value)
	}
	name := "x=" + strconv.Itoa(k)
	v, ok := l.Metrics["MB/s"]
	if !ok {
		v, ok = l.Metrics[NsPerCall]
	}
	if !ok {
		return name, 0, fmt.Errorf("missing metric MB/s")
	}
	return name, v, nil
}

// Folded is a folded toy run.
type Folded struct {
	results.Validity
	Run  *results.Run
	Mean float64
}

// Fold needs x=1 … toy-size.
func (Suite) Fold(r *results.Run) (results.Folded, error) {
	cfg := reading{}.Config(r)
	p := &Folded{Run: r}
	for k := 1; k <= cfg.Size; k++ {
		l := r.Lookup("x=" + strconv.Itoa(k))
		if l == nil {
			err := &results.InputError{FileName: r.File, Line: r.Line, Msg: fmt.Sprintf("run %d: missing x=%d", r.Index, k)}
			if cfg.Restricted {
				return nil, results.Restricted(err)
			}
			return nil, err
		}
		p.Mean += reading{}.Value(l) / float64(cfg.Size)
	}
	if cfg.Short() {
		p.Reasons = append(p.Reasons, results.ShortReason)
	}
	if why := r.FileConfig.Oversubscribed(); why != "" {
		p.Reasons = append(p.Reasons, why)
	}
	return p, nil
}

// Settings: the processes, the size and the seed, if any.
func (Suite) Settings(r *results.Run) []results.Setting {
	cfg := reading{}.Config(r)
	out := []results.Setting{{Key: results.KeyProcs, Value: strconv.Itoa(cfg.N)}, {Key: "toy-size", Value: strconv.Itoa(cfg.Size)}}
	if cfg.Seed != "" {
		out = append(out, results.Setting{Key: "toy-seed", Value: cfg.Seed})
	}
	return out
}

// NsPerCall is the toy's other unit of a line.
const NsPerCall = "ns/call"

// Experiments: the value of every line, in its unit.
func (Suite) Experiments(r *results.Run) []results.Experiment {
	var out []results.Experiment
	for _, l := range r.Lines {
		unit := "MB/s"
		if _, ok := l.Metrics[NsPerCall]; ok {
			unit = NsPerCall
		}
		out = append(out, results.Experiment{Name: "Toy/" + l.Name, Unit: unit, Value: reading{}.Value(l), Drawn: l.Name != "x=1"})
	}
	return out
}

func (p *Folded) Source() *results.Run { return p.Run }
func (p *Folded) Figures() []results.Figure {
	return []results.Figure{{Name: "toy", Label: "toy mean", Value: p.Mean, Unit: "MB/s"}}
}
func (p *Folded) JSONDetail() any { return map[string]float64{"mean": p.Mean} }

// WriteText writes the head and the mean.
func (p *Folded) WriteText(w io.Writer) error {
	run := func(w io.Writer) { fmt.Fprintf(w, "toy run %d of %s\n", p.Run.Index, p.Run.File) }
	return results.WriteProtocol(w, "toy", p.Mean, &p.Validity, run, func(io.Writer) {})
}

// File returns a toy results file: the configuration lines, then for each
// run the lines x=1 … size with the MB/s of value(run, k).
func File(procs, size, runs int, mode string, value func(run, k int) float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "mpi-procs: %d\nmpi-hosts: toyhost (%d)\ndate: 2026-11-22T10:00:00Z\ntoy-size: %d\nbeff-mode: %s\n", procs, procs, size, mode)
	for run := range runs {
		for k := 1; k <= size; k++ {
			fmt.Fprintf(&b, "BenchmarkToy/x=%d \t1\t%g MB/s\n", k, value(run, k))
		}
	}
	return b.String()
}

// Launches is File with every run a launch of its own: a date line
// (a second later each) before each run's lines.
func Launches(procs, size, runs int, mode string, value func(run, k int) float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "mpi-procs: %d\nmpi-hosts: toyhost (%d)\ntoy-size: %d\nbeff-mode: %s\n", procs, procs, size, mode)
	for run := range runs {
		fmt.Fprintf(&b, "date: 2026-11-22T10:%02d:%02dZ\n", run/60%60, run%60)
		for k := 1; k <= size; k++ {
			fmt.Fprintf(&b, "BenchmarkToy/x=%d \t1\t%g MB/s\n", k, value(run, k))
		}
	}
	return b.String()
}
