package congestion

import (
	"fmt"
	"slices"
	"strings"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/results"
)

// The names a congestion results file uses: the driver writes them, the
// fold reads them back.

// Bench is the benchmark's base name, as benchfmt reports it:
// BenchmarkCongestion.
const Bench = "Congestion"

// ID is every name of the congestion suite.
var ID = &results.Identity{Key: "congestion", Name: "congestion", Bench: Bench, JSONKey: "congestion", Doc: "docs/congestion.md",
	Units: units, FoldUnits: []results.Unit{{Name: UnitCIF, Better: "lower"}, {Name: "us", Better: "lower"}, {Name: "MB/s", Better: "higher"}}}

// UnitCIF is the unit of a Congestion Impact Factor: congested over
// isolated, 1 when the load changed nothing, higher when it hurt.
const UnitCIF = "x"

// Configuration keys of a congestion run.
const (
	KeyMode         = "congestion-mode"          // ModeCanaries or ModeCongestorsOnly
	KeyTime         = "congestion-time-s"        // seconds of each measurement
	KeyReps         = "congestion-reps"          // repetitions of the whole sequence
	KeyCanaries     = "congestion-canaries"      // the canaries, comma-separated, in order
	KeyCongestors   = "congestion-congestors"    // the congestors, comma-separated, in order
	KeyMix          = "congestion-mix"           // MixTogether or MixEach
	KeySplit        = "congestion-split"         // how the processes were split: SplitNodes, SplitProcs or SplitList
	KeyNodes        = "congestion-nodes"         // the nodes of the job
	KeyCanaryProcs  = "congestion-canary-procs"  // processes running canaries
	KeyCanaryNodes  = "congestion-canary-nodes"  // nodes with a canary process
	KeySetProcs     = "congestion-set-procs"     // processes of each congestor set, comma-separated
	KeySetNodes     = "congestion-set-nodes"     // nodes of each congestor set, comma-separated
	KeyLen          = "congestion-len"           // bytes of a congestor's message
	KeyBwLen        = "congestion-bw-len"        // bytes of a message of the ring bandwidth canary
	KeyMinLoad      = "congestion-min-load"      // the share of its isolated bandwidth a congestor must deliver under a canary
	KeySeed         = "congestion-seed"          // seed of the node shuffle and the rings
	KeyResumed      = "congestion-resumed"       // repetitions copied from an earlier job
	KeyPlan         = "congestion-plan-s"        // seconds the measurements are planned to take
	KeySplitDetails = "congestion-split-details" // the split for people: which nodes run what
	KeyNoRMA        = "congestion-rma"           // why the one-sided incast was left out (absent: it was not)
)

// Values of KeyMode, KeyMix and KeySplit.
const (
	ModeCanaries       = "canaries"        // canaries isolated and under load
	ModeCongestorsOnly = "congestors-only" // the congestors alone: a load for others
	MixTogether        = "together"        // every congestor at once, each on its own set of processes (GPCNeT)
	MixEach            = "each"            // one congestor at a time on all congestor processes
	SplitNodes         = "nodes"           // whole nodes run canaries, the others congestors
	SplitProcs         = "procs"           // every node gives some of its processes to the canaries
	SplitList          = "list"            // the canary nodes were named
)

// Loads a line is measured under (the load= part of a name), besides a
// congestor's name (MixEach).
const (
	LoadIsolated  = "isolated"  // nothing else runs
	LoadCongested = "congested" // every congestor runs (MixTogether)
	LoadTogether  = "together"  // congestors-only: every congestor at once
)

// Canary and congestor names, in measurement order.
var (
	CanaryNames    = []string{"rr-lat", "rr-bw", "allreduce"}
	CongestorNames = []string{"incast", "rma-incast", "bcast", "alltoall", "worst-cycle"}
	// DefaultCongestors are GPCNeT's four.
	DefaultCongestors = CongestorNames[:4]
)

// SmallLen is the length of the messages of rr-lat and allreduce, bytes.
const SmallLen = 8

// BwOutstanding is the ring bandwidth canary's messages each way per
// iteration (the binding's CanaryOutstanding).
const BwOutstanding = 8

// Bandwidth reports whether a canary measures bandwidth (MB/s, higher is
// better) rather than time (µs).
func Bandwidth(canary string) bool { return canary == "rr-bw" }

// Metrics of a line.
const (
	MetricUs      = "us"     // a time canary's mean sample, µs
	MetricMBps    = "MB/s"   // the bandwidth canary's mean sample per process; a congestor set's delivered bandwidth, 1e6 B/s
	MetricMax     = "max-us" // the slowest sample
	MetricMinMBps = "min-MB/s"
	MetricSamples = "samples" // samples taken
	MetricProcs   = "procs"   // processes of the congestor set
	MetricCalls   = "calls"   // calls of the congestor, per process
	MetricSeconds = "s"       // seconds of the measurement (slowest process)
)

// Quantiles of a canary's samples on its lines: p50, p90, p99 and p99.9
// of the time (for bandwidth: of the time of a sample, as bandwidth, so
// that p99-MB/s is what 99 % of the samples reached).
var Quantiles = []float64{0.5, 0.9, 0.99, 0.999}

// QuantileMetric is the metric of quantile q of a canary's line:
// p99-us, p99.9-MB/s.
func QuantileMetric(q float64, bandwidth bool) string {
	u := MetricUs
	if bandwidth {
		u = MetricMBps
	}
	return fmt.Sprintf("p%s-%s", strings.TrimSuffix(fmt.Sprintf("%g", q*100), ".0"), u)
}

// units declares the direction of each metric.
var units = func() []string {
	out := []string{MetricUs + " better=lower", MetricMax + " better=lower", MetricMinMBps + " better=higher",
		MetricSamples + " assume=exact", MetricProcs + " assume=exact", MetricCalls + " assume=exact", MetricSeconds + " assume=exact"}
	for _, q := range Quantiles {
		out = append(out, QuantileMetric(q, false)+" better=lower", QuantileMetric(q, true)+" better=higher")
	}
	return append(out, clocks.Units...) // and the line of the run's clocks (clocks.ReportName)
}()

// CanaryName is the sub-benchmark name of a canary's measurement:
// canary=<canary>/load=<load>/rep=<k>.
func CanaryName(canary, load string, rep int) string {
	return fmt.Sprintf("canary=%s/load=%s/rep=%d", canary, load, rep)
}

// CongestorName is the sub-benchmark name of a congestor's measurement:
// congestor=<congestor>/load=<isolated, together or the canary it ran
// beside>/rep=<k>.
func CongestorName(congestor, load string, rep int) string {
	return fmt.Sprintf("congestor=%s/load=%s/rep=%d", congestor, load, rep)
}

// MaxReps is the most repetitions a run may have.
const MaxReps = 1000

// ParseList checks a comma-separated list of names against known: every
// name known, none twice, at least one; what names the list in messages.
func ParseList(what, list string, known []string) ([]string, error) {
	var out []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		switch {
		case !slices.Contains(known, n):
			return nil, fmt.Errorf("%s: unknown name %q; the names are %s", what, n, strings.Join(known, ", "))
		case slices.Contains(out, n):
			return nil, fmt.Errorf("%s: %q twice", what, n)
		}
		out = append(out, n)
	}
	return out, nil
}
