package fold

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/beff-suite/beff/suites/beff"
)

// Notes a protocol may carry.
const (
	NoteShort    = "short run (not valid for comparison)"
	NoteShortcut = "shortcut: the two largest sizes measured with the best method only"
)

// A Protocol is the folded result of one run: the figures of SPEC §1.8 and
// a table per pattern. Figures that the run cannot give are zero.
type Protocol struct {
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
	// best method only (SPEC §1.6).
	Shortcut bool
	// Reasons say why the result is not valid for comparison (a short
	// run, sizes that are not the b_eff sizes of Lmax); none: valid. The
	// notes restate each of them.
	Reasons []string
	// Notes say what limits the result, in plain sentences.
	Notes []string

	// Patterns are the tables of the measured patterns in measurement
	// order: rings, random rings, additional patterns.
	Patterns []*PatternTable
}

// Valid reports whether the result is valid for comparing systems.
func (p *Protocol) Valid() bool { return len(p.Reasons) == 0 }

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
	Rows    []Row // one per size, ascending
}

// A Row is one message size of a PatternTable.
type Row struct {
	L int64
	// Measured holds the measurements at this size in method order; with
	// the shortcut only the best method's.
	Measured []*Measurement
	// Best is the measurement of the method with the highest bandwidth.
	Best *Measurement
}

// Fold checks that run holds every measurement its configuration promises
// and computes its protocol. For each pattern and size the best bandwidth
// over the methods enters b_eff (beff.Beff). Latencies are derived from time,
// not from the rounded bandwidth: at 1 byte, with the best method, the time
// per iteration ms/loop / looplen is scaled by Participants / Messages (the
// average time a process spends per message) for every pattern except
// ping-pong, whose latency is half the round trip.
//
// Fold refuses (with an *Error) a run restricted by beff-patterns to a
// subset of the ring and random patterns, a run that misses measurements
// (methods may be missing only at the two largest sizes under the shortcut),
// a run with measurements its configuration does not define, bandwidths or
// loop times that are not positive and finite, and wall times (ns/op) that
// are negative or not finite. A positive run.Config.Rmax gives the balance
// factor.
//
// The result is not valid for comparison, with the reason in Reasons (and
// restated in Notes), when the run is short or its sizes are not the
// b_eff sizes of Lmax.
func Fold(run *Run) (*Protocol, error) {
	cfg := &run.Config
	runErr := func(line int, format string, args ...any) error {
		return &Error{run.File, line, fmt.Sprintf("run %d: ", run.Index) + fmt.Sprintf(format, args...)}
	}
	lineErr := func(m *Measurement, format string, args ...any) error {
		return &Error{run.File, m.Line, m.Key.String() + ": " + fmt.Sprintf(format, args...)}
	}

	set := beff.PureSet(cfg.N, cfg.Random, 0)
	var want []*beff.Pattern // the patterns the run promises
	if cfg.Patterns == nil {
		want = set.Patterns
	} else {
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
			return nil, runErr(run.Line, "partial run (beff-patterns: %s): b_eff needs all ring and random patterns; not measured: %s",
				strings.Join(cfg.Patterns, ","), list(absent, 6))
		}
	}
	sizeIndex := map[int64]int{}
	for i, l := range cfg.Sizes {
		sizeIndex[l] = i
	}

	// Every measurement must be one the configuration defines, with sane values.
	for _, m := range run.Measurements {
		p := set.Lookup(m.Pattern)
		switch {
		case p == nil:
			return nil, lineErr(m, "run %d: no pattern %s on %d processes with %d random patterns", run.Index, m.Pattern, cfg.N, cfg.Random)
		case !slices.Contains(want, p):
			return nil, lineErr(m, "run %d: pattern %s is not in beff-patterns", run.Index, m.Pattern)
		case !slices.Contains(p.Methods(), m.Method):
			return nil, lineErr(m, "run %d: pattern %s is not measured with %s", run.Index, m.Pattern, m.Method)
		}
		if _, ok := sizeIndex[m.L]; !ok {
			return nil, lineErr(m, "run %d: size %d is not in beff-sizes", run.Index, m.L)
		}
		for _, v := range []struct {
			name string
			v    float64
			unit string
		}{{"bandwidth", m.MBps, "MB/s"}, {"bandwidth", m.MinMBps, "min-MB/s"}, {"bandwidth", m.AvgMBps, "avg-MB/s"}, {"loop time", m.MsPerLoop, "ms/loop"}} {
			if !(v.v > 0) || math.IsInf(v.v, 0) {
				return nil, lineErr(m, "%s %v %s is not positive and finite", v.name, v.v, v.unit)
			}
		}
		if !(m.NsPerOp >= 0) || math.IsInf(m.NsPerOp, 0) {
			return nil, lineErr(m, "wall time %v ns/op is not finite and ≥ 0", m.NsPerOp)
		}
	}

	// Every promised measurement must be there, except under the shortcut.
	shortcut := map[string]bool{}
	var missing []string
	for _, p := range want {
		shortcut[p.Name] = shortcutUsed(run, p)
		for si, l := range cfg.Sizes {
			if shortcut[p.Name] && si >= len(cfg.Sizes)-2 {
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
		return nil, runErr(run.Line, "missing %d measurement%s: %s", len(missing), plural(len(missing)), list(missing, 5))
	}

	pr := &Protocol{Run: run, Rmax: cfg.Rmax}
	best := beff.Best{}
	var rings, random []string
	for _, p := range want {
		t := &PatternTable{Name: p.Name, Kind: p.Kind, Participants: p.Participants(),
			Messages: p.Messages(), Methods: p.Methods()}
		bw := make([]float64, len(cfg.Sizes))
		for si, l := range cfg.Sizes {
			row := Row{L: l}
			for _, meth := range p.Methods() {
				if m := run.Lookup(p.Name, l, meth); m != nil {
					row.Measured = append(row.Measured, m)
					if row.Best == nil || m.MBps > row.Best.MBps {
						row.Best = m
					}
				}
			}
			bw[si] = row.Best.MBps
			t.Rows = append(t.Rows, row)
		}
		best[p.Name] = bw
		t.Avg = beff.Mean(bw)
		if cfg.Sizes[0] == 1 {
			t.Latency = latency(p, t.Rows[0].Best)
		}
		switch p.Kind {
		case beff.KindRing:
			rings = append(rings, p.Name)
		case beff.KindRandom:
			random = append(random, p.Name)
		}
		pr.Shortcut = pr.Shortcut || shortcut[p.Name]
		pr.Patterns = append(pr.Patterns, t)
	}

	all := make([]int, len(cfg.Sizes))
	for i := range all {
		all[i] = i
	}
	lmax := []int{len(cfg.Sizes) - 1}
	n := float64(cfg.N)
	var err error
	if pr.Beff, err = beff.Beff(best, rings, random, all); err != nil {
		return nil, runErr(run.Line, "computing b_eff: %v", err)
	}
	if pr.BeffLmax, err = beff.Beff(best, rings, random, lmax); err != nil {
		return nil, runErr(run.Line, "computing b_eff at Lmax: %v", err)
	}
	atLmax := make([]float64, len(rings))
	for i, name := range rings {
		atLmax[i] = best[name][lmax[0]]
	}
	ringsLmax, err := beff.LogAvg(atLmax)
	if err != nil {
		return nil, runErr(run.Line, "computing b_eff at Lmax of the rings: %v", err)
	}
	pr.BeffPerProc = pr.Beff / n
	pr.BeffLmaxPerProc = pr.BeffLmax / n
	pr.BeffLmaxRingsPerProc = ringsLmax / n
	if m := run.Lookup("pingpong", cfg.Lmax, beff.Sendrecv); m != nil {
		pr.PingPongLmax = m.MBps
	}

	if cfg.Sizes[0] == 1 {
		lat := func(kind beff.Kind) float64 {
			var v []float64
			for _, t := range pr.Patterns {
				if t.Kind == kind {
					v = append(v, t.Latency)
				}
			}
			x, _ := beff.LogAvg(v) // positive: checked above
			return x
		}
		pr.LatRings = lat(beff.KindRing)
		pr.LatRingsRandom, _ = beff.LogAvg([]float64{pr.LatRings, lat(beff.KindRandom)})
		for _, t := range pr.Patterns {
			if t.Name == "pingpong" {
				pr.LatPingPong = t.Latency
			}
		}
	}
	if cfg.Rmax > 0 {
		pr.Balance = pr.Beff / (cfg.Rmax * 1000)
	}
	ns := 0.0
	for _, m := range run.Measurements {
		ns += m.NsPerOp * float64(max(m.Iters, 1))
	}
	pr.TotalTime = time.Duration(math.Round(ns))

	if cfg.Short() {
		pr.Reasons = append(pr.Reasons, "short run")
		pr.Notes = append(pr.Notes, NoteShort)
	} else if !slices.Equal(cfg.Sizes, beff.Sizes(cfg.Lmax)) {
		why := fmt.Sprintf("the sizes are not the %d b_eff sizes of Lmax = %d bytes", beff.NumSizes, cfg.Lmax)
		pr.Reasons = append(pr.Reasons, why)
		pr.Notes = append(pr.Notes, why+" (not valid for comparison)")
	}
	if why := oversubscribed(run.FileConfig); why != "" {
		pr.Reasons = append(pr.Reasons, why)
		pr.Notes = append(pr.Notes, why)
	}
	if pr.Shortcut {
		pr.Notes = append(pr.Notes, NoteShortcut)
	}
	if len(want) < len(set.Patterns) {
		var skipped []string
		for _, p := range set.Patterns {
			if !slices.Contains(want, p) {
				skipped = append(skipped, p.Name)
			}
		}
		pr.Notes = append(pr.Notes, "additional patterns not measured (beff-patterns): "+strings.Join(skipped, ", "))
	}
	if pr.PingPongLmax == 0 {
		pr.Notes = append(pr.Notes, "no ping-pong measurement: ping-pong bandwidth and latency not given")
	}
	if pr.LatRings == 0 {
		pr.Notes = append(pr.Notes, "1 byte not measured: latencies not given")
	}
	return pr, nil
}

// shortcutUsed reports whether pattern p was measured under the shortcut of
// SPEC §1.6: at the two largest of at least three sizes exactly one method,
// the same at both, and 2 repetitions at the largest.
func shortcutUsed(run *Run, p *beff.Pattern) bool {
	sizes := run.Config.Sizes
	if len(sizes) < 3 {
		return false
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

// A Figure is one folded number of a Protocol.
type Figure struct {
	Name  string // short name, as in BenchmarkBeffFold/fig=<Name>
	Label string // what it is, for people
	Value float64
	Unit  string // MB/s, us or B/F
}

// Figures returns the figures of p that the run gives, in protocol order.
func (p *Protocol) Figures() []Figure {
	all := []Figure{
		{"beff", "b_eff", p.Beff, "MB/s"},
		{"beff-per-proc", "b_eff per process", p.BeffPerProc, "MB/s"},
		{"beff-lmax", "b_eff at Lmax", p.BeffLmax, "MB/s"},
		{"beff-lmax-per-proc", "b_eff at Lmax per process", p.BeffLmaxPerProc, "MB/s"},
		{"beff-lmax-rings-per-proc", "b_eff at Lmax per process, rings only", p.BeffLmaxRingsPerProc, "MB/s"},
		{"pingpong-bw-lmax", "ping-pong bandwidth at Lmax", p.PingPongLmax, "MB/s"},
		{"lat-rings-random", "latency, rings & random", p.LatRingsRandom, "us"},
		{"lat-rings", "latency, rings only", p.LatRings, "us"},
		{"lat-pingpong", "latency, ping-pong", p.LatPingPong, "us"},
		{"balance", "balance factor b_eff/Rmax", p.Balance, "B/F"},
	}
	out := all[:0]
	for _, f := range all {
		if f.Value > 0 {
			out = append(out, f)
		}
	}
	return out
}

// list joins the first n of s, with ", ..." when there are more.
func list(s []string, n int) string {
	if len(s) <= n {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:n], ", ") + ", ..."
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// oversubscribed returns the validity reason of a run whose processes
// outnumbered a node's CPUs (config line mpi-oversubscribed), or "".
func oversubscribed(cfg map[string]string) string {
	v := cfg["mpi-oversubscribed"]
	if !strings.HasPrefix(v, "yes") {
		return ""
	}
	return "oversubscribed (" + strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(v, "yes"), ":")) + ")"
}
