package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// A Fingerprint identifies a run by its measurements: its suite and its
// lines with their figures, in any order. Configuration lines do not
// enter it: a person edits them (a date, a commit), an editor adds a
// byte-order mark or line ends, and the copy is still the same launch.
// Runs of one job with -test.count share a configuration but never all
// their figures, and neither do two launches.
type Fingerprint [sha256.Size]byte

// Fingerprint computes the run's fingerprint.
func (r *Run) Fingerprint() Fingerprint {
	lines := make([][sha256.Size]byte, len(r.Lines))
	for i, l := range r.Lines {
		lines[i] = lineHash(l)
	}
	slices.SortFunc(lines, func(a, b [sha256.Size]byte) int { return bytes.Compare(a[:], b[:]) })
	h := sha256.New()
	h.Write([]byte(r.Suite.ID().Bench))
	for _, l := range lines {
		h.Write(l[:])
	}
	var out Fingerprint
	h.Sum(out[:0])
	return out
}

// lineHash hashes a line's canonical name, iterations and figures.
func lineHash(l *Line) [sha256.Size]byte {
	h := sha256.New()
	str := func(s string) {
		h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(s))))
		h.Write([]byte(s))
	}
	num := func(x float64) { h.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(x))) }
	str(l.Name)
	num(float64(l.Iters))
	for _, u := range slices.Sorted(maps.Keys(l.Metrics)) {
		str(u)
		num(l.Metrics[u])
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// Seen remembers runs by their fingerprints, to count each launch once
// however often its runs are given (a file named twice, a link, a copy
// with its configuration lines edited).
type Seen map[Fingerprint]*Run

// Again returns the run seen earlier that r repeats, or nil, in which
// case it remembers r.
func (s Seen) Again(r *Run) *Run {
	fp := r.Fingerprint()
	if first, ok := s[fp]; ok {
		return first
	}
	s[fp] = r
	return nil
}

// Distinct returns runs without their repeats, in order, and a note on
// each repeat it left out (RepeatNote).
func Distinct(runs []*Run) (kept []*Run, notes []string) {
	seen := Seen{}
	for _, r := range runs {
		if first := seen.Again(r); first != nil {
			notes = append(notes, RepeatNote(r, first))
			continue
		}
		kept = append(kept, r)
	}
	return kept, notes
}

// RepeatNote says that run again repeats run first and counts once.
func RepeatNote(again, first *Run) string {
	return fmt.Sprintf("%s repeats %s (the same measurements, whatever its configuration lines say): counted once", again.Where(), first.Where())
}

// SameRun finds a run given twice among runs: the first run that has
// the fingerprint of an earlier one, and that earlier one; nil, nil
// when every run is distinct.
func SameRun(runs []*Run) (first, again *Run) {
	seen := Seen{}
	for _, r := range runs {
		if f := seen.Again(r); f != nil {
			return f, r
		}
	}
	return nil, nil
}

// Where names a run for messages: "file (run k of suite)".
func (r *Run) Where() string {
	return fmt.Sprintf("%s (%s run %d)", r.File, r.Suite.ID().Name, r.Index)
}

// Job names the job the run came from within its file: the values of its
// JobKeys. Two runs of a file with different Jobs are of different jobs;
// a job's suites and its -test.count runs share one.
func (r *Run) Job() string {
	var b strings.Builder
	for _, k := range JobKeys {
		v := r.FileConfig[k]
		fmt.Fprintf(&b, "%d:%s%d:%s", len(k), k, len(v), v)
	}
	return b.String()
}
