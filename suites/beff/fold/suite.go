// Package fold reads, folds and renders the results of b_eff: from the
// benchfmt lines of BenchmarkBeff to the single number b_eff and the other
// figures of the seed paper's Table 1 (docs/beff.md), the protocol text,
// the JSON details and the data of the report's plots. Its Suite plugs
// b_eff into the generic layers (internal/results, internal/compare,
// internal/report).
//
// The benchmark prints one line per measurement, named
// pat=<pattern>/L=<bytes>/mthd=<method>, whose MB/s metric is the best of
// the repetitions. For each pattern and size the best bandwidth over the
// methods, best, enters
//
//	b_eff = logavg( logavg_rings(avg_L best), logavg_random(avg_L best) )
//
// through beff.Beff (logavg: geometric mean, avg_L: arithmetic mean over
// the sizes); the same with only L = Lmax gives b_eff at Lmax. Latencies
// come from the loop times of the 1-byte measurements, not from the
// rounded bandwidths. Steps: read.go reads a line and the configuration,
// fold.go checks a run and computes the figures (Fold), text.go writes the
// protocol, json.go its JSON details, plot.go and site.go its part of the
// report.
package fold

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beff"
)

// Suite is b_eff for the generic layers. Rmax, when positive, overrides
// the run's beff-rmax-gflops (fold -rmax).
type Suite struct {
	Rmax float64
}

// New returns the b_eff suite.
func New() *Suite { return &Suite{} }

var _ results.Suite = (*Suite)(nil)

// reading is the suite's reading of its runs: its configuration and its
// lines' measurements, the one declaration of their types.
type reading = results.Reading[*Config, *Measurement]

// ID is every name of b_eff.
func (*Suite) ID() *results.Identity { return beff.ID }

// ParseConfig reads the b_eff configuration (a *Config).
func (*Suite) ParseConfig(c results.Config) (any, error) { return reading{}.Parsed(parseConfig(c)) }

// ParseLine reads a line of BenchmarkBeff (a *Measurement).
func (*Suite) ParseLine(l *results.Line) (string, any, error) { return reading{}.Line(parseLine(l)) }

// parseLine reads a line: its name and its measurement.
func parseLine(l *results.Line) (string, *Measurement, error) {
	key, err := parseName(l.Parts)
	if err != nil {
		return "", nil, err
	}
	m, err := parseMetrics(l)
	if err != nil {
		return key.String(), nil, err
	}
	m.Key = key
	return key.String(), m, nil
}

// Fold folds a b_eff run (see Fold); a run restricted by beff-patterns
// that does not fold is partial.
func (s *Suite) Fold(r *results.Run) (results.Folded, error) {
	run := runOf(r)
	if s.Rmax > 0 {
		run.Config.Rmax = s.Rmax
	}
	p, err := Fold(run)
	if err != nil {
		return nil, err // a restricted run's wraps results.ErrRestricted
	}
	return p, nil
}

// Source is the run p was folded from.
func (p *Folded) Source() *results.Run { return p.Run.Run }

// Settings are the settings of a b_eff run that change what it measures:
// the processes, the message sizes and the patterns.
func (*Suite) Settings(r *results.Run) []results.Setting {
	c := reading{}.Config(r)
	patterns := "(all)"
	if c.Patterns != nil {
		patterns = strings.Join(c.Patterns, ",")
	}
	return []results.Setting{
		{Key: results.KeyProcs, Value: strconv.Itoa(c.N)},
		{Key: beff.KeyLmax, Value: strconv.FormatInt(c.Lmax, 10)},
		{Key: beff.KeySizes, Value: results.JoinInts(c.Sizes)},
		{Key: beff.KeyPatterns, Value: patterns},
		{Key: beff.KeyRandom, Value: strconv.Itoa(c.Random)},
		{Key: beff.KeySeed, Value: c.Seed},
		{Key: results.KeyMode, Value: c.Mode},
	}
}

// Experiments are the measurements of a run: MB/s of every line; those of
// the random patterns are drawn with the run's seed.
func (*Suite) Experiments(r *results.Run) []results.Experiment {
	out := make([]results.Experiment, 0, len(r.Lines))
	for _, l := range r.Lines {
		m := reading{}.Value(l)
		out = append(out, results.Experiment{Name: beff.Bench + "/" + l.Name, Unit: beff.MetricMBps, Value: m.MBps,
			Drawn: beff.IsRandomName(m.Key.Pattern)})
	}
	return out
}

var _ results.FlagSuite = (*Suite)(nil)

// AddFlags adds -rmax to fold.
func (s *Suite) AddFlags(fs *flag.FlagSet) {
	fs.Float64Var(&s.Rmax, "rmax", 0, "Linpack Rmax of the system in `GFLOPS`, for the balance factor b_eff/Rmax (overrides "+beff.KeyRmax+")")
}

// CheckFlags refuses an Rmax that is not a positive number.
func (s *Suite) CheckFlags() error {
	if math.IsNaN(s.Rmax) || math.IsInf(s.Rmax, 0) || s.Rmax < 0 {
		return fmt.Errorf("-rmax=%v: Rmax must be a positive number of GFlop/s", s.Rmax)
	}
	return nil
}
