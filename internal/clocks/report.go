package clocks

import (
	"fmt"
	"math"

	"github.com/beff-suite/beff/internal/results"
)

// ReportName is the name of the line a run writes about its clocks, under
// its suite's benchmark (BenchmarkX/clock=run).
const ReportName = "clock=run"

// Metrics of the line.
const (
	MetricErr      = "clock-err-us"     // the model's largest error over the run and the processes, µs
	MetricErrMed   = "clock-err-med-us" // the median over the processes of each one's largest, µs
	MetricDriftMin = "drift-min-ppm"    // the smallest drift of a process against rank 0, ppm
	MetricDriftMax = "drift-max-ppm"    // the largest
	MetricSyncs    = "syncs"            // estimations of the model (the first included)
	MetricRounds   = "rounds"           // rounds of ping-pongs of one (⌈log2 p⌉)
	MetricSyncS    = "sync-s"           // their time in all, s
	// The start spreads of a job that starts operations on the model
	// (optional, together): the median over repetitions of the latest
	// process's start minus the earliest's, started on a window schedule
	// and right after MPI_Barrier, µs.
	MetricWindowSpread  = "window-spread-us"
	MetricBarrierSpread = "barrier-spread-us"
)

// Units are the benchfmt unit lines of the metrics.
var Units = []string{
	MetricErr + " better=lower", MetricErrMed + " better=lower",
	MetricDriftMin + " assume=nothing", MetricDriftMax + " assume=nothing",
	MetricSyncs + " assume=exact", MetricRounds + " assume=exact", MetricSyncS + " better=lower",
	MetricWindowSpread + " better=lower", MetricBarrierSpread + " better=lower",
}

// A Report is what a run says of its clocks: how far the model was off
// when the offsets were measured again (at every re-estimation and at the
// end), the drifts it found, and what the estimations cost.
type Report struct {
	Err, ErrMedian     float64 // seconds
	DriftMin, DriftMax float64 // rates
	Syncs, Rounds      int
	Seconds            float64
	// HasSpread says the job measured its start spreads (seconds).
	HasSpread                   bool
	WindowSpread, BarrierSpread float64
}

// A Metric is one value of the line.
type Metric struct {
	Value float64
	Unit  string
}

// Metrics are the report's values for its line.
func (r Report) Metrics() []Metric {
	out := []Metric{{r.Err * 1e6, MetricErr}, {r.ErrMedian * 1e6, MetricErrMed},
		{r.DriftMin * 1e6, MetricDriftMin}, {r.DriftMax * 1e6, MetricDriftMax},
		{float64(r.Syncs), MetricSyncs}, {float64(r.Rounds), MetricRounds}, {r.Seconds, MetricSyncS}}
	if r.HasSpread {
		out = append(out, Metric{r.WindowSpread * 1e6, MetricWindowSpread}, Metric{r.BarrierSpread * 1e6, MetricBarrierSpread})
	}
	return out
}

// ParseReport reads a report from its line's metrics (by unit): every
// metric present, finite, the errors, counts and time not negative.
func ParseReport(m map[string]float64) (Report, error) {
	for _, u := range []string{MetricErr, MetricErrMed, MetricDriftMin, MetricDriftMax, MetricSyncs, MetricRounds, MetricSyncS} {
		v, ok := m[u]
		if !ok {
			return Report{}, fmt.Errorf("%s: no %s", ReportName, u)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || (v < 0 && u != MetricDriftMin && u != MetricDriftMax) {
			return Report{}, fmt.Errorf("%s: %s %g", ReportName, u, v)
		}
	}
	if m[MetricSyncs] > 1e9 || m[MetricRounds] > 64 || m[MetricErrMed] > m[MetricErr] || m[MetricDriftMin] > m[MetricDriftMax] {
		return Report{}, fmt.Errorf("%s: values that do not hold together", ReportName)
	}
	r := Report{Err: m[MetricErr] / 1e6, ErrMedian: m[MetricErrMed] / 1e6, DriftMin: m[MetricDriftMin] / 1e6,
		DriftMax: m[MetricDriftMax] / 1e6, Syncs: int(m[MetricSyncs]), Rounds: int(m[MetricRounds]), Seconds: m[MetricSyncS]}
	w, hasW := m[MetricWindowSpread]
	b, hasB := m[MetricBarrierSpread]
	switch {
	case hasW != hasB:
		return Report{}, fmt.Errorf("%s: want both of %s and %s or neither", ReportName, MetricWindowSpread, MetricBarrierSpread)
	case hasW && !(w >= 0 && b >= 0 && w < 1e12 && b < 1e12):
		return Report{}, fmt.Errorf("%s: start spreads %g and %g µs", ReportName, w, b)
	}
	r.HasSpread, r.WindowSpread, r.BarrierSpread = hasW, w/1e6, b/1e6
	return r, nil
}

// Summary is the report in one sentence.
func (r Report) Summary() string {
	s := fmt.Sprintf("model error over the run %.3f µs largest, %.3f µs median of the processes; drift %+.2f to %+.2f ppm; %d estimations of %d rounds, %.3f s",
		r.Err*1e6, r.ErrMedian*1e6, r.DriftMin*1e6, r.DriftMax*1e6, r.Syncs, r.Rounds, r.Seconds)
	if r.HasSpread {
		s += fmt.Sprintf("; the processes start %.3f µs apart on the windows, %.3f µs after MPI_Barrier (medians)", r.WindowSpread*1e6, r.BarrierSpread*1e6)
	}
	return s
}

// ParseLine reads the line of a run's clocks: ok is false for any other
// line (a name other than clock=run).
func ParseLine(l *results.Line) (rep *Report, ok bool, err error) {
	if len(l.Parts) != 1 || l.Parts[0].Key+"="+l.Parts[0].Value != ReportName {
		return nil, false, nil
	}
	r, err := ParseReport(l.Metrics)
	if err != nil {
		return nil, true, err
	}
	return &r, true, nil
}

// Check holds the report to the run of p processes it belongs to: its
// rounds are ⌈log2 p⌉, it made one estimation at least and no more than
// a run makes (Estimations).
func (r *Report) Check(p int) error {
	switch {
	case r.Rounds != Rounds(p):
		return fmt.Errorf("%s: %d rounds, but a run of %d processes estimates in %d; not written by beff, or edited", ReportName, r.Rounds, p, Rounds(p))
	case r.Syncs < 1 || r.Syncs > Estimations:
		return fmt.Errorf("%s: %d estimations, want 1 to %d; not written by beff, or edited", ReportName, r.Syncs, Estimations)
	}
	return nil
}

// Judge is why a measurement whose window left margin seconds for the
// clocks' disagreement cannot be vouched for under the report ("" when
// it can): the model's error over the run was larger.
func (r *Report) Judge(margin float64) string {
	if r == nil || r.Err <= margin {
		return ""
	}
	return fmt.Sprintf("the clocks' model was off by up to %.3f µs over the run, more than the %.3f µs its window left", r.Err*1e6, margin*1e6)
}

// JSON is the report in a fold's JSON ("clocks", docs/fold-json.md).
type JSON struct {
	ErrUs       float64 `json:"err_us"`        // the model's largest error over the run and the processes
	ErrMedianUs float64 `json:"err_median_us"` // the median of the processes' largest
	DriftMinPPM float64 `json:"drift_min_ppm"` // the processes' rates against rank 0's clock
	DriftMaxPPM float64 `json:"drift_max_ppm"`
	Syncs       int     `json:"syncs"`  // estimations of the model
	Rounds      int     `json:"rounds"` // rounds of ping-pongs of one
	SyncS       float64 `json:"sync_s"` // their time in all
	// The start spreads, where the job measured them (µs, absent else).
	WindowSpreadUs  *float64 `json:"window_spread_us,omitempty"`
	BarrierSpreadUs *float64 `json:"barrier_spread_us,omitempty"`
}

// JSON is the report for a fold's JSON, nil for none.
func (r *Report) JSON() *JSON {
	if r == nil {
		return nil
	}
	j := &JSON{ErrUs: r.Err * 1e6, ErrMedianUs: r.ErrMedian * 1e6, DriftMinPPM: r.DriftMin * 1e6, DriftMaxPPM: r.DriftMax * 1e6,
		Syncs: r.Syncs, Rounds: r.Rounds, SyncS: r.Seconds}
	if r.HasSpread {
		w, b := r.WindowSpread*1e6, r.BarrierSpread*1e6
		j.WindowSpreadUs, j.BarrierSpreadUs = &w, &b
	}
	return j
}
