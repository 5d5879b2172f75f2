// Package fold reads, folds and renders the results of the SKaMPI suite:
// the benchfmt lines of BenchmarkSkampi, one per point, become per
// operation a table over its varied parameter with each point's
// accuracy, the points that did not reach their ε listed (docs/skampi.md).
// Its Suite plugs SKaMPI into the generic layers.
package fold

import (
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// Suite is SKaMPI for the generic layers.
type Suite struct{}

// New returns the SKaMPI suite.
func New() *Suite { return &Suite{} }

var _ results.Suite = (*Suite)(nil)

// reading is the suite's reading of its runs: its configuration and its
// lines' measurements, the one declaration of their types.
type reading = results.Reading[*Config, *Measurement]

// ID is every name of SKaMPI.
func (*Suite) ID() *results.Identity { return skampi.ID }

// ParseConfig reads the configuration of a run (a *Config).
func (*Suite) ParseConfig(c results.Config) (any, error) { return reading{}.Parsed(parseConfig(c)) }

// ParseLine reads a line of BenchmarkSkampi (a *Measurement).
func (*Suite) ParseLine(l *results.Line) (string, any, error) { return reading{}.Line(parseLine(l)) }

// parseLine reads a line: its name and its measurement.
func parseLine(l *results.Line) (string, *Measurement, error) {
	if rep, ok, err := clocks.ParseLine(l); ok {
		if err != nil {
			return clocks.ReportName, nil, err
		}
		return clocks.ReportName, &Measurement{Name: clocks.ReportName, Line: l.Line, Clock: rep}, nil
	}
	pt, err := parseName(l.Parts)
	if err != nil {
		return "", nil, err
	}
	name := pt.Name()
	if name != strings.TrimPrefix(l.Full, skampi.Bench+"/") {
		return "", nil, errName(l.Full, name)
	}
	m, err := parseMetrics(l, pt)
	if err != nil {
		return name, nil, err
	}
	m.Name = name
	return name, m, nil
}

// Fold folds a run.
func (*Suite) Fold(r *results.Run) (results.Folded, error) { return Fold(r) }

// Settings are what decides what a run measures: the processes, the
// mode and every suite (its configuration line).
func (*Suite) Settings(r *results.Run) []results.Setting {
	c := reading{}.Config(r)
	out := []results.Setting{
		{Key: results.KeyProcs, Value: strconv.Itoa(c.N)},
		{Key: results.KeyMode, Value: c.Mode},
	}
	for _, n := range c.SuiteNames() {
		k, v := c.Suites[n].ConfigLine()
		out = append(out, results.Setting{Key: k, Value: v})
	}
	return out
}

// Experiments are the points with a value: their cut-quantile mean in µs.
func (*Suite) Experiments(r *results.Run) []results.Experiment {
	var out []results.Experiment
	for _, l := range r.Lines {
		if m := (reading{}).Value(l); m.Has {
			out = append(out, results.Experiment{Name: skampi.Bench + "/" + l.Name, Unit: skampi.MetricUs, Value: m.Us})
		}
	}
	return out
}
