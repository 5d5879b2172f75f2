package report

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/machine"
	"github.com/beff-suite/beff/internal/results"
)

// A Site is what a report shows: the entries of the files that folded and
// the files that were skipped.
type Site struct {
	Suites  []results.Suite
	Files   []string // the input files in order, skipped ones included
	Entries []*Entry // in file order, then by index
	Skipped []Skipped
	// Repeats say which runs were left out as repeats of earlier ones
	// (results.RepeatNote).
	Repeats []string

	pageInfos []suiteInfo // the suites with pages (withPages)
	pageIndex []int
	hasPage   map[*Entry]bool // the entries with a page (choosePages)
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

// An Entry is the k-th run of every suite in one file: the output of one
// `make bench`. It is a row of the index and, unless the site has more
// runs than pages (Options.RunPages), has a page of its own.
type Entry struct {
	// ID names the entry's page runs/<ID>.html: made of the file's base
	// name and the index, letters, digits and '-' only, unique in the site.
	ID    string
	File  string // as given to Load
	Index int    // 1-based, within the file
	// Folded holds the folded run of each suite, in the order of the
	// suite list; nil where the file has no k-th run of the suite (at
	// least one is there).
	Folded []results.Folded
}

// Load reads and folds the results files paths, in order. A file that does
// not read, or holds a run that does not fold, is skipped as a whole and
// listed in Site.Skipped with the error.
func Load(paths []string, suites []results.Suite) *Site {
	s := &Site{Suites: suites}
	ids := map[string]bool{}
	seen := results.Seen{}
	for _, path := range paths {
		s.Files = append(s.Files, path)
		entries, repeats, err := loadFile(path, suites, seen)
		if err != nil {
			s.Skipped = append(s.Skipped, Skipped{File: path, Err: err})
			continue
		}
		s.Repeats = append(s.Repeats, repeats...)
		base := slug(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
		// One base name may occur in several directories: number them.
		stem := base
		for i := 2; ids[stem+"-1"]; i++ {
			stem = fmt.Sprintf("%s-%d", base, i)
		}
		for _, e := range entries {
			e.ID = fmt.Sprintf("%s-%d", stem, e.Index)
			ids[e.ID] = true
		}
		s.Entries = append(s.Entries, entries...)
	}
	return s
}

// loadFile reads and folds one file: an entry is the k-th run of each
// suite within one job (Run.Job), so that the jobs of a concatenated file
// are entries of their own, in the order they start in the file. A run
// that repeats an earlier one (seen) is left out, with a note.
func loadFile(path string, suites []results.Suite, seen results.Seen) ([]*Entry, []string, error) {
	f, err := results.ReadFile(path, suites)
	if err != nil {
		return nil, nil, err
	}
	folded := make([][]results.Folded, len(suites))
	for i, s := range suites {
		for _, r := range f.RunsOf(s) {
			p, err := s.Fold(r)
			if err != nil {
				return nil, nil, err
			}
			folded[i] = append(folded[i], p)
		}
	}
	entries, repeats := jobEntries(path, folded, seen)
	return entries, repeats, nil
}

// jobEntries groups the folded runs of a file (per suite, in order) into
// entries: the k-th run of each suite within one job.
func jobEntries(path string, folded [][]results.Folded, seen results.Seen) ([]*Entry, []string) {
	type slot struct {
		job string
		k   int
	}
	at := map[slot]*Entry{}
	first := map[*Entry]int{} // the first line of the entry's runs
	var entries []*Entry
	var repeats []string
	for i, runs := range folded {
		count := map[string]int{}
		for _, p := range runs {
			r := p.Source()
			if again := seen.Again(r); again != nil {
				repeats = append(repeats, results.RepeatNote(r, again))
				continue
			}
			job := r.Job()
			count[job]++
			e := at[slot{job, count[job]}]
			if e == nil {
				e = &Entry{File: path, Folded: make([]results.Folded, len(folded))}
				at[slot{job, count[job]}] = e
				entries = append(entries, e)
				first[e] = r.Line
			}
			e.Folded[i] = p
			first[e] = min(first[e], r.Line)
		}
	}
	slices.SortStableFunc(entries, func(a, b *Entry) int { return first[a] - first[b] })
	for i, e := range entries {
		e.Index = i + 1
	}
	return entries, repeats
}

// MaxSlug bounds a slug, so that no input's name makes a page's file name
// longer than a file system allows (255 bytes); IDs stay unique by their
// numbers.
const MaxSlug = 64

// slug keeps the letters and digits of s (lower-cased) and turns every other
// run of characters into one '-'; it keeps at most MaxSlug bytes.
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
	return strings.TrimSuffix(b.String()[:min(b.Len(), MaxSlug)], "-")
}

// info returns the configuration line key of the entry: from the first
// suite's run that has it.
func (e *Entry) info(key string) string {
	for _, p := range e.Folded {
		if p != nil {
			if v := p.Source().FileConfig[key]; v != "" {
				return v
			}
		}
	}
	return ""
}

// Hosts is the mpi-hosts line of the entry: the machine.
func (e *Entry) Hosts() string { return e.info(results.KeyHosts) }

// A Fact is a labelled line of what the entry's file records.
type Fact struct{ What, Value string }

// Described are the lines of the machine and its MPI's settings the
// entry's file records (none for a file of an older beff).
func (e *Entry) Described() []Fact {
	var out []Fact
	for _, l := range machine.RecordLines {
		if v := e.info(l.Key); v != "" {
			out = append(out, Fact{l.Label, v})
		}
	}
	return out
}

// Date is the date line of the entry.
func (e *Entry) Date() string { return e.info(results.KeyDate) }

// MPILibrary is the mpi-library line of the entry.
func (e *Entry) MPILibrary() string { return e.info(results.KeyLibrary) }

// Version is the beff-version line of the entry.
func (e *Entry) Version() string { return e.info(results.KeyVersion) }

// Procs is the number of processes of the entry (mpi-procs).
func (e *Entry) Procs() int {
	n, _ := strconv.Atoi(e.info(results.KeyProcs))
	return n
}

// Reasons says why the entry is not valid for comparison, each reason
// prefixed with its suite's name; none: valid.
func (e *Entry) Reasons(suites []results.Suite) []string {
	var out []string
	for _, v := range e.Verdicts(suites) {
		for _, r := range v.Reasons {
			out = append(out, v.Suite+": "+r)
		}
	}
	return out
}

// A Verdict is the validity of one suite's run of an entry.
type Verdict struct {
	Suite   string
	Reasons []string // why it is NOT VALID; none: VALID
}

// Valid reports whether the suite's run is valid.
func (v Verdict) Valid() bool { return len(v.Reasons) == 0 }

// Verdicts are the validity of each suite's run of the entry, in the
// order of the suites: a run valid in one suite is valid there, whatever
// the others say.
func (e *Entry) Verdicts(suites []results.Suite) []Verdict {
	var out []Verdict
	for i, p := range e.Folded {
		if p == nil {
			continue
		}
		reasons := p.Verdict().Reasons
		if pg := pages(suites[i]); pg != nil {
			reasons = pg.SiteReasons(p)
		}
		out = append(out, Verdict{Suite: suites[i].ID().Name, Reasons: reasons})
	}
	return out
}

// processCounts are the process counts of an mpi-hosts line: " (2)",
// " (64 each)".
var processCounts = regexp.MustCompile(` \(\d+( each)?\)`)

// Machine names the entry's machine at any process count: its hosts
// without their process counts and its MPI library up to the first comma
// ("vm · Open MPI v4.1.4").
func (e *Entry) Machine() string {
	lib, _, _ := strings.Cut(e.MPILibrary(), ",")
	return processCounts.ReplaceAllString(e.Hosts(), "") + " · " + lib
}

// Label names the entry for people: file base name, run index, machine and
// processes.
func (e *Entry) Label() string {
	s := fmt.Sprintf("%s #%d", filepath.Base(e.File), e.Index)
	if h := e.Hosts(); h != "" {
		s += " · " + h
	}
	return s + fmt.Sprintf(" · N=%d", e.Procs())
}
