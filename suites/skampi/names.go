package skampi

import (
	"fmt"
	"strings"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/results"
)

// The names a SKaMPI results file uses: the driver writes them, the fold
// reads them back.

// Bench is the benchmark's base name, as benchfmt reports it: BenchmarkSkampi.
const Bench = "Skampi"

// ID is every name of SKaMPI.
var ID = &results.Identity{Key: "skampi", Name: "SKaMPI", Bench: Bench, JSONKey: "skampi", Doc: "docs/skampi.md", Units: units,
	FoldUnits: []results.Unit{{Name: "us", Better: "lower"}, {Name: "MB/s", Better: "higher"}}}

// Configuration keys of a SKaMPI run. Every suite has its own line,
// KeySuite+<name> (Setup.ConfigLine).
const (
	KeySuites   = "skampi-suites"        // the suite file: its name and SHA-256 (first 16 hex digits), or "default"
	KeySuite    = "skampi-suite-"        // prefix of a suite's line: its fields as field=value
	KeyResumed  = "skampi-resumed"       // curves copied from a partial run: how many, of how many points, from which file
	KeyPairMax  = "skampi-pair-max"      // ranks, hosts and 1-byte round trip of the slowest pair
	KeyPairMin  = "skampi-pair-min"      // the same of the fastest pair
	KeyPairs    = "skampi-pair-search"   // the rounds of disjoint pairs measured: all, or a sample with its seed
	KeyWtick    = "skampi-wtick-s"       // MPI_Wtick
	KeyTimer    = "skampi-timer-s"       // the cost of one empty measurement (two clock reads), subtracted
	KeyClock    = "skampi-clock"         // global (MPI_WTIME_IS_GLOBAL) or offsets
	KeyOffsets  = "skampi-offsets-us"    // clock offsets to rank 0: min median max, µs
	KeyOffsetEr = "skampi-offset-err-us" // the largest half round trip of the offset estimates, µs
	KeyTypes    = "skampi-types-"        // prefix of a typed suite's line: its layouts (Setup.TypeLine)
	KeyTopology = "skampi-topology-"     // prefix of a neighborhood suite's line: its grids and degrees (Setup.TopologyLine)
	KeyRMA      = "skampi-rma-windows"   // the windows the job could not make: their one-sided suites were not measured
)

// Values of the fields sync and cache of a suite.
const (
	SyncWindow  = "window"
	SyncBarrier = "barrier"
	SyncNone    = "none" // nothing between repetitions: back to back, as SKaMPI 5's ping-pong
	CacheAuto   = "auto" // warm for ping-pong, cold for the rest
	CacheCold   = "cold"
	CacheWarm   = "warm"
)

// One-sided settings of a suite: the synchronisation of its operations'
// epochs (RMASyncs), the window's making and the assertions passed.
const (
	RMAFence       = "fence"                // MPI_Win_fence after each call
	RMAPSCW        = "pscw"                 // MPI_Win_start/complete, MPI_Win_post/wait
	RMALock        = "lock"                 // MPI_Win_lock/unlock around each call
	RMAFlush       = "lock-all-flush"       // MPI_Win_lock_all for a batch, MPI_Win_flush after each call
	RMAFlushLocal  = "lock-all-flush-local" // the same with MPI_Win_flush_local
	WindowAllocate = "allocate"             // MPI_Win_allocate
	WindowCreate   = "create"               // MPI_Win_create over the receive buffer
	AssertNone     = "none"                 // no assertions
	AssertNoCheck  = "nocheck"              // MPI_MODE_NOCHECK to locks, MPI_MODE_NOSTORE to fences
)

// RMASyncs are the synchronisations, in the order the docs list them.
var RMASyncs = []string{RMAFence, RMAPSCW, RMALock, RMAFlush, RMAFlushLocal}

// OSUSync is OSU's name (-s) of each synchronisation.
var OSUSync = map[string]string{RMAFence: "fence", RMAPSCW: "pscw", RMALock: "lock", RMAFlush: "flush", RMAFlushLocal: "flush_local"}

// The models of the clocks (-skampi.clock).
const (
	ClockDrift   = "drift"   // offset and drift per process, re-estimated as the error needs
	ClockOffsets = "offsets" // offsets once before the first point (SKaMPI's scheme)
)

// Values of the fields calls and timer of a suite.
const (
	CallsAuto     = "auto"     // calls per repetition: enough to last the shortest repetition
	TimerSubtract = "subtract" // a repetition's value subtracts the cost of an empty measurement
	TimerKeep     = "keep"     // it does not (SKaMPI 5)
)

// Metrics of a point's line.
const (
	MetricUs      = "us"          // cut-quantile mean, µs
	MetricMedian  = "median-us"   // median, µs
	MetricMin     = "min-us"      // fastest repetition, µs
	MetricP90     = "p90-us"      // 90th percentile, µs
	MetricP99     = "p99-us"      // 99th percentile, µs
	MetricRSE     = "rse"         // relative standard error reached
	MetricN       = "n"           // valid repetitions
	MetricInvalid = "invalid"     // repetitions discarded by the window check
	MetricCalls   = "calls"       // calls batched in one repetition
	MetricWindow  = "window-us"   // final window, µs (window mode)
	MetricRankMin = "rank-min-us" // collectives: the smallest per-process mean, µs
	MetricRankMed = "rank-med-us" // the median per-process mean
	MetricRankMax = "rank-max-us" // the largest per-process mean
	MetricStop    = "stop"        // why the point stopped: 1 converged, 2 max, 3 budget
	MetricMBps    = "MB/s"        // L / time, 1e6 B/s (ping-pong)
	// Non-blocking collectives, measured again with a computation as long
	// as their plain time between start and wait (docs/skampi.md,
	// "Overlap"): the time of a call then, its RSE, the computation's own
	// time per call, the rest (time in MPI calls) and IMB-NBC's overlap.
	MetricOvrl    = "ovrl-us"
	MetricOvrlRSE = "ovrl-rse"
	MetricCPU     = "cpu-us"
	MetricInMPI   = "mpi-us"
	MetricOverlap = "overlap-pct"
	// MetricInit is a persistent operation's time to make its requests
	// (once per batch, not in the timed calls), µs.
	MetricInit = "init-us"
	// MetricThreads is the threads that marked a partitioned message's
	// partitions ready.
	MetricThreads = "threads"
)

// units declares the direction of each metric (benchfmt unit lines; ID.Units).
var units = append([]string{
	MetricUs + " better=lower",
	MetricMedian + " better=lower",
	MetricMin + " better=lower",
	MetricP90 + " better=lower",
	MetricP99 + " better=lower",
	MetricRSE + " better=lower",
	MetricN + " assume=exact",
	MetricInvalid + " better=lower",
	MetricCalls + " assume=exact",
	MetricWindow + " better=lower",
	MetricRankMin + " better=lower",
	MetricRankMed + " better=lower",
	MetricRankMax + " better=lower",
	MetricStop + " assume=exact",
	MetricMBps + " better=higher",
	MetricOvrl + " better=lower",
	MetricOvrlRSE + " better=lower",
	MetricCPU + " assume=nothing",
	MetricInMPI + " better=lower",
	MetricOverlap + " better=higher",
	MetricInit + " better=lower",
	MetricThreads + " assume=exact",
}, clocks.Units...) // and the line of the run's clocks (clocks.ReportName)

// Pair names of ping-pong points.
const (
	PairMax = "max" // the pair with the largest round trip
	PairMin = "min" // the pair with the smallest
)

// A Point is one data point: an operation at one setting of its
// parameters.
type Point struct {
	Suite  string // the suite's name
	Op     int    // index in Ops
	Pair   string // ping-pong: PairMax or PairMin
	Procs  int    // collective, master-worker: processes; simple: 1
	Chunks int    // master-worker: work items per repetition
	Len    int64  // bytes; 0 for operations without a length (a typed suite's: the payload)
	Method string // typed suites: how the messages travel (MethodNames); "" otherwise
}

// WithMethod is the point with method m.
func (p Point) WithMethod(m string) Point {
	p.Method = m
	return p
}

// Name is the point's sub-benchmark name: suite=<name>, op=<name>, then
// method=<method> (typed suites), then pair=<max|min>
// (ping-pong) or procs=<p>, then chunks=<c> (master-worker), then
// L=<bytes> where the operation has a length.
func (p Point) Name() string {
	o := Ops[p.Op]
	parts := []string{"suite=" + p.Suite, "op=" + o.Name}
	if p.Method != "" {
		parts = append(parts, "method="+p.Method)
	}
	switch o.Pattern {
	case PingPong, OneSided:
		parts = append(parts, "pair="+p.Pair)
	case Collective, MasterWorker:
		parts = append(parts, fmt.Sprintf("procs=%d", p.Procs))
	}
	if o.Vary&VaryChunks != 0 { // master-worker's work items, partitioned's partitions
		parts = append(parts, fmt.Sprintf("chunks=%d", p.Chunks))
	}
	if o.Vary&VaryLength != 0 {
		parts = append(parts, fmt.Sprintf("L=%d", p.Len))
	}
	return strings.Join(parts, "/")
}

// Bytes is what one timed call of the point moves, as its bandwidth
// counts it: its length, times the burst of a one-sided bandwidth
// operation (a window of puts or gets per epoch), times the partitions
// of a partitioned message.
func (p Point) Bytes() int64 {
	o := Ops[p.Op]
	b := p.Len * int64(max(1, o.Burst))
	if o.Family == FamilyPartitioned {
		b *= int64(max(1, p.Chunks))
	}
	return b
}
