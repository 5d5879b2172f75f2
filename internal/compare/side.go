package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/beff-suite/beff/internal/fold"
)

// A Side is one side of a comparison: the b_eff and b_eff_io runs read
// from one or more results files, folded.
type Side struct {
	Label string   // names the side in tables and messages, e.g. "A" or "base"
	Files []string // the files, in the order given

	// Runs are the b_eff runs in file order; Protos[i] is the protocol of
	// Runs[i], nil for a deliberately partial run, which has no figures.
	Runs   []*fold.Run
	Protos []*fold.Protocol
	// IORuns are the b_eff_io runs in file order, IOProtos their protocols.
	IORuns   []*fold.IORun
	IOProtos []*fold.IOProtocol

	// Config is the configuration all runs of the side share.
	Config Config
	// Notes say what limits the comparison of this side.
	Notes []string
}

// Load reads the results files paths as one side labelled label: it
// folds every run and checks that the b_eff runs share one configuration
// and so do the b_eff_io runs. It returns the first error of fold.ReadFile,
// fold.Fold or fold.FoldIO (a b_eff run restricted by beff-patterns that
// does not fold is kept without figures, with a note naming the first
// such run's problem), and an error naming
// the difference when the runs of the side are not of one configuration.
func Load(label string, paths []string) (*Side, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no files", label)
	}
	s := &Side{Label: label}
	partial := 0
	var partialWhy string
	for i, path := range paths {
		if slices.Contains(paths[:i], path) {
			return nil, fmt.Errorf("%s: %s is given twice", label, path)
		}
		f, err := fold.ReadFile(path)
		if err != nil {
			return nil, err
		}
		s.Files = append(s.Files, path)
		for _, r := range f.Runs {
			p, err := fold.Fold(r)
			if err != nil {
				if r.Config.Patterns == nil {
					return nil, err
				}
				if partial++; partial == 1 {
					partialWhy = err.Error()
				}
			}
			s.Runs = append(s.Runs, r)
			s.Protos = append(s.Protos, p)
		}
		for _, r := range f.IORuns {
			p, err := fold.FoldIO(r)
			if err != nil {
				return nil, err
			}
			s.IORuns = append(s.IORuns, r)
			s.IOProtos = append(s.IOProtos, p)
		}
	}
	if partial > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%s: no b_eff figures from %d partial run%s (%s)", label, partial, plural(partial), partialWhy))
	}

	// One configuration per benchmark.
	for i, r := range s.Runs {
		set := beffSettings(&r.Config)
		if i == 0 {
			s.Config.Beff = set
			continue
		}
		if d := diffSettings(s.Config.Beff, set); len(d) > 0 {
			return nil, fmt.Errorf("%s: the b_eff runs are not of one configuration: %s and %s differ in %s",
				label, runName(s.Runs[0].File, s.Runs[0].Index), runName(r.File, r.Index), strings.Join(d, "; "))
		}
	}
	for i, r := range s.IORuns {
		set := ioSettings(&r.Config)
		if i == 0 {
			s.Config.IO = set
			continue
		}
		if d := diffSettings(s.Config.IO, set); len(d) > 0 {
			return nil, fmt.Errorf("%s: the b_eff_io runs are not of one configuration: %s and %s differ in %s",
				label, runName(s.IORuns[0].File, s.IORuns[0].Index), runName(r.File, r.Index), strings.Join(d, "; "))
		}
	}
	return s, nil
}

// runName names run index of file.
func runName(file string, index int) string {
	return fmt.Sprintf("%s run %d", file, index)
}

// Counts says how many runs the side has, e.g. "3 b_eff runs, 1 b_eff_io run".
func (s *Side) Counts() string {
	var c []string
	if len(s.Runs) > 0 {
		c = append(c, fmt.Sprintf("%d b_eff run%s", len(s.Runs), plural(len(s.Runs))))
	}
	if len(s.IORuns) > 0 {
		c = append(c, fmt.Sprintf("%d b_eff_io run%s", len(s.IORuns), plural(len(s.IORuns))))
	}
	return strings.Join(c, ", ")
}

// ConfigDiff lists how the configuration of side b differs from that of
// side a, b_eff first: each setting that differs ("b_eff mpi-procs: 2 vs
// 4") and each benchmark that only one side has. It returns nil when both
// sides measured the same.
func ConfigDiff(a, b *Side) []string {
	var d []string
	bench := func(name string, x, y []Setting, nx, ny int) {
		switch {
		case x == nil && y == nil:
		case x == nil || y == nil:
			d = append(d, fmt.Sprintf("%s: %s has %d run%s, %s has %d", name, a.Label, nx, plural(nx), b.Label, ny))
		default:
			for _, s := range diffSettings(x, y) {
				d = append(d, name+" "+s)
			}
		}
	}
	bench("b_eff", a.Config.Beff, b.Config.Beff, len(a.Runs), len(b.Runs))
	bench("b_eff_io", a.Config.IO, b.Config.IO, len(a.IORuns), len(b.IORuns))
	return d
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
