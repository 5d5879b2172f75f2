// Package fold reads, folds and renders the results of the congestion
// suite: per canary its values isolated and under load and their
// Congestion Impact Factors, per congestor what it delivered, and the
// verdict (docs/congestion.md). Its Suite plugs the suite into the
// generic layers.
package fold

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/congestion"
)

// Suite is the congestion suite for the generic layers.
type Suite struct{}

// New returns the congestion suite.
func New() *Suite { return &Suite{} }

var _ results.Suite = (*Suite)(nil)

// reading is the suite's reading of its runs: its configuration and its
// lines' measurements, the one declaration of their types.
type reading = results.Reading[*Config, *Measurement]

// ID is every name of the suite.
func (*Suite) ID() *results.Identity { return congestion.ID }

// ParseConfig reads the configuration of a run (a *Config).
func (*Suite) ParseConfig(c results.Config) (any, error) { return reading{}.Parsed(parseConfig(c)) }

// ParseLine reads a line of BenchmarkCongestion (a *Measurement).
func (*Suite) ParseLine(l *results.Line) (string, any, error) { return reading{}.Line(parseLine(l)) }

// parseLine reads a line: its name and its measurement.
func parseLine(l *results.Line) (string, *Measurement, error) {
	if rep, ok, err := clocks.ParseLine(l); ok {
		if err != nil {
			return clocks.ReportName, nil, err
		}
		return clocks.ReportName, &Measurement{Clock: rep, Line: l.Line}, nil
	}
	m, err := parseName(l.Parts)
	if err != nil {
		return "", nil, err
	}
	name := m.Name()
	if name != strings.TrimPrefix(l.Full, congestion.Bench+"/") {
		return "", nil, fmt.Errorf("%s: not a congestion measurement name (want %s)", l.Full, name)
	}
	m.Line = l.Line
	if err := parseMetrics(l, m); err != nil {
		return name, nil, err
	}
	return name, m, nil
}

// Fold folds a run.
func (*Suite) Fold(r *results.Run) (results.Folded, error) { return Fold(r) }

// Settings are what decides what a run measures.
func (*Suite) Settings(r *results.Run) []results.Setting {
	c := reading{}.Config(r)
	set := func(k, v string) results.Setting { return results.Setting{Key: k, Value: v} }
	out := []results.Setting{
		set(results.KeyProcs, strconv.Itoa(c.N)),
		set(results.KeyMode, c.Mode),
		set(congestion.KeyCanaries, strings.Join(c.Plan.Canaries, ",")),
		set(congestion.KeyCongestors, strings.Join(c.Plan.Congestors, ",")),
		set(congestion.KeyMix, c.Plan.Mix),
		set(congestion.KeySplit, c.Split),
		set(congestion.KeyNodes, strconv.Itoa(c.Nodes)),
		set(congestion.KeySetProcs, congestion.Ints(c.SetProcs)),
		set(congestion.KeyLen, strconv.FormatInt(c.Len, 10)),
		set(congestion.KeyBwLen, strconv.FormatInt(c.BwLen, 10)),
		set(congestion.KeyTime, strconv.FormatFloat(c.Plan.Time, 'g', -1, 64)),
	}
	return out
}

// Experiments are every line's value under its name without the
// repetition: compare takes the median over a launch's repetitions.
func (*Suite) Experiments(r *results.Run) []results.Experiment {
	var out []results.Experiment
	for _, l := range r.Lines {
		m := reading{}.Value(l)
		if m.Clock != nil {
			continue // the machine's clocks, not an experiment
		}
		name := m.Name()
		name = name[:strings.LastIndex(name, "/rep=")]
		out = append(out, results.Experiment{Name: congestion.Bench + "/" + name, Unit: m.Unit(), Value: m.Value})
	}
	return out
}
