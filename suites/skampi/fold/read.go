package fold

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// Config is the configuration of a SKaMPI run.
type Config struct {
	results.Common
	Ops      []string // skampi-ops
	Sync     string   // skampi-sync
	Eps      float64  // skampi-eps
	Reps     string   // skampi-reps: min-max
	Lengths  string   // skampi-lengths
	Procs    string   // skampi-procs
	Cache    string   // skampi-cache
	Clock    string   // skampi-clock
	Offsets  string   // skampi-offsets-us: min median max
	PairMax  string   // skampi-pair-max: a b host-a host-b rtt-us
	PairMin  string   // skampi-pair-min
	Wtick    string   // skampi-wtick-s
	Timer    string   // skampi-timer-s
	Oversub  string   // validity reason of an oversubscribed run, or ""
	Budget   string   // skampi-budget-s
	Warmup   string   // skampi-warmup
	Chunks   string   // skampi-chunks
	OffsetEr string   // skampi-offset-err-us
}

func parseConfig(cfg results.Config) (*Config, error) {
	r := results.ConfigReader{Config: cfg, Suite: "SKaMPI"}
	c := &Config{}
	if err := c.ReadProcs(r); err != nil {
		return nil, err
	}
	if err := c.ReadMode(r); err != nil {
		return nil, err
	}
	c.ReadInfo(r)
	ops, err := r.Need(skampi.KeyOps)
	if err != nil {
		return nil, err
	}
	c.Ops = strings.Split(ops, ",")
	if c.Sync, err = r.Need(skampi.KeySync); err != nil {
		return nil, err
	}
	eps, err := r.Need(skampi.KeyEps)
	if err != nil {
		return nil, err
	}
	if c.Eps, err = strconv.ParseFloat(eps, 64); err != nil || !(c.Eps > 0 && c.Eps < 1) {
		return nil, fmt.Errorf("%s: %q is not a relative error between 0 and 1", skampi.KeyEps, eps)
	}
	c.Reps, c.Lengths, c.Procs = cfg[skampi.KeyReps], cfg[skampi.KeyLengths], cfg[skampi.KeyProcs]
	c.Cache, c.Clock, c.Offsets = cfg[skampi.KeyCache], cfg[skampi.KeyClock], cfg[skampi.KeyOffsets]
	c.PairMax, c.PairMin = cfg[skampi.KeyPairMax], cfg[skampi.KeyPairMin]
	c.Wtick, c.Timer, c.Budget = cfg[skampi.KeyWtick], cfg[skampi.KeyTimer], cfg[skampi.KeyBudget]
	c.Warmup, c.Chunks, c.OffsetEr = cfg[skampi.KeyWarmup], cfg[skampi.KeyChunks], cfg[skampi.KeyOffsetEr]
	c.Oversub = cfg.Oversubscribed()
	return c, nil
}

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
	Line              int
}

// Converged reports whether the point reached its ε.
func (m *Measurement) Converged() bool { return m.Stop == skampi.Converged }

// parseName reads op=…/(pair=…|procs=…)/(chunks=…)/(L=…) back into a
// point: it must be exactly the name the driver gives it.
func parseName(parts []results.Part) (skampi.Point, error) {
	if len(parts) == 0 || parts[0].Key != "op" {
		return skampi.Point{}, fmt.Errorf("want op=<operation>/…")
	}
	pt := skampi.Point{Op: skampi.OpIndex(parts[0].Value)}
	if pt.Op < 0 {
		return pt, fmt.Errorf("unknown operation %q", parts[0].Value)
	}
	for _, p := range parts[1:] {
		var err error
		switch p.Key {
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
	if skampi.Ops[pt.Op].Pattern == skampi.PingPong {
		pt.Procs = 2
	}
	return pt, nil
}

func parseMetrics(l *results.Line, pt skampi.Point) (*Measurement, error) {
	m := &Measurement{Point: pt, Line: l.Line}
	get := func(unit string) float64 { return l.Metrics[unit] }
	for _, u := range []string{skampi.MetricN, skampi.MetricStop, skampi.MetricCalls} {
		if _, ok := l.Metrics[u]; !ok {
			return nil, fmt.Errorf("no %s metric", u)
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
	if m.Has && !(m.Us > 0) && m.N > 0 {
		// A mean of 0 µs is possible for the cheapest local calls; a
		// negative or NaN one is not.
		if m.Us < 0 || m.Us != m.Us {
			return nil, fmt.Errorf("us: %v is not a time", m.Us)
		}
	}
	return m, nil
}
