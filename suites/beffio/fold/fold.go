package fold

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beffio"
)

// Removal says whether the read times that the reference code's formula
// takes include the removal of the files, as the reference code's do.
type Removal int

const (
	// RemovalNone: not measured (files kept, or a file without delete-s).
	RemovalNone Removal = iota
	// RemovalApart: timed after each read's close (the paper's rules).
	RemovalApart
	// RemovalInClose: in each read's close (the reference's rules).
	RemovalInClose
)

// A Folded is the folded result of one b_eff_io run: b_eff_io, the figures
// of docs/beffio.md "The numbers", the validity and the table of docs/beffio.md "What a run reports". Arrays indexed by
// access method follow beffio.Accesses.
type Folded struct {
	results.Validity
	Run *Run

	// Rules are the rules the run followed (beffio-rules).
	Rules beffio.Rules
	// BeffIO is b_eff_io in MB/s under the run's rules, reached with BestN
	// processes: Paper under the paper's rules, Reference under the
	// reference code's.
	BeffIO float64
	BestN  int
	// Paper is the largest partition value by the paper's formula
	// (0.25·write + 0.25·rewrite + 0.5·read), reached with PaperN
	// processes; Reference the largest by the reference code 2.1's
	// formula (beffio.ReferenceValue, the read times with the removal of
	// the files where Removal says so), reached with ReferenceN. The one
	// that is not BeffIO is a secondary figure.
	Paper, Reference   float64
	PaperN, ReferenceN int
	Removal            Removal
	// Access is the weighted average bandwidth of each access method (the
	// access-method value) in the partition BestN, MB/s.
	Access [3]float64

	// Data is the data of each access method, Σ MB over partitions and
	// types; DataPct its percentage of the total memory MT (0 without MT).
	Data    [3]float64
	DataPct [3]float64
	// MemMinutes is total memory / b_eff_io in minutes (0 without MT).
	MemMinutes float64
	// CacheRatio is the data of each access method divided by the
	// file-system cache (0 when the cache size is unknown, +Inf for a
	// cache of 0).
	CacheRatio [3]float64

	// Errors is the number of validation errors over all pattern lines.
	Errors int64
	// SharedLines is the number of pattern lines of type shared;
	// SharedSubstituted those where explicit offsets replaced the shared
	// file pointer.
	SharedLines, SharedSubstituted int
	// Capped counts the write patterns the data budget stopped early.
	Capped int
	// Decisions and StopMs sum the stop decisions of the time-driven
	// initial write and the time they took (types 0–2).
	Decisions int64
	StopMs    float64
	// Time is the wall time of all access phases, seconds.
	Time float64

	Partitions []*Partition
}

// A Partition is what a run measured with one partition of n processes.
type Partition struct {
	N int
	// Value is the partition value 0.25·write + 0.25·rewrite + 0.5·read.
	Value float64
	// Reference is the reference code 2.1's formula for this partition
	// (beffio.ReferenceValue over ReadRemovalValue, or over the read value
	// where the removal was not measured).
	Reference float64
	// ReadRemoval are the read pattern-type bandwidths with the removal of
	// the file in their time and ReadRemovalValue their access-method
	// value: under the reference's rules the read values themselves; 0
	// where the removal was not measured.
	ReadRemoval      [5]float64
	ReadRemovalValue float64
	// Access is the access-method value of each access method.
	Access [3]float64
	// Totals are the pattern-type totals per access method and type (nil
	// where the type is not scheduled).
	Totals [3][5]*Measurement
	// Patterns are the pattern lines per access method in table order.
	Patterns [3][]*Measurement
	// Phase is the phase line of each access method.
	Phase [3]*Measurement
	// Time is the sum of the phase times; Scheduled is T / partitions.
	Time, Scheduled float64
}

// Fold checks that run holds every line its configuration promises and
// computes its figures (docs/beffio.md "The numbers"):
//
//	access-method value = (2·type0 + type1 + type2 + type3 + type4)/6 over
//	                      the pattern-type totals (beffio.AccessValue,
//	                      summed in type order; with beffio-rewrite:
//	                      scatter the rewrite value is the scatter type's)
//	partition value     = 0.25·write + 0.25·rewrite + 0.5·read
//	b_eff_io            = max over the partitions
//
// For every partition of beffio-partitions and every access method it
// needs a line per pattern of each scheduled type (beffio.Table with
// beffio-mpart), a total line per type and a phase line. Fold refuses
// (with a *results.InputError) a run that misses any of them, naming the first
// few, a run with lines its configuration does not define, and totals
// whose bandwidth, data or time is not positive.
//
// The result is NOT VALID, with the reason, when T per partition is below
// 15 minutes, explicit offsets replaced the shared file pointer, a read
// found validation errors, the data per access method is less than 20
// times the file-system cache, a node was oversubscribed, the data budget
// stopped a pattern early, or the run is short.
func Fold(run *Run) (*Folded, error) {
	table := beffio.Table(run.Config.MPART)
	if err := checkLines(run, table); err != nil {
		return nil, err
	}
	p := &Folded{Run: run, Rules: run.Config.Rules, Removal: removal(run)}
	for _, n := range run.Config.Partitions {
		p.addPartition(n, table)
	}
	p.dataRatios()
	p.judge()
	p.note()
	return p, nil
}

// promised lists the lines the configuration promises, in the driver's
// order.
func promised(cfg *Config, table []beffio.AccessPattern) []beffio.Key {
	var want []beffio.Key
	for _, n := range cfg.Partitions {
		want = append(want, beffio.PartitionKeys(n, cfg.Rewrite, table)...)
	}
	return want
}

// checkLines checks that the run has exactly the lines its configuration
// promises and that the totals are positive.
func checkLines(run *Run, table []beffio.AccessPattern) error {
	want := promised(run.Config, table)
	wanted := map[beffio.Key]bool{}
	for _, k := range want {
		wanted[k] = true
	}
	lineErr := func(m *Measurement, format string, args ...any) error {
		return &results.InputError{FileName: run.File, Line: m.Line, Msg: m.Key.String() + ": " + fmt.Sprintf(format, args...)}
	}
	for _, m := range run.Measurements {
		if !wanted[m.Key] {
			return lineErr(m, "b_eff_io run %d: %s", run.Index, unexpected(run.Config, table, m.Key))
		}
		if m.Pat != beffio.PatTotal {
			continue
		}
		for _, v := range []struct {
			name string
			v    float64
			unit string
		}{{"bandwidth", m.MBps, beffio.MetricMBps}, {"data", m.MB, beffio.MetricMB}, {"time", m.Seconds, beffio.MetricSeconds}} {
			if !(v.v > 0) {
				return lineErr(m, "pattern-type %s %v %s is not positive", v.name, v.v, v.unit)
			}
		}
	}
	var missing []string
	for _, k := range want {
		if run.Lookup(k) == nil {
			missing = append(missing, k.String())
		}
	}
	if len(missing) > 0 {
		return &results.InputError{FileName: run.File, Line: run.Line, Msg: fmt.Sprintf("b_eff_io run %d: incomplete: missing %d line%s: %s",
			run.Index, len(missing), results.Plural(len(missing)), results.List(missing, 5))}
	}
	return nil
}

// addPartition folds the lines of partition n.
func (p *Folded) addPartition(n int, table []beffio.AccessPattern) {
	cfg := p.Run.Config
	part := &Partition{N: n, Scheduled: cfg.TPartition()}
	for _, a := range beffio.Accesses {
		vals := map[beffio.PatternType]float64{}
		for _, t := range beffio.Types {
			if !cfg.Rewrite.Scheduled(a, t) {
				continue
			}
			for _, pat := range table {
				if pat.Type == t {
					p.count(part, a, p.Run.Lookup(beffio.PatternKey(n, a, pat)))
				}
			}
			tot := p.Run.Lookup(beffio.TotalKey(n, a, t))
			part.Totals[a][t] = tot
			vals[t] = tot.MBps
			p.Data[a] += tot.MB
		}
		part.Access[a] = beffio.AccessValue(vals)
		part.Phase[a] = p.Run.Lookup(beffio.PhaseKey(n, a))
		part.Time += part.Phase[a].Seconds
	}
	w, rw, rd := part.Access[beffio.Write], part.Access[beffio.Rewrite], part.Access[beffio.Read]
	part.Value = beffio.PartitionValue(w, rw, rd)
	p.addReference(part)
	headline := part.Value
	if p.Rules == beffio.RulesReference {
		headline = part.Reference
	}
	if headline > p.BeffIO {
		p.BeffIO, p.BestN, p.Access = headline, n, part.Access
	}
	if part.Value > p.Paper {
		p.Paper, p.PaperN = part.Value, n
	}
	if part.Reference > p.Reference {
		p.Reference, p.ReferenceN = part.Reference, n
	}
	p.Time += part.Time
	p.Partitions = append(p.Partitions, part)
}

// removal says where a run's read times include the removal of its files.
func removal(run *Run) Removal {
	if run.Config.Rules == beffio.RulesReference {
		return RemovalInClose
	}
	reads := 0
	for _, m := range run.Measurements {
		if m.Pat == beffio.PatTotal && m.Access == beffio.Read {
			if m.DeleteS < 0 {
				return RemovalNone
			}
			reads++
		}
	}
	if reads == 0 {
		return RemovalNone
	}
	return RemovalApart
}

// addReference computes the reference code's formula for a partition:
// the write pattern-type values, the scatter type's rewrite and the read
// access-method value with the removal of the files in the read times.
func (p *Folded) addReference(part *Partition) {
	read := map[beffio.PatternType]float64{}
	writes := map[beffio.PatternType]float64{}
	for _, t := range beffio.Types {
		writes[t] = part.Totals[beffio.Write][t].MBps
		m := part.Totals[beffio.Read][t]
		switch p.Removal {
		case RemovalInClose:
			part.ReadRemoval[t] = m.MBps
		case RemovalApart:
			part.ReadRemoval[t] = m.MB / (m.Seconds + m.DeleteS)
		}
		read[t] = part.ReadRemoval[t]
	}
	readValue := part.Access[beffio.Read]
	if p.Removal != RemovalNone {
		part.ReadRemovalValue = beffio.AccessValue(read)
		readValue = part.ReadRemovalValue
	}
	part.Reference = beffio.ReferenceValue(writes, part.Totals[beffio.Rewrite][beffio.Scatter].MBps, readValue)
}

// count adds pattern line m of access a to the partition and to the
// run's counts.
func (p *Folded) count(part *Partition, a beffio.Access, m *Measurement) {
	part.Patterns[a] = append(part.Patterns[a], m)
	p.Errors += m.Errors
	if m.Capped {
		p.Capped++
	}
	if m.Type == beffio.Shared {
		p.SharedLines++
		if m.SharedFP == 0 {
			p.SharedSubstituted++
		}
	}
	if m.HasStop && a == beffio.Write {
		p.Decisions += m.Decisions
		p.StopMs += m.StopMs
	}
}

// dataRatios computes the data per access method against the total memory
// and the cache.
func (p *Folded) dataRatios() {
	const mib = 1 << 20
	cfg := p.Run.Config
	for _, a := range beffio.Accesses {
		if cfg.TotalMiB > 0 {
			p.DataPct[a] = p.Data[a] * 1e6 / (float64(cfg.TotalMiB) * mib) * 100
		}
		switch {
		case cfg.CacheMiB > 0:
			p.CacheRatio[a] = p.Data[a] * 1e6 / (cfg.CacheMiB * mib)
		case cfg.CacheMiB == 0:
			p.CacheRatio[a] = math.Inf(1)
		}
	}
	if cfg.TotalMiB > 0 {
		p.MemMinutes = float64(cfg.TotalMiB) * mib / (p.BeffIO * 1e6) / 60
	}
}

// judge sets the reasons why the result is NOT VALID (docs/beffio.md "The numbers").
func (p *Folded) judge() {
	cfg := p.Run.Config
	if tp, min := cfg.TPartition(), cfg.Rules.MinPartitionTime(); tp < min {
		why := fmt.Sprintf("T per partition %s s < %g min", results.Seconds(tp), min/60)
		if cfg.Rules == beffio.RulesReference {
			why += " (the reference code's limit)"
		}
		p.Reasons = append(p.Reasons, why)
	}
	if p.SharedSubstituted > 0 {
		p.Reasons = append(p.Reasons, fmt.Sprintf("shared file pointer substituted by explicit offsets (%d of %d type-shared pattern lines)",
			p.SharedSubstituted, p.SharedLines))
	}
	if p.Errors > 0 {
		p.Reasons = append(p.Reasons, fmt.Sprintf("%d validation error%s", p.Errors, results.Plural(int(p.Errors))))
	}
	if cfg.CacheMiB > 0 && slices.ContainsFunc(p.CacheRatio[:], func(r float64) bool { return r < beffio.MinCacheRatio }) {
		p.Reasons = append(p.Reasons, fmt.Sprintf("data per access method < %d× the file-system cache of %s MiB (%s)",
			beffio.MinCacheRatio, strconv.FormatFloat(cfg.CacheMiB, 'g', -1, 64), p.cacheRatios()))
	}
	if why := p.Run.FileConfig.Oversubscribed(); why != "" {
		p.Reasons = append(p.Reasons, why)
	}
	if p.Capped > 0 {
		p.Reasons = append(p.Reasons, fmt.Sprintf("data budget reached (%s): %d write pattern(s) stopped before their scheduled time", beffio.KeyMaxData, p.Capped))
	}
	p.Reasons = append(p.Reasons, p.timeContradictions()...)
	if cfg.Short() {
		p.Reasons = append(p.Reasons, results.ShortReason)
	}
}

// MinTimeShare is the least share of its scheduled time a partition's
// access phases take: the write phase alone fills about half of it (the
// rewrite and read phases move the data written, cached or not). Far
// below, the configuration's T is not the run's.
const MinTimeShare = 0.1

// timeContradictions names the partitions whose access phases took far
// less than the configuration scheduled (an edited beffio-t-s), unless
// the data budget stopped them.
func (p *Folded) timeContradictions() []string {
	if p.Capped > 0 {
		return nil
	}
	var out []string
	for _, part := range p.Partitions {
		if part.Time < MinTimeShare*part.Scheduled {
			out = append(out, fmt.Sprintf("partition n=%d: its access phases took %s s of the %s s scheduled (%s: %s): the configuration contradicts the measurements",
				part.N, results.Seconds(part.Time), results.Seconds(part.Scheduled), beffio.KeyT, strconv.FormatFloat(p.Run.Config.T, 'g', -1, 64)))
		}
	}
	return out
}

// note sets the notes on what else limits or describes the result.
func (p *Folded) note() {
	cfg := p.Run.Config
	if cfg.Rules == beffio.RulesReference {
		p.Notes = append(p.Notes, "beffio-rules: reference: measured by the reference code 2.1's rules and b_eff_io by its formula (docs/reference.md), as published b_eff_io results were; the paper's formula over the same measurements is the secondary figure")
	}
	if cfg.Rewrite == beffio.RewriteScatter {
		p.Notes = append(p.Notes, "beffio-rewrite: scatter (the reference code's release-2 schedule): only the scatter type is rewritten; the rewrite value is its pattern-type bandwidth")
	}
	if v := p.Run.FileConfig[beffio.KeyResumed]; v != "" {
		p.Notes = append(p.Notes, "resumed: "+v+"; those were measured by the earlier job")
	}
	if cfg.CacheMiB < 0 {
		p.Notes = append(p.Notes, "file-system cache unknown (no beffio-cache-mib): caching not checked")
	}
	if cfg.TotalMiB == 0 {
		p.Notes = append(p.Notes, "total memory unknown (no beffio-totalmem-mib): no percentage of memory, no total memory / b_eff_io")
	}
	if cfg.MemMiB > 0 && cfg.MPART != beffio.MPART(cfg.MemMiB) {
		p.Notes = append(p.Notes, fmt.Sprintf("MPART %d bytes is not the rule's max(2 MiB, M/128) = %d bytes for M = %d MiB",
			cfg.MPART, beffio.MPART(cfg.MemMiB), cfg.MemMiB))
	}
	if def := beffio.Partitions(cfg.N); !slices.Equal(def, cfg.Partitions) {
		p.Notes = append(p.Notes, fmt.Sprintf("partitions %s are not the default %s for %d processes",
			results.JoinInts(cfg.Partitions), results.JoinInts(def), cfg.N))
	}
}

// unexpected says why key k is not a line the configuration defines.
func unexpected(cfg *Config, table []beffio.AccessPattern, k beffio.Key) string {
	if !slices.Contains(cfg.Partitions, k.N) {
		return fmt.Sprintf("no partition n=%d in %s %s", k.N, beffio.KeyPartitions, results.JoinInts(cfg.Partitions))
	}
	if k.Pat == beffio.PatPhase {
		return "unexpected line" // not reached: every phase of a partition is wanted
	}
	if !cfg.Rewrite.Scheduled(k.Access, k.Type) {
		return fmt.Sprintf("type %s is not rewritten with %s: %s", k.Type, beffio.KeyRewrite, cfg.Rewrite)
	}
	if k.Pat >= len(table) {
		return fmt.Sprintf("no pattern %d (the table has %d)", k.Pat, len(table))
	}
	p := table[k.Pat]
	if p.Type != k.Type {
		return fmt.Sprintf("pattern %d is of type %s, not %s", k.Pat, p.Type, k.Type)
	}
	return fmt.Sprintf("pattern %d is %s with %s: %d", k.Pat, p.Name(), beffio.KeyMPART, cfg.MPART)
}

// cacheRatios lists the data-to-cache ratio of each access method.
func (p *Folded) cacheRatios() string {
	var s []string
	for _, a := range beffio.Accesses {
		s = append(s, fmt.Sprintf("%s %s×", a, ratio(p.CacheRatio[a])))
	}
	return strings.Join(s, ", ")
}

// ratio formats a data-to-cache ratio.
func ratio(r float64) string {
	if math.IsInf(r, 1) {
		return "∞"
	}
	return strconv.FormatFloat(r, 'f', 1, 64)
}

// Figures returns the folded figures of p, in protocol order: b_eff_io,
// the partition values, the access-method values in the partition of
// b_eff_io, under the reference's rules the paper's formula, the 2.1
// formula (under the reference's rules b_eff_io again: runs of both rules
// compare on it) and, with MT, total memory / b_eff_io.
func (p *Folded) Figures() []results.Figure {
	f := []results.Figure{{Name: "beffio", Label: p.Label(), Value: p.BeffIO, Unit: "MB/s"}}
	for _, part := range p.Partitions {
		v, label := part.Value, "partition value"
		if p.Rules == beffio.RulesReference {
			v, label = part.Reference, "partition value (reference formula)"
		}
		f = append(f, results.Figure{Name: fmt.Sprintf("partition/n=%d", part.N), Label: fmt.Sprintf("%s, n=%d", label, part.N), Value: v, Unit: "MB/s"})
	}
	for _, a := range beffio.Accesses {
		f = append(f, results.Figure{Name: "access/acc=" + a.String(), Label: "weighted average bandwidth for " + a.String(), Value: p.Access[a], Unit: "MB/s"})
	}
	if p.Rules == beffio.RulesReference {
		f = append(f, results.Figure{Name: "paper", Label: PaperLabel, Value: p.Paper, Unit: "MB/s"})
	}
	// under both rules, so that runs of either compare on it
	f = append(f, results.Figure{Name: "reference", Label: p.ReferenceLabel(), Value: p.Reference, Unit: "MB/s"})
	if p.MemMinutes > 0 {
		f = append(f, results.Figure{Name: "totalmem-time", Label: "total memory / b_eff_io", Value: p.MemMinutes, Unit: "min"})
	}
	return f
}

// PaperLabel labels the paper's formula over a run measured by the
// reference code's rules.
const PaperLabel = "the paper's formula over this run (secondary, not b_eff_io: only the scatter type rewritten, the read's close removes the file)"

// IsReference reports whether the run followed the reference code's rules.
func (p *Folded) IsReference() bool { return p.Rules == beffio.RulesReference }

// Label is the name of the run's b_eff_io: it says whose rules it follows
// and which published results it compares with.
func (p *Folded) Label() string { return "b_eff_io (" + p.comparable() + ")" }

// comparable says whose rules the run's b_eff_io follows and which
// published results it compares with.
func (p *Folded) comparable() string {
	if p.Rules == beffio.RulesReference {
		return "reference code 2.1 rules: compare with published results"
	}
	return "paper rules: for published (2.1) results see the 2.1 formula"
}

// ReferenceLabel labels the reference code's formula over a run measured
// by the paper's rules: whether its read times include the removal of the
// files, as the reference code's do.
func (p *Folded) ReferenceLabel() string { return "b_eff_io 2.1 formula (" + p.removalNote() + ")" }

// removalNote says what the 2.1 formula's read times hold.
func (p *Folded) removalNote() string {
	switch p.Removal {
	case RemovalInClose:
		return "the reference code's rules: b_eff_io itself; compare with published results"
	case RemovalApart:
		return "secondary; read incl. file removal as in 2.1: compare with published results"
	}
	return "secondary; read without file removal (not measured): not comparable with published results"
}
