package fold

import (
	"fmt"
	"math"
	"regexp"
	"strconv"

	"github.com/beff-suite/beff/internal/results"
)

// Reference names the reference code whose output ReadReference reads.
func (*Suite) Reference() string { return "b_eff 3.6.0.1" }

// The figures of the reference code's summary (<prefix>.short), in the
// order the comparison lists them; scale multiplies a value by the
// processes: the summary's "Latency ring pattern" leaves that factor out
// (its table of the .sum file has it), and its "b_eff at Lmax (ring
// pattern)" is for all processes where beff's figure is per process.
var refLines = []struct {
	name, label, unit string
	re                *regexp.Regexp
	scale             bool
}{
	{"beff", "b_eff", "MB/s", regexp.MustCompile(`^The effective bandwidth is b_eff =\s*(\S+) MByte/s on (\d+) processes`), false},
	{"beff-lmax", "b_eff at Lmax", "MB/s", regexp.MustCompile(`^b_eff at Lmax:\s*(\S+) MByte/s`), false},
	{"beff-lmax-rings", "b_eff at Lmax, rings only", "MB/s", regexp.MustCompile(`^b_eff at Lmax \(ring pattern\):\s*(\S+) MByte/s`), false},
	{"pingpong-bw-lmax", "ping-pong bandwidth at Lmax", "MB/s", regexp.MustCompile(`^Ping-pong bandwidth at Lmax:\s*(\S+) MByte/s`), false},
	{"lat-rings-random", "latency, rings & random", "us", regexp.MustCompile(`^Latency:\s*(\S+) microsec`), false},
	{"lat-rings", "latency, rings only", "us", regexp.MustCompile(`^Latency ring pattern:\s*(\S+) microsec`), true},
	{"lat-pingpong", "latency, ping-pong", "us", regexp.MustCompile(`^Ping-pong latency:\s*(\S+) microsec`), false},
}

// refLmax is the summary's line of Lmax, in MiB without decimals.
var refLmax = regexp.MustCompile(`^Lmax:\s*(\d+) MB\s*$`)

// SetupLmax is the setup key of Lmax, in MiB without decimals as the
// reference code prints it.
const SetupLmax = "Lmax"

// lmaxSetup is Lmax (bytes) as the reference code prints it.
func lmaxSetup(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

// ReadReference reads the figures of a run of the reference code 3.6.0.1
// from its summary prefix.short: b_eff, b_eff at Lmax (all patterns and
// rings only, for all processes), the ping-pong bandwidth at Lmax and the
// three latencies; then from its tables by pattern and by methods each
// pattern's mean over the sizes, of the best method and of each method,
// and b_eff per method (refTables); its setup is its processes and Lmax.
// A summary without b_eff is an error.
func (*Suite) ReadReference(prefix string) (results.Conformance, error) {
	path := prefix + ".short"
	got := map[string]float64{}
	procs := 0
	lmax := ""
	tables := newRefTables()
	err := results.ScanFile(path, func(line string, _ int) error {
		if err := tables.line(line); err != nil {
			return err
		}
		if m := refLmax.FindStringSubmatch(line); m != nil {
			mib, _ := strconv.ParseFloat(m[1], 64)
			lmax = fmt.Sprintf("%.0f MiB", mib)
		}
		for i, l := range refLines {
			m := l.re.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			v, err := strconv.ParseFloat(m[1], 64)
			if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
				return fmt.Errorf("%s: %q is not a number", l.label, m[1])
			}
			if i == 0 {
				procs, _ = strconv.Atoi(m[2])
			}
			got[l.name] = v
		}
		return nil
	})
	if err != nil {
		return results.Conformance{}, err
	}
	if _, ok := got["beff"]; !ok || procs < 1 {
		return results.Conformance{}, fmt.Errorf("%s: no b_eff: the reference code's run did not finish", path)
	}
	c := results.Conformance{Setup: results.ReferenceSetup(procs)}
	if lmax != "" {
		c.Setup = append(c.Setup, results.Setting{Key: SetupLmax, Value: lmax})
	}
	for _, l := range refLines {
		v, ok := got[l.name]
		if !ok {
			continue
		}
		if l.scale {
			v *= float64(procs)
		}
		c.Figures = append(c.Figures, results.Figure{Name: l.name, Label: l.label, Value: v, Unit: l.unit})
	}
	c.Figures = append(c.Figures, tables.figures(procs)...)
	sharesOfBeff(c.Figures)
	return c, nil
}

// sharesOfBeff has every bandwidth but b_eff itself compared also as a
// share of its run's b_eff (Figure.Per): a level of the whole run, which
// moves every pattern alike, is divided out, and what differs is the
// pattern's or the size's own.
func sharesOfBeff(figs []results.Figure) {
	for i := range figs {
		if figs[i].Unit == "MB/s" && figs[i].Name != "beff" {
			figs[i].Per = "beff"
		}
	}
}

// Conformance returns the figures of a folded b_eff run that the reference
// code prints, named alike (b_eff at Lmax of the rings for all
// processes), then its figures per pattern and per method
// (patternConformance), and its setup.
func (*Suite) Conformance(f results.Folded) results.Conformance {
	p := f.(*Folded)
	n := float64(p.Run.Config.N)
	v := map[string]float64{"beff": p.Beff, "beff-lmax": p.BeffLmax, "beff-lmax-rings": p.BeffLmaxRingsPerProc * n,
		"pingpong-bw-lmax": p.PingPongLmax, "lat-rings-random": p.LatRingsRandom, "lat-rings": p.LatRings, "lat-pingpong": p.LatPingPong}
	c := results.Conformance{Setup: append(results.CommonSetup(&p.Run.Config.Common), results.Setting{Key: SetupLmax, Value: lmaxSetup(p.Run.Config.Lmax)})}
	for _, l := range refLines {
		if v[l.name] > 0 {
			c.Figures = append(c.Figures, results.Figure{Name: l.name, Label: l.label, Value: v[l.name], Unit: l.unit})
		}
	}
	c.Figures = append(c.Figures, p.patternConformance()...)
	sharesOfBeff(c.Figures)
	return c
}

// Round is a round of beff conformance: the reference code compiled with
// the memory per process as its constant MEMORY_PER_PROCESSOR, writing
// its protocol to the prefix; beff with its rules and in reference mode,
// at the same memory.
func (*Suite) Round(p results.RoundSettings) results.RoundPlan {
	mem := "-beff.mem=" + strconv.FormatInt(p.MemMiB, 10)
	return results.RoundPlan{
		CFlags: []string{"-D", "MEMORY_PER_PROCESSOR=" + strconv.FormatInt(p.MemMiB, 10)},
		Ref:    []string{"-f", p.Prefix},
		Variants: []results.Variant{
			{Name: "default", Label: "beff default", Flags: []string{mem}},
			{Name: "reference", Label: "beff reference mode", Flags: []string{mem, "-beff.reference"}},
		},
	}
}
