package fold

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beff"
)

// Config is the configuration of a b_eff run, from its benchfmt
// configuration lines.
type Config struct {
	results.Common
	Lmax   int64   // beff-lmax: the largest message, bytes
	Sizes  []int64 // beff-sizes: the measured message sizes, ascending; the last is Lmax
	Random int     // beff-random-patterns: the number of random patterns
	Rmax   float64 // beff-rmax-gflops: Linpack Rmax in GFlop/s, 0 when not given
	// Patterns is the restriction of a restricted run
	// (beff-patterns), nil when every pattern was measured.
	Patterns []string
	MemMiB   int64  // beff-mem-per-proc-mib: memory per process, MiB (0: unknown)
	Seed     string // beff-seed
	// Reference is set for a run by the reference code's rules (beff-rules:
	// reference).
	Reference bool
	// RingPaths are where the ring patterns' messages went
	// (beff-ring-paths; nil on one host or before it was written).
	RingPaths []beff.PatternPaths
	// set is the pattern list, made on first use and shared by the runs
	// of the configuration (its counts take time O(N)).
	set *beff.PatternSet
}

// patterns returns the pattern list of the configuration.
func (c *Config) patterns() *beff.PatternSet {
	if c.set == nil {
		c.set = beff.CountSet(c.N, c.Random)
		if c.Reference {
			c.set = c.set.Reference()
		}
		for _, p := range c.set.Patterns {
			p.Messages() // counted now: the set is shared
		}
	}
	return c.set
}

// A Key names one measurement: pattern, message size and method.
type Key struct {
	Pattern string
	L       int64
	Method  beff.Method
}

// String returns the sub-benchmark name of the key,
// pat=<pattern>/L=<bytes>/mthd=<method>.
func (k Key) String() string { return beff.Name(k.Pattern, k.L, k.Method) }

// A Measurement is one benchmark line of BenchmarkBeff.
type Measurement struct {
	Key
	MBps      float64 // MB/s: the best repetition (the value b_eff uses), 1e6 B/s
	MinMBps   float64 // min-MB/s: the worst repetition
	AvgMBps   float64 // avg-MB/s: the mean over repetitions
	MsPerLoop float64 // ms/loop: loop time of the best repetition, max over ranks
	LoopLen   int     // looplen: iterations of the timed loop
	Reps      int     // reps: repetitions
	NsPerOp   float64 // ns/op: wall time of the sub-benchmark per iteration
	Iters     int     // benchmark iterations (1)
	Line      int     // line in the file
	// Metrics holds every metric of the line, keyed by the unit as written
	// (MB/s, ns/op, looplen, …), with the value as written.
	Metrics map[string]float64
}

// A Run is a b_eff run: the run as read, with its configuration and
// measurements as b_eff reads them.
type Run struct {
	*results.Run
	Config *Config
	// Measurements in file order. Each key occurs at most once.
	Measurements []*Measurement
	byKey        map[Key]*Measurement
}

// runOf is the b_eff view of a run that the suite read.
func runOf(r *results.Run) *Run {
	run := &Run{Run: r, Config: reading{}.Config(r), byKey: map[Key]*Measurement{}}
	for _, l := range r.Lines {
		m := reading{}.Value(l)
		run.Measurements = append(run.Measurements, m)
		run.byKey[m.Key] = m
	}
	return run
}

// Lookup returns the measurement of pattern pat at size l with method m, or
// nil if the run has none.
func (r *Run) Lookup(pat string, l int64, m beff.Method) *Measurement {
	return r.byKey[Key{pat, l, m}]
}

const nameWant = "not a b_eff measurement name (want pat=<pattern>/L=<bytes>/mthd=<method>)"

// parseName parses the parts of pat=<pattern>/L=<bytes>/mthd=<method>.
func parseName(parts []results.Part) (Key, error) {
	var k Key
	if parts == nil {
		return k, fmt.Errorf(nameWant)
	}
	var got []string
	for _, p := range parts {
		got = append(got, p.Key)
		switch p.Key {
		case "pat":
			k.Pattern = p.Value
		case "L":
			l, err := strconv.ParseInt(p.Value, 10, 64)
			if err != nil || l <= 0 {
				return k, fmt.Errorf("message size L=%s is not a positive number of bytes", p.Value)
			}
			k.L = l
		case "mthd":
			m, ok := beff.ParseMethod(p.Value)
			if !ok {
				return k, fmt.Errorf("unknown method %q", p.Value)
			}
			k.Method = m
		}
	}
	if !slices.Equal(got, beff.NameKeys) || k.Pattern == "" {
		return k, fmt.Errorf(nameWant)
	}
	return k, nil
}

// parseMetrics extracts the metrics of a BenchmarkBeff line.
func parseMetrics(l *results.Line) (*Measurement, error) {
	vals := l.Metrics
	get := func(unit string) (float64, error) {
		v, ok := vals[unit]
		if !ok {
			return 0, fmt.Errorf("missing metric %s", unit)
		}
		return v, nil
	}
	count := func(unit string) (int, error) {
		v, err := get(unit)
		if err != nil {
			return 0, err
		}
		if v < 1 || v != math.Trunc(v) || v > math.MaxInt32 {
			return 0, fmt.Errorf("%s = %v is not a positive whole number", unit, v)
		}
		return int(v), nil
	}
	m := &Measurement{Iters: l.Iters, Line: l.Line, Metrics: vals}
	var err error
	for _, x := range []struct {
		unit string
		dst  *float64
	}{
		{beff.MetricMBps, &m.MBps}, {beff.MetricMinMBps, &m.MinMBps}, {beff.MetricAvgMBps, &m.AvgMBps},
		{beff.MetricLoop, &m.MsPerLoop}, {"ns/op", &m.NsPerOp},
	} {
		if *x.dst, err = get(x.unit); err != nil {
			return nil, err
		}
	}
	if m.LoopLen, err = count(beff.MetricLoopLen); err != nil {
		return nil, err
	}
	if m.Reps, err = count(beff.MetricReps); err != nil {
		return nil, err
	}
	return m, nil
}

// parseConfig reads the b_eff configuration of a run.
func parseConfig(cfg results.Config) (*Config, error) {
	c := &Config{}
	r := results.ConfigReader{Config: cfg, Suite: "b_eff"}
	if err := c.ReadProcs(r); err != nil {
		return c, err
	}
	var err error
	if c.Lmax, err = r.PosInt(beff.KeyLmax); err != nil {
		return c, err
	}
	random, err := r.PosInt(beff.KeyRandom)
	if err != nil {
		return c, err
	}
	if random > beff.MaxRandom {
		return c, fmt.Errorf("%s: %d, more than the %d beff measures at most", beff.KeyRandom, random, beff.MaxRandom)
	}
	c.Random = int(random)
	if err := c.readSizes(r); err != nil {
		return c, err
	}
	if err := c.ReadMode(r); err != nil {
		return c, err
	}
	if v := cfg[beff.KeyRmax]; v != "" {
		c.Rmax, err = strconv.ParseFloat(v, 64)
		if err != nil || !(c.Rmax > 0) || math.IsInf(c.Rmax, 0) {
			return c, fmt.Errorf("%s: %q is not a positive number of GFlop/s", beff.KeyRmax, v)
		}
	}
	if v := cfg[beff.KeyPatterns]; v != "" {
		for _, p := range strings.Split(v, ",") {
			c.Patterns = append(c.Patterns, strings.TrimSpace(p))
		}
	}
	if c.MemMiB, err = r.OptPosInt(beff.KeyMem); err != nil {
		return c, err
	}
	c.Seed = cfg[beff.KeySeed]
	switch v := cfg[beff.KeyRules]; v {
	case "":
	case "reference":
		c.Reference = true
	default:
		return c, fmt.Errorf("%s: unknown rules %q (want reference, or no line)", beff.KeyRules, v)
	}
	if v := cfg[beff.KeyRingPaths]; v != "" {
		if c.RingPaths, err = beff.ParsePaths(v); err != nil {
			return c, fmt.Errorf("%s: %v", beff.KeyRingPaths, err)
		}
	}
	c.ReadInfo(r)
	return c, nil
}

// readSizes reads beff-sizes: increasing, the last Lmax.
func (c *Config) readSizes(r results.ConfigReader) error {
	var err error
	if c.Sizes, err = r.Increasing(beff.KeySizes); err != nil {
		return err
	}
	if last := c.Sizes[len(c.Sizes)-1]; last != c.Lmax {
		return fmt.Errorf("%s: the largest size %d differs from %s %d", beff.KeySizes, last, beff.KeyLmax, c.Lmax)
	}
	return nil
}
