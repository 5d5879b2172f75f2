package results

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
)

// A Fingerprint identifies a run by what it holds: its suite, its
// configuration and every line with its figures. Two runs with one
// fingerprint are one run read twice (a file named twice, a link, a
// copy): runs of one job with -test.count share a configuration but not
// their figures.
type Fingerprint [sha256.Size]byte

// Fingerprint computes the run's fingerprint.
func (r *Run) Fingerprint() Fingerprint {
	h := sha256.New()
	str := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	num := func(x float64) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		h.Write(b[:])
	}
	str(r.Suite.ID().Bench)
	for _, k := range slices.Sorted(maps.Keys(r.FileConfig)) {
		str(k)
		str(r.FileConfig[k])
	}
	for _, l := range r.Lines {
		str(l.Full)
		num(float64(l.Iters))
		for _, u := range slices.Sorted(maps.Keys(l.Metrics)) {
			str(u)
			num(l.Metrics[u])
		}
	}
	var out Fingerprint
	h.Sum(out[:0])
	return out
}

// SameRun finds a run given twice among runs: the first run that has
// the fingerprint of an earlier one, and that earlier one; nil, nil
// when every run is distinct.
func SameRun(runs []*Run) (first, again *Run) {
	seen := make(map[Fingerprint]*Run, len(runs))
	for _, r := range runs {
		fp := r.Fingerprint()
		if f, ok := seen[fp]; ok {
			return f, r
		}
		seen[fp] = r
	}
	return nil, nil
}

// Where names a run for messages: "file (run k of suite)".
func (r *Run) Where() string {
	return fmt.Sprintf("%s (%s run %d)", r.File, r.Suite.ID().Name, r.Index)
}
