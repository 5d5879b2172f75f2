package beffio

import (
	"fmt"

	"github.com/beff-suite/beff/internal/results"
)

// The names a b_eff_io results file uses: the driver writes them, the fold
// reads them back. They are the contract between the two, so both take
// them from here.

// Bench is the benchmark's base name, as benchfmt reports it: BenchmarkBeffIO.
const Bench = "BeffIO"

// ID is every name of b_eff_io.
var ID = &results.Identity{Key: "beffio", Name: "b_eff_io", Bench: Bench, JSONKey: "beff_io", Doc: "docs/beffio.md", Units: units,
	FoldUnits: []results.Unit{{Name: "MB/s", Better: "higher"}, {Name: "min", Better: "lower"}}}

// Configuration keys of a b_eff_io run.
const (
	KeyT          = "beffio-t-s"              // scheduled time of the whole run, seconds
	KeyPartitions = "beffio-partitions"       // the partitions, comma-separated, ascending
	KeyMem        = "beffio-mem-per-proc-mib" // memory per process M, MiB
	KeyMPART      = "beffio-mpart"            // the largest chunk, bytes
	KeyTotalMem   = "beffio-totalmem-mib"     // total memory of the system MT, MiB
	KeyCache      = "beffio-cache-mib"        // file-system cache estimate, MiB
	KeyDir        = "beffio-dir"              // the directory of the files
	KeyFS         = "beffio-fs"               // the file system of the directory: type, source, servers (FSLine)
	KeyRules      = "beffio-rules"            // paper or reference (Rules)
	KeyRewrite    = "beffio-rewrite"          // which types are rewritten: all or scatter
	KeyStop       = "beffio-stop"             // stop rule of the time-driven write
	KeySharedFP   = "beffio-sharedfp"         // shared file pointer: auto or off
	KeyDropCaches = "beffio-dropcaches"       // off, drop_caches or fadvise
	KeyHints      = "beffio-hints"            // the hints file
	KeyHintsUsed  = "beffio-hints-used"       // the hints the MPI library reports
	KeyMaxData    = "beffio-maxdata-mib"      // the data budget
	KeyResumed    = "beffio-resumed"          // lines copied from an earlier job: how many, of which partitions, from which file
)

// Metrics of the lines, in the units the driver writes them.
const (
	MetricMBps      = "MB/s"      // bandwidth, 1e6 B/s
	MetricMB        = "MB"        // data of all processes, 1e6 bytes
	MetricSeconds   = "s"         // time
	MetricReps      = "reps"      // calls per process
	MetricErrors    = "errors"    // validation errors found
	MetricDecisions = "decisions" // stop decisions of the time-driven write
	MetricStopMs    = "stop-ms"   // the time the decisions took, ms
	MetricSharedFP  = "sharedfp"  // 1: shared file pointer used, 0: substituted
	MetricCapped    = "capped"    // 1: the data budget stopped the pattern early
	// Metrics of the pattern-type totals: the open and the close within
	// the type's time, and on reads under the paper's rules the removal of
	// the file after the close (not in the type's time).
	MetricOpenS   = "open-s"
	MetricCloseS  = "close-s"
	MetricDeleteS = "delete-s"
)

// units declares the direction of each metric (benchfmt unit lines; ID.Units).
var units = []string{
	MetricMB + " better=higher",
	MetricSeconds + " better=lower",
	MetricErrors + " better=lower",
	MetricDecisions + " better=lower",
	MetricStopMs + " better=lower",
	MetricSharedFP + " better=higher",
	MetricCapped + " better=lower",
	MetricOpenS + " better=lower",
	MetricCloseS + " better=lower",
	MetricDeleteS + " better=lower",
}

// Pattern numbers of the lines that are not one pattern.
const (
	PatTotal = -1 // type=<type>/pat=total: the pattern-type total
	PatPhase = -2 // type=all/pat=phase: the access phase of a partition
)

// A Key names one b_eff_io line: partition, access method, pattern type
// and pattern (or PatTotal, PatPhase).
type Key struct {
	N      int // the partition: number of processes
	Access Access
	Type   PatternType // Scatter (0) for phase lines, which have type=all
	Pat    int         // pattern number 0..42, PatTotal or PatPhase
	// L and Mem are l and L of a pattern line (0 for the fill pattern and
	// for total and phase lines); Fill marks the fill pattern.
	L, Mem int64
	Fill   bool
}

// PatternKey is the key of pattern p in partition n and access a.
func PatternKey(n int, a Access, p AccessPattern) Key {
	if p.Fill {
		return Key{N: n, Access: a, Type: p.Type, Pat: p.No, Fill: true}
	}
	return Key{N: n, Access: a, Type: p.Type, Pat: p.No, L: p.L, Mem: p.Mem, Fill: p.Fill}
}

// TotalKey is the key of the total of type t in partition n and access a.
func TotalKey(n int, a Access, t PatternType) Key {
	return Key{N: n, Access: a, Type: t, Pat: PatTotal}
}

// PhaseKey is the key of the access phase a of partition n.
func PhaseKey(n int, a Access) Key {
	return Key{N: n, Access: a, Pat: PatPhase}
}

// String returns the sub-benchmark name of the key,
// n=<n>/acc=<access>/type=<type>/pat=<No>/l=<l>/L=<L> for a pattern,
// …/type=<type>/pat=total for a pattern-type total and
// n=<n>/acc=<access>/type=all/pat=phase for an access phase.
func (k Key) String() string {
	s := fmt.Sprintf("n=%d/acc=%s/", k.N, k.Access)
	switch k.Pat {
	case PatPhase:
		return s + "type=all/pat=phase"
	case PatTotal:
		return s + "type=" + k.Type.String() + "/pat=total"
	}
	p := AccessPattern{No: k.Pat, Type: k.Type, L: k.L, Mem: k.Mem, Fill: k.Fill}
	return s + "type=" + k.Type.String() + "/" + p.Name()
}
