package fold

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beff"
)

// The figures per pattern that beff conformance sets beside the reference
// code's tables by pattern (its official path: the mean over the sizes of
// the best method's bandwidth) and by methods (the same mean per method),
// all for the whole pattern (MB/s on all processes). The random patterns
// of two runs are different draws: they are compared as one figure, the
// logarithmic average over them, as the reference code prints it.

// randomName stands for the random patterns, compared as one.
const randomName = "random"

// patFigure names the figure of a pattern's best method; with a method,
// the pattern's figure with that method; methodFigure names b_eff with
// one method.
func patFigure(name string) string { return "pat-" + name }
func patMethodFigure(name string, m beff.Method) string {
	return "pat-" + name + "-" + m.String()
}
func methodFigure(m beff.Method) string { return "beff-" + m.String() }

// patLabel is what a pattern's figure says to people.
func patLabel(name string) string {
	if name == randomName {
		return "random patterns, log. average"
	}
	return "pattern " + name
}

// patFigures returns the figures of one pattern: its best method's, then
// each method's (those in vals), in method order.
func patFigures(name string, best float64, perMethod map[beff.Method]float64) []results.Figure {
	var out []results.Figure
	if best > 0 {
		out = append(out, results.Figure{Name: patFigure(name), Label: patLabel(name), Value: best, Unit: "MB/s"})
	}
	for _, m := range beff.Methods {
		if v, ok := perMethod[m]; ok && v > 0 {
			out = append(out, results.Figure{Name: patMethodFigure(name, m), Label: patLabel(name) + ", " + m.String(), Value: v, Unit: "MB/s"})
		}
	}
	return out
}

// methodFigures returns b_eff per method, in method order.
func methodFigures(perMethod map[beff.Method]float64) []results.Figure {
	var out []results.Figure
	for _, m := range beff.Methods {
		if v, ok := perMethod[m]; ok && v > 0 {
			out = append(out, results.Figure{Name: methodFigure(m), Label: "b_eff, " + m.String() + " only", Value: v, Unit: "MB/s"})
		}
	}
	return out
}

// refMethodNames are the reference code's column heads of its methods.
var refMethodNames = map[string]beff.Method{"Sndrcv": beff.Sendrecv, "Alltoal": beff.Alltoallv, "non-blk": beff.Nonblocking}

// refExtraNames are beff's names of the reference code's additional
// patterns whose descriptions differ from them; the Cartesian patterns
// are named alike.
var refExtraNames = map[string]string{
	"worst-cyc-1dim": "worstcycle", "best  bi-section": "bestbisect",
	"worst bi-section": "worstbisect", "one PingPong Pair": "pingpong",
}

// refPatternName is beff's name of the reference code's pattern i with
// description desc: the rings are its first six, random-cyc-1dim its
// random patterns; "" for a pattern beff does not measure (cyclic-1dim-x
// of FURTHERPATTERNS).
func refPatternName(i int, desc string) string {
	switch {
	case i < len(beff.RingNames) && strings.HasPrefix(desc, "ring-"):
		return beff.RingNames[i]
	case desc == "random-cyc-1dim":
		return randomName
	}
	if n, ok := refExtraNames[desc]; ok {
		return n
	}
	if slices.Contains(beff.ExtraNames, desc) {
		return desc
	}
	return ""
}

// refPatLine is a pattern's line in the reference code's tables by
// pattern and by methods: its number, its description, and what follows
// the colon.
var refPatLine = regexp.MustCompile(`^ p(\d+) (.*?)\s*:(.*)$`)

// refTables reads the reference code's tables by pattern and by methods,
// the random patterns as one pattern (randomName). Values per process are
// kept as printed and multiplied by the processes when the summary has
// given them (figures).
type refTables struct {
	section string
	methods []beff.Method // the columns of the table by methods
	order   []string      // beff's pattern names, in the order of the table by pattern
	best    map[string]float64
	perProc map[string]map[beff.Method]float64 // by methods, per process
	// beffMethod is b_eff per method, for all processes.
	beffMethod map[beff.Method]float64
	shortcut   bool // the two largest sizes with the best method only
}

func newRefTables() *refTables {
	return &refTables{best: map[string]float64{}, perProc: map[string]map[beff.Method]float64{},
		beffMethod: map[beff.Method]float64{}}
}

// line reads one line of the reference code's summary.
func (t *refTables) line(line string) error {
	if s, ok := strings.CutPrefix(line, "SECTION-"); ok {
		t.section = ""
		if name, ok := strings.CutSuffix(s, "-BEGIN"); ok {
			t.section = name
		}
		return nil
	}
	if strings.Contains(line, "CAUTION! Due to performance reasons the two largest messages are shortened") {
		t.shortcut = true
	}
	switch t.section {
	case "BY-PATTERN-MSGLNG":
		return t.byPattern(line)
	case "BY-METHODS":
		return t.byMethods(line)
	}
	return nil
}

// byPattern reads a line of the table by pattern: a pattern's mean over
// the sizes, for all processes, after the second arrow; the random
// patterns' logarithmic average after the bars of its own line, at the
// place of the first random pattern.
func (t *refTables) byPattern(line string) error {
	if rest, ok := strings.CutPrefix(line, " log_avg of all random"); ok {
		_, after, ok := strings.Cut(rest, "||")
		if !ok {
			return nil
		}
		v, err := refAccumulated(after)
		t.best[randomName] = v
		return err
	}
	name, rest := t.pattern(line)
	if name == "" {
		return nil
	}
	if !slices.Contains(t.order, name) {
		t.order = append(t.order, name)
	}
	if name == randomName {
		return nil
	}
	v, err := refAccumulated(rest)
	if err != nil {
		return fmt.Errorf("pattern %s: %v", name, err)
	}
	t.best[name] = v
	return nil
}

// byMethods reads a line of the table by methods: its head names the
// methods' columns; a pattern's line gives each method's mean per
// process before the first arrow (0 where the method is not measured);
// the random patterns' logarithmic averages and b_eff per method (all
// processes) are the lines before the bars.
func (t *refTables) byMethods(line string) error {
	if _, head, ok := strings.Cut(line, "methods:"); ok {
		t.methods = nil
		cols, _, _ := strings.Cut(head, "->")
		for _, c := range strings.Fields(cols) {
			m, ok := refMethodNames[c]
			switch {
			case !ok:
				return fmt.Errorf("the table by methods has a column %q (want Sndrcv, Alltoal, non-blk)", c)
			case slices.Contains(t.methods, m):
				return fmt.Errorf("the table by methods has the column %q twice", c)
			}
			t.methods = append(t.methods, m)
		}
		return nil
	}
	if rest, ok := strings.CutPrefix(line, " accumulated on all pr.:"); ok {
		vals, _, _ := strings.Cut(rest, "||")
		return t.methodValues(vals, t.beffMethod)
	}
	name, vals := randomName, ""
	if rest, ok := strings.CutPrefix(line, " log_avg of all random :"); ok {
		vals, _, _ = strings.Cut(rest, "||")
	} else {
		var rest string
		if name, rest = t.pattern(line); name == "" || name == randomName {
			return nil
		}
		vals, _, _ = strings.Cut(rest, "->")
	}
	if t.perProc[name] == nil {
		t.perProc[name] = map[beff.Method]float64{}
	}
	if err := t.methodValues(vals, t.perProc[name]); err != nil {
		return fmt.Errorf("pattern %s: %v", name, err)
	}
	return nil
}

// pattern returns beff's name of a pattern's line and what follows its
// colon; "" for another line or a pattern beff does not measure.
func (t *refTables) pattern(line string) (string, string) {
	m := refPatLine.FindStringSubmatch(line)
	if m == nil {
		return "", ""
	}
	i, err := strconv.Atoi(m[1])
	if err != nil {
		return "", ""
	}
	return refPatternName(i, m[2]), m[3]
}

// methodValues reads one number per method column into into (a zero
// for a method the pattern is not measured with is left out).
func (t *refTables) methodValues(s string, into map[beff.Method]float64) error {
	f := strings.Fields(s)
	if len(f) != len(t.methods) {
		return fmt.Errorf("%d values for %d methods", len(f), len(t.methods))
	}
	for i, x := range f {
		v, err := refNumber(x)
		if err != nil {
			return err
		}
		if v > 0 {
			into[t.methods[i]] = v
		}
	}
	return nil
}

// refAccumulated reads "<per process> -> <all processes> MByte/s" or
// "-> <per process> -> <all processes> MByte/s": the last number.
func refAccumulated(s string) (float64, error) {
	f := strings.Fields(strings.TrimSuffix(strings.TrimSpace(s), "MByte/s"))
	if len(f) == 0 {
		return 0, fmt.Errorf("no value in %q", s)
	}
	return refNumber(f[len(f)-1])
}

// refNumber reads one of the tables' numbers: finite, not negative.
func refNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
		return 0, fmt.Errorf("%q is not a number ≥ 0", s)
	}
	return v, nil
}

// figures returns the figures read, the values per process multiplied by
// procs: per pattern in the table's order, then b_eff per method. Under
// the reference code's shortcut its means per method are not over all
// sizes: they are left out.
func (t *refTables) figures(procs int) []results.Figure {
	n := float64(procs)
	scale := func(m map[beff.Method]float64) map[beff.Method]float64 {
		if t.shortcut {
			return nil
		}
		out := map[beff.Method]float64{}
		for k, v := range m {
			out[k] = v * n
		}
		return out
	}
	var out []results.Figure
	for _, name := range t.order {
		out = append(out, patFigures(name, t.best[name], scale(t.perProc[name]))...)
	}
	if !t.shortcut {
		out = append(out, methodFigures(t.beffMethod)...)
	}
	return out
}

// patternConformance returns beff's figures per pattern, named as
// refTables.figures names the reference code's: each ring and additional
// pattern's mean over the sizes of its best method and of each method
// measured at every size, the random patterns' logarithmic averages of
// the same, and b_eff per method.
func (p *Folded) patternConformance() []results.Figure {
	methodBest := map[beff.Method]beff.Best{} // each pattern's bandwidths by size, per method
	for _, t := range p.Patterns {
		for m, v := range t.byMethod() {
			if methodBest[m] == nil {
				methodBest[m] = beff.Best{}
			}
			methodBest[m][t.Name] = v
		}
	}
	var out []results.Figure
	random := false
	for _, t := range p.Patterns {
		switch {
		case t.Kind != beff.KindRandom:
			flat := map[beff.Method]float64{}
			for m, b := range methodBest {
				if v, ok := b[t.Name]; ok {
					flat[m] = beff.Mean(v)
				}
			}
			out = append(out, patFigures(t.Name, t.Avg, flat)...)
		case !random: // all random patterns, at the place of the first
			random = true
			out = append(out, p.randomConformance(methodBest)...)
		}
	}
	return append(out, methodFigures(p.beffPerMethod(methodBest))...)
}

// randomConformance returns the random patterns' figures: the
// logarithmic averages over them of their means over the sizes, of the
// best method and of each method every random pattern measured at every
// size (methodBest, as patternConformance gathers it).
func (p *Folded) randomConformance(methodBest map[beff.Method]beff.Best) []results.Figure {
	var best []float64
	perMethod := map[beff.Method][]float64{}
	for _, t := range p.Patterns {
		if t.Kind != beff.KindRandom {
			continue
		}
		best = append(best, t.Avg)
		for m, b := range methodBest {
			if v, ok := b[t.Name]; ok {
				perMethod[m] = append(perMethod[m], beff.Mean(v))
			}
		}
	}
	avg, err := beff.LogAvg(best)
	if err != nil {
		return nil
	}
	flat := map[beff.Method]float64{}
	for m, v := range perMethod {
		if a, err := beff.LogAvg(v); err == nil && len(v) == len(best) {
			flat[m] = a
		}
	}
	return patFigures(randomName, avg, flat)
}

// byMethod returns, per method measured at every size of the table, its
// bandwidths over the sizes.
func (t *PatternTable) byMethod() map[beff.Method][]float64 {
	out := map[beff.Method][]float64{}
	for _, m := range t.Methods {
		var bw []float64
		for _, row := range t.Rows {
			for _, x := range row.Measured {
				if x.Method == m {
					bw = append(bw, x.MBps)
				}
			}
		}
		if len(bw) == len(t.Rows) {
			out[m] = bw
		}
	}
	return out
}

// beffPerMethod is b_eff of each method that every ring and random
// pattern measured at every size.
func (p *Folded) beffPerMethod(best map[beff.Method]beff.Best) map[beff.Method]float64 {
	rings, random := p.names(beff.KindRing), p.names(beff.KindRandom)
	all := p.allSizes()
	out := map[beff.Method]float64{}
	for m, b := range best {
		if v, err := beff.Beff(b, rings, random, all); err == nil {
			out[m] = v
		}
	}
	return out
}
