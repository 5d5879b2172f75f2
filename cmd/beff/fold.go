package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/beff-suite/beff/internal/compare"
	"github.com/beff-suite/beff/internal/results"
)

const foldUsage = `usage: beff fold [suite flags] [-append | -json] FILE...

Fold reads the benchfmt output of %s from each FILE and
prints, for every run in it, the protocol of its suite: a line
"<figure> = <value> MB/s" (b_eff, b_eff_io), a line VALID or NOT VALID:
<reasons>, the figures, notes and tables; then the folded figures of every
run as benchfmt lines Benchmark<Suite>Fold/fig=<name>. A file written with
-test.count=N holds N runs of each suite it ran.

It refuses input without a run, incomplete runs (a measurement missing)
and restricted runs (b_eff with beff-patterns: b_eff needs every
ring and random pattern).

With -json it prints instead one JSON document (schema beff-fold/1, see
docs/fold-json.md): per file and run the configuration, validity, the
folded figures, every measurement with its metrics and the suite's details
(the pattern tables of b_eff, the partitions of b_eff_io). Numbers that are
not finite are written as null. -json cannot be combined with -append.

Flags:
`

// An input is one file to fold: its bytes, what was read and the folded
// runs, grouped by suite. Folded leaves out the runs that repeat an
// earlier input's (Repeats says which); All holds every run of the file,
// for its appendix.
type input struct {
	data    []byte
	file    *results.File
	folded  []results.Folded
	all     []results.Folded
	repeats []string
}

// foldMain is the fold command.
func foldMain(stdout, stderr io.Writer, args []string) int {
	list := suites()
	fs := newFlags("beff fold", fmt.Sprintf(foldUsage, benchmarks(list)), stderr)
	appendFlag := fs.Bool("append", false, "also append the folded figures to each FILE (only if every run folds)")
	jsonFlag := fs.Bool("json", false, "print the folded runs as one JSON document (docs/fold-json.md) instead of the protocols")
	findingsFlag := fs.Bool("exit-findings", false, fmt.Sprintf("exit with code %d when a run names something slow in the machine (links: a slow node or link), after printing as usual", exitFindings))
	for _, s := range list {
		if f, ok := s.(results.FlagSuite); ok {
			f.AddFlags(fs)
		}
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if code, ok := checkFoldFlags(fs, list, *jsonFlag, *appendFlag, stderr); !ok {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "beff fold: %v\n", err)
		return exitFail
	}
	refuse := func(err error) int {
		fmt.Fprintf(stderr, "beff fold: %v\n", err)
		return exitBadInput
	}
	// Fold everything before writing anything.
	inputs, err := foldFiles(fs.Args(), list, *appendFlag)
	if err != nil {
		return refuse(err)
	}
	for _, in := range inputs {
		for _, n := range in.repeats {
			fmt.Fprintf(stderr, "beff fold: %s\n", n)
		}
	}
	merged, err := results.MergeRuns(list, allFolded(inputs))
	if err != nil {
		return refuse(err)
	}
	if *jsonFlag { // straight out, run by run: the document of a large input is large too
		if err := writeFoldJSON(stdout, inputs, merged); err != nil {
			return fail(err)
		}
		return findingsCode(*findingsFlag, inputs)
	}
	var out bytes.Buffer
	spreads, noSpreads := launchSpreads(list, inputs)
	err = writeProtocols(&out, list, inputs, merged, spreads, noSpreads)
	if err == nil && *appendFlag {
		err = appendFigures(fs.Args(), list, inputs)
	}
	if err == nil {
		_, err = stdout.Write(out.Bytes())
	}
	if err != nil {
		return fail(err)
	}
	return findingsCode(*findingsFlag, inputs)
}

// findingsCode is the exit code of a fold that printed: exitFindings
// when asked for and a run names something slow, else exitOK.
func findingsCode(asked bool, inputs []input) int {
	if asked {
		for _, p := range allFolded(inputs) {
			if f, ok := p.(results.Finder); ok && len(f.FindingLines()) > 0 {
				return exitFindings
			}
		}
	}
	return exitOK
}

// checkFoldFlags checks the arguments and the suites' flags.
func checkFoldFlags(fs *flag.FlagSet, list []results.Suite, jsonFlag, appendFlag bool, stderr io.Writer) (int, bool) {
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "beff fold: no input files")
		fs.Usage()
		return exitBadInput, false
	}
	if jsonFlag && appendFlag {
		fmt.Fprintln(stderr, "beff fold: -json and -append cannot be used together")
		fs.Usage()
		return exitBadInput, false
	}
	for _, s := range list {
		if f, ok := s.(results.FlagSuite); ok {
			if err := f.CheckFlags(); err != nil {
				fmt.Fprintf(stderr, "beff fold: %v\n", err)
				return exitBadInput, false
			}
		}
	}
	return 0, true
}

// foldFiles reads and folds every file; with appending, a file that
// already holds folded figures is refused. A run that repeats an earlier
// one (a file named twice, a link, a copy, whatever its configuration
// lines) is folded for its file's appendix but counted once.
func foldFiles(paths []string, list []results.Suite, appending bool) ([]input, error) {
	var inputs []input
	seen := results.Seen{}
	if appending {
		if err := sameFileTwice(paths); err != nil {
			return nil, err
		}
	}
	for _, path := range paths {
		data, err := results.ReadInput(path)
		if err != nil {
			return nil, err
		}
		f, err := results.Read(bytes.NewReader(data), path, list)
		if err != nil {
			return nil, err
		}
		if appending {
			if lines := foldedLines(f, list); lines != "" {
				return nil, fmt.Errorf("%s: already holds folded figures (%s); not appending again", path, lines)
			}
		}
		in, err := foldInput(data, f, list, seen)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, in)
	}
	return inputs, nil
}

// sameFileTwice refuses a file named twice (by another path or a link):
// its figures would be appended twice.
func sameFileTwice(paths []string) error {
	infos := make([]os.FileInfo, len(paths))
	for i, p := range paths {
		infos[i], _ = os.Stat(p)
		for j := range i {
			if infos[i] != nil && infos[j] != nil && os.SameFile(infos[i], infos[j]) {
				return fmt.Errorf("%s and %s are one file: name it once to append to it", paths[j], p)
			}
		}
	}
	return nil
}

// foldInput folds every run of f, suite by suite, and counts those seen
// before once.
func foldInput(data []byte, f *results.File, list []results.Suite, seen results.Seen) (input, error) {
	in := input{data: data, file: f}
	for _, s := range list {
		for _, r := range f.RunsOf(s) {
			p, err := s.Fold(r)
			if err != nil {
				return in, err
			}
			in.all = append(in.all, p)
			if first := seen.Again(r); first != nil {
				in.repeats = append(in.repeats, results.RepeatNote(r, first))
				continue
			}
			in.folded = append(in.folded, p)
		}
	}
	return in, nil
}

// foldedLines says which folded lines f already holds ("" for none).
func foldedLines(f *results.File, list []results.Suite) string {
	var s []string
	for _, su := range list {
		if n := f.FoldedLines(su); n > 0 {
			s = append(s, fmt.Sprintf("%d Benchmark%s", n, su.ID().FoldBench()))
		}
	}
	if s == nil {
		return ""
	}
	return strings.Join(s, " and ") + " lines"
}

// allFolded lists the folded runs of every input in order.
func allFolded(inputs []input) []results.Folded {
	var all []results.Folded
	for _, in := range inputs {
		all = append(all, in.folded...)
	}
	return all
}

// writeFoldJSON writes the JSON document of the inputs and the merged
// runs.
func writeFoldJSON(w io.Writer, inputs []input, merged []results.Folded) error {
	files := make([]results.FoldedFile, len(inputs))
	for i, in := range inputs {
		files[i] = results.FoldedFile{Name: in.file.Name, Folded: in.folded}
	}
	return results.WriteJSONFolded(w, files, merged)
}

// writeProtocols writes the protocol of every folded run and of every
// merged one, the figures across launches, then the summary of the runs.
func writeProtocols(w io.Writer, list []results.Suite, inputs []input, merged []results.Folded, spreads []compare.Spread, noSpreads string) error {
	if err := writeTexts(w, inputs, merged, spreads, noSpreads); err != nil {
		return err
	}
	io.WriteString(w, "\n")
	return results.WriteSummary(w, list, allFolded(inputs))
}

// writeTexts writes the protocols of the folded runs, the merged runs and
// the figures across the launches.
func writeTexts(w io.Writer, inputs []input, merged []results.Folded, spreads []compare.Spread, noSpreads string) error {
	all := allFolded(inputs)
	for i, p := range append(append([]results.Folded(nil), all...), merged...) {
		if i > 0 {
			io.WriteString(w, "\n\n")
		}
		if err := p.WriteText(w); err != nil {
			return err
		}
	}
	if err := compare.WriteSpreads(w, spreads); err != nil {
		return err
	}
	if noSpreads != "" {
		fmt.Fprintf(w, "\nNo table across the launches: %s\n", noSpreads)
	}
	return nil
}

// protocols reads and folds the files paths and writes their protocols
// for people (not the benchfmt lines of the figures); it returns the
// folded runs.
func protocols(w io.Writer, paths []string) ([]results.Folded, error) {
	list := suites()
	inputs, err := foldFiles(paths, list, false)
	if err != nil {
		return nil, err
	}
	merged, err := results.MergeRuns(list, allFolded(inputs))
	if err != nil {
		return nil, err
	}
	for _, in := range inputs {
		for _, n := range in.repeats {
			fmt.Fprintf(w, "%s\n\n", n)
		}
	}
	spreads, noSpreads := launchSpreads(list, inputs)
	return allFolded(inputs), writeTexts(w, inputs, merged, spreads, noSpreads)
}

// launchSpreads are the folded figures across the launches of the files,
// for the suites with two launches or more, when the runs of each suite
// share one configuration (whatever their draws); otherwise none, and why.
func launchSpreads(list []results.Suite, inputs []input) ([]compare.Spread, string) {
	type launch struct {
		file   string
		launch int
	}
	seen := map[results.Suite]map[launch]bool{}
	several := false
	for _, in := range inputs {
		for _, p := range in.folded {
			r := p.Source()
			if seen[r.Suite] == nil {
				seen[r.Suite] = map[launch]bool{}
			}
			seen[r.Suite][launch{r.File, r.Launch}] = true
			several = several || len(seen[r.Suite]) > 1
		}
	}
	if !several {
		return nil, ""
	}
	files := make([]*results.File, len(inputs))
	for i, in := range inputs {
		files[i] = in.file
	}
	side, err := compare.FromFiles("fold", files, list)
	if err != nil {
		return nil, strings.TrimPrefix(err.Error(), "fold: ")
	}
	if m := side.Mixed(); m != "" {
		return nil, "the launches are not of one system (" + m + "): compare them with beff compare"
	}
	return compare.Spreads(side), ""
}

// appendFigures appends each input's folded figures to its file.
func appendFigures(paths []string, list []results.Suite, inputs []input) error {
	bufs := make([][]byte, len(inputs))
	for i, in := range inputs {
		var b bytes.Buffer
		if len(in.data) > 0 && in.data[len(in.data)-1] != '\n' {
			b.WriteByte('\n')
		}
		if err := results.WriteAppendix(&b, in.file, list, in.all); err != nil {
			return err
		}
		bufs[i] = b.Bytes()
	}
	return appendAll(paths, bufs)
}

// appendAll appends bufs[i] to paths[i]. It opens every file before it
// writes any, so that a file that cannot be opened leaves all unchanged,
// and writes each buffer with a single call.
func appendAll(paths []string, bufs [][]byte) error {
	files := make([]*os.File, len(paths))
	defer func() {
		for _, f := range files {
			if f != nil {
				f.Close()
			}
		}
	}()
	for i, p := range paths {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return fmt.Errorf("appending: %w", err)
		}
		files[i] = f
	}
	for i, f := range files {
		if _, err := f.Write(bufs[i]); err != nil {
			return fmt.Errorf("appending to %s: %w", paths[i], err)
		}
		err := f.Close()
		files[i] = nil
		if err != nil {
			return fmt.Errorf("appending to %s: %w", paths[i], err)
		}
	}
	return nil
}
