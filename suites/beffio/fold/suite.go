// Package fold reads, folds and renders the results of b_eff_io: from the
// benchfmt lines of BenchmarkBeffIO to b_eff_io and its figures
// (docs/beffio.md), the protocol with the table of bandwidth per chunk size
// and pattern type, the JSON details and the data of the report's 3+5
// plots. Its Suite plugs
// b_eff_io into the generic layers (internal/results, internal/compare,
// internal/report).
//
// Per partition n, access method and pattern type the benchmark prints one
// line per pattern (n=<n>/acc=<access>/type=<type>/pat=<No>/l=<l>/L=<L>),
// one line with the pattern-type total (…/pat=total, whose MB/s is Σ bytes
// / Σ time from open to close) and per partition and access method a phase
// line (…/type=all/pat=phase). Fold refuses incomplete runs and computes
//
//	access-method value = (2·type0 + type1 + type2 + type3 + type4)/6
//	partition value     = 0.25·write + 0.25·rewrite + 0.5·read
//	b_eff_io            = max over the partitions
//
// through beffio.AccessValue and beffio.PartitionValue (or, under the
// reference code's rules, its 2.1 formula, beffio.ReferenceValue), the
// other formula as a secondary figure, the data per access
// method and the validity (VALID, or NOT VALID with every reason). Steps:
// read.go reads a line and the configuration, fold.go checks a run and
// computes the figures (Fold), text.go writes the protocol, json.go its
// JSON details, plot.go and site.go its part of the report.
package fold

import (
	"strconv"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beffio"
)

// Suite is b_eff_io for the generic layers.
type Suite struct{}

// New returns the b_eff_io suite.
func New() *Suite { return &Suite{} }

var _ results.Suite = (*Suite)(nil)

// reading is the suite's reading of its runs: its configuration and its
// lines' measurements, the one declaration of their types.
type reading = results.Reading[*Config, *Measurement]

// ID is every name of b_eff_io.
func (*Suite) ID() *results.Identity { return beffio.ID }

// ParseConfig reads the b_eff_io configuration (a *Config).
func (*Suite) ParseConfig(c results.Config) (any, error) { return reading{}.Parsed(parseConfig(c)) }

// ParseLine reads a line of BenchmarkBeffIO (a *Measurement).
func (*Suite) ParseLine(l *results.Line) (string, any, error) { return reading{}.Line(parseLine(l)) }

// parseLine reads a line: its name and its measurement.
func parseLine(l *results.Line) (string, *Measurement, error) {
	key, err := parseName(l.Parts)
	if err != nil {
		return "", nil, err
	}
	m, err := parseMetrics(l, key)
	if err != nil {
		return key.String(), nil, err
	}
	return key.String(), m, nil
}

// Fold folds a b_eff_io run (see Fold).
func (*Suite) Fold(r *results.Run) (results.Folded, error) {
	p, err := Fold(runOf(r))
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Source is the run p was folded from.
func (p *Folded) Source() *results.Run { return p.Run.Run }

// Settings are the settings of a b_eff_io run that change what it
// measures: the processes, the partitions, the pattern table (MPART), the
// rewritten types and the scheduled time.
func (*Suite) Settings(r *results.Run) []results.Setting {
	c := reading{}.Config(r)
	return []results.Setting{
		{Key: results.KeyProcs, Value: strconv.Itoa(c.N)},
		{Key: beffio.KeyPartitions, Value: results.JoinInts(c.Partitions)},
		{Key: beffio.KeyMPART, Value: strconv.FormatInt(c.MPART, 10)},
		{Key: beffio.KeyRewrite, Value: string(c.Rewrite)},
		{Key: beffio.KeyT, Value: strconv.FormatFloat(c.T, 'g', -1, 64)},
		{Key: results.KeyMode, Value: c.Mode},
	}
}

// Experiments are the pattern and total lines of a run, MB/s (the phase
// lines hold a scheduled time, not a bandwidth).
func (*Suite) Experiments(r *results.Run) []results.Experiment {
	var out []results.Experiment
	for _, l := range r.Lines {
		m := reading{}.Value(l)
		if m.Pat != beffio.PatPhase {
			out = append(out, results.Experiment{Name: m.Name(), Unit: beffio.MetricMBps, Value: m.MBps})
		}
	}
	return out
}

// Leftover returns the scratch directory that a line of a job's stderr
// names (the run's first log line): what a job whose processes were
// killed leaves behind.
func (s *Suite) Leftover(line string) (string, bool) { return beffio.ScratchDirOf(line) }

// RemoveLeftover removes a run's scratch directory and the files the run
// wrote into it, and reports whether it is gone.
func (s *Suite) RemoveLeftover(dir string) bool { return beffio.RemoveScratch(dir) }
