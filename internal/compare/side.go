package compare

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// A Side is one side of a comparison: the runs read from one or more
// results files, folded, per suite.
type Side struct {
	Label string   // names the side in tables and messages, e.g. "A" or "base"
	Files []string // the files, in the order given
	// Sets hold the side's runs of each suite, in the order of the suite
	// list.
	Sets []*Set
	// Notes say what limits the comparison of this side.
	Notes []string
	// Partial names the files of runs cut short (results.KeyPartial),
	// with the reason: a gate refuses such a side.
	Partial []string
	// Better is each unit's direction as the files' Unit lines declare
	// it (results.File.Better), and where: unit → "higher" or "lower".
	Better   map[string]string
	betterAt map[string]string // unit → the file that declared it first
}

// A Set is the runs of one suite on one side.
type Set struct {
	Suite results.Suite
	// Runs are the runs in file order; Folded[i] is the folded result of
	// Runs[i], nil for a restricted run, which has no figures.
	Runs   []*results.Run
	Folded []results.Folded
	// Settings are the settings all runs share (Suite.Settings but those
	// the suite draws at random, Identity.Drawn); nil without runs.
	Settings []results.Setting
	// Draws are the distinct draws among the runs, in order of first
	// occurrence, each its drawn settings ("beff-seed 42"); draw[i] is
	// that of Runs[i].
	Draws      []string
	draw       []string
	restricted int
	why        string // the fold error of the first restricted run
	repeats    int    // runs left out as repeats of others
}

// Load reads the results files paths as one side labelled label: it folds
// every run of every suite and checks that the runs of each suite share
// one configuration. It returns the first error of reading or folding (a
// restricted run, results.ErrRestricted, is kept without figures,
// with a note naming the first such run's problem), and an error naming
// the difference when the runs of a suite are not of one configuration.
func Load(label string, paths []string, suites []results.Suite) (*Side, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no files", label)
	}
	files := make([]*results.File, len(paths))
	for i, path := range paths {
		if slices.Contains(paths[:i], path) {
			return nil, fmt.Errorf("%s: %s is given twice", label, path)
		}
		var err error
		if files[i], err = results.ReadFile(path, suites); err != nil {
			return nil, err
		}
	}
	return FromFiles(label, files, suites)
}

// FromFiles is Load of files already read (their names as given).
func FromFiles(label string, files []*results.File, suites []results.Suite) (*Side, error) {
	s := &Side{Label: label}
	seen := results.Seen{}
	for _, su := range suites {
		s.Sets = append(s.Sets, &Set{Suite: su})
	}
	for _, f := range files {
		s.Files = append(s.Files, f.Name)
		if err := s.addUnits(f); err != nil {
			return nil, err
		}
		if why := f.Partial(); why != "" {
			s.Partial = append(s.Partial, f.Name+": "+why)
		}
		for _, set := range s.Sets {
			if err := s.add(set, f.RunsOf(set.Suite), seen); err != nil {
				return nil, err
			}
		}
	}
	for _, set := range s.Sets {
		if set.restricted > 0 {
			s.Notes = append(s.Notes, fmt.Sprintf("%s: no %s figures from %d restricted run%s (%s)",
				label, set.Suite.ID().Name, set.restricted, results.Plural(set.restricted), set.why))
		}
		if err := set.checkSettings(label); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// addUnits takes the directions file f declares; a file that declares
// another direction for a unit than an earlier one is refused.
func (s *Side) addUnits(f *results.File) error {
	if s.Better == nil {
		s.Better, s.betterAt = map[string]string{}, map[string]string{}
	}
	for _, u := range slices.Sorted(maps.Keys(f.Better)) {
		b := f.Better[u]
		if have, ok := s.Better[u]; ok && have != b {
			return fmt.Errorf("%s: unit %s is better=%s in %s but better=%s in %s", s.Label, u, have, s.betterAt[u], b, f.Name)
		}
		s.Better[u], s.betterAt[u] = b, f.Name
	}
	return nil
}

// checkUnits refuses sides whose files declare different directions for
// a unit: such files measure different things under one name.
func checkUnits(sides []*Side) error {
	for _, s := range sides[1:] {
		for _, u := range slices.Sorted(maps.Keys(s.Better)) {
			if have, ok := sides[0].Better[u]; ok && have != s.Better[u] {
				return &RefusalError{fmt.Sprintf("unit %s is better=%s in %s (%s) but better=%s in %s (%s)",
					u, have, sides[0].Label, sides[0].betterAt[u], s.Better[u], s.Label, s.betterAt[u])}
			}
		}
	}
	return nil
}

// add folds the runs and adds them to the set; a run seen before is
// counted once, with a note.
func (s *Side) add(set *Set, runs []*results.Run, seen results.Seen) error {
	for _, r := range runs {
		if first := seen.Again(r); first != nil {
			s.Notes = append(s.Notes, s.Label+": "+results.RepeatNote(r, first))
			set.repeats++
			continue
		}
		p, err := set.Suite.Fold(r)
		if err != nil {
			if !errors.Is(err, results.ErrRestricted) {
				return err
			}
			if set.restricted++; set.restricted == 1 {
				set.why = err.Error()
			}
		}
		set.Runs = append(set.Runs, r)
		set.Folded = append(set.Folded, p)
	}
	return nil
}

// checkSettings checks that the runs of the set share one configuration
// but for the settings drawn at random, keeps it and notes each run's
// draw.
func (set *Set) checkSettings(label string) error {
	for i, r := range set.Runs {
		st, drawn := set.split(set.Suite.Settings(r))
		set.draw = append(set.draw, drawn)
		if !slices.Contains(set.Draws, drawn) {
			set.Draws = append(set.Draws, drawn)
		}
		if i == 0 {
			set.Settings = st
			continue
		}
		if d := diffSettings(set.Settings, st); len(d) > 0 {
			first := set.Runs[0]
			return fmt.Errorf("%s: the %s runs are not of one configuration: %s and %s differ in %s",
				label, set.Suite.ID().Name, runName(first.File, first.Index), runName(r.File, r.Index), strings.Join(d, "; "))
		}
	}
	return nil
}

// split parts settings into those the suite fixes and its drawn ones,
// the latter described as one string ("" without any).
func (set *Set) split(settings []results.Setting) (fixed []results.Setting, drawn string) {
	var d []results.Setting
	for _, s := range settings {
		if set.Suite.ID().IsDrawn(s.Key) {
			d = append(d, s)
		} else {
			fixed = append(fixed, s)
		}
	}
	return fixed, describe(d)
}

// runs are the runs of every suite of the side.
func (s *Side) runs() []*results.Run {
	var out []*results.Run
	for _, set := range s.Sets {
		out = append(out, set.Runs...)
	}
	return out
}

// NoteShared notes on each side the runs it shares with an earlier side
// (a copy of a file given on both): their difference there is nil by
// construction.
func NoteShared(sides []*Side) {
	seen := results.Seen{}
	for _, s := range sides {
		for _, r := range s.runs() { // distinct within the side (Side.add)
			if first := seen.Again(r); first != nil {
				s.Notes = append(s.Notes, fmt.Sprintf("%s: %s repeats %s of another side (the same measurements): the sides share it", s.Label, r.Where(), first.Where()))
			}
		}
	}
}

// runName names run index of file.
func runName(file string, index int) string {
	return fmt.Sprintf("%s run %d", file, index)
}

// Counts says how many runs the side has, e.g. "3 b_eff runs, 1 b_eff_io run".
func (s *Side) Counts() string {
	var c []string
	for _, set := range s.Sets {
		n := len(set.Runs)
		if n == 0 {
			continue
		}
		s := fmt.Sprintf("%d %s run%s", n, set.Suite.ID().Name, results.Plural(n))
		if l := set.Launches(); l != n {
			s += fmt.Sprintf(" in %d launch%s", l, pluralEs(l))
		}
		c = append(c, s)
	}
	return strings.Join(c, ", ")
}

// ConfigDiff lists how the configuration of side b differs from that of
// side a, suite by suite: each setting that differs ("b_eff mpi-procs: 2
// vs 4") and each suite that only one side has. It returns nil when both
// sides measured the same.
func ConfigDiff(a, b *Side) []string {
	var d []string
	for i, x := range a.Sets {
		y := b.Sets[i]
		name := x.Suite.ID().Name
		switch nx, ny := len(x.Runs), len(y.Runs); {
		case nx == 0 && ny == 0:
		case nx == 0 || ny == 0:
			d = append(d, fmt.Sprintf("%s: %s has %d run%s, %s has %d", name, a.Label, nx, results.Plural(nx), b.Label, ny))
		default:
			for _, s := range diffSettings(x.Settings, y.Settings) {
				d = append(d, name+" "+s)
			}
		}
	}
	return d
}

// Describe says which configuration the side's runs have, one line per
// suite, e.g. "b_eff: mpi-procs 2, beff-lmax 98729984, ..., beff-seed 7";
// runs of several draws show how many ("beff-seed: 3 draws").
func (s *Side) Describe() []string {
	var lines []string
	for _, set := range s.Sets {
		if set.Settings == nil {
			continue
		}
		line := set.Suite.ID().Name + ": " + describe(set.Settings)
		if d := set.drawText(); d != "" {
			line += ", " + d
		}
		lines = append(lines, line)
	}
	return lines
}

// drawText describes the set's draws: the one draw, or how many of which
// settings ("beff-seed: 3 draws"); "" when the suite draws nothing.
func (set *Set) drawText() string {
	switch len(set.Draws) {
	case 0:
		return ""
	case 1:
		return set.Draws[0]
	}
	return strings.Join(set.Suite.ID().Drawn, ", ") + ": " + strconv.Itoa(len(set.Draws)) + " draws"
}
