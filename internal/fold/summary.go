package fold

import (
	"bufio"
	"fmt"
	"io"
	"slices"

	"golang.org/x/perf/benchfmt"
)

// summaryUnits are the directions of the units of the folded b_eff
// figures; ioUnits those the b_eff_io figures add.
var (
	summaryUnits = []struct{ unit, better string }{
		{"MB/s", "higher"},
		{"us", "lower"},
		{"B/F", "higher"},
	}
	ioUnits = []struct{ unit, better string }{
		{"MB/s", "higher"},
		{"min", "lower"},
	}
)

// WriteSummary writes the figures of the b_eff protocols ps and the
// b_eff_io protocols ios as benchfmt: Unit lines giving each unit's
// direction, then per protocol one line BenchmarkBeffFold/fig=<name> or
// BenchmarkBeffIOFold/fig=<name> with 1 iteration per figure (see
// Protocol.Figures and IOProtocol.Figures), so that benchstat compares
// b_eff, b_eff_io and their companions across files. The b_eff figures
// come first.
func WriteSummary(w io.Writer, ps []*Protocol, ios []*IOProtocol) error {
	bw := benchfmt.NewWriter(w)
	var units []struct{ unit, better string }
	if len(ps) > 0 || len(ios) == 0 {
		units = append(units, summaryUnits...)
	}
	if len(ios) > 0 {
		for _, u := range ioUnits {
			if !slices.Contains(units, u) {
				units = append(units, u)
			}
		}
	}
	for _, u := range units {
		err := bw.Write(&benchfmt.UnitMetadata{
			UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u.unit, Key: "better"},
			OrigUnit:        u.unit, Value: u.better,
		})
		if err != nil {
			return err
		}
	}
	write := func(base string, figs []Figure) error {
		for _, f := range figs {
			err := bw.Write(&benchfmt.Result{
				Name:   benchfmt.Name(base + "/fig=" + f.Name),
				Iters:  1,
				Values: []benchfmt.Value{{Value: f.Value, Unit: f.Unit}},
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	for _, p := range ps {
		if err := write(FoldName, p.Figures()); err != nil {
			return err
		}
	}
	for _, p := range ios {
		if err := write(IOFoldName, p.Figures()); err != nil {
			return err
		}
	}
	return nil
}

// WriteAppendix writes what fold -append adds to the results file f: a
// blank line, a line "key:" for each configuration key in effect at the
// end of f, which clears it, and the summary of ps and ios, in one block.
// Without configuration, the figures of different files fall into one
// benchstat table, so `benchstat a.txt b.txt` compares b_eff and b_eff_io
// themselves rather than splitting the files by date or seed.
func WriteAppendix(w io.Writer, f *File, ps []*Protocol, ios []*IOProtocol) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw)
	// benchfmt.Writer only clears keys it has written itself; these keys
	// come from the file, so the lines are written here.
	for _, k := range f.ConfigKeys {
		fmt.Fprintf(bw, "%s:\n", k)
	}
	if err := WriteSummary(bw, ps, ios); err != nil {
		return err
	}
	return bw.Flush()
}
