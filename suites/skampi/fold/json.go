package fold

import (
	"math"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// JSONSkampi is what a SKaMPI run adds to its JSON object, under "skampi"
// (docs/fold-json.md).
type JSONSkampi struct {
	Sync  string  `json:"sync"`  // window or barrier
	Eps   float64 `json:"eps"`   // ε
	Reps  string  `json:"reps"`  // min-max repetitions
	Cache string  `json:"cache"` // cold or warm
	Clock string  `json:"clock"`
	// PairMax and PairMin are "a b host-a host-b rtt-us" of the slowest
	// and the fastest pair ("" on one process).
	PairMax string `json:"pair_max"`
	PairMin string `json:"pair_min"`
	// Ops are the operations in run order.
	Ops []JSONOp `json:"ops"`
	// NotConverged names the points that did not reach ε (with or without
	// a value).
	NotConverged []string `json:"not_converged"`
}

// A JSONOp is one operation's points.
type JSONOp struct {
	Name    string      `json:"name"`
	Pattern string      `json:"pattern"`
	Call    string      `json:"call"`
	Ref     string      `json:"reference_of,omitempty"` // the library operation a hand-built one stands for
	Points  []JSONPoint `json:"points"`
}

// A JSONPoint is one point: its parameters and summary (times in µs, null
// when the point has no valid repetition).
type JSONPoint struct {
	Name      string          `json:"name"` // the sub-benchmark name
	Pair      string          `json:"pair,omitempty"`
	Procs     int             `json:"procs"`
	Chunks    int             `json:"chunks,omitempty"`
	LenBytes  int64           `json:"len_bytes"`
	Us        results.Float   `json:"us"` // cut-quantile mean
	MedianUs  results.Float   `json:"median_us"`
	MinUs     results.Float   `json:"min_us"`
	P90Us     results.Float   `json:"p90_us"`
	P99Us     results.Float   `json:"p99_us"`
	RSE       results.Float   `json:"rse"` // null with fewer than two repetitions
	N         int             `json:"n"`
	Invalid   int             `json:"invalid"`
	Calls     int             `json:"calls"`
	Converged bool            `json:"converged"`
	WindowUs  results.Float   `json:"window_us"`         // null in barrier mode
	RankUs    []results.Float `json:"rank_us,omitempty"` // collectives: min, median, max of the per-process means
	MBps      results.Float   `json:"mbps,omitempty"`
}

// JSONDetail is the run's SKaMPI detail.
func (p *Folded) JSONDetail() any {
	c := p.Config
	d := JSONSkampi{Sync: c.Sync, Eps: c.Eps, Reps: c.Reps, Cache: c.Cache, Clock: c.Clock,
		PairMax: c.PairMax, PairMin: c.PairMin, NotConverged: []string{}}
	for _, t := range p.Ops {
		op := JSONOp{Name: t.Op.Name, Pattern: t.Op.Pattern.String(), Call: t.Op.Call, Ref: t.Op.Ref}
		for _, m := range t.Rows {
			op.Points = append(op.Points, jsonPoint(t.Op, m))
		}
		d.Ops = append(d.Ops, op)
	}
	for _, m := range append(append([]*Measurement(nil), p.NoValue...), p.NotConverged...) {
		d.NotConverged = append(d.NotConverged, m.Name)
	}
	return d
}

func jsonPoint(o skampi.Op, m *Measurement) JSONPoint {
	v := func(x float64, ok bool) results.Float {
		if !ok {
			return results.Float(math.NaN())
		}
		return results.Float(x)
	}
	jp := JSONPoint{Name: m.Name, Pair: m.Pair, Procs: m.Procs, Chunks: m.Chunks, LenBytes: m.Len,
		Us: v(m.Us, m.Has), MedianUs: v(m.Median, m.Has), MinUs: v(m.Min, m.Has), P90Us: v(m.P90, m.Has),
		P99Us: v(m.P99, m.Has), RSE: v(m.RSE, m.HasRSE), N: m.N, Invalid: m.Invalid, Calls: m.Calls,
		Converged: m.Converged(), WindowUs: v(m.WindowUs, m.WindowUs > 0)}
	if o.Pattern == skampi.Collective && m.Has {
		jp.RankUs = []results.Float{results.Float(m.RankMin), results.Float(m.RankMed), results.Float(m.RankMax)}
	}
	if o.Pattern == skampi.PingPong && m.MBps > 0 {
		jp.MBps = results.Float(m.MBps)
	}
	return jp
}
