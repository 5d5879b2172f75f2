package fold

import (
	"encoding/json"
	"math"
)

// The types of this file are the JSON document that `beff fold -json`
// writes (schema beff-fold/1); docs/fold-json.md describes the same fields
// with an example. NewJSONFile (jsonbuild.go) fills them from folded runs,
// WriteJSON writes them.
//
// Field names are snake_case and carry their unit where it is not in the
// value's own unit field: _mbps MB/s (1e6 bytes per second), _mb MB (1e6
// bytes), _us microseconds, _s seconds, _ms milliseconds, _bytes bytes,
// _gflops GFlop/s.
// Metric keys of experiments are the units exactly as the benchmark
// printed them ("MB/s", "ns/op", "looplen", …). Object keys come out in a
// fixed order: struct fields in declaration order, map keys sorted.

// JSONSchema is the value of JSONDoc.Schema. It changes when a field
// changes its meaning or goes away; fields may be added without a change.
const JSONSchema = "beff-fold/1"

// A Float is a JSON number with one rule for values JSON cannot carry: NaN,
// +Inf and -Inf are written as null. A null therefore always means "no
// value": either the fold has none (each field says when) or it is not a
// finite number. Reading null gives NaN.
type Float float64

// MarshalJSON writes f as encoding/json writes a float64, or null when f
// is not finite.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads a number, or null as NaN.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = Float(v)
	return nil
}

// A JSONDoc is the whole document: the schema name and one entry per input
// file, in command-line order.
type JSONDoc struct {
	Schema string     `json:"schema"` // JSONSchema, "beff-fold/1"
	Files  []JSONFile `json:"files"`
}

// A JSONFile is one input file: its name as given on the command line and
// its runs, first the b_eff runs, then the b_eff_io runs, each in the order
// they start in the file.
type JSONFile struct {
	Name string    `json:"name"`
	Runs []JSONRun `json:"runs"`
}

// A JSONRun is the folded result of one run of BenchmarkBeff or
// BenchmarkBeffIO. Exactly one of Beff and BeffIO is set, matching
// Benchmark.
type JSONRun struct {
	// Benchmark is "b_eff" or "b_eff_io".
	Benchmark string `json:"benchmark"`
	// Index is the 1-based number of the run among the runs of the same
	// benchmark in the file (as in the text protocol's "Run 2 of …").
	Index int `json:"index"`
	// Line is the line of the run's first measurement in the file.
	Line int `json:"line"`
	// Config holds every file configuration line in effect for the run's
	// measurements, key → value as written (mpi-procs, beff-*, beffio-*,
	// date, goos, …). Command-line overrides (-rmax) are not in it; see
	// JSONBeff.RmaxGflops.
	Config map[string]string `json:"config"`
	// Valid reports whether the result is valid for comparing systems;
	// Reasons says why not (empty when valid). b_eff: not a short run and
	// the sizes are the 21 b_eff sizes of Lmax. b_eff_io: the validity of
	// SPEC §2.6, the reasons of the NOT VALID line.
	Valid   bool     `json:"valid"`
	Reasons []string `json:"reasons"`
	// Notes are the notes of the text protocol, in its order (for b_eff
	// they restate the reasons, marked "not valid for comparison").
	Notes []string `json:"notes"`
	// Figures are the folded figures, the same and in the same order as
	// the BenchmarkBeffFold/fig=<name> or BenchmarkBeffIOFold/fig=<name>
	// lines that fold appends (Protocol.Figures, IOProtocol.Figures).
	Figures []JSONFigure `json:"figures"`
	// Experiments are the benchmark lines of the run in file order.
	Experiments []JSONExperiment `json:"experiments"`
	// Beff holds the b_eff details (benchmark b_eff only).
	Beff *JSONBeff `json:"beff,omitempty"`
	// BeffIO holds the b_eff_io details (benchmark b_eff_io only).
	BeffIO *JSONBeffIO `json:"beff_io,omitempty"`
}

// A JSONFigure is one folded figure.
type JSONFigure struct {
	Name  string `json:"name"`  // as in BenchmarkBeffFold/fig=<name>, e.g. "beff", "partition/n=2"
	Label string `json:"label"` // what it is, for people
	Value Float  `json:"value"`
	Unit  string `json:"unit"` // MB/s, us, B/F or min
}

// A JSONExperiment is one benchmark line of a run.
type JSONExperiment struct {
	// Name is the sub-benchmark name without "BenchmarkBeff/" or
	// "BenchmarkBeffIO/" and without a -GOMAXPROCS suffix:
	// pat=<pattern>/L=<bytes>/mthd=<method> for b_eff;
	// n=<n>/acc=<access>/type=<type>/pat=<No>/l=<l>/L=<L>,
	// n=<n>/acc=<access>/type=<type>/pat=total or
	// n=<n>/acc=<access>/type=all/pat=phase for b_eff_io.
	Name string `json:"name"`
	// Line is the line in the file.
	Line int `json:"line"`
	// Metrics holds every metric of the line: unit as printed → value as
	// printed (b_eff: MB/s, min-MB/s, avg-MB/s, ms/loop, looplen, reps,
	// ns/op; b_eff_io: MB/s, MB, s, reps, errors, decisions, stop-ms,
	// capped, sharedfp, ns/op, as far as the line has them).
	Metrics map[string]Float `json:"metrics"`
}

// JSONBeff is what a b_eff run adds to its JSONRun.
type JSONBeff struct {
	// RmaxGflops is the Linpack Rmax in GFlop/s that the balance figure
	// uses (beff-rmax-gflops or -rmax), null when none was given.
	RmaxGflops Float `json:"rmax_gflops"`
	// TotalTimeS is the wall time of all measurements, seconds (Σ ns/op ×
	// iterations).
	TotalTimeS Float `json:"total_time_s"`
	// Shortcut is set when the two largest sizes were measured with the
	// best method only (SPEC §1.6).
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
	AvgMBps Float `json:"avg_mbps"`
	// LatencyUs is the time per message at 1 byte in microseconds, null
	// when 1 byte was not measured.
	LatencyUs Float `json:"latency_us"`
	// Rows has one entry per message size, ascending.
	Rows []JSONPatternRow `json:"rows"`
}

// A JSONPatternRow is one message size of a JSONPattern. The experiment of
// the best method is named pat=<pattern>/L=<size_bytes>/mthd=<best_method>.
type JSONPatternRow struct {
	SizeBytes int64 `json:"size_bytes"` // the message size L
	// MBps is the bandwidth of each measured method (with the shortcut
	// only the best method's).
	MBps       map[string]Float `json:"mbps"`
	BestMethod string           `json:"best_method"` // the method with the highest bandwidth
	BestMBps   Float            `json:"best_mbps"`   // its bandwidth, the value in b_eff
}

// JSONBeffIO is what a b_eff_io run adds to its JSONRun.
type JSONBeffIO struct {
	// BestN is the partition (number of processes) whose value is
	// b_eff_io; Release2N the one of the release-2 figure.
	BestN     int `json:"best_n"`
	Release2N int `json:"release2_n"`
	// Errors is the number of validation errors over all pattern lines.
	Errors int64 `json:"errors"`
	// SharedLines counts the pattern lines of type shared,
	// SharedSubstituted those where explicit offsets replaced the shared
	// file pointer.
	SharedLines       int `json:"shared_lines"`
	SharedSubstituted int `json:"shared_substituted"`
	// Capped counts the write patterns the data budget stopped early.
	Capped int `json:"capped"`
	// Decisions and StopMs sum the stop decisions of the time-driven
	// initial write (types 0–2) and the time they took in milliseconds.
	Decisions int64 `json:"decisions"`
	StopMs    Float `json:"stop_ms"`
	// TimeS is the wall time of all access phases, seconds.
	TimeS Float `json:"time_s"`
	// Access has one entry per access method: write, rewrite, read.
	Access []JSONIOAccess `json:"access"`
	// Partitions has one entry per partition, ascending.
	Partitions []JSONPartition `json:"partitions"`
}

// A JSONIOAccess is what a b_eff_io run reports per access method.
type JSONIOAccess struct {
	Access string `json:"access"` // "write", "rewrite" or "read"
	// ValueMBps is the access-method value in the partition best_n (the
	// figure access/acc=<access>).
	ValueMBps Float `json:"value_mbps"`
	// DataMB is the data moved, Σ over partitions and types, MB.
	DataMB Float `json:"data_mb"`
	// DataPct is DataMB as a percentage of the total memory
	// (beffio-totalmem-mib), null when the total memory is unknown.
	DataPct Float `json:"data_pct"`
	// CacheRatio is DataMB divided by the file-system cache
	// (beffio-cache-mib), null when the cache size is unknown or 0 (an
	// infinite ratio).
	CacheRatio Float `json:"cache_ratio"`
}

// A JSONPartition is what a b_eff_io run measured with one partition.
type JSONPartition struct {
	N int `json:"n"` // processes
	// ValueMBps is the partition value 0.25·write + 0.25·rewrite +
	// 0.5·read; Release2MBps the reference code 2.1's formula.
	ValueMBps    Float `json:"value_mbps"`
	Release2MBps Float `json:"release2_mbps"`
	// TimeS is the sum of the phase times; ScheduledS is T / partitions.
	TimeS      Float `json:"time_s"`
	ScheduledS Float `json:"scheduled_s"`
	// Access has one entry per access method: write, rewrite, read.
	Access []JSONPartitionAccess `json:"access"`
}

// A JSONPartitionAccess is one access method of a JSONPartition.
type JSONPartitionAccess struct {
	Access string `json:"access"` // "write", "rewrite" or "read"
	// ValueMBps is the access-method value (2·type0 + type1 + type2 +
	// type3 + type4)/6 over the pattern-type bandwidths.
	ValueMBps Float `json:"value_mbps"`
	// PhaseS is the time of the access phase (the phase line), seconds.
	PhaseS Float `json:"phase_s"`
	// Types are the pattern-type totals of the scheduled types in type
	// order (scatter, shared, separated, segmented, segcoll; with
	// beffio-rewrite: scatter only scatter is rewritten).
	Types []JSONTypeTotal `json:"types"`
}

// A JSONTypeTotal is a pattern-type total: the line
// n=<n>/acc=<access>/type=<type>/pat=total.
type JSONTypeTotal struct {
	Type string `json:"type"` // scatter, shared, separated, segmented or segcoll
	// MBps is the pattern-type bandwidth, Σ bytes / Σ time from open to
	// close; MB and S are the data and that time.
	MBps Float `json:"mbps"`
	MB   Float `json:"mb"`
	S    Float `json:"s"`
}
