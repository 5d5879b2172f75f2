package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/beff-suite/beff/internal/compare"
)

const compareUsage = `usage: beff compare [-experiments all|changed|none] A B [C...]

Compare reads the benchfmt output of %s of each
side A, B, ... (a results file, several joined with commas, e.g.
base1.txt,base2.txt, or a directory of them: a machine's runs) and prints
benchstat-style tables, per suite: its folded figures (b_eff, b_eff_io,
SKaMPI's, congestion's), and every experiment (each measurement line by
name). A table at the top shows how the sides' configurations differ
(machine, MPI library, processes, Lmax, mode, T, seed, …).

One launch (one mpirun) is one sample: the median of its -test.count
runs. A cell is the median over the side's launches with its 95%%
confidence interval; every side after the first is compared with the
first: the change of the median, or "~" when the Mann–Whitney U test gives
p ≥ 0.05, and whether the change is better or worse (MB/s: higher is
better, µs: lower is better). Where the sides have too few launches for
the test to ever give p < 0.05 (one against one, 3 against 3), the change
is shown in percent, marked "no test".

The folded figures pool across launches of different b_eff seeds (the
random patterns are a sample of the definition); the experiments of the
random patterns pool only within one seed, and a note says what was left
out.

Flags:
`

// compareMain is the compare command.
func compareMain(stdout, stderr io.Writer, args []string) int {
	list := suites()
	fs := newFlags("beff compare", fmt.Sprintf(compareUsage, benchmarks(list)), stderr)
	experiments := fs.String("experiments", "all", "which experiment rows to show: `all`, changed (a significant change on some side) or none")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	switch *experiments {
	case "all", "changed", "none":
	default:
		fmt.Fprintf(stderr, "beff compare: -experiments=%s: want all, changed or none\n", *experiments)
		return exitBadInput
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(stderr, "beff compare: need at least two sides")
		fs.Usage()
		return exitBadInput
	}
	var sides []*compare.Side
	for i, arg := range fs.Args() {
		paths, err := splitSide(arg)
		if err != nil {
			fmt.Fprintf(stderr, "beff compare: %v\n", err)
			return exitBadInput
		}
		s, err := compare.Load(sideLabel(i), paths, list)
		if err != nil {
			fmt.Fprintf(stderr, "beff compare: %v\n", err)
			return exitBadInput
		}
		sides = append(sides, s)
	}
	compare.NoteShared(sides)
	var tables []*compare.Table
	for _, t := range compare.Compare(sides) {
		if t.Group.Experiments {
			switch *experiments {
			case "none":
				continue
			case "changed":
				if t = t.Changed(); len(t.Rows) == 0 && len(t.Notes) == 0 {
					continue
				}
			}
		}
		tables = append(tables, t)
	}
	var out bytes.Buffer
	if err := compare.WriteText(&out, sides, tables); err != nil {
		fmt.Fprintf(stderr, "beff compare: %v\n", err)
		return exitFail
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		fmt.Fprintf(stderr, "beff compare: %v\n", err)
		return exitFail
	}
	return exitOK
}

const gateUsage = `usage: beff gate [-experiments] [-figures NAMES] [-across-machines] -base A -new B -max-drop P

Gate compares side B with side A (each a results file, several joined
with commas, or a directory) and decides whether B got worse: a bandwidth
that dropped or a latency that rose by more than P percent. One launch
(one mpirun: a configuration block of a results file) is one sample, the
median of its -test.count runs; runs within one launch share its
placement and the machine's state, so they do not count as samples of
their own. Runs of different b_eff seeds pool (the random patterns are a
sample of the definition).

A folded figure (with -experiments, also every measurement line) FAILS
only when it got worse beyond doubt: its median over B's launches is
worse than over A's by more than P percent, every launch of B is worse
than every launch of A, the change exceeds the spread of either side (the
range of its launches in percent of their median), neither side's
launches fall into two modes, and chance explains such a separation in
any of the rows judged in under 5% of gates (for n and m launches and k
rows: k/C(n+m,n)). Exit codes (every code: beff help):
  0   ok: nothing worse by more than P% at the median
  13  FAIL: the offenders are listed
  14  INCONCLUSIVE: some median is worse by more than P%, but the
      launches cannot tell it from chance; each such row is listed with
      why (the launches overlap, fall into modes, the change is within
      the spread, or too few launches for the rows judged, with how many
      would do). Launch more often (make bench RUNS=8 AGAINST=…).
  2   refused: the sides are not the same configuration (the settings
      each suite names as deciding what it measures), not one machine
      and MPI library (unless -across-machines), a suite has too few
      launches on a side to ever reach p < 0.05 (4 against 4 can, 3
      against 3 cannot), B lacks a figure of A, a file holds a run cut
      short, or any other bad input.

Flags:
`

// gateMain is the gate command.
func gateMain(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("beff gate", gateUsage, stderr)
	baseFlag := fs.String("base", "", "the base side: a results `file`, or several joined with commas")
	newFlag := fs.String("new", "", "the new side: a results `file`, or several joined with commas")
	maxDrop := fs.Float64("max-drop", 0, "fail when something got significantly worse by more than `P` percent (required)")
	experiments := fs.Bool("experiments", false, "gate on every measurement line too, not only on the folded figures")
	figures := fs.String("figures", "", "gate on these folded figures only, `names` joined with commas (e.g. beff,beff-lmax,beffio)")
	across := fs.Bool("across-machines", false, "judge sides of different machines or MPI libraries (refused otherwise), and say so")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	usageErr := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "beff gate: "+format+"\n", args...)
		fs.Usage()
		return exitBadInput
	}
	switch {
	case fs.NArg() > 0:
		return usageErr("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	case *baseFlag == "":
		return usageErr("no -base")
	case *newFlag == "":
		return usageErr("no -new")
	case !isSet(fs, "max-drop"):
		return usageErr("no -max-drop")
	case !(*maxDrop >= 0) || math.IsInf(*maxDrop, 0):
		fmt.Fprintf(stderr, "beff gate: -max-drop=%v: want a percentage ≥ 0\n", *maxDrop)
		return exitBadInput
	}
	list := suites()
	var sides [2]*compare.Side
	for i, arg := range []string{*baseFlag, *newFlag} {
		label := [2]string{"base", "new"}[i]
		paths, err := splitSide(arg)
		if err != nil {
			fmt.Fprintf(stderr, "beff gate: -%s: %v\n", label, err)
			return exitBadInput
		}
		if sides[i], err = compare.Load(label, paths, list); err != nil {
			fmt.Fprintf(stderr, "beff gate: %v\n", err)
			return exitBadInput
		}
	}
	var only []string
	if *figures != "" {
		only = strings.Split(*figures, ",")
	}
	g, err := compare.Gate(sides[0], sides[1], compare.GateOptions{MaxDrop: *maxDrop, Experiments: *experiments, Figures: only, AcrossMachines: *across})
	if err != nil {
		fmt.Fprintf(stderr, "beff gate: refusing to decide: %v\n", err)
		return exitBadInput
	}
	var out bytes.Buffer
	if err := compare.WriteGate(&out, g); err != nil {
		fmt.Fprintf(stderr, "beff gate: %v\n", err)
		return exitFail
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		fmt.Fprintf(stderr, "beff gate: %v\n", err)
		return exitFail
	}
	switch {
	case g.Failed():
		return exitGateFail
	case g.Inconclusive():
		return exitInconclusive
	}
	return exitOK
}

// isSet reports whether the flag name was given.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// splitSide splits a side argument into its files: one path, or several
// joined with commas; a directory stands for its *.txt files (those of
// beff run -runs or -against).
func splitSide(arg string) ([]string, error) {
	paths := strings.Split(arg, ",")
	for _, p := range paths {
		if strings.TrimSpace(p) == "" {
			return nil, fmt.Errorf("%q: empty file name in a comma-separated list", arg)
		}
	}
	var files []string
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			files = append(files, p) // its reader names what is wrong
			continue
		}
		in, err := inputFiles([]string{p})
		if err != nil {
			return nil, err
		}
		files = append(files, in...)
	}
	return files, nil
}

// sideLabel names side i of compare: A, B, ..., Z, then 27, 28, ...
func sideLabel(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprint(i + 1)
}
