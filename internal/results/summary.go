package results

import (
	"bufio"
	"fmt"
	"io"
	"slices"

	"golang.org/x/perf/benchfmt"
)

// WriteSummary writes the figures of the folded runs as benchfmt: Unit
// lines giving the direction of each unit of the suites that have runs,
// then per run one line Benchmark<FoldBench>/fig=<name> with 1 iteration
// per figure (Folded.Figures), so that benchstat compares the folded
// figures across files. The runs come grouped by suite, in the order of
// suites.
func WriteSummary(w io.Writer, suites []Suite, folded []Folded) error {
	bw := benchfmt.NewWriter(w)
	for _, u := range summaryUnits(suites, folded) {
		err := bw.Write(&benchfmt.UnitMetadata{
			UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u.Name, Key: "better"},
			OrigUnit:        u.Name, Value: u.Better,
		})
		if err != nil {
			return err
		}
	}
	for _, s := range suites {
		for _, f := range folded {
			if !Same(f.Source().Suite, s) {
				continue
			}
			for _, fig := range f.Figures() {
				err := bw.Write(&benchfmt.Result{
					Name:   benchfmt.Name(s.ID().FoldBench() + "/fig=" + fig.Name),
					Iters:  1,
					Values: []benchfmt.Value{{Value: fig.Value, Unit: fig.Unit}},
				})
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// summaryUnits are the units of the suites with folded runs, each once, in
// the order of suites (the first suite's without any run).
func summaryUnits(suites []Suite, folded []Folded) []Unit {
	var units []Unit
	for _, s := range suites {
		if !slices.ContainsFunc(folded, func(f Folded) bool { return Same(f.Source().Suite, s) }) {
			continue
		}
		for _, u := range s.ID().FoldUnits {
			if !slices.Contains(units, u) {
				units = append(units, u)
			}
		}
	}
	if units == nil && len(suites) > 0 {
		units = suites[0].ID().FoldUnits
	}
	return units
}

// WriteAppendix writes what fold -append adds to the results file f: a
// blank line, a line "key:" for each configuration key in effect at the
// end of f, which clears it, and the summary of the folded runs, in one
// block. Without configuration, the figures of different files fall into
// one benchstat table, so `benchstat a.txt b.txt` compares the folded
// figures themselves rather than splitting the files by date or seed.
func WriteAppendix(w io.Writer, f *File, suites []Suite, folded []Folded) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw)
	// benchfmt.Writer only clears keys it has written itself; these keys
	// come from the file, so the lines are written here.
	for _, k := range f.ConfigKeys {
		fmt.Fprintf(bw, "%s:\n", k)
	}
	if err := WriteSummary(bw, suites, folded); err != nil {
		return err
	}
	return bw.Flush()
}
