package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/beff-suite/beff/internal/fold"
)

// A Site is what a report shows: the runs of the files that folded and the
// files that were skipped.
type Site struct {
	Files   []string // the input files in order, skipped ones included
	Runs    []*Run   // in file order, then by index
	Skipped []Skipped
}

// A Skipped file is an input left out of the site, with the reason.
type Skipped struct {
	File string
	Err  error // prints as "file:line: msg" where the position is known
}

// Error says which file was skipped and why: "file:line: msg" where the
// position is known.
func (s Skipped) Error() string {
	msg := s.Err.Error()
	if strings.Contains(msg, s.File) {
		return msg
	}
	return s.File + ": " + msg
}

// A Run is the k-th b_eff run and the k-th b_eff_io run of one file (either
// may be missing, not both): the output of one `make bench`.
type Run struct {
	// ID names the run's page runs/<ID>.html: made of the file's base name
	// and the index, letters, digits and '-' only, unique in the site.
	ID    string
	File  string // as given to Load
	Index int    // 1-based, within the file
	Beff  *fold.Protocol
	IO    *fold.IOProtocol
}

// Load reads and folds the results files paths, in order. A file that does
// not read, or holds a run that does not fold, is skipped as a whole and
// listed in Site.Skipped with the error.
func Load(paths []string) *Site {
	s := &Site{}
	ids := map[string]bool{}
	for _, path := range paths {
		s.Files = append(s.Files, path)
		runs, err := loadFile(path)
		if err != nil {
			s.Skipped = append(s.Skipped, Skipped{File: path, Err: err})
			continue
		}
		base := slug(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
		// One base name may occur in several directories: number them.
		stem := base
		for i := 2; ids[stem+"-1"]; i++ {
			stem = fmt.Sprintf("%s-%d", base, i)
		}
		for _, r := range runs {
			r.ID = fmt.Sprintf("%s-%d", stem, r.Index)
			ids[r.ID] = true
		}
		s.Runs = append(s.Runs, runs...)
	}
	return s
}

// loadFile reads and folds one file.
func loadFile(path string) ([]*Run, error) {
	f, err := fold.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var runs []*Run
	get := func(k int) *Run {
		for len(runs) < k {
			runs = append(runs, &Run{File: path, Index: len(runs) + 1})
		}
		return runs[k-1]
	}
	for _, r := range f.Runs {
		p, err := fold.Fold(r)
		if err != nil {
			return nil, err
		}
		get(r.Index).Beff = p
	}
	for _, r := range f.IORuns {
		p, err := fold.FoldIO(r)
		if err != nil {
			return nil, err
		}
		get(r.Index).IO = p
	}
	return runs, nil
}

// slug keeps the letters and digits of s (lower-cased) and turns every other
// run of characters into one '-'.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "run"
	}
	return b.String()
}

// info returns a descriptive configuration value of the run: from the
// b_eff run when there is one, else from the b_eff_io run.
func (r *Run) info(beff func(*fold.Config) string, io func(*fold.IOConfig) string) string {
	if r.Beff != nil {
		if v := beff(&r.Beff.Run.Config); v != "" || r.IO == nil {
			return v
		}
	}
	return io(&r.IO.Run.Config)
}

// Hosts is the mpi-hosts line of the run: the machine.
func (r *Run) Hosts() string {
	return r.info(func(c *fold.Config) string { return c.Hosts }, func(c *fold.IOConfig) string { return c.Hosts })
}

// Date is the date line of the run.
func (r *Run) Date() string {
	return r.info(func(c *fold.Config) string { return c.Date }, func(c *fold.IOConfig) string { return c.Date })
}

// MPILibrary is the mpi-library line of the run.
func (r *Run) MPILibrary() string {
	return r.info(func(c *fold.Config) string { return c.Library }, func(c *fold.IOConfig) string { return c.Library })
}

// Version is the beff-version line of the run.
func (r *Run) Version() string {
	return r.info(func(c *fold.Config) string { return c.Version }, func(c *fold.IOConfig) string { return c.Version })
}

// Procs is the number of processes of the run (mpi-procs).
func (r *Run) Procs() int {
	if r.Beff != nil {
		return r.Beff.Run.Config.N
	}
	return r.IO.Run.Config.N
}

// BeffReasons says why the b_eff result is not valid for comparison: the
// fold's reasons (short run, sizes that are not the 21 of Lmax, an
// oversubscribed node) and the shortcut of the two largest sizes (SPEC §1.6),
// which the protocol must state.
func (r *Run) BeffReasons() []string {
	if r.Beff == nil {
		return nil
	}
	out := append([]string(nil), r.Beff.Reasons...)
	if slices.Contains(r.Beff.Notes, fold.NoteShortcut) {
		out = append(out, fold.NoteShortcut)
	}
	return out
}

// IOReasons says why the b_eff_io result is NOT VALID (the fold's reasons).
func (r *Run) IOReasons() []string {
	if r.IO == nil {
		return nil
	}
	return r.IO.Reasons
}

// Reasons says why the run is not valid for comparison, each reason
// prefixed with its benchmark; none: valid.
func (r *Run) Reasons() []string {
	var out []string
	for _, s := range r.BeffReasons() {
		out = append(out, "b_eff: "+s)
	}
	for _, s := range r.IOReasons() {
		out = append(out, "b_eff_io: "+s)
	}
	return out
}

// Valid reports whether every result of the run is valid for comparison.
func (r *Run) Valid() bool { return len(r.Reasons()) == 0 }

// Label names the run for people: file base name, run index, machine and
// processes.
func (r *Run) Label() string {
	s := fmt.Sprintf("%s #%d", filepath.Base(r.File), r.Index)
	if h := r.Hosts(); h != "" {
		s += " · " + h
	}
	return s + fmt.Sprintf(" · N=%d", r.Procs())
}
