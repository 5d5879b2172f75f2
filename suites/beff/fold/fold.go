package fold

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beff"
)

// Notes a folded run may carry.
const (
	NoteShort = "short run (not valid for comparison)"
	// NoteOneProcess marks a run on one process (beff refuses to start
	// one; older runs and edited files may hold one).
	NoteOneProcess = "1 process: no communication measured"
	// NoteReference marks a run by the reference code's rules.
	NoteReference = "beff-rules: reference: measured by the rules of the reference code b_eff 3.6.0.1 (docs/reference.md): a sweep per repetition, one loop length for all patterns of a size, repetition and method, its shortcut and its buffer offsets"
	NoteShortcut  = "shortcut: the two largest sizes measured with the best method only"
)

// A Folded is the folded result of one run: the figures of docs/beff.md "What a run reports" and
// a table per pattern. Figures that the run cannot give are zero. Its
// verdict is NOT VALID for a short run, for sizes that are not the b_eff
// sizes of Lmax and for an oversubscribed node; the notes restate each
// reason and say what else limits the result.
type Folded struct {
	results.Validity
	Run *Run

	Beff        float64 // b_eff, MB/s
	BeffPerProc float64 // b_eff / N, MB/s
	// BeffLmax is b_eff computed from the measurements at Lmax only.
	BeffLmax        float64
	BeffLmaxPerProc float64
	// BeffLmaxRingsPerProc is the logarithmic average over the ring
	// patterns of the best bandwidth at Lmax, divided by N.
	BeffLmaxRingsPerProc float64
	// PingPongLmax is the bandwidth of the ping-pong pattern at Lmax
	// (zero when it was not measured, as for N < 2).
	PingPongLmax float64

	// Latencies in microseconds from the 1-byte measurements (zero when 1
	// byte was not measured): the logarithmic average of the ring and the
	// random averages, the ring average alone, and half the ping-pong round
	// trip.
	LatRingsRandom float64
	LatRings       float64
	LatPingPong    float64

	// Rmax is the Linpack Rmax used for Balance, GFlop/s (zero: none).
	Rmax float64
	// Balance is b_eff / Rmax in byte/flop, zero without Rmax.
	Balance float64

	// TotalTime is the wall time of all measurements of the run.
	TotalTime time.Duration
	// Shortcut is set when the two largest sizes were measured with the
	// best method only (docs/beff.md "The shortcut").
	Shortcut bool

	// Patterns are the tables of the measured patterns in measurement
	// order: rings, random rings, additional patterns.
	Patterns []*PatternTable
}

// A PatternTable is what a run measured for one pattern.
type PatternTable struct {
	Name         string
	Kind         beff.Kind
	Participants int           // processes that send or receive
	Messages     int           // messages of the whole pattern per iteration
	Methods      []beff.Method // the methods the pattern is measured with
	// Avg is the mean over the sizes of the best bandwidth, the pattern's
	// value in b_eff (MB/s).
	Avg float64
	// Latency is the time per message at 1 byte in microseconds (zero when
	// 1 byte was not measured); see Fold.
	Latency float64
	Rows    []SizeRow // one per size, ascending
}

// A SizeRow is one message size of a PatternTable.
type SizeRow struct {
	L int64
	// Measured holds the measurements at this size in method order; with
	// the shortcut only the best method's.
	Measured []*Measurement
	// Best is the measurement of the method with the highest bandwidth.
	Best *Measurement
}

// Fold checks that run holds every measurement its configuration promises
// and computes its figures. For each pattern and size the best bandwidth
// over the methods enters b_eff (beff.Beff). Latencies are derived from
// time, not from the rounded bandwidth: at 1 byte, with the best method,
// the time per iteration ms/loop / looplen is scaled by Participants /
// Messages (the average time a process spends per message) for every
// pattern except ping-pong, whose latency is half the round trip.
//
// Fold refuses (with a *results.InputError) a run restricted by beff-patterns
// to a subset of the ring and random patterns, a run that misses
// measurements (methods may be missing only at the two largest sizes under
// the shortcut), a run with measurements its configuration does not
// define, bandwidths or loop times that are not positive and finite, and
// wall times (ns/op) that are negative or not finite. A positive
// Config.Rmax gives the balance factor.
func Fold(run *Run) (*Folded, error) {
	cfg := run.Config
	set := cfg.patterns()
	want, partial := promised(run, set)
	if err := checkMeasurements(run, set, want); err != nil {
		return nil, err
	}
	if partial != nil {
		return nil, results.Restricted(partial)
	}
	shortcut, err := checkComplete(run, want)
	if err != nil {
		return nil, err
	}
	p := &Folded{Run: run, Rmax: cfg.Rmax}
	best := p.tables(want, shortcut)
	if err := p.bandwidths(best); err != nil {
		return nil, err
	}
	p.latencies()
	if cfg.Rmax > 0 {
		p.Balance = p.Beff / (cfg.Rmax * 1000)
	}
	ns := 0.0
	for _, m := range run.Measurements {
		ns += m.NsPerOp * float64(max(m.Iters, 1))
	}
	p.TotalTime = time.Duration(math.Round(ns))
	p.judge(set, want)
	return p, nil
}

// runErr is a problem of the whole run.
func runErr(run *Run, line int, format string, args ...any) error {
	return &results.InputError{FileName: run.File, Line: line, Msg: fmt.Sprintf("run %d: ", run.Index) + fmt.Sprintf(format, args...)}
}

// lineErr is a problem of one measurement.
func lineErr(run *Run, m *Measurement, format string, args ...any) error {
	return &results.InputError{FileName: run.File, Line: m.Line, Msg: m.Key.String() + ": " + fmt.Sprintf(format, args...)}
}

// promised returns the patterns the run promises: all of the set, or
// those of beff-patterns; the error says why a run whose beff-patterns
// leave out a ring or random pattern is partial (its lines are checked
// all the same).
func promised(run *Run, set *beff.PatternSet) ([]*beff.Pattern, error) {
	cfg := run.Config
	if cfg.Patterns == nil {
		return set.Patterns, nil
	}
	var want []*beff.Pattern
	var absent []string
	for _, p := range set.Patterns {
		switch {
		case slices.Contains(cfg.Patterns, p.Name):
			want = append(want, p)
		case p.Kind != beff.KindExtra:
			absent = append(absent, p.Name)
		}
	}
	if len(absent) > 0 {
		return want, runErr(run, run.Line, "restricted run (%s: %s): b_eff needs all ring and random patterns; not measured: %s",
			beff.KeyPatterns, strings.Join(cfg.Patterns, ","), results.List(absent, 6))
	}
	return want, nil
}

// checkMeasurements checks that every measurement is one the
// configuration defines, with sane values. A best bandwidth below
// results.RoundedMBps is taken from the loop time, as printed it has
// fewer than three significant digits (0.004 MB/s prints as 0.00).
func checkMeasurements(run *Run, set *beff.PatternSet, want []*beff.Pattern) error {
	cfg := run.Config
	for _, m := range run.Measurements {
		p := set.Lookup(m.Pattern)
		switch {
		case p == nil:
			return lineErr(run, m, "run %d: no pattern %s on %d processes with %d random patterns", run.Index, m.Pattern, cfg.N, cfg.Random)
		case !slices.Contains(want, p):
			return lineErr(run, m, "run %d: pattern %s is not in %s", run.Index, m.Pattern, beff.KeyPatterns)
		case !slices.Contains(p.Methods(), m.Method):
			return lineErr(run, m, "run %d: pattern %s is not measured with %s", run.Index, m.Pattern, m.Method)
		case !slices.Contains(cfg.Sizes, m.L):
			return lineErr(run, m, "run %d: size %d is not in %s", run.Index, m.L, beff.KeySizes)
		}
		computed := beff.Bandwidth(m.L, p.Messages(), m.LoopLen, m.MsPerLoop/1e3)
		if m.MBps >= results.RoundedMBps && !math.IsInf(m.MBps, 0) && !(math.Abs(m.MBps-computed) <= 0.05*computed+0.01) {
			return lineErr(run, m, "%v MB/s contradicts the line's loop: %d messages of %d bytes, %d times in %v ms, are %.4g MB/s; not written by beff, or edited",
				m.MBps, p.Messages(), m.L, m.LoopLen, m.MsPerLoop, computed)
		}
		m.MBps = results.PreciseMBps(m.MBps, computed)
		for _, v := range []struct {
			name string
			v    float64
			unit string
		}{{"bandwidth", m.MBps, beff.MetricMBps}, {"bandwidth", m.MinMBps, beff.MetricMinMBps}, {"bandwidth", m.AvgMBps, beff.MetricAvgMBps}, {"loop time", m.MsPerLoop, beff.MetricLoop}} {
			if !(v.v > 0) || math.IsInf(v.v, 0) {
				return lineErr(run, m, "%s %v %s is not positive and finite", v.name, v.v, v.unit)
			}
		}
		if !(m.NsPerOp >= 0) || math.IsInf(m.NsPerOp, 0) {
			return lineErr(run, m, "wall time %v ns/op is not finite and ≥ 0", m.NsPerOp)
		}
		if err := checkStatistics(run, m); err != nil {
			return err
		}
	}
	return nil
}

// checkStatistics checks a line's statistics against each other: the
// worst repetition's bandwidth at most the mean, the mean at most the
// best; 3 repetitions, fewer only at the two largest sizes (the
// shortcut); and, under beff's rules, a wall time no shorter than its
// repetitions' loops. The slack is that of printed digits.
func checkStatistics(run *Run, m *Measurement) error {
	le := func(a, b float64) bool { return a <= b*(1+2e-3)+0.005 }
	sizes := run.Config.Sizes
	switch {
	case !le(m.MinMBps, m.AvgMBps) || !le(m.AvgMBps, m.MBps):
		return lineErr(run, m, "its bandwidths are out of order (min %v, mean %v, best %v MB/s); not written by beff, or edited", m.MinMBps, m.AvgMBps, m.MBps)
	case m.Reps > beff.Reps || m.Reps < beff.Reps && len(sizes) > 2 && m.L < sizes[len(sizes)-2]:
		return lineErr(run, m, "%d repetitions: b_eff makes %d (fewer only at the two largest sizes, under the shortcut); not written by beff, or edited", m.Reps, beff.Reps)
	case !run.Config.Reference && m.NsPerOp*(1+2e-3) < float64(m.Reps)*m.MsPerLoop*1e6:
		return lineErr(run, m, "wall time %v ns/op is shorter than its %d repetitions of %v ms/loop; not written by beff, or edited", m.NsPerOp, m.Reps, m.MsPerLoop)
	}
	return nil
}

// checkComplete checks that every promised measurement is there, except
// under the shortcut, and returns per pattern whether it was used.
func checkComplete(run *Run, want []*beff.Pattern) (map[string]bool, error) {
	sizes := run.Config.Sizes
	shortcut := map[string]bool{}
	var missing []string
	for _, p := range want {
		shortcut[p.Name] = shortcutUsed(run, p)
		for si, l := range sizes {
			if shortcut[p.Name] && si >= len(sizes)-2 {
				continue
			}
			for _, m := range p.Methods() {
				if run.Lookup(p.Name, l, m) == nil {
					missing = append(missing, Key{p.Name, l, m}.String())
				}
			}
		}
	}
	if len(missing) > 0 {
		return nil, runErr(run, run.Line, "missing %d measurement%s: %s", len(missing), results.Plural(len(missing)), results.List(missing, 5))
	}
	return shortcut, nil
}

// tables builds the table of every pattern and returns the best bandwidth
// per pattern and size.
func (p *Folded) tables(want []*beff.Pattern, shortcut map[string]bool) beff.Best {
	cfg := p.Run.Config
	best := beff.Best{}
	for _, pat := range want {
		t := &PatternTable{Name: pat.Name, Kind: pat.Kind, Participants: pat.Participants(),
			Messages: pat.Messages(), Methods: pat.Methods()}
		bw := make([]float64, len(cfg.Sizes))
		for si, l := range cfg.Sizes {
			row := SizeRow{L: l}
			for _, meth := range pat.Methods() {
				if m := p.Run.Lookup(pat.Name, l, meth); m != nil {
					row.Measured = append(row.Measured, m)
					if row.Best == nil || m.MBps > row.Best.MBps {
						row.Best = m
					}
				}
			}
			bw[si] = row.Best.MBps
			t.Rows = append(t.Rows, row)
		}
		best[pat.Name] = bw
		t.Avg = beff.Mean(bw)
		if cfg.Sizes[0] == 1 {
			t.Latency = latency(pat, t.Rows[0].Best)
		}
		p.Shortcut = p.Shortcut || shortcut[pat.Name]
		p.Patterns = append(p.Patterns, t)
	}
	return best
}

// names returns the names of the pattern tables of kind.
func (p *Folded) names(kind beff.Kind) []string {
	var out []string
	for _, t := range p.Patterns {
		if t.Kind == kind {
			out = append(out, t.Name)
		}
	}
	return out
}

// allSizes is the index of every size of the run, for beff.Beff.
func (p *Folded) allSizes() []int {
	all := make([]int, len(p.Run.Config.Sizes))
	for i := range all {
		all[i] = i
	}
	return all
}

// bandwidths computes b_eff, b_eff at Lmax and the ping-pong bandwidth.
func (p *Folded) bandwidths(best beff.Best) error {
	run, cfg := p.Run, p.Run.Config
	rings, random := p.names(beff.KindRing), p.names(beff.KindRandom)
	all := p.allSizes()
	lmax := []int{len(cfg.Sizes) - 1}
	var err error
	if p.Beff, err = beff.Beff(best, rings, random, all); err != nil {
		return runErr(run, run.Line, "computing b_eff: %v", err)
	}
	if p.BeffLmax, err = beff.Beff(best, rings, random, lmax); err != nil {
		return runErr(run, run.Line, "computing b_eff at Lmax: %v", err)
	}
	atLmax := make([]float64, len(rings))
	for i, name := range rings {
		atLmax[i] = best[name][lmax[0]]
	}
	ringsLmax, err := beff.LogAvg(atLmax)
	if err != nil {
		return runErr(run, run.Line, "computing b_eff at Lmax of the rings: %v", err)
	}
	n := float64(cfg.N)
	p.BeffPerProc = p.Beff / n
	p.BeffLmaxPerProc = p.BeffLmax / n
	p.BeffLmaxRingsPerProc = ringsLmax / n
	if m := run.Lookup("pingpong", cfg.Lmax, beff.Sendrecv); m != nil {
		p.PingPongLmax = m.MBps
	}
	return nil
}

// latencies computes the latencies from the pattern tables, when 1 byte
// was measured.
func (p *Folded) latencies() {
	if p.Run.Config.Sizes[0] != 1 {
		return
	}
	lat := func(kind beff.Kind) float64 {
		var v []float64
		for _, t := range p.Patterns {
			if t.Kind == kind {
				v = append(v, t.Latency)
			}
		}
		x, _ := beff.LogAvg(v) // positive: checked
		return x
	}
	p.LatRings = lat(beff.KindRing)
	p.LatRingsRandom, _ = beff.LogAvg([]float64{p.LatRings, lat(beff.KindRandom)})
	for _, t := range p.Patterns {
		if t.Name == "pingpong" {
			p.LatPingPong = t.Latency
		}
	}
}

// judge sets the reasons and notes.
func (p *Folded) judge(set *beff.PatternSet, want []*beff.Pattern) {
	cfg := p.Run.Config
	if cfg.Short() {
		p.Reasons = append(p.Reasons, results.ShortReason)
		p.Notes = append(p.Notes, NoteShort)
	} else if !slices.Equal(cfg.Sizes, beff.Sizes(cfg.Lmax)) {
		why := fmt.Sprintf("the sizes are not the %d b_eff sizes of Lmax = %d bytes", beff.NumSizes, cfg.Lmax)
		p.Reasons = append(p.Reasons, why)
		p.Notes = append(p.Notes, why+" (not valid for comparison)")
	}
	if why := p.Run.FileConfig.Oversubscribed(); why != "" {
		p.Reasons = append(p.Reasons, why)
		p.Notes = append(p.Notes, why)
	}
	if cfg.N < 2 {
		p.Reasons = append(p.Reasons, NoteOneProcess)
		p.Notes = append(p.Notes, NoteOneProcess)
	}
	if cfg.Reference {
		p.Notes = append(p.Notes, NoteReference)
	}
	if v := p.Run.FileConfig[beff.KeyResumed]; v != "" {
		p.Notes = append(p.Notes, "resumed: "+v+"; those were measured by the earlier job")
	}
	if p.Shortcut {
		p.Notes = append(p.Notes, NoteShortcut)
	}
	if len(want) < len(set.Patterns) {
		var skipped []string
		for _, pat := range set.Patterns {
			if !slices.Contains(want, pat) {
				skipped = append(skipped, pat.Name)
			}
		}
		p.Notes = append(p.Notes, "additional patterns not measured ("+beff.KeyPatterns+"): "+strings.Join(skipped, ", "))
	}
	if p.PingPongLmax == 0 {
		p.Notes = append(p.Notes, "no ping-pong measurement: ping-pong bandwidth and latency not given")
	}
	if p.LatRings == 0 {
		p.Notes = append(p.Notes, "1 byte not measured: latencies not given")
	}
}

// shortcutUsed reports whether pattern p was measured under the shortcut of
// docs/beff.md "The shortcut": at the two largest of at least three sizes exactly one method,
// the same at both, and 2 repetitions at the largest. Under the reference
// code's rules, which decide the shortcut in each repetition, the best
// method may differ from one repetition to the next: there, at least one
// method at each of the two largest sizes, and not every method at both.
func shortcutUsed(run *Run, p *beff.Pattern) bool {
	sizes := run.Config.Sizes
	if len(sizes) < 3 {
		return false
	}
	if run.Config.Reference {
		count := func(l int64) int {
			n := 0
			for _, m := range p.Methods() {
				if run.Lookup(p.Name, l, m) != nil {
					n++
				}
			}
			return n
		}
		a, b := count(sizes[len(sizes)-2]), count(sizes[len(sizes)-1])
		return a > 0 && b > 0 && a+b < 2*len(p.Methods())
	}
	only := func(l int64) *Measurement {
		var found *Measurement
		for _, m := range p.Methods() {
			if x := run.Lookup(p.Name, l, m); x != nil {
				if found != nil {
					return nil
				}
				found = x
			}
		}
		return found
	}
	a, b := only(sizes[len(sizes)-2]), only(sizes[len(sizes)-1])
	return a != nil && b != nil && a.Method == b.Method && b.Reps == 2
}

// latency is the 1-byte latency of pattern p in microseconds from its best
// measurement m at 1 byte.
func latency(p *beff.Pattern, m *Measurement) float64 {
	perIter := m.MsPerLoop * 1e3 / float64(m.LoopLen) // µs per iteration
	if p.Name == "pingpong" {
		return perIter / 2 // half the round trip
	}
	return perIter * float64(p.Participants()) / float64(p.Messages())
}

// Figures returns the figures the run gives, in protocol order.
func (p *Folded) Figures() []results.Figure {
	all := []results.Figure{
		{Name: "beff", Label: "b_eff", Value: p.Beff, Unit: "MB/s"},
		{Name: "beff-per-proc", Label: "b_eff per process", Value: p.BeffPerProc, Unit: "MB/s"},
		{Name: "beff-lmax", Label: "b_eff at Lmax", Value: p.BeffLmax, Unit: "MB/s"},
		{Name: "beff-lmax-per-proc", Label: "b_eff at Lmax per process", Value: p.BeffLmaxPerProc, Unit: "MB/s"},
		{Name: "beff-lmax-rings-per-proc", Label: "b_eff at Lmax per process, rings only", Value: p.BeffLmaxRingsPerProc, Unit: "MB/s"},
		{Name: "pingpong-bw-lmax", Label: "ping-pong bandwidth at Lmax", Value: p.PingPongLmax, Unit: "MB/s"},
		{Name: "lat-rings-random", Label: "latency, rings & random", Value: p.LatRingsRandom, Unit: "us"},
		{Name: "lat-rings", Label: "latency, rings only", Value: p.LatRings, Unit: "us"},
		{Name: "lat-pingpong", Label: "latency, ping-pong", Value: p.LatPingPong, Unit: "us"},
		{Name: "balance", Label: "balance factor b_eff/Rmax", Value: p.Balance, Unit: "B/F"},
	}
	out := all[:0]
	for _, f := range all {
		if f.Value > 0 {
			out = append(out, f)
		}
	}
	return out
}
