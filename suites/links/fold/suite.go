// Package fold reads, folds and renders the results of the links suite:
// every pair of members (or every member's summary), the verdicts — the
// slow members and the slow links, by latency and by bandwidth — and
// the figures of the whole job (docs/links.md). Its Suite plugs the suite
// into the generic layers.
package fold

import (
	"strconv"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/links"
)

// Suite is the links suite for the generic layers.
type Suite struct{}

// New returns the links suite.
func New() *Suite { return &Suite{} }

var _ results.Suite = (*Suite)(nil)

// reading is the suite's reading of its runs: its configuration and its
// lines' measurements, the one declaration of their types.
type reading = results.Reading[*Config, *Measurement]

// ID is every name of the suite.
func (*Suite) ID() *results.Identity { return links.ID }

// ParseConfig reads the configuration of a run (a *Config).
func (*Suite) ParseConfig(c results.Config) (any, error) { return reading{}.Parsed(parseConfig(c)) }

// ParseLine reads a line of BenchmarkLinks (a *Measurement).
func (*Suite) ParseLine(l *results.Line) (string, any, error) { return reading{}.Line(parseLine(l)) }

// Fold folds a run.
func (*Suite) Fold(r *results.Run) (results.Folded, error) { return Fold(r) }

// Settings are what decides what a run measures.
func (*Suite) Settings(r *results.Run) []results.Setting {
	c := reading{}.Config(r)
	set := func(k, v string) results.Setting { return results.Setting{Key: k, Value: v} }
	return []results.Setting{
		set(results.KeyProcs, strconv.Itoa(c.N)),
		set(results.KeyMode, c.Mode),
		set(links.KeyLevel, c.Level),
		set(links.KeyMembers, strconv.Itoa(c.Members)),
		set(links.KeyLatReps, strconv.Itoa(c.Meas.LatReps)),
		set(links.KeyLen, strconv.FormatInt(c.Meas.BwLen, 10)),
		set(links.KeyReps, strconv.Itoa(c.Meas.BwReps)),
		set(links.KeyCap, strconv.FormatFloat(c.Meas.Cap, 'g', -1, 64)),
		set(links.KeyMatrix, c.Matrix),
		set(links.KeyPairs, map[bool]string{false: links.PairsAtOnce, true: links.PairsSerial}[c.Meas.Serial]),
	}
}

// Experiments are the members' medians: what compares across machines
// (a pair's numbers are the pair's; a member's median is the node's).
func (*Suite) Experiments(r *results.Run) []results.Experiment {
	var out []results.Experiment
	for _, l := range r.Lines {
		m := reading{}.Value(l)
		if !m.IsMember {
			continue
		}
		name := links.Bench + "/member=" + strconv.Itoa(m.Member)
		out = append(out, results.Experiment{Name: name + "/lat", Unit: links.MetricUs, Value: m.Lat},
			results.Experiment{Name: name + "/bw", Unit: links.MetricMBps, Value: m.Bw})
	}
	return out
}
