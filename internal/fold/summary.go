package fold

import (
	"bufio"
	"fmt"
	"io"

	"golang.org/x/perf/benchfmt"
)

// summaryUnits are the directions of the units of the folded figures.
var summaryUnits = []struct{ unit, better string }{
	{"MB/s", "higher"},
	{"us", "lower"},
	{"B/F", "higher"},
}

// WriteSummary writes the figures of the protocols ps as benchfmt: Unit
// lines giving each unit's direction, then per protocol one line
// BenchmarkBeffFold/fig=<name> with 1 iteration per figure (see
// Protocol.Figures), so that benchstat compares b_eff and its companions
// across files.
func WriteSummary(w io.Writer, ps []*Protocol) error {
	bw := benchfmt.NewWriter(w)
	for _, u := range summaryUnits {
		err := bw.Write(&benchfmt.UnitMetadata{
			UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u.unit, Key: "better"},
			OrigUnit:        u.unit, Value: u.better,
		})
		if err != nil {
			return err
		}
	}
	for _, p := range ps {
		for _, f := range p.Figures() {
			err := bw.Write(&benchfmt.Result{
				Name:   benchfmt.Name(FoldName + "/fig=" + f.Name),
				Iters:  1,
				Values: []benchfmt.Value{{Value: f.Value, Unit: f.Unit}},
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteAppendix writes what fold -append adds to the results file f: a
// blank line, a line "key:" for each configuration key in effect at the
// end of f, which clears it, and the summary of ps. Without configuration,
// the figures of different files fall into one benchstat table, so
// `benchstat a.txt b.txt` compares b_eff itself rather than splitting the
// files by date or seed.
func WriteAppendix(w io.Writer, f *File, ps []*Protocol) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw)
	// benchfmt.Writer only clears keys it has written itself; these keys
	// come from the file, so the lines are written here.
	for _, k := range f.ConfigKeys {
		fmt.Fprintf(bw, "%s:\n", k)
	}
	if err := WriteSummary(bw, ps); err != nil {
		return err
	}
	return bw.Flush()
}
