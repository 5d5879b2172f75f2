package fold

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// Config is the configuration of a SKaMPI run.
type Config struct {
	results.Common
	File    string                   // skampi-suites: the suite file
	Suites  map[string]*skampi.Setup // skampi-suite-<name>, by name
	Types   map[string]string        // skampi-types-<name>: a typed suite's layouts, by suite name
	Topos   map[string]string        // skampi-topology-<name>: a neighborhood suite's grids, by suite name
	Resumed string                   // skampi-resumed, or ""
	RMA     string                   // skampi-rma-windows: the one-sided suites not measured, or ""
	Clock   string                   // skampi-clock
	Offsets string                   // skampi-offsets-us: min median max
	PairMax string                   // skampi-pair-max: a b host-a host-b rtt-us
	// PairSearch is skampi-pair-search: the rounds the pair search
	// measured ("" before it was written).
	PairSearch string
	PairMin    string // skampi-pair-min
	Wtick      string // skampi-wtick-s
	Timer      string // skampi-timer-s
	Oversub    string // validity reason of an oversubscribed run, or ""
	OffsetEr   string // skampi-offset-err-us
	// Matrix is the round trip of every pair with each rank's place
	// (skampi-rtt-…, skampi-place-…), nil when the run has none.
	Matrix *skampi.Matrix
}

// noWindow says whether skampi-rma-windows names the window (its
// one-sided suites were not measured): "not measured: <window>: <why>;
// <window>: <why>".
func (c *Config) noWindow(window string) bool {
	if c.RMA == "" || window == "" {
		return false
	}
	list := strings.TrimPrefix(c.RMA, "not measured: ")
	return strings.HasPrefix(list, window+": ") || strings.Contains(list, "; "+window+": ")
}

func parseConfig(cfg results.Config) (*Config, error) {
	r := results.ConfigReader{Config: cfg, Suite: "SKaMPI"}
	c := &Config{Suites: map[string]*skampi.Setup{}}
	if err := c.Read(r); err != nil {
		return nil, err
	}
	var err error
	if c.File, err = r.Need(skampi.KeySuites); err != nil {
		return nil, err
	}
	c.Types, c.Topos = map[string]string{}, map[string]string{}
	for k, v := range cfg {
		if n, ok := strings.CutPrefix(k, skampi.KeyTypes); ok {
			c.Types[n] = v
		}
		if n, ok := strings.CutPrefix(k, skampi.KeyTopology); ok {
			c.Topos[n] = v
		}
		if strings.HasPrefix(k, skampi.KeySuite) {
			s, err := skampi.ParseSuiteLine(k, v)
			if err != nil {
				return nil, err
			}
			c.Suites[s.Name] = s
		}
	}
	if len(c.Suites) == 0 {
		return nil, fmt.Errorf("not SKaMPI output: no %s<name> configuration line", skampi.KeySuite)
	}
	if err := c.checkMode(); err != nil {
		return nil, err
	}
	c.Resumed, c.Clock, c.Offsets = cfg[skampi.KeyResumed], cfg[skampi.KeyClock], cfg[skampi.KeyOffsets]
	c.RMA = cfg[skampi.KeyRMA]
	c.PairMax, c.PairMin, c.PairSearch = cfg[skampi.KeyPairMax], cfg[skampi.KeyPairMin], cfg[skampi.KeyPairs]
	c.Wtick, c.Timer, c.OffsetEr = cfg[skampi.KeyWtick], cfg[skampi.KeyTimer], cfg[skampi.KeyOffsetEr]
	c.Oversub = cfg.Oversubscribed()
	if c.Matrix, err = skampi.ParseMatrix(c.N, cfg); err != nil {
		return nil, err
	}
	return c, nil
}

// checkMode refuses a full run of the default suites whose every suite
// line carries the budgets short mode cuts to (skampi.Setup.shorten): its
// mode line says what its suites did not measure.
func (c *Config) checkMode() error {
	if c.Short() || c.File != skampi.DefaultSuitesName {
		return nil
	}
	for _, name := range c.SuiteNames() {
		s := c.Suites[name]
		if s.Rule.Max > skampi.ShortMax || s.Rule.Budget > skampi.ShortBudget || s.Lengths.To > skampi.ShortTo {
			return nil
		}
	}
	key, value := c.Suites[c.SuiteNames()[0]].ConfigLine()
	return fmt.Errorf("%s: %s, but every suite line carries short mode's budgets (at most %d repetitions and %s a point, lengths to %d bytes; %s: %s): not written by beff, or edited",
		results.KeyMode, c.Mode, skampi.ShortMax, skampi.DurationText(skampi.ShortBudget), skampi.ShortTo, key, value)
}

// SuiteNames are the names of the run's suites, sorted.
func (c *Config) SuiteNames() []string { return slices.Sorted(maps.Keys(c.Suites)) }

// A Measurement is one point's line.
type Measurement struct {
	skampi.Point
	Name string
	// Times in µs; Has is false for a point without a valid repetition.
	Has               bool
	Us, Median, Min   float64
	P90, P99          float64
	RSE               float64 // 0 with HasRSE false: fewer than two repetitions
	HasRSE            bool
	N, Invalid, Calls int
	Stop              int
	WindowUs          float64
	RankMin, RankMed  float64 // collectives; 0 when absent
	RankMax           float64
	MBps              float64 // ping-pong with a length
	// Contig is a typed point's time over that of the contiguous method
	// at the same parameters (1 for the contiguous method itself; 0 when
	// either has no value).
	Contig float64
	// A non-blocking collective measured with the computation between
	// start and wait (HasOvrl): the time of a call, its RSE (HasOvrlRSE),
	// the computation's time, the rest, and the overlap in percent.
	HasOvrl, HasOvrlRSE    bool
	OvrlUs, OvrlRSE, CPUUs float64
	InMPIUs, OverlapPct    float64
	InitUs                 float64 // a persistent operation's init calls, µs (0: absent)
	Threads                int     // a partitioned message: the threads that marked its partitions (0: absent)
	// OfRatio is a non-blocking or persistent form's time over its
	// blocking operation's at the same parameters in the same suite (0
	// when that is not measured).
	OfRatio float64
	Line    int
	// Refined marks a length that refinement added to the suite's grid.
	Refined bool
	// A merged point (Suite.Merge): the runs it merges, and the fastest
	// and the slowest run's value (µs).
	Runs           int
	RunMin, RunMax float64
	// Clock is the run's report of its clocks: set on the line
	// clock=run alone, which is no point.
	Clock *clocks.Report
	// ClockMiss says why the point cannot be vouched for: the clocks'
	// error exceeded its window's margin ("" when it did not).
	ClockMiss string
}

// Margin is the room a window-synchronised point's window left for the
// clocks' disagreement, µs: half what the window holds beyond a
// repetition (its calls at the mean time; a ping-pong's value is half a
// round trip), and none where an edited line's repetition exceeds its
// window. A process whose clock is off by more starts a repetition while
// another's previous one may still run.
func (m *Measurement) Margin() float64 {
	rep := m.Us * float64(m.Calls)
	if o := skampi.Ops[m.Op]; o.Pattern == skampi.PingPong && !o.Exchange {
		rep *= 2
	}
	return max(0, (m.WindowUs-rep)/2)
}

// Converged reports whether the point reached its ε.
func (m *Measurement) Converged() bool { return m.Stop == skampi.Converged }

// parseName reads suite=…/op=…/(pair=…|procs=…)/(chunks=…)/(L=…) back
// into a point: it must be exactly the name the driver gives it.
func parseName(parts []results.Part) (skampi.Point, error) {
	if len(parts) < 2 || parts[0].Key != "suite" || parts[1].Key != "op" {
		return skampi.Point{}, fmt.Errorf("want suite=<name>/op=<operation>/…")
	}
	pt := skampi.Point{Suite: parts[0].Value, Op: skampi.OpIndex(parts[1].Value)}
	if pt.Op < 0 {
		return pt, fmt.Errorf("unknown operation %q", parts[1].Value)
	}
	for _, p := range parts[2:] {
		var err error
		switch p.Key {
		case "method":
			if !slices.Contains(skampi.MethodNames, p.Value) {
				err = fmt.Errorf("want one of %s", strings.Join(skampi.MethodNames, ", "))
			}
			pt.Method = p.Value
		case "pair":
			pt.Pair = p.Value
		case "procs":
			pt.Procs, err = strconv.Atoi(p.Value)
		case "chunks":
			pt.Chunks, err = strconv.Atoi(p.Value)
		case "L":
			pt.Len, err = strconv.ParseInt(p.Value, 10, 64)
		default:
			err = fmt.Errorf("unknown part %s=", p.Key)
		}
		if err != nil {
			return pt, fmt.Errorf("%s=%s: %v", p.Key, p.Value, err)
		}
	}
	if skampi.Ops[pt.Op].Pattern == skampi.Simple {
		pt.Procs = 1
	}
	if skampi.Ops[pt.Op].OnPair() {
		pt.Procs = 2
	}
	return pt, nil
}

// skampiMetrics are the metrics the fold reads: each must be finite and
// not negative (metrics it does not know are left alone).
var skampiMetrics = []string{skampi.MetricN, skampi.MetricInvalid, skampi.MetricCalls, skampi.MetricStop, skampi.MetricWindow,
	skampi.MetricUs, skampi.MetricMedian, skampi.MetricMin, skampi.MetricP90, skampi.MetricP99, skampi.MetricRSE,
	skampi.MetricRankMin, skampi.MetricRankMed, skampi.MetricRankMax, skampi.MetricMBps,
	skampi.MetricOvrl, skampi.MetricOvrlRSE, skampi.MetricCPU, skampi.MetricInMPI, skampi.MetricOverlap, skampi.MetricInit,
	skampi.MetricThreads}

func parseMetrics(l *results.Line, pt skampi.Point) (*Measurement, error) {
	m := &Measurement{Point: pt, Line: l.Line}
	get := func(unit string) float64 { return l.Metrics[unit] }
	for _, u := range []string{skampi.MetricN, skampi.MetricStop, skampi.MetricCalls} {
		if _, ok := l.Metrics[u]; !ok {
			return nil, fmt.Errorf("no %s metric", u)
		}
	}
	for _, u := range skampiMetrics {
		if v, ok := l.Metrics[u]; ok && (math.IsNaN(v) || math.IsInf(v, 0) || v < 0) {
			return nil, fmt.Errorf("%s %v is not a finite number ≥ 0", u, v)
		}
	}
	m.N, m.Invalid, m.Calls = int(get(skampi.MetricN)), int(get(skampi.MetricInvalid)), int(get(skampi.MetricCalls))
	m.Stop, m.WindowUs = int(get(skampi.MetricStop)), get(skampi.MetricWindow)
	_, m.Has = l.Metrics[skampi.MetricUs]
	m.Us, m.Median, m.Min = get(skampi.MetricUs), get(skampi.MetricMedian), get(skampi.MetricMin)
	m.P90, m.P99 = get(skampi.MetricP90), get(skampi.MetricP99)
	m.RSE, m.HasRSE = l.Metrics[skampi.MetricRSE]
	m.RankMin, m.RankMed, m.RankMax = get(skampi.MetricRankMin), get(skampi.MetricRankMed), get(skampi.MetricRankMax)
	m.MBps = get(skampi.MetricMBps)
	if err := m.readForms(l); err != nil {
		return nil, err
	}
	if err := m.consistent(l); err != nil {
		return nil, err
	}
	if _, ok := l.Metrics[skampi.MetricMBps]; ok && m.Us > 0 {
		// Below results.RoundedMBps the printed value has fewer than three
		// significant digits; bytes per µs is MB/s.
		m.MBps = results.PreciseMBps(m.MBps, m.bytes()/m.Us)
	}
	return m, nil
}

// overlapMetrics are a non-blocking collective's metrics of its measurement
// with the computation; ovrl-rse may be absent (fewer than two
// repetitions), the others come together.
var overlapMetrics = []string{skampi.MetricOvrl, skampi.MetricCPU, skampi.MetricInMPI, skampi.MetricOverlap}

// readForms reads the metrics of the non-blocking and persistent forms:
// only their operations carry them, and the overlap must be what its
// times give (IMB-NBC's formula, skampi.OverlapPercent).
func (m *Measurement) readForms(l *results.Line) error {
	o := skampi.Ops[m.Op]
	n := 0
	for _, u := range overlapMetrics {
		if _, ok := l.Metrics[u]; ok {
			n++
		}
	}
	_, hasRSE := l.Metrics[skampi.MetricOvrlRSE]
	_, hasInit := l.Metrics[skampi.MetricInit]
	switch {
	case (n > 0 || hasRSE) && (!o.NonBlocking() || !m.Has):
		return fmt.Errorf("%s of %s: only a non-blocking collective with a time has one", skampi.MetricOvrl, o.Name)
	case n > 0 && n < len(overlapMetrics) || hasRSE && n == 0:
		return fmt.Errorf("want all of %s or none", strings.Join(append(overlapMetrics, skampi.MetricOvrlRSE), ", "))
	case hasInit && !o.Persistent():
		return fmt.Errorf("%s of %s: only a persistent operation has one", skampi.MetricInit, o.Name)
	}
	if th, ok := l.Metrics[skampi.MetricThreads]; ok && (o.Family != skampi.FamilyPartitioned || th != math.Trunc(th) || th < 1 || th > skampi.PartitionThreads || int(th) > m.Chunks) {
		return fmt.Errorf("%s %v of %s with %d partitions: want a partitioned operation's 1 to %d threads, at most one a partition",
			skampi.MetricThreads, th, o.Name, m.Chunks, skampi.PartitionThreads)
	}
	m.HasOvrl, m.HasOvrlRSE, m.InitUs = n > 0, hasRSE, l.Metrics[skampi.MetricInit]
	m.Threads = int(l.Metrics[skampi.MetricThreads])
	m.OvrlUs, m.OvrlRSE, m.CPUUs = l.Metrics[skampi.MetricOvrl], l.Metrics[skampi.MetricOvrlRSE], l.Metrics[skampi.MetricCPU]
	m.InMPIUs, m.OverlapPct = l.Metrics[skampi.MetricInMPI], l.Metrics[skampi.MetricOverlap]
	if !m.HasOvrl {
		return nil
	}
	near := func(a, b, slack float64) bool { return math.Abs(a-b) <= slack+1e-3*math.Max(math.Abs(a), math.Abs(b)) }
	// the difference of two printed times is as uncertain as both together
	if want := math.Max(0, m.OvrlUs-m.CPUUs); !near(m.InMPIUs, want, 1e-3*(m.OvrlUs+m.CPUUs)+1e-3) {
		return fmt.Errorf("%s %v contradicts %s %v − %s %v; not written by beff, or edited", skampi.MetricInMPI, m.InMPIUs, skampi.MetricOvrl, m.OvrlUs, skampi.MetricCPU, m.CPUUs)
	}
	if want := skampi.OverlapPercent(m.Us, m.OvrlUs, m.CPUUs); m.OverlapPct > 100 || !near(m.OverlapPct, want, 0.5) {
		return fmt.Errorf("%s %v contradicts its times (%.4g%% from us %v, ovrl-us %v, cpu-us %v); not written by beff, or edited",
			skampi.MetricOverlap, m.OverlapPct, want, m.Us, m.OvrlUs, m.CPUUs)
	}
	return nil
}

// bytes is what one timed call of the point moves (skampi.Point.Bytes).
func (m *Measurement) bytes() float64 { return float64(m.Point.Bytes()) }

// hasRanks reports whether the line has its processes' means.
func hasRanks(l *results.Line) bool {
	_, ok := l.Metrics[skampi.MetricRankMax]
	return ok
}

// checkRule checks a point's repetitions against its suite's rule: no
// more than max-reps in all, at least min-reps valid ones where it
// converged, max-reps where it stopped there.
func (m *Measurement) checkRule(su *skampi.Setup) error {
	tries := m.N + m.Invalid
	switch {
	case tries > su.Rule.Max:
		return fmt.Errorf("%d repetitions (%d valid), more than max-reps %d of %s%s; not written by beff, or edited", tries, m.N, su.Rule.Max, skampi.KeySuite, su.Name)
	case m.Stop == skampi.Converged && m.N < su.Rule.Min:
		return fmt.Errorf("converged with %d valid repetitions, fewer than min-reps %d of %s%s; not written by beff, or edited", m.N, su.Rule.Min, skampi.KeySuite, su.Name)
	case m.Stop == skampi.HitMax && tries < su.Rule.Max:
		return fmt.Errorf("stopped at max-reps %d of %s%s after %d repetitions; not written by beff, or edited", su.Rule.Max, skampi.KeySuite, su.Name, tries)
	}
	return nil
}

// consistent checks a line against itself: its times in order (min ≤
// median ≤ p90 ≤ p99, min ≤ mean), its bandwidth the length over its time,
// at least one call per repetition. The slack is that of printed digits.
func (m *Measurement) consistent(l *results.Line) error {
	le := func(a, b float64) bool { return a <= b*(1+1e-3)+1e-9 }
	if m.Calls < 1 {
		return fmt.Errorf("%d calls per repetition: want at least 1", m.Calls)
	}
	if !m.Has {
		return nil
	}
	_, hasMed := l.Metrics[skampi.MetricMedian]
	_, hasP99 := l.Metrics[skampi.MetricP99]
	switch {
	case hasMed && hasP99 && !(le(m.Min, m.Median) && le(m.Median, m.P90) && le(m.P90, m.P99)):
		return fmt.Errorf("its times are out of order (min %v, median %v, p90 %v, p99 %v µs); not written by beff, or edited", m.Min, m.Median, m.P90, m.P99)
	case !le(m.Min, m.Us):
		return fmt.Errorf("its mean %v µs is below its minimum %v µs; not written by beff, or edited", m.Us, m.Min)
	case hasRanks(l) && !(le(m.RankMin, m.RankMed) && le(m.RankMed, m.RankMax)):
		return fmt.Errorf("its processes' means are out of order (smallest %v, median %v, largest %v µs); not written by beff, or edited", m.RankMin, m.RankMed, m.RankMax)
	}
	if _, ok := l.Metrics[skampi.MetricMBps]; ok && m.Us > 0 && m.MBps >= results.RoundedMBps {
		if want := m.bytes() / m.Us; !(math.Abs(m.MBps-want) <= 0.05*want+0.01) {
			return fmt.Errorf("%v MB/s contradicts its %v bytes in %v µs (%.4g MB/s); not written by beff, or edited", m.MBps, m.bytes(), m.Us, want)
		}
	}
	return nil
}
