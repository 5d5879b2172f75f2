package fold

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// Reference names the reference code whose output ReadReference reads.
func (*Suite) Reference() string { return "SKaMPI 5" }

// The output of SKaMPI 5 (<prefix>.sko): a block per measurement,
//
//	# begin result "<name>"
//	[<var>= <value> …] <bytes> <mean µs> <standard error µs> <repetitions> [<µs per process> …]
//	# end result "<name>"
//
// For beff conformance the blocks are named after beff's operations
// (tools/skampi5/skampi5.ski), so that a line's figure is <op>/L=<bytes>.
// SKaMPI prints times with one decimal, in µs unless set_unit changed the
// unit; the suite file then prints "unit ns" (a line #P[<rank>] unit ns).
var (
	skoBegin = regexp.MustCompile(`^#?\s*begin result "([^"]*)"`)
	skoEnd   = regexp.MustCompile(`^#?\s*end result "`)
	skoVar   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=$`)
	skoUnit  = regexp.MustCompile(`^#P\[\d+\]\s+unit\s+(s|ms|us|ns)\s*$`)
	// any line that names a unit: one skoUnit does not know is refused,
	// not read as µs
	skoAnyUnit = regexp.MustCompile(`(?i)^#.*\bunit\b`)
)

// skoUnits are the units in µs.
var skoUnits = map[string]float64{"s": 1e6, "ms": 1e3, "us": 1, "ns": 1e-3}

// ReadReference reads the figures of a run of SKaMPI 5 from prefix.sko:
// one per result line of a block named after one of beff's operations, its
// mean in µs (the ping-pong's round trip halved, as beff reports it);
// its setup: the processes, as many as a collective's result lines have
// times per process. Blocks of other names are passed over; a file without
// a figure is an error, and so is a unit line of a unit it does not know.
func (*Suite) ReadReference(prefix string) (results.Conformance, error) {
	path := prefix + ".sko"
	var figs []results.Figure
	op := -1    // the operation of the block being read, -1 outside
	unit := 1.0 // µs per unit of the times
	procs := 0
	err := results.ScanFile(path, func(line string, _ int) error {
		if m := skoUnit.FindStringSubmatch(line); m != nil {
			unit = skoUnits[m[1]]
			return nil
		}
		if skoAnyUnit.MatchString(line) {
			return fmt.Errorf("%q: a unit beff does not know (it knows s, ms, us and ns as the suite file prints them: unit ns)", strings.TrimSpace(line))
		}
		if m := skoBegin.FindStringSubmatch(line); m != nil {
			op = slices.IndexFunc(skampi.Ops, func(o skampi.Op) bool { return o.Name == m[1] })
			return nil
		}
		if skoEnd.MatchString(line) {
			op = -1
			return nil
		}
		if op < 0 || strings.HasPrefix(strings.TrimSpace(line), "#") || strings.TrimSpace(line) == "" {
			return nil
		}
		f, perProc, err := skoFigure(skampi.Ops[op], strings.Fields(line))
		if err != nil {
			return err
		}
		if skampi.Ops[op].Pattern != skampi.PingPong {
			procs = max(procs, perProc)
		}
		f.Value *= unit
		figs = append(figs, f)
		return nil
	})
	if err != nil {
		return results.Conformance{}, err
	}
	if len(figs) == 0 {
		return results.Conformance{}, fmt.Errorf("%s: no result of an operation beff knows: did SKaMPI 5 run a suite of tools/skampi5?", path)
	}
	return results.Conformance{Figures: figs, Setup: results.ReferenceSetup(procs)}, nil
}

// skoFigure reads one result line of operation o: its figure and the
// number of times per process that follow.
func skoFigure(o skampi.Op, fields []string) (results.Figure, int, error) {
	for len(fields) >= 2 && skoVar.MatchString(fields[0]) {
		fields = fields[2:] // a loop variable and its value
	}
	if len(fields) < 4 {
		return results.Figure{}, 0, fmt.Errorf("want <bytes> <mean> <error> <repetitions>, got %q", strings.Join(fields, " "))
	}
	l, err1 := strconv.ParseInt(fields[0], 10, 64)
	us, err2 := strconv.ParseFloat(fields[1], 64)
	if err1 != nil || err2 != nil || l < 0 || !(us >= 0) || math.IsInf(us, 0) {
		return results.Figure{}, 0, fmt.Errorf("%q %q: not a length in bytes and a time in µs", fields[0], fields[1])
	}
	if o.Pattern == skampi.PingPong && !o.Exchange {
		us /= 2 // SKaMPI 5 reports the round trip
	}
	return opFigure(o, l, us), len(fields) - 4, nil
}

// opFigure is the figure of operation o at length l.
func opFigure(o skampi.Op, l int64, us float64) results.Figure {
	name, label := o.Name, o.Name
	if o.Vary&skampi.VaryLength != 0 {
		name += fmt.Sprintf("/L=%d", l)
		label += fmt.Sprintf(", %d B", l)
	}
	if o.Pattern == skampi.PingPong && !o.Exchange {
		label += " (half round trip)"
	}
	return results.Figure{Name: name, Label: label, Value: us, Unit: "us"}
}

// Conformance returns the figures of a folded SKaMPI run that SKaMPI 5
// prints: each operation's mean at each length, on all processes of the
// job (ping-pong: on its pair), the first suite's where several measure
// it; and its setup.
func (*Suite) Conformance(f results.Folded) results.Conformance {
	p := f.(*Folded)
	var figs []results.Figure
	seen := map[string]bool{}
	for _, c := range p.Curves {
		for _, m := range c.Rows {
			if !m.Has || (c.Op.Pattern != skampi.PingPong && m.Procs != p.Config.N) {
				continue
			}
			fig := opFigure(c.Op, m.Len, m.Us)
			if !seen[fig.Name] {
				seen[fig.Name] = true
				figs = append(figs, fig)
			}
		}
	}
	return results.Conformance{Figures: figs, Setup: results.CommonSetup(&p.Config.Common)}
}

// Round is a round of beff conformance: SKaMPI 5 as built, with the input
// skampi5.ski of the files' directory and its output at the prefix
// (.sko); beff with the suite files that take beff's rules
// (beff-default.yaml) and SKaMPI 5's settings (beff-skampi5.yaml).
func (*Suite) Round(p results.RoundSettings) results.RoundPlan {
	return results.RoundPlan{
		Ref: []string{"-i", filepath.Join(p.Files, "skampi5.ski"), "-o", p.Prefix + ".sko"},
		Variants: []results.Variant{
			{Name: "default", Label: "beff default", Flags: []string{"-skampi.suites=" + filepath.Join(p.Files, "beff-default.yaml")}},
			{Name: "reference", Label: "beff with SKaMPI 5's settings", Flags: []string{"-skampi.suites=" + filepath.Join(p.Files, "beff-skampi5.yaml")}},
		},
	}
}
