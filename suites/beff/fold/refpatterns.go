package fold

import (
	"fmt"
	"math"
	"regexp"
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
	for _, n := range beff.ExtraNames {
		if n == desc {
			return n
		}
	}
	return ""
}

// refPatLine is a pattern's line in the reference code's tables by
// pattern and by methods: its number, its description, and what follows
// the colon.
var refPatLine = regexp.MustCompile(`^ p(\d+) (.*?)\s*:(.*)$`)

// refTables reads the reference code's tables by pattern and by methods.
// Values per process are kept as printed and multiplied by the processes
// when the summary has given them (figures).
type refTables struct {
	section  string
	methods  []beff.Method // the columns of the table by methods
	order    []string      // beff's pattern names, in the order of the table by pattern
	best     map[string]float64
	perProc  map[string]map[beff.Method]float64 // by methods, per process
	beffProc map[beff.Method]float64            // b_eff per method, all processes
	shortcut bool                               // the two largest sizes with the best method only
	randBest float64
	randProc map[beff.Method]float64
}

func newRefTables() *refTables {
	return &refTables{best: map[string]float64{}, perProc: map[string]map[beff.Method]float64{},
		beffProc: map[beff.Method]float64{}, randProc: map[beff.Method]float64{}}
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
// patterns' logarithmic average after the bars.
func (t *refTables) byPattern(line string) error {
	if rest, ok := strings.CutPrefix(line, " log_avg of all random"); ok {
		_, after, ok := strings.Cut(rest, "||")
		if !ok {
			return nil
		}
		v, err := refAccumulated(after)
		t.randBest = v
		return err
	}
	name, rest := t.pattern(line)
	if name == "" || name == randomName {
		return nil
	}
	v, err := refAccumulated(rest)
	if err != nil {
		return fmt.Errorf("pattern %s: %v", name, err)
	}
	if _, seen := t.best[name]; !seen {
		t.order = append(t.order, name)
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
			if !ok || len(t.methods) >= len(beff.Methods) {
				return fmt.Errorf("the table by methods has a column %q (want Sndrcv, Alltoal, non-blk)", c)
			}
			t.methods = append(t.methods, m)
		}
		return nil
	}
	for _, row := range []struct {
		prefix string
		into   map[beff.Method]float64
	}{{" log_avg of all random :", t.randProc}, {" accumulated on all pr.:", t.beffProc}} {
		if rest, ok := strings.CutPrefix(line, row.prefix); ok {
			vals, _, _ := strings.Cut(rest, "||")
			return t.methodValues(vals, row.into)
		}
	}
	name, rest := t.pattern(line)
	if name == "" || name == randomName {
		return nil
	}
	vals, _, _ := strings.Cut(rest, "->")
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
// procs: per pattern in the table's order (the random patterns at the
// place of the first), then b_eff per method. Under the reference code's
// shortcut its means per method are not over all sizes: they are left out.
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
	order := t.order
	if t.randBest > 0 {
		order = insertRandom(order)
	}
	for _, name := range order {
		if name == randomName {
			out = append(out, patFigures(randomName, t.randBest, scale(t.randProc))...)
			continue
		}
		out = append(out, patFigures(name, t.best[name], scale(t.perProc[name]))...)
	}
	if !t.shortcut {
		out = append(out, methodFigures(t.beffProc)...)
	}
	return out
}

// insertRandom puts the random patterns after the rings, where the
// reference code measures them.
func insertRandom(order []string) []string {
	i := 0
	for i < len(order) && i < len(beff.RingNames) && order[i] == beff.RingNames[i] {
		i++
	}
	out := append([]string{}, order[:i]...)
	out = append(out, randomName)
	return append(out, order[i:]...)
}

// patternConformance returns beff's figures per pattern, named as
// refTables.figures names the reference code's: each ring and additional
// pattern's mean over the sizes of its best method and of each method
// measured at every size, the random patterns' logarithmic averages of
// the same, and b_eff per method.
func (p *Folded) patternConformance() []results.Figure {
	var out, random []results.Figure
	var randBest []float64
	randMethod := map[beff.Method][]float64{}
	methodBest := map[beff.Method]beff.Best{}
	for _, t := range p.Patterns {
		per := t.methodMeans()
		for m, v := range per {
			if methodBest[m] == nil {
				methodBest[m] = beff.Best{}
			}
			methodBest[m][t.Name] = v
		}
		if t.Kind == beff.KindRandom {
			randBest = append(randBest, t.Avg)
			for m := range per {
				randMethod[m] = append(randMethod[m], beff.Mean(per[m]))
			}
			continue
		}
		flat := map[beff.Method]float64{}
		for m, v := range per {
			flat[m] = beff.Mean(v)
		}
		out = append(out, patFigures(t.Name, t.Avg, flat)...)
	}
	if avg, err := beff.LogAvg(randBest); err == nil {
		flat := map[beff.Method]float64{}
		for m, v := range randMethod {
			if a, err := beff.LogAvg(v); err == nil && len(v) == len(randBest) {
				flat[m] = a
			}
		}
		random = patFigures(randomName, avg, flat)
	}
	out = append(insertAfterRings(out, random), methodFigures(p.beffPerMethod(methodBest))...)
	return out
}

// insertAfterRings puts figs after the rings' figures in out.
func insertAfterRings(out, figs []results.Figure) []results.Figure {
	i := 0
	for i < len(out) && isRingFigure(out[i].Name) {
		i++
	}
	res := append([]results.Figure{}, out[:i]...)
	res = append(res, figs...)
	return append(res, out[i:]...)
}

// isRingFigure reports whether a figure's name is a ring pattern's.
func isRingFigure(name string) bool {
	for _, r := range beff.RingNames {
		if name == patFigure(r) || strings.HasPrefix(name, patFigure(r)+"-") {
			return true
		}
	}
	return false
}

// methodMeans returns, per method measured at every size of the table,
// its bandwidths over the sizes.
func (t *PatternTable) methodMeans() map[beff.Method][]float64 {
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
	all := make([]int, len(p.Run.Config.Sizes))
	for i := range all {
		all[i] = i
	}
	out := map[beff.Method]float64{}
	for m, b := range best {
		if v, err := beff.Beff(b, rings, random, all); err == nil {
			out[m] = v
		}
	}
	return out
}
