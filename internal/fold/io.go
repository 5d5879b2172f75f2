package fold

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/suites/beffio"
)

// Validity limits of SPEC §2.6.
const (
	// MinPartitionTime is the least scheduled time per partition of a
	// valid b_eff_io result, seconds (15 minutes).
	MinPartitionTime = 15 * 60
	// MinCacheRatio is the least ratio of the data per access method to
	// the file-system cache for which the data cannot all have stayed in
	// the cache.
	MinCacheRatio = 20
)

// Release2Label labels the reference code's final formula wherever it is
// printed.
const Release2Label = "release-2 formula (secondary, not b_eff_io)"

// An IOProtocol is the folded result of one b_eff_io run: b_eff_io, the
// figures of SPEC §2.6, the validity and the table of SPEC §2.8. Arrays
// indexed by access method follow beffio.Accesses.
type IOProtocol struct {
	Run *IORun

	// BeffIO is b_eff_io in MB/s: the largest partition value, reached
	// with BestN processes.
	BeffIO float64
	BestN  int
	// Release2 is the reference code 2.1's final formula, the largest over
	// the partitions, reached with Release2N processes. A secondary
	// figure, never b_eff_io.
	Release2  float64
	Release2N int
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

	// Reasons say why the result is NOT VALID; none: VALID.
	Reasons []string
	// Notes say what else limits or describes the result.
	Notes []string

	Partitions []*IOPartition
}

// Valid reports whether the result is valid for comparing systems.
func (p *IOProtocol) Valid() bool { return len(p.Reasons) == 0 }

// An IOPartition is what a run measured with one partition of n processes.
type IOPartition struct {
	N int
	// Value is the partition value 0.25·write + 0.25·rewrite + 0.5·read.
	Value float64
	// Release2 is the reference code 2.1's formula for this partition.
	Release2 float64
	// Access is the access-method value of each access method.
	Access [3]float64
	// Totals are the pattern-type totals per access method and type (nil
	// where the type is not scheduled).
	Totals [3][5]*IOMeasurement
	// Patterns are the pattern lines per access method in table order.
	Patterns [3][]*IOMeasurement
	// Phase is the phase line of each access method.
	Phase [3]*IOMeasurement
	// Time is the sum of the phase times; Scheduled is T / partitions.
	Time, Scheduled float64
}

// FoldIO checks that run holds every line its configuration promises and
// computes its protocol (SPEC §2.6):
//
//	access-method value = (2·type0 + type1 + type2 + type3 + type4)/6 over
//	                      the pattern-type totals (beffio.AccessValue,
//	                      summed in type order, see accessValue; with
//	                      beffio-rewrite: scatter the rewrite value is the
//	                      scatter type's)
//	partition value     = 0.25·write + 0.25·rewrite + 0.5·read
//	b_eff_io            = max over the partitions
//
// For every partition of beffio-partitions and every access method it
// needs a line per pattern of each scheduled type (beffio.Table with
// beffio-mpart), a total line per type and a phase line. FoldIO refuses
// (with an *Error) a run that misses any of them, naming the first few, a
// run with lines its configuration does not define, and totals whose
// bandwidth, data or time is not positive.
//
// The result is NOT VALID, with the reason, when T per partition is below
// 15 minutes, explicit offsets replaced the shared file pointer, a read
// found validation errors, the data per access method is less than 20
// times the file-system cache, or the run is short.
func FoldIO(run *IORun) (*IOProtocol, error) {
	cfg := &run.Config
	runErr := func(line int, format string, args ...any) error {
		return &Error{run.File, line, fmt.Sprintf("b_eff_io run %d: ", run.Index) + fmt.Sprintf(format, args...)}
	}
	lineErr := func(m *IOMeasurement, format string, args ...any) error {
		return &Error{run.File, m.Line, m.IOKey.String() + ": " + fmt.Sprintf(format, args...)}
	}
	table := beffio.Table(cfg.MPART)

	// The lines the configuration promises, in the harness's order.
	var want []IOKey
	wanted := map[IOKey]bool{}
	for _, n := range cfg.Partitions {
		for _, a := range beffio.Accesses {
			for _, t := range beffio.Types {
				if !cfg.Rewrite.Scheduled(a, t) {
					continue
				}
				for _, p := range table {
					if p.Type == t {
						want = append(want, patternKey(n, a, p))
					}
				}
				want = append(want, totalKey(n, a, t))
			}
			want = append(want, phaseKey(n, a))
		}
	}
	for _, k := range want {
		wanted[k] = true
	}

	for _, m := range run.Measurements {
		if !wanted[m.IOKey] {
			return nil, lineErr(m, "b_eff_io run %d: %s", run.Index, unexpected(cfg, table, m.IOKey))
		}
		if m.Pat == PatTotal {
			for _, v := range []struct {
				name string
				v    float64
				unit string
			}{{"bandwidth", m.MBps, "MB/s"}, {"data", m.MB, "MB"}, {"time", m.Seconds, "s"}} {
				if !(v.v > 0) {
					return nil, lineErr(m, "pattern-type %s %v %s is not positive", v.name, v.v, v.unit)
				}
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
		return nil, runErr(run.Line, "incomplete: missing %d line%s: %s", len(missing), plural(len(missing)), list(missing, 5))
	}

	pr := &IOProtocol{Run: run}
	for _, n := range cfg.Partitions {
		part := &IOPartition{N: n, Scheduled: cfg.TPartition()}
		for _, a := range beffio.Accesses {
			vals := map[beffio.Type]float64{}
			for _, t := range beffio.Types {
				if !cfg.Rewrite.Scheduled(a, t) {
					continue
				}
				for _, p := range table {
					if p.Type != t {
						continue
					}
					m := run.Lookup(patternKey(n, a, p))
					part.Patterns[a] = append(part.Patterns[a], m)
					pr.Errors += m.Errors
					if m.Capped {
						pr.Capped++
					}
					if t == beffio.Shared {
						pr.SharedLines++
						if m.SharedFP == 0 {
							pr.SharedSubstituted++
						}
					}
					if m.HasStop && a == beffio.Write {
						pr.Decisions += m.Decisions
						pr.StopMs += m.StopMs
					}
				}
				tot := run.Lookup(totalKey(n, a, t))
				part.Totals[a][t] = tot
				vals[t] = tot.MBps
				pr.Data[a] += tot.MB
			}
			part.Access[a] = beffio.AccessValue(vals)
			part.Phase[a] = run.Lookup(phaseKey(n, a))
			part.Time += part.Phase[a].Seconds
		}
		w, rw, rd := part.Access[beffio.Write], part.Access[beffio.Rewrite], part.Access[beffio.Read]
		part.Value = beffio.PartitionValue(w, rw, rd)
		part.Release2 = beffio.Release2Value(w, part.Totals[beffio.Rewrite][beffio.Scatter].MBps, rd)
		if part.Value > pr.BeffIO {
			pr.BeffIO, pr.BestN, pr.Access = part.Value, n, part.Access
		}
		if part.Release2 > pr.Release2 {
			pr.Release2, pr.Release2N = part.Release2, n
		}
		pr.Time += part.Time
		pr.Partitions = append(pr.Partitions, part)
	}

	const mib = 1 << 20
	for _, a := range beffio.Accesses {
		if cfg.TotalMemMiB > 0 {
			pr.DataPct[a] = pr.Data[a] * 1e6 / (float64(cfg.TotalMemMiB) * mib) * 100
		}
		switch {
		case cfg.CacheMiB > 0:
			pr.CacheRatio[a] = pr.Data[a] * 1e6 / (cfg.CacheMiB * mib)
		case cfg.CacheMiB == 0:
			pr.CacheRatio[a] = math.Inf(1)
		}
	}
	if cfg.TotalMemMiB > 0 {
		pr.MemMinutes = float64(cfg.TotalMemMiB) * mib / (pr.BeffIO * 1e6) / 60
	}

	// Validity (SPEC §2.6).
	if tp := cfg.TPartition(); tp < MinPartitionTime {
		pr.Reasons = append(pr.Reasons, fmt.Sprintf("T per partition %s s < 15 min", seconds(tp)))
	}
	if pr.SharedSubstituted > 0 {
		pr.Reasons = append(pr.Reasons, fmt.Sprintf("shared file pointer substituted by explicit offsets (%d of %d type-shared pattern lines)",
			pr.SharedSubstituted, pr.SharedLines))
	}
	if pr.Errors > 0 {
		s := "s"
		if pr.Errors == 1 {
			s = ""
		}
		pr.Reasons = append(pr.Reasons, fmt.Sprintf("%d validation error%s", pr.Errors, s))
	}
	if cfg.CacheMiB > 0 && slices.ContainsFunc(pr.CacheRatio[:], func(r float64) bool { return r < MinCacheRatio }) {
		pr.Reasons = append(pr.Reasons, fmt.Sprintf("data per access method < %d× the file-system cache of %s MiB (%s)",
			MinCacheRatio, strconv.FormatFloat(cfg.CacheMiB, 'g', -1, 64), pr.cacheRatios()))
	}
	if why := oversubscribed(run.FileConfig); why != "" {
		pr.Reasons = append(pr.Reasons, why)
	}
	if pr.Capped > 0 {
		pr.Reasons = append(pr.Reasons, fmt.Sprintf("data budget reached (beffio-maxdata-mib): %d write pattern(s) stopped before their scheduled time", pr.Capped))
	}
	if cfg.Short() {
		pr.Reasons = append(pr.Reasons, "short run")
	}

	if cfg.Rewrite == beffio.RewriteScatter {
		pr.Notes = append(pr.Notes, "beffio-rewrite: scatter (the reference code's release-2 schedule): only the scatter type is rewritten; the rewrite value is its pattern-type bandwidth")
	}
	if cfg.CacheMiB < 0 {
		pr.Notes = append(pr.Notes, "file-system cache unknown (no beffio-cache-mib): caching not checked")
	}
	if cfg.TotalMemMiB == 0 {
		pr.Notes = append(pr.Notes, "total memory unknown (no beffio-totalmem-mib): no percentage of memory, no total memory / b_eff_io")
	}
	if cfg.MemMiB > 0 && cfg.MPART != beffio.MPART(cfg.MemMiB) {
		pr.Notes = append(pr.Notes, fmt.Sprintf("MPART %d bytes is not the rule's max(2 MiB, M/128) = %d bytes for M = %d MiB",
			cfg.MPART, beffio.MPART(cfg.MemMiB), cfg.MemMiB))
	}
	if def := beffio.Partitions(cfg.N); !slices.Equal(def, cfg.Partitions) {
		pr.Notes = append(pr.Notes, fmt.Sprintf("partitions %s are not the default %s for %d processes",
			joinInts(cfg.Partitions), joinInts(def), cfg.N))
	}
	return pr, nil
}

// unexpected says why key k is not a line the configuration defines.
func unexpected(cfg *IOConfig, table []beffio.Pattern, k IOKey) string {
	if !slices.Contains(cfg.Partitions, k.N) {
		return fmt.Sprintf("no partition n=%d in beffio-partitions %s", k.N, joinInts(cfg.Partitions))
	}
	if k.Pat == PatPhase {
		return "unexpected line" // not reached: every phase of a partition is wanted
	}
	if !cfg.Rewrite.Scheduled(k.Access, k.Type) {
		return fmt.Sprintf("type %s is not rewritten with beffio-rewrite: %s", k.Type, cfg.Rewrite)
	}
	if k.Pat >= len(table) {
		return fmt.Sprintf("no pattern %d (the table has %d)", k.Pat, len(table))
	}
	p := table[k.Pat]
	if p.Type != k.Type {
		return fmt.Sprintf("pattern %d is of type %s, not %s", k.Pat, p.Type, k.Type)
	}
	return fmt.Sprintf("pattern %d is %s with beffio-mpart: %d", k.Pat, p.Name(), cfg.MPART)
}

// cacheRatios lists the data-to-cache ratio of each access method.
func (p *IOProtocol) cacheRatios() string {
	var s []string
	for _, a := range beffio.Accesses {
		s = append(s, fmt.Sprintf("%s %s×", a, ratio(p.CacheRatio[a])))
	}
	return strings.Join(s, ", ")
}

// Figures returns the folded figures of p, in protocol order: b_eff_io,
// the partition values, the access-method values in the partition of
// b_eff_io, the release-2 formula and, with MT, total memory / b_eff_io.
func (p *IOProtocol) Figures() []Figure {
	f := []Figure{{"beffio", "b_eff_io", p.BeffIO, "MB/s"}}
	for _, part := range p.Partitions {
		f = append(f, Figure{fmt.Sprintf("partition/n=%d", part.N), fmt.Sprintf("partition value, n=%d", part.N), part.Value, "MB/s"})
	}
	for _, a := range beffio.Accesses {
		f = append(f, Figure{"access/acc=" + a.String(), "weighted average bandwidth for " + a.String(), p.Access[a], "MB/s"})
	}
	f = append(f, Figure{"release2", Release2Label, p.Release2, "MB/s"})
	if p.MemMinutes > 0 {
		f = append(f, Figure{"totalmem-time", "total memory / b_eff_io", p.MemMinutes, "min"})
	}
	return f
}

// seconds formats a time in seconds: whole seconds without decimals.
func seconds(s float64) string {
	if s == math.Trunc(s) && s < 1e15 {
		return strconv.FormatFloat(s, 'f', 0, 64)
	}
	return num(s, 4, 1)
}

// ratio formats a data-to-cache ratio.
func ratio(r float64) string {
	if math.IsInf(r, 1) {
		return "∞"
	}
	return strconv.FormatFloat(r, 'f', 1, 64)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
