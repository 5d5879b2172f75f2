package fold

import "github.com/beff-suite/beff/internal/results"

// JSONBeff is what a b_eff run adds to its JSON object, under "beff"
// (docs/fold-json.md).
type JSONBeff struct {
	// RmaxGflops is the Linpack Rmax in GFlop/s that the balance figure
	// uses (beff-rmax-gflops or -rmax), null when none was given.
	RmaxGflops results.Float `json:"rmax_gflops"`
	// TotalTimeS is the wall time of all measurements, seconds (Σ ns/op ×
	// iterations).
	TotalTimeS results.Float `json:"total_time_s"`
	// Shortcut is set when the two largest sizes were measured with the
	// best method only (docs/beff.md "The shortcut").
	Shortcut bool `json:"shortcut"`
	// Patterns are the tables of the measured patterns in measurement
	// order: rings, random rings, additional patterns.
	Patterns []JSONPattern `json:"patterns"`
}

// A JSONPattern is the table of one b_eff pattern.
type JSONPattern struct {
	Name         string   `json:"name"`         // ring2, random01, pingpong, …
	Kind         string   `json:"kind"`         // "ring", "random" (both in b_eff) or "extra"
	Participants int      `json:"participants"` // processes that send or receive
	Messages     int      `json:"messages"`     // messages of the whole pattern per iteration
	Methods      []string `json:"methods"`      // the methods it is measured with
	// AvgMBps is the mean over the sizes of the best bandwidth, the
	// pattern's value in b_eff.
	AvgMBps results.Float `json:"avg_mbps"`
	// LatencyUs is the time per message at 1 byte in microseconds, null
	// when 1 byte was not measured.
	LatencyUs results.Float `json:"latency_us"`
	// Rows has one entry per message size, ascending.
	Rows []JSONPatternRow `json:"rows"`
}

// A JSONPatternRow is one message size of a JSONPattern. The experiment of
// the best method is named pat=<pattern>/L=<size_bytes>/mthd=<best_method>.
type JSONPatternRow struct {
	SizeBytes int64 `json:"size_bytes"` // the message size L
	// MBps is the bandwidth of each measured method (with the shortcut
	// only the best method's).
	MBps       map[string]results.Float `json:"mbps"`
	BestMethod string                   `json:"best_method"` // the method with the highest bandwidth
	BestMBps   results.Float            `json:"best_mbps"`   // its bandwidth, the value in b_eff
}

// JSONDetail returns the b_eff details of p.
func (p *Folded) JSONDetail() any {
	out := &JSONBeff{
		RmaxGflops: results.OrNull(p.Rmax),
		TotalTimeS: results.Float(p.TotalTime.Seconds()),
		Shortcut:   p.Shortcut,
		Patterns:   make([]JSONPattern, 0, len(p.Patterns)),
	}
	for _, t := range p.Patterns {
		out.Patterns = append(out.Patterns, jsonPattern(t))
	}
	return out
}

func jsonPattern(t *PatternTable) JSONPattern {
	jp := JSONPattern{
		Name:         t.Name,
		Kind:         t.Kind.String(),
		Participants: t.Participants,
		Messages:     t.Messages,
		Methods:      make([]string, len(t.Methods)),
		AvgMBps:      results.Float(t.Avg),
		LatencyUs:    results.OrNull(t.Latency),
		Rows:         make([]JSONPatternRow, 0, len(t.Rows)),
	}
	for i, m := range t.Methods {
		jp.Methods[i] = m.String()
	}
	for _, row := range t.Rows {
		jr := JSONPatternRow{SizeBytes: row.L, MBps: map[string]results.Float{},
			BestMethod: row.Best.Method.String(), BestMBps: results.Float(row.Best.MBps)}
		for _, m := range row.Measured {
			jr.MBps[m.Method.String()] = results.Float(m.MBps)
		}
		jp.Rows = append(jp.Rows, jr)
	}
	return jp
}
