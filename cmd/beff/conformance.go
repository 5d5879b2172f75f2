package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/beff-suite/beff/internal/results"
)

const conformanceUsage = `usage: beff conformance [-ref SUITE=PATH ... [flags]] DIR

Conformance puts beff beside the reference codes (%s).
With -ref it first runs the rounds into DIR: in each round, for each suite
given a reference code, the reference code, beff with its default rules
and beff in the reference code's settings, one after the other on the
same processes, starting with a different one each round. A reference
code given as C source (b_eff.c, b_eff_io.c) is compiled with MPICC
(default mpicc) into DIR/bin; SKaMPI 5 is taken as built. Every job is
launched as beff run launches (the launcher of the MPI on PATH), beff's
from the test binary -bin, which must be of that MPI (make build).

Then, from DIR/<suite>/round-<k>/ (the reference code's output files ref.*
and beff's results files <variant>.txt: default.txt, beff's default rules;
reference.txt, beff in the reference code's settings), it gives for every
figure the reference code prints the reference code's median over the
rounds and its spread (largest / smallest: the reference against itself),
and per variant of beff the median and the median and range of the ratio
beff / reference within each round, marked * where its median lies outside
the reference's spread (above it or below its inverse; a last line counts
them, and the next says how many would by chance alone, were beff's
figures spread as the reference's). A second table gives the figures a
suite compares also as shares of a figure of their own run (b_eff's
bandwidths as shares of its b_eff) in the same way: a level of the
whole run, which moves all of its figures alike, divided out, a mark
there is the figure's own. <suite> is the suite's JSON key (beff,
beff_io, skampi).

Flags:
`

// A round is what one round of a suite holds: the reference code's
// figures and each variant's.
type round struct {
	name     string
	ref      map[string]float64
	variants map[string]map[string]float64
}

// seenRuns remembers the runs of the rounds read so far, to count a run
// copied into two rounds once: beff's by their fingerprints, the
// reference code's by their figures.
type seenRuns struct {
	beff  results.Seen
	ref   map[string]string // the figures, written out → the round
	notes []string
}

func conformanceMain(stdout, stderr io.Writer, args []string) int {
	list := suites()
	var names []string
	for _, s := range list {
		if c, ok := s.(results.Conformer); ok {
			names = append(names, c.Reference())
		}
	}
	fs := newFlags("beff conformance", fmt.Sprintf(conformanceUsage, strings.Join(names, ", ")), stderr)
	refs := &refFlag{list: list, refs: map[string]string{}}
	fs.Var(refs, "ref", "a suite's reference code, SUITE=PATH (b_eff=…/b_eff.c, b_eff_io=…/b_eff_io.c, skampi=…/skampi), once per suite: run the rounds")
	o := &roundOpts{refs: refs.refs, stderr: stderr, job: runJob, compile: compileRef}
	fs.IntVar(&o.set.Procs, "np", 2, "processes of every job")
	fs.IntVar(&o.rounds, "rounds", 5, "rounds")
	fs.Int64Var(&o.set.MemMiB, "mem", 1024, "memory per process in MiB: b_eff's MEMORY_PER_PROCESSOR and -beff.mem, b_eff_io's -MB and -beffio.mem")
	fs.IntVar(&o.set.T, "T", 60, "b_eff_io's scheduled time, seconds")
	fs.StringVar(&o.set.Dir, "scratch", "", "b_eff_io's scratch directory (default: DIR/scratch)")
	fs.StringVar(&o.set.Files, "files", "tools/skampi5", "the directory of SKaMPI 5's input and beff's suite files for it")
	fs.StringVar(&o.bin, "bin", "./beff.test", "the test binary, built with -tags mpi")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "beff conformance: want one directory")
		fs.Usage()
		return exitBadInput
	}
	if len(o.refs) > 0 {
		if code := o.start(fs.Arg(0), list); code != exitOK {
			return code
		}
	}
	var out bytes.Buffer
	found := false
	for _, s := range list {
		c, ok := s.(results.Conformer)
		if !ok {
			continue
		}
		dir := filepath.Join(fs.Arg(0), s.ID().JSONKey)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		found = true
		if err := conformance(&out, c, dir, list); err != nil {
			fmt.Fprintf(stderr, "beff conformance: %v\n", err)
			return exitBadInput
		}
	}
	if !found {
		fmt.Fprintf(stderr, "beff conformance: %s holds no suite's rounds (want %s/<suite>/round-<k>/)\n", fs.Arg(0), fs.Arg(0))
		return exitBadInput
	}
	stdout.Write(out.Bytes())
	return exitOK
}

// conformance writes the comparison of one suite's rounds in dir.
func conformance(w io.Writer, c results.Conformer, dir string, list []results.Suite) error {
	dirs, err := filepath.Glob(filepath.Join(dir, "round-*"))
	if err != nil || len(dirs) == 0 {
		return fmt.Errorf("%s: no round-<k> directories", dir)
	}
	slices.SortFunc(dirs, func(a, b string) int { return roundNumber(a) - roundNumber(b) })
	var rounds []round
	var order []results.Figure
	var variants []string
	seen := &seenRuns{beff: results.Seen{}, ref: map[string]string{}}
	for _, d := range dirs {
		r, figs, err := readRound(c, d, list, seen)
		if err != nil {
			return err
		}
		if order == nil {
			order = figs
		}
		for v := range r.variants {
			if !slices.Contains(variants, v) {
				variants = append(variants, v)
			}
		}
		rounds = append(rounds, r)
	}
	slices.Sort(variants)
	fmt.Fprintf(w, "%s beside beff: %s, %d round%s\n", c.Reference(), dir, len(rounds), results.Plural(len(rounds)))
	fmt.Fprintf(w, "reference: median over the rounds (spread: largest/smallest); per variant: median, and the\n")
	fmt.Fprintf(w, "ratio variant/reference within each round: median [smallest–largest], * where the median lies\n")
	fmt.Fprintf(w, "outside the reference's spread (above it, or below its inverse)\n")
	writeConformance(w, "outside the reference's spread (*)", order, rounds, variants)
	if figs, shares, per := sharesOf(order, rounds); len(figs) > 0 {
		fmt.Fprintf(w, "\nthe same as shares of their run's %s (each figure divided by it): a level of the whole run,\n", per)
		fmt.Fprintf(w, "which moves every figure of the run alike, divided out; a mark here is the figure's own\n")
		writeConformance(w, "shares outside the reference's spread (*)", figs, shares, variants)
	}
	for _, n := range seen.notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintln(w)
	return nil
}

// writeConformance writes the table of the figures in order over the
// rounds, and the count of its marks, named what.
func writeConformance(w io.Writer, what string, order []results.Figure, rounds []round, variants []string) {
	t := results.TextTable{Left: 2}
	head := []string{"figure", "unit", "reference", "spread"}
	for _, v := range variants {
		head = append(head, v, "ratio")
	}
	t.Add(head...)
	marks := make([]outsideCount, len(variants))
	for _, f := range order {
		t.Add(conformanceRow(f, rounds, variants, marks)...)
	}
	t.Write(w)
	writeOutside(w, what, variants, marks)
}

// sharesOf are the figures of order that name a figure of their run to be
// divided by (Figure.Per), as shares, and the rounds with each such
// share for the reference code and every variant; per labels the
// figures divided by. A run without a figure's divisor has no share of
// it.
func sharesOf(order []results.Figure, rounds []round) (figs []results.Figure, shares []round, per string) {
	labels := map[string]string{}
	for _, f := range order {
		labels[f.Name] = f.Label
	}
	var pers []string
	for _, f := range order {
		if l, ok := labels[f.Per]; ok && f.Per != "" {
			figs = append(figs, results.Figure{Name: f.Name, Label: f.Label, Unit: "share", Per: f.Per})
			if !slices.Contains(pers, l) {
				pers = append(pers, l)
			}
		}
	}
	for _, r := range rounds {
		s := round{name: r.name, ref: shareValues(r.ref, figs), variants: map[string]map[string]float64{}}
		for v, m := range r.variants {
			s.variants[v] = shareValues(m, figs)
		}
		shares = append(shares, s)
	}
	return figs, shares, strings.Join(pers, ", ")
}

// shareValues divides each figure of figs in vals by its divisor there.
func shareValues(vals map[string]float64, figs []results.Figure) map[string]float64 {
	out := map[string]float64{}
	for _, f := range figs {
		v, ok := vals[f.Name]
		if d := vals[f.Per]; ok && d > 0 {
			out[f.Name] = v / d
		}
	}
	return out
}

// An outsideCount counts a variant's ratios, and those outside the
// reference's spread; chance sums each ratio's probability to lie
// outside by chance alone (chanceOutside).
type outsideCount struct {
	outside, ratios int
	chance          float64
}

// writeOutside says, after what, how many of each variant's ratios lie
// outside the reference's spread (where it has one: two rounds or more),
// and how many would by chance alone.
func writeOutside(w io.Writer, what string, variants []string, marks []outsideCount) {
	var parts, chance []string
	for i, v := range variants {
		if marks[i].ratios > 0 {
			parts = append(parts, fmt.Sprintf("%s %d of %d", v, marks[i].outside, marks[i].ratios))
			chance = append(chance, fmt.Sprintf("%s %.1f", v, marks[i].chance))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "%s: %s\n", what, strings.Join(parts, ", "))
		fmt.Fprintf(w, "expected by chance alone, were beff's figures spread as the reference's: %s\n", strings.Join(chance, ", "))
	}
}

// outside reports whether a ratio to the reference lies beyond the
// reference's own spread s (largest/smallest over the rounds): above s
// or below 1/s.
func outside(ratio, s float64) bool { return ratio > s || ratio*s < 1 }

// conformanceRow is the row of figure f; marks counts each variant's
// ratios and those outside the reference's spread.
func conformanceRow(f results.Figure, rounds []round, variants []string, marks []outsideCount) []string {
	var refs []float64
	for _, r := range rounds {
		if v, ok := r.ref[f.Name]; ok {
			refs = append(refs, v)
		}
	}
	s, hasSpread := spreadOf(refs)
	row := []string{f.Label, f.Unit, num(results.Median(refs)), "-"}
	if hasSpread {
		row[3] = fmt.Sprintf("%.2f", s)
	}
	for i, v := range variants {
		var vals, ratios []float64
		for _, r := range rounds {
			x, ok := r.variants[v][f.Name]
			if !ok {
				continue
			}
			vals = append(vals, x)
			if ref, ok := r.ref[f.Name]; ok && ref != 0 {
				ratios = append(ratios, x/ref)
			}
		}
		if len(vals) == 0 {
			row = append(row, "-", "-")
			continue
		}
		ratio := "-"
		if len(ratios) > 0 {
			med := results.Median(ratios)
			ratio = fmt.Sprintf("%.2f [%.2f–%.2f]", med, slices.Min(ratios), slices.Max(ratios))
			if hasSpread {
				marks[i].ratios++
				marks[i].chance += chanceOutside(len(refs), len(ratios))
				if outside(med, s) {
					marks[i].outside++
					ratio += " *"
				}
			}
		}
		row = append(row, num(results.Median(vals)), ratio)
	}
	return row
}

// readRound reads one round directory: the reference code's output (prefix
// ref) and every results file <variant>.txt, folded. A variant whose setup
// differs from the reference code's is refused; a run seen in an earlier
// round is left out of this one, with a note.
func readRound(c results.Conformer, dir string, list []results.Suite, seen *seenRuns) (round, []results.Figure, error) {
	r := round{name: filepath.Base(dir), ref: map[string]float64{}, variants: map[string]map[string]float64{}}
	ref, err := c.ReadReference(filepath.Join(dir, "ref"))
	if err != nil {
		return r, nil, err
	}
	for _, f := range ref.Figures {
		if err := f.CheckReference(); err != nil {
			return r, nil, fmt.Errorf("%s: reference figure %v", dir, err)
		}
	}
	if first, ok := seen.ref[fmt.Sprint(ref.Figures)]; ok {
		seen.notes = append(seen.notes, fmt.Sprintf("%s: the reference code's output repeats %s's (the same figures): counted once", dir, first))
	} else {
		seen.ref[fmt.Sprint(ref.Figures)] = dir
		for _, f := range ref.Figures {
			r.ref[f.Name] = f.Value
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	for _, path := range files {
		folded, err := foldOne(c, path, list)
		if err != nil {
			return r, nil, err
		}
		run := c.Conformance(folded)
		if d := results.SetupDiffers(run.Setup, ref.Setup); d != nil {
			return r, nil, fmt.Errorf("%s is not comparable with the reference code's run beside it: %s", path, strings.Join(d, ", "))
		}
		if first := seen.beff.Again(folded.Source()); first != nil {
			seen.notes = append(seen.notes, results.RepeatNote(folded.Source(), first))
			continue
		}
		m := map[string]float64{}
		for _, f := range run.Figures {
			m[f.Name] = f.Value
		}
		r.variants[strings.TrimSuffix(filepath.Base(path), ".txt")] = m
	}
	if len(files) == 0 {
		return r, nil, fmt.Errorf("%s: no beff results file (<variant>.txt)", dir)
	}
	return r, ref.Figures, nil
}

// foldOne folds the only run of suite c in the results file path.
func foldOne(c results.Conformer, path string, list []results.Suite) (results.Folded, error) {
	inputs, err := foldFiles([]string{path}, list, false)
	if err != nil {
		return nil, err
	}
	var runs []results.Folded
	for _, f := range inputs[0].folded {
		if results.Same(f.Source().Suite, c) {
			runs = append(runs, f)
		}
	}
	if len(runs) != 1 {
		return nil, fmt.Errorf("%s: %d runs of %s, want 1", path, len(runs), c.ID().Name)
	}
	return runs[0], nil
}

// roundNumber is k of a directory round-<k> (0 if it is not a number).
func roundNumber(dir string) int {
	k, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(dir), "round-"))
	return k
}

// spreadOf is largest/smallest of v; false for fewer than two values (or one not above 0).
func spreadOf(v []float64) (float64, bool) {
	if len(v) < 2 || slices.Min(v) <= 0 {
		return 0, false
	}
	return slices.Max(v) / slices.Min(v), true
}

func num(v float64) string { return results.Num(v, 4, 1) }

// chanceOutside is the probability that the median of nratio ratios lies
// outside the spread of nref reference values when beff's figures and the
// reference's are drawn alike, round by round independently, log-normal:
// about 39% for 2 rounds, 2.7% for 5, 0.03% for 10 (docs/reference.md). It
// is estimated from a fixed sequence of draws, the same on every call;
// beyond 30 values it is taken as for 30 (below 1e-6).
func chanceOutside(nref, nratio int) float64 {
	nref, nratio = min(nref, 30), min(nratio, nref, 30)
	if nref < 2 || nratio < 1 {
		return 0
	}
	key := [2]int{nref, nratio}
	chanceMu.Lock()
	defer chanceMu.Unlock()
	if p, ok := chanceMemo[key]; ok {
		return p
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ref, d := make([]float64, nref), make([]float64, nratio)
	out := 0
	for range chanceTrials {
		for i := range ref {
			ref[i] = rng.NormFloat64()
		}
		for i := range d {
			d[i] = rng.NormFloat64() - ref[i]
		}
		spread := slices.Max(ref) - slices.Min(ref)
		if med := results.Median(d); med > spread || med < -spread {
			out++
		}
	}
	p := float64(out) / chanceTrials
	chanceMemo[key] = p
	return p
}

// chanceTrials is the number of draws chanceOutside estimates from.
const chanceTrials = 20000

// chanceMemo keeps chanceOutside's estimates, under chanceMu.
var (
	chanceMemo = map[[2]int]float64{}
	chanceMu   sync.Mutex
)
