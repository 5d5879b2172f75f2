package driver

import (
	"fmt"
	"testing"

	"github.com/beff-suite/beff/suites/congestion"
	"github.com/beff-suite/beff/suites/congestion/loops"
)

// A metric is one value of a line.
type metric struct {
	value float64
	unit  string
}

// canaryLine gathers a canary's samples on rank 0 and returns its line's
// metrics there (nil elsewhere); a canary that received wrong data ends
// the job.
func (r *run) canaryLine(c string, smp loops.Samples) []metric {
	// one reduction to rank 0 of the histogram and the sums (counts stay
	// exact in float64 up to 2^53 samples)
	v := make([]float64, loops.HistBins+3)
	for i, c := range smp.Hist {
		v[i] = float64(c)
	}
	v[loops.HistBins], v[loops.HistBins+1], v[loops.HistBins+2] = float64(smp.N), smp.Sum, float64(smp.Faults)
	all := r.world.SumTo0(v)
	most := r.world.MaxTo0([]float64{smp.Max, smp.Elapsed})
	if all == nil {
		return nil
	}
	hist, sums := make([]int64, loops.HistBins), all[loops.HistBins:]
	for i := range hist {
		hist[i] = int64(all[i])
	}
	if sums[2] > 0 {
		r.s.Fail("the "+c+" canary", fmt.Errorf("%.0f received messages held wrong data: the MPI library or the network corrupts messages", sums[2]))
	}
	if sums[0] == 0 {
		r.s.Fail("the "+c+" canary", fmt.Errorf("no samples in %g s", r.st.Plan.Time))
	}
	h := congestion.Hist{Counts: hist, Min: loops.HistMin, Ratio: loops.HistRatio}
	return canaryMetrics(c, h, sums[0], sums[1], most[0], most[1], r.canaryLen(c))
}

// canaryMetrics are a canary's line: for time, the mean, quantiles and
// the slowest sample in µs; for bandwidth what a sample sends
// (2·CanaryOutstanding messages of msg bytes) over the mean time, and
// over the quantiles of the time and the slowest sample's (the mean of
// the samples' bandwidths would follow the few that a burst let through
// at once).
func canaryMetrics(c string, h congestion.Hist, n, sum, slowest, elapsed float64, msg int64) []metric {
	out := []metric{{0, "ns/op"}}
	if congestion.Bandwidth(c) {
		bytes := float64(2 * loops.CanaryOutstanding * msg)
		out = append(out, metric{bytes / (sum / n) / 1e6, congestion.MetricMBps})
		for _, q := range congestion.Quantiles {
			out = append(out, metric{bytes / h.Quantile(q) / 1e6, congestion.QuantileMetric(q, true)})
		}
		out = append(out, metric{bytes / slowest / 1e6, congestion.MetricMinMBps})
	} else {
		out = append(out, metric{sum / n * 1e6, congestion.MetricUs})
		for _, q := range congestion.Quantiles {
			out = append(out, metric{h.Quantile(q) * 1e6, congestion.QuantileMetric(q, false)})
		}
		out = append(out, metric{slowest * 1e6, congestion.MetricMax})
	}
	return append(out, metric{n, congestion.MetricSamples}, metric{elapsed, congestion.MetricSeconds})
}

func report(b *testing.B, ms []metric) {
	for _, m := range ms {
		b.ReportMetric(m.value, m.unit)
	}
}

// gatherCongestors gathers on rank 0 what the congestor sets delivered
// and returns the metrics of each set of sets, in order (nil elsewhere).
func (r *run) gatherCongestors(sets []int, ld loops.Load) [][]metric {
	if len(sets) == 0 {
		return nil
	}
	n := len(r.st.Described.SetProcs)
	v, el := make([]float64, 2*n), make([]float64, n)
	if r.role > 0 {
		v[r.role-1], v[n+r.role-1], el[r.role-1] = float64(ld.Bytes), float64(ld.Calls), ld.Elapsed
	}
	sum, most := r.world.SumTo0(v), r.world.MaxTo0(el)
	if sum == nil {
		return nil
	}
	var out [][]metric
	for _, i := range sets {
		out = append(out, congestorMetrics(sum[i], sum[n+i], most[i], r.st.Described.SetProcs[i]))
	}
	return out
}

// congestorMetrics are a congestor set's line: the bandwidth its
// processes received (or put), their mean calls and the slowest
// process's time.
func congestorMetrics(bytes, calls, elapsed float64, procs int) []metric {
	return []metric{{0, "ns/op"}, {bytes / elapsed / 1e6, congestion.MetricMBps}, {float64(procs), congestion.MetricProcs},
		{calls / float64(procs), congestion.MetricCalls}, {elapsed, congestion.MetricSeconds}}
}
