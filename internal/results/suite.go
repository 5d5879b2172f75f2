package results

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
)

// A Suite is what the generic layers (reading, fold, compare, report) need
// of a benchmark suite: its names, how to read its lines and configuration,
// how to fold a run, and what of a run is compared. Each suite implements
// it in its fold package; the list of suites is put together in cmd/beff.
type Suite interface {
	// ID is every name of the suite and the units of its figures.
	ID() *Identity

	// ParseConfig reads the suite's configuration of a run from the file
	// configuration in effect at its first line; Run.Parsed keeps it.
	ParseConfig(c Config) (any, error)
	// ParseLine reads one result line of the suite's benchmark: it returns
	// the line's canonical name (the sub-benchmark name that identifies
	// the measurement within a run) and the suite's value of it, which
	// Line.Value keeps. An error with an empty name concerns the name.
	ParseLine(l *Line) (name string, value any, err error)
	// Fold checks that a run is complete and folds it. A run that is
	// restricted (it measured a chosen part of its suite, as b_eff's
	// -beff.patterns) fails with an error that wraps ErrRestricted.
	Fold(r *Run) (Folded, error)

	// Settings are the configuration lines of a run that decide what it
	// measures: two runs can only be compared when they agree.
	Settings(r *Run) []Setting
	// Experiments are a run's measurements as compared across runs, one
	// value each, in file order.
	Experiments(r *Run) []Experiment
}

// A Merger is a suite whose runs of one configuration also fold into
// one run: per measurement the median over the runs and the spread
// between them (SKaMPI's post-processor). Merge gets at least two folded
// runs of the suite with the same Settings.
type Merger interface {
	Merge(runs []Folded) (Folded, error)
}

// MergeRuns merges, for every suite of list that is a Merger, each group
// of at least two folded runs with the same Settings into one, in the
// order the groups start.
func MergeRuns(list []Suite, folded []Folded) ([]Folded, error) {
	var out []Folded
	for _, s := range list {
		m, ok := s.(Merger)
		if !ok {
			continue
		}
		var keys []string
		groups := map[string][]Folded{}
		for _, f := range folded {
			r := f.Source()
			if !Same(r.Suite, s) {
				continue
			}
			k := fmt.Sprint(s.Settings(r))
			if groups[k] == nil {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], f)
		}
		for _, k := range keys {
			if len(groups[k]) < 2 {
				continue
			}
			p, err := m.Merge(groups[k])
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// Same reports whether a and b are the same suite: the same benchmark.
func Same(a, b Suite) bool { return a.ID().Bench == b.ID().Bench }

// A Folded is the folded result of one run: its validity, its figures and
// its renderings.
type Folded interface {
	// Source is the run it was folded from.
	Source() *Run
	// Verdict is its validity and notes (a Validity embedded in the
	// suite's type provides the method).
	Verdict() *Validity
	// Figures are the folded figures, in the suite's order; they are the
	// lines <FoldBench>/fig=<name> of fold -append.
	Figures() []Figure
	// WriteText writes the protocol for people, starting with WriteHead.
	WriteText(w io.Writer) error
	// JSONDetail is what the run adds to its JSON object, under the
	// suite's JSONKey.
	JSONDetail() any
}

// A Validity says whether a folded run is valid for comparing systems.
type Validity struct {
	// Reasons say why the result is NOT VALID; none: VALID.
	Reasons []string
	// Notes say what else limits or describes the result.
	Notes []string
}

// Valid reports whether the result is valid for comparing systems.
func (v *Validity) Valid() bool { return len(v.Reasons) == 0 }

// Verdict returns v: a Validity embedded in a folded type gives it the
// method Verdict of a Folded.
func (v *Validity) Verdict() *Validity { return v }

// A Figure is one folded number of a run.
type Figure struct {
	Name  string // short name, as in Benchmark<FoldBench>/fig=<Name>
	Label string // what it is, for people
	Value float64
	Unit  string // MB/s, us, B/F, min
	// Per names a figure of the same run that beff conformance also
	// divides this one by, to compare the figure's share of its run
	// with the reference code's (a level of the whole run divided out);
	// "" for none.
	Per string
}

// MaxFigure bounds a figure read from someone else's output: above it (a
// bandwidth of an exabyte per second in MB/s, a time of 11 days in µs)
// a number is damage, not a measurement.
const MaxFigure = 1e12

// CheckReference says why a figure read from a reference code's output
// cannot be compared with: a ratio needs a finite positive number.
func (f Figure) CheckReference() error {
	if f.Value > 0 && f.Value <= MaxFigure {
		return nil
	}
	return fmt.Errorf("%s = %v %s: not a positive number up to %g: the output is damaged or not the reference code's", f.Label, f.Value, f.Unit, float64(MaxFigure))
}

// An Experiment is one measurement of a run as compare sees it.
type Experiment struct {
	Name  string // the line's name without "Benchmark", e.g. "Beff/pat=ring2/L=1/mthd=sendrecv"
	Unit  string
	Value float64
	// Drawn marks a measurement of something the run drew at random (a
	// random pattern of b_eff): it compares only with runs of the same
	// draw (Identity.Drawn).
	Drawn bool
}

// A Setting is one configuration line that decides what a run measures.
type Setting struct {
	Key, Value string
}

// A Unit is a unit of folded figures and the direction in which it is
// better: "higher" or "lower".
type Unit struct {
	Name, Better string
}

// ErrRestricted marks the fold error of a restricted run, one that
// measured a deliberately chosen part of its suite: it has no figures, but its experiments can
// still be compared.
var ErrRestricted = errors.New("a restricted run")

// Restricted wraps err, the fold error of a restricted run: it
// prints as err and matches ErrRestricted (errors.Is).
func Restricted(err error) error { return &restricted{err} }

type restricted struct{ err error }

func (p *restricted) Error() string        { return p.err.Error() }
func (p *restricted) Unwrap() error        { return p.err }
func (p *restricted) Is(target error) bool { return target == ErrRestricted }

// A FlagSuite is a suite with options of its own for fold (b_eff's -rmax,
// for one).
type FlagSuite interface {
	Suite
	// AddFlags adds the suite's flags to the fold command's flag set.
	AddFlags(fs *flag.FlagSet)
	// CheckFlags checks their values after parsing.
	CheckFlags() error
}

// A Finder is a folded run that names what it found wrong with the
// machine (links: a slow node, a slow link), a line each; beff fold
// -exit-findings exits with its own code when any run names something.
type Finder interface {
	Folded
	FindingLines() []string
}

// A Conformer is a suite that reads the output of its reference code
// (b_eff 3.6, b_eff_io 2.1, SKaMPI 5), for beff conformance: the figures the
// reference code printed for one run, and the same figures of one of the
// suite's own folded runs, under the same names.
type Conformer interface {
	Suite
	// Reference names the reference code ("b_eff_io 2.1").
	Reference() string
	// ReadReference reads one run of the reference code from its output
	// files, whose paths begin with prefix (prefix.prot, prefix.sum, …):
	// its figures in the order the comparison lists them, and its setup.
	ReadReference(prefix string) (Conformance, error)
	// Conformance returns what of a folded run ReadReference also reads,
	// named alike.
	Conformance(f Folded) Conformance
	// Round says how beff conformance runs one round of the suite beside
	// its reference code under the settings p.
	Round(p RoundSettings) RoundPlan
}

// RoundSettings are the settings of the rounds of beff conformance, the
// same for the reference code and beff.
type RoundSettings struct {
	Procs  int    // processes
	MemMiB int64  // memory per process, MiB
	T      int    // seconds a time-driven reference code is scheduled for (b_eff_io's T)
	Prefix string // the reference code's output files begin with it (ReadReference's prefix)
	Dir    string // a scratch directory for file I/O
	Files  string // the directory of the conformance's input files (suite files of beff and the reference)
}

// A RoundPlan is one round of a suite in beff conformance: the reference
// code, compiled from its C source with CFlags (nil: a program already
// built, run as given), run with Ref as its arguments; and beff's
// variants, each the flags of the test binary (besides -test.run and
// -test.bench), named as their results files are (default, reference).
type RoundPlan struct {
	CFlags   []string
	Ref      []string
	Variants []Variant
}

// A Variant is one run of beff in a round: its name and its flags.
type Variant struct {
	Name  string
	Label string // what it is, for people
	Flags []string
}

// A Conformance is what beff conformance takes from one run, the
// reference code's or beff's: its figures and its setup, the settings
// that make two runs comparable (processes, Lmax, …), each named and
// written alike for both: runs whose setups differ in a key both have
// are not set side by side.
type Conformance struct {
	Figures []Figure
	Setup   []Setting
}

// Setup keys every Conformer gives.
const (
	SetupProcs = "processes" // the number of processes
	SetupMode  = "mode"      // ModeFull or a short mode; a reference code runs in full
)

// CommonSetup is the setup of a beff run that every suite has: its
// processes and mode.
func CommonSetup(c *Common) []Setting {
	return []Setting{{SetupProcs, strconv.Itoa(c.N)}, {SetupMode, c.Mode}}
}

// ReferenceSetup is CommonSetup of a reference code's run on procs
// processes (0: not known, left out).
func ReferenceSetup(procs int) []Setting {
	s := []Setting{{SetupMode, ModeFull}}
	if procs > 0 {
		s = append(s, Setting{SetupProcs, strconv.Itoa(procs)})
	}
	return s
}

// SetupDiffers names the keys of the setup that a and b both have with
// different values ("processes 4 against 2"), none when they agree.
func SetupDiffers(a, b []Setting) []string {
	var d []string
	for _, x := range a {
		for _, y := range b {
			if x.Key == y.Key && x.Value != y.Value {
				d = append(d, fmt.Sprintf("%s %s against %s", x.Key, x.Value, y.Value))
			}
		}
	}
	return d
}

// A Reading ties a suite's reading of its runs to its own types: C is
// what its ParseConfig returns (Run.Parsed keeps it), V what its
// ParseLine returns for a line (Line.Value keeps it). A suite declares it
// once (type reading = results.Reading[*Config, *Measurement]) and goes
// through it both ways: Parsed and Line type what it hands the generic
// layers, Config and Value what it gets back. A ParseConfig or ParseLine
// of another type than its fold reads does not compile.
type Reading[C, V any] struct{}

// Parsed is ParseConfig's result, of type C.
func (Reading[C, V]) Parsed(c C, err error) (any, error) { return c, err }

// Line is ParseLine's result, its value of type V.
func (Reading[C, V]) Line(name string, v V, err error) (string, any, error) { return name, v, err }

// Config is the configuration of a run that the suite's ParseConfig read.
func (Reading[C, V]) Config(r *Run) C {
	c, _ := r.Parsed.(C)
	return c
}

// Value is the value the suite's ParseLine read from a line.
func (Reading[C, V]) Value(l *Line) V {
	v, _ := l.Value.(V)
	return v
}
