package fold

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/congestion"
)

// Config is the configuration of a congestion run.
type Config struct {
	results.Common
	Plan                            congestion.Plan
	Nodes, CanaryProcs, CanaryNodes int
	Split                           string // congestion-split ("" in congestors-only mode)
	SetProcs, SetNodes              []int
	Len, BwLen                      int64
	MinLoad                         float64
	Seed, Details                   string
	NoRMA                           string // congestion-rma: why the one-sided incast was left out
}

// parseConfig reads the configuration lines of a run; it refuses what
// contradicts itself or the job.
func parseConfig(c results.Config) (*Config, error) {
	r := results.ConfigReader{Config: c, Suite: congestion.ID.Name}
	cfg := &Config{}
	if err := cfg.Read(r); err != nil {
		return nil, err
	}
	steps := []func(results.ConfigReader) error{cfg.readPlan, cfg.readSplit, cfg.readSizes}
	for _, f := range steps {
		if err := f(r); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// readPlan reads the mode, the time, the repetitions, the canaries, the
// congestors and the mix.
func (cfg *Config) readPlan(r results.ConfigReader) error {
	mode, err := r.Need(congestion.KeyMode)
	if err != nil {
		return err
	}
	p := &cfg.Plan
	switch mode {
	case congestion.ModeCanaries:
	case congestion.ModeCongestorsOnly:
		p.Only = true
	default:
		return fmt.Errorf("%s: %q: want %s or %s", congestion.KeyMode, mode, congestion.ModeCanaries, congestion.ModeCongestorsOnly)
	}
	if p.Time, err = positive(r, congestion.KeyTime, 86400); err != nil {
		return err
	}
	reps, err := r.PosInt(congestion.KeyReps)
	if err != nil {
		return err
	}
	if reps > congestion.MaxReps {
		return fmt.Errorf("%s: %d repetitions, more than %d", congestion.KeyReps, reps, congestion.MaxReps)
	}
	p.Reps = int(reps)
	if !p.Only {
		if p.Canaries, err = list(r, congestion.KeyCanaries, congestion.CanaryNames); err != nil {
			return err
		}
	}
	if p.Congestors, err = list(r, congestion.KeyCongestors, congestion.CongestorNames); err != nil {
		return err
	}
	if p.Mix, err = r.Need(congestion.KeyMix); err != nil {
		return err
	}
	if p.Mix != congestion.MixTogether && p.Mix != congestion.MixEach {
		return fmt.Errorf("%s: %q: want %s or %s", congestion.KeyMix, p.Mix, congestion.MixTogether, congestion.MixEach)
	}
	return nil
}

// readSplit reads the split and checks it against the processes.
func (cfg *Config) readSplit(r results.ConfigReader) error {
	var err error
	if cfg.Nodes, err = posInt(r, congestion.KeyNodes, cfg.N); err != nil {
		return err
	}
	if hosts, ok := results.HostsCount(r.Config[results.KeyHosts]); ok && int64(cfg.Nodes) != hosts {
		return fmt.Errorf("%s: %d nodes, but %s names %d: the configuration contradicts itself", congestion.KeyNodes, cfg.Nodes, results.KeyHosts, hosts)
	}
	if !cfg.Plan.Only {
		if cfg.Split, err = r.Need(congestion.KeySplit); err != nil {
			return err
		}
		if !slices.Contains([]string{congestion.SplitNodes, congestion.SplitProcs, congestion.SplitList}, cfg.Split) {
			return fmt.Errorf("%s: %q is not a split", congestion.KeySplit, cfg.Split)
		}
		if cfg.CanaryProcs, err = posInt(r, congestion.KeyCanaryProcs, cfg.N); err != nil {
			return err
		}
		if cfg.CanaryNodes, err = posInt(r, congestion.KeyCanaryNodes, cfg.Nodes); err != nil {
			return err
		}
	}
	sets := 1
	if cfg.Plan.Mix == congestion.MixTogether {
		sets = len(cfg.Plan.Congestors)
	}
	if cfg.SetProcs, err = ints(r, congestion.KeySetProcs, sets, cfg.N); err != nil {
		return err
	}
	if cfg.SetNodes, err = ints(r, congestion.KeySetNodes, sets, cfg.Nodes); err != nil {
		return err
	}
	total := cfg.CanaryProcs
	for _, n := range cfg.SetProcs {
		total += n
	}
	if total != cfg.N {
		return fmt.Errorf("%s and %s: %d processes in all, but the job has %d: the configuration contradicts itself", congestion.KeyCanaryProcs, congestion.KeySetProcs, total, cfg.N)
	}
	cfg.Seed, cfg.Details, cfg.NoRMA = r.Config[congestion.KeySeed], r.Config[congestion.KeySplitDetails], r.Config[congestion.KeyNoRMA]
	return nil
}

// readSizes reads the message lengths and the least load.
func (cfg *Config) readSizes(r results.ConfigReader) error {
	var err error
	if cfg.Len, err = r.PosInt(congestion.KeyLen); err != nil {
		return err
	}
	if !cfg.Plan.Only {
		if cfg.BwLen, err = r.PosInt(congestion.KeyBwLen); err != nil {
			return err
		}
	}
	if cfg.Len > math.MaxInt32 || cfg.BwLen > math.MaxInt32 {
		return fmt.Errorf("%s, %s: messages of %d and %d bytes: beyond an MPI count", congestion.KeyLen, congestion.KeyBwLen, cfg.Len, cfg.BwLen)
	}
	v, err := r.Need(congestion.KeyMinLoad)
	if err != nil {
		return err
	}
	if cfg.MinLoad, err = strconv.ParseFloat(v, 64); err != nil || !(cfg.MinLoad >= 0 && cfg.MinLoad <= 1) {
		return fmt.Errorf("%s: %q is not a share from 0 to 1", congestion.KeyMinLoad, v)
	}
	return nil
}

// positive reads a positive number up to most.
func positive(r results.ConfigReader, key string, most float64) (float64, error) {
	v, err := r.Need(key)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f > 0 && f <= most) {
		return 0, fmt.Errorf("%s: %q is not a number above 0 and up to %g", key, v, most)
	}
	return f, nil
}

// posInt reads a positive whole number up to most.
func posInt(r results.ConfigReader, key string, most int) (int, error) {
	n, err := r.PosInt(key)
	if err != nil {
		return 0, err
	}
	if n > int64(most) {
		return 0, fmt.Errorf("%s: %d, more than the %d the job has", key, n, most)
	}
	return int(n), nil
}

// ints reads want comma-separated positive whole numbers, each up to most.
func ints(r results.ConfigReader, key string, want, most int) ([]int, error) {
	v, err := r.Need(key)
	if err != nil {
		return nil, err
	}
	parts := strings.Split(v, ",")
	if len(parts) != want {
		return nil, fmt.Errorf("%s: %d values, want %d (one per congestor set)", key, len(parts), want)
	}
	out := make([]int, want)
	for i, s := range parts {
		n, err := results.PosInt(key, strings.TrimSpace(s))
		if err != nil {
			return nil, err
		}
		if n > int64(most) {
			return nil, fmt.Errorf("%s: %d, more than the %d the job has", key, n, most)
		}
		out[i] = int(n)
	}
	return out, nil
}

// list reads a list of known names.
func list(r results.ConfigReader, key string, known []string) ([]string, error) {
	v, err := r.Need(key)
	if err != nil {
		return nil, err
	}
	return congestion.ParseList(key, v, known)
}

// A Measurement is one line: a canary's or a congestor's.
type Measurement struct {
	Canary, Congestor string // one of them is set
	Load              string
	Rep               int
	Value             float64   // µs (a time canary) or MB/s (the bandwidth canary, a congestor)
	Quantiles         []float64 // a canary's, in congestion.Quantiles order, in the unit of Value
	Extreme           float64   // a canary's slowest sample: max-us, or min-MB/s
	Samples, Seconds  float64
	Procs, Calls      float64 // a congestor's
	Line              int
	Clock             *clocks.Report // the line clock=run alone: the run's clocks
}

// Bandwidth reports whether the line's value is a bandwidth.
func (m *Measurement) Bandwidth() bool { return m.Canary == "" || congestion.Bandwidth(m.Canary) }

// Unit is the unit of the line's value.
func (m *Measurement) Unit() string {
	if m.Bandwidth() {
		return congestion.MetricMBps
	}
	return congestion.MetricUs
}

// Name is the line's canonical name.
func (m *Measurement) Name() string {
	if m.Clock != nil {
		return clocks.ReportName
	}
	if m.Canary != "" {
		return congestion.CanaryName(m.Canary, m.Load, m.Rep)
	}
	return congestion.CongestorName(m.Congestor, m.Load, m.Rep)
}

const nameWant = "not a congestion measurement name (want canary=<canary>/load=<load>/rep=<k> or congestor=<congestor>/load=<load>/rep=<k>)"

// parseName reads the parts of a line's name.
func parseName(parts []results.Part) (*Measurement, error) {
	if len(parts) != 3 || parts[1].Key != "load" || parts[2].Key != "rep" {
		return nil, fmt.Errorf(nameWant)
	}
	m := &Measurement{Load: parts[1].Value}
	rep, err := strconv.Atoi(parts[2].Value)
	if err != nil || rep < 1 || rep > congestion.MaxReps {
		return nil, fmt.Errorf("rep=%s: not a repetition from 1 to %d", parts[2].Value, congestion.MaxReps)
	}
	m.Rep = rep
	loads := []string{congestion.LoadIsolated}
	switch parts[0].Key {
	case "canary":
		m.Canary = parts[0].Value
		if !slices.Contains(congestion.CanaryNames, m.Canary) {
			return nil, fmt.Errorf("canary=%s: no such canary (%s)", m.Canary, strings.Join(congestion.CanaryNames, ", "))
		}
		loads = append(append(loads, congestion.LoadCongested), congestion.CongestorNames...)
	case "congestor":
		m.Congestor = parts[0].Value
		if !slices.Contains(congestion.CongestorNames, m.Congestor) {
			return nil, fmt.Errorf("congestor=%s: no such congestor (%s)", m.Congestor, strings.Join(congestion.CongestorNames, ", "))
		}
		loads = append(append(loads, congestion.LoadTogether), congestion.CanaryNames...)
	default:
		return nil, fmt.Errorf(nameWant)
	}
	if !slices.Contains(loads, m.Load) {
		return nil, fmt.Errorf("load=%s: not a load of %s (%s)", m.Load, parts[0].Value, strings.Join(loads, ", "))
	}
	return m, nil
}

// parseMetrics reads a line's metrics: every one there, finite, positive
// (a count whole), the quantiles in order.
func parseMetrics(l *results.Line, m *Measurement) error {
	get := func(unit string, whole bool) (float64, error) {
		v, ok := l.Metrics[unit]
		switch {
		case !ok:
			return 0, fmt.Errorf("no %s metric", unit)
		case !(v > 0) || v > results.MaxFigure:
			return 0, fmt.Errorf("%s = %v: not a positive number up to %g", unit, v, float64(results.MaxFigure))
		case whole && v != math.Trunc(v):
			return 0, fmt.Errorf("%s = %v: not a whole number", unit, v)
		}
		return v, nil
	}
	var err error
	if m.Value, err = get(m.Unit(), false); err != nil {
		return err
	}
	if m.Seconds, err = get(congestion.MetricSeconds, false); err != nil {
		return err
	}
	if m.Canary == "" {
		if m.Procs, err = get(congestion.MetricProcs, true); err != nil {
			return err
		}
		m.Calls, err = get(congestion.MetricCalls, false)
		return err
	}
	if m.Samples, err = get(congestion.MetricSamples, true); err != nil {
		return err
	}
	extreme := congestion.MetricMax
	if m.Bandwidth() {
		extreme = congestion.MetricMinMBps
	}
	if m.Extreme, err = get(extreme, false); err != nil {
		return err
	}
	for _, q := range congestion.Quantiles {
		v, err := get(congestion.QuantileMetric(q, m.Bandwidth()), false)
		if err != nil {
			return err
		}
		m.Quantiles = append(m.Quantiles, v)
	}
	if err := m.checkOrder(); err != nil {
		return err
	}
	return m.checkMean()
}

// checkMean refuses a canary's mean that no samples with its quantiles
// and slowest sample could have. At least a share q of the samples lie
// at or below the bin of quantile q, and at least 1 − q at or above it,
// so the mean time lies between
//
//	Σ (q_{i+1} − q_i)·bottom_i + max/N   and   Σ (q_i − q_{i−1})·top_i + (1 − q_last)·max
//
// (q_0 = 0, bottom and top half a bin either side of a quantile). A
// bandwidth canary's figures are times inverted: its bytes over them.
func (m *Measurement) checkMean() error {
	t := func(v float64) float64 {
		if m.Bandwidth() {
			return 1 / v
		}
		return v
	}
	qs := congestion.Quantiles
	mean, slowest, n := t(m.Value), t(m.Extreme), m.Samples
	var lo, hi, prev float64
	for i, q := range qs {
		next := 1 - 1/n
		if i+1 < len(qs) {
			next = qs[i+1]
		}
		lo += max(0, next-q) * t(m.Quantiles[i]) / binSlack
		hi += (q - prev) * t(m.Quantiles[i]) * binSlack
		prev = q
	}
	lo += slowest / n
	hi += (1 - prev) * slowest
	const printed = 2e-3 // the digits a figure is printed with
	if mean < lo*(1-printed) || mean > hi*(1+printed) {
		return fmt.Errorf("its mean %v %s is impossible beside its quantiles %v and its extreme %v (%d samples); not written by beff, or edited",
			m.Value, m.Unit(), m.Quantiles, m.Extreme, int64(n))
	}
	return nil
}

// checkOrder refuses quantiles out of order, or beyond the slowest
// sample by more than half a bin: the line was not measured so.
func (m *Measurement) checkOrder() error {
	q := append(append([]float64(nil), m.Quantiles...), m.Extreme)
	for i := 1; i < len(q); i++ {
		a, b := q[i-1], q[i]
		if m.Bandwidth() {
			a, b = 1/a, 1/b
		}
		if a > b*binSlack {
			return fmt.Errorf("its quantiles and its slowest sample are out of order (%v): not a measurement", q)
		}
	}
	return nil
}

// binSlack is how far a quantile, the middle of a histogram bin, may lie
// beyond the samples it stands for: half a bin (1.01^½), rounded up.
const binSlack = 1.006
