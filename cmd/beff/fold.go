package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/beff-suite/beff/internal/fold"
)

const foldUsage = `usage: beff fold [-rmax GFLOPS] [-append | -json] FILE...

Fold reads the benchfmt output of BenchmarkBeff and BenchmarkBeffIO from each
FILE and prints, for every run in it, the b_eff protocol (starting with
"b_eff = <value> MB/s") or the b_eff_io protocol (starting with
"b_eff_io = <value> MB/s" and a line VALID or NOT VALID: <reasons>),
followed by the folded figures as benchfmt lines BenchmarkBeffFold/fig=<name>
and BenchmarkBeffIOFold/fig=<name>. A file written with -test.count=N holds
N runs.

It refuses input that holds neither, b_eff runs with missing measurements,
partial b_eff runs (beff-patterns): b_eff needs every ring and random
pattern, and incomplete b_eff_io runs (a pattern, total or phase line
missing).

With -json it prints instead one JSON document (schema beff-fold/1, see
docs/fold-json.md): per file and run the configuration, validity, the
folded figures, every measurement with its metrics, the pattern tables of
b_eff and the partitions of b_eff_io. Numbers that are not finite are
written as null. -json cannot be combined with -append.

Flags:
`

// foldMain is the fold command.
func foldMain(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("beff fold", foldUsage, stderr)
	rmax := fs.Float64("rmax", 0, "Linpack Rmax of the system in `GFLOPS`, for the balance factor b_eff/Rmax (overrides beff-rmax-gflops)")
	appendFlag := fs.Bool("append", false, "also append the folded figures to each FILE (only if every run folds)")
	jsonFlag := fs.Bool("json", false, "print the folded runs as one JSON document (docs/fold-json.md) instead of the protocols")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "beff fold: no input files")
		fs.Usage()
		return exitUsage
	}
	if *jsonFlag && *appendFlag {
		fmt.Fprintln(stderr, "beff fold: -json and -append cannot be used together")
		fs.Usage()
		return exitUsage
	}
	if math.IsNaN(*rmax) || math.IsInf(*rmax, 0) || *rmax < 0 {
		fmt.Fprintf(stderr, "beff fold: -rmax=%v: Rmax must be a positive number of GFlop/s\n", *rmax)
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "beff fold: %v\n", err)
		return exitFail
	}

	// Fold everything before writing anything.
	type input struct {
		data   []byte
		file   *fold.File
		protos []*fold.Protocol
		ios    []*fold.IOProtocol
	}
	var inputs []input
	var all []*fold.Protocol
	var allIO []*fold.IOProtocol
	for _, path := range fs.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			return fail(err)
		}
		f, err := fold.Read(bytes.NewReader(data), path)
		if err != nil {
			return fail(err)
		}
		in := input{data: data, file: f}
		for _, r := range f.Runs {
			if *rmax > 0 {
				r.Config.Rmax = *rmax
			}
			p, err := fold.Fold(r)
			if err != nil {
				return fail(err)
			}
			in.protos = append(in.protos, p)
		}
		for _, r := range f.IORuns {
			p, err := fold.FoldIO(r)
			if err != nil {
				return fail(err)
			}
			in.ios = append(in.ios, p)
		}
		if *appendFlag && f.Folded+f.FoldedIO > 0 {
			return fail(fmt.Errorf("%s: already holds folded figures (%s); not appending again", path, foldedLines(f)))
		}
		inputs = append(inputs, in)
		all = append(all, in.protos...)
		allIO = append(allIO, in.ios...)
	}

	var out bytes.Buffer
	if *jsonFlag {
		files := make([]fold.JSONFile, len(inputs))
		for i, in := range inputs {
			files[i] = fold.NewJSONFile(in.file.Name, in.protos, in.ios)
		}
		if err := fold.WriteJSON(&out, files); err != nil {
			return fail(err)
		}
		if _, err := stdout.Write(out.Bytes()); err != nil {
			return fail(err)
		}
		return exitOK
	}
	texts := 0
	sep := func() {
		if texts > 0 {
			out.WriteString("\n\n")
		}
		texts++
	}
	for _, in := range inputs {
		for _, p := range in.protos {
			sep()
			if err := fold.WriteText(&out, p); err != nil {
				return fail(err)
			}
		}
		for _, p := range in.ios {
			sep()
			if err := fold.WriteIOText(&out, p); err != nil {
				return fail(err)
			}
		}
	}
	out.WriteString("\n")
	if err := fold.WriteSummary(&out, all, allIO); err != nil {
		return fail(err)
	}

	if *appendFlag {
		bufs := make([][]byte, len(inputs))
		for i, in := range inputs {
			var b bytes.Buffer
			if len(in.data) > 0 && in.data[len(in.data)-1] != '\n' {
				b.WriteByte('\n')
			}
			if err := fold.WriteAppendix(&b, in.file, in.protos, in.ios); err != nil {
				return fail(err)
			}
			bufs[i] = b.Bytes()
		}
		if err := appendAll(fs.Args(), bufs); err != nil {
			return fail(err)
		}
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		return fail(err)
	}
	return exitOK
}

// foldedLines says which folded lines f already holds.
func foldedLines(f *fold.File) string {
	var s []string
	if f.Folded > 0 {
		s = append(s, fmt.Sprintf("%d BenchmarkBeffFold", f.Folded))
	}
	if f.FoldedIO > 0 {
		s = append(s, fmt.Sprintf("%d BenchmarkBeffIOFold", f.FoldedIO))
	}
	return strings.Join(s, " and ") + " lines"
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
