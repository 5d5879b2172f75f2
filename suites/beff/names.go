package beff

import (
	"fmt"

	"github.com/beff-suite/beff/internal/results"
)

// The names a b_eff results file uses: the driver writes them, the fold
// reads them back. They are the contract between the two, so both take
// them from here.

// Bench is the benchmark's base name, as benchfmt reports it: BenchmarkBeff.
const Bench = "Beff"

// ID is every name of b_eff.
var ID = &results.Identity{Key: "beff", Name: "b_eff", Bench: Bench, JSONKey: "beff", Doc: "docs/beff.md", Units: units,
	FoldUnits: []results.Unit{{Name: "MB/s", Better: "higher"}, {Name: "us", Better: "lower"}, {Name: "B/F", Better: "higher"}},
	Drawn:     []string{KeySeed}}

// Configuration keys of a b_eff run.
const (
	KeyMem       = "beff-mem-per-proc-mib" // memory per process M, MiB
	KeyLmax      = "beff-lmax"             // the largest message, bytes
	KeySizes     = "beff-sizes"            // the measured sizes, comma-separated, ascending
	KeyRandom    = "beff-random-patterns"  // number of random patterns (at most MaxRandom)
	KeyResumed   = "beff-resumed"          // measurements copied from an earlier job: how many, from which file
	KeySeed      = "beff-seed"             // seed of the random patterns
	KeyTarget    = "beff-loop-target-ms"   // loop time target, ms
	KeyRmax      = "beff-rmax-gflops"      // Linpack Rmax, GFlop/s (optional)
	KeyPatterns  = "beff-patterns"         // the patterns of a restricted run (optional)
	KeyShortcut  = "beff-shortcut-limit-s" // the shortcut limit when not the default (optional)
	KeyRules     = "beff-rules"            // "reference" for the reference code's rules (optional; absent: beff's)
	KeyTestFault = "beff-testfault"        // set when a message is corrupted on purpose (tests)
	KeyRingPaths = "beff-ring-paths"       // where the ring patterns' messages go (RingPaths), on more than one host
)

// Metrics of a measurement line, in the units the driver writes them.
const (
	MetricMBps    = "MB/s"     // the best repetition, 1e6 B/s
	MetricMinMBps = "min-MB/s" // the worst repetition
	MetricAvgMBps = "avg-MB/s" // the mean over the repetitions
	MetricLoop    = "ms/loop"  // loop time of the best repetition, max over ranks
	MetricLoopLen = "looplen"  // iterations of the timed loop
	MetricReps    = "reps"     // repetitions
)

// units declares the direction of each metric (benchfmt unit lines; ID.Units).
var units = []string{
	MetricMBps + " better=higher",
	MetricMinMBps + " better=higher",
	MetricAvgMBps + " better=higher",
	MetricLoop + " better=lower",
	MetricLoopLen + " assume=exact",
	MetricReps + " assume=exact",
}

// Name is the sub-benchmark name of one measurement:
// pat=<pattern>/L=<bytes>/mthd=<method>.
func Name(pattern string, l int64, m Method) string {
	return fmt.Sprintf("pat=%s/L=%d/mthd=%s", pattern, l, m)
}

// NameKeys are the keys of the parts of Name, in order.
var NameKeys = []string{"pat", "L", "mthd"}

// PatternNames lists the names of every pattern of a run with random
// random patterns, in measurement order: the rings, the random rings, the
// additional patterns.
func PatternNames(random int) []string {
	names := append([]string(nil), RingNames[:]...)
	for i := range random {
		names = append(names, RandomName(i))
	}
	return append(names, ExtraNames...)
}

// MaxRandom is the most random patterns a run may have (the standard run
// has 30).
const MaxRandom = 1000
