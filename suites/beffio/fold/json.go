package fold

import (
	"math"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beffio"
)

// JSONBeffIO is what a b_eff_io run adds to its JSON object, under
// "beff_io" (docs/fold-json.md).
type JSONBeffIO struct {
	// Rules are the rules of the run: paper or reference.
	Rules string `json:"rules"`
	// BestN is the partition (number of processes) whose value is
	// b_eff_io; PaperN and ReferenceN those of the largest value by the
	// paper's formula and by the reference code 2.1's.
	BestN      int `json:"best_n"`
	PaperN     int `json:"paper_n"`
	ReferenceN int `json:"reference_n"`
	// PaperMBps and ReferenceMBps are those largest values.
	PaperMBps     results.Float `json:"paper_mbps"`
	ReferenceMBps results.Float `json:"reference_mbps"`
	// ReadRemoval says how the reference formula's read times include the
	// removal of the files: "close" (in the read's close, reference
	// rules), "apart" (timed after the close) or "none" (not measured).
	ReadRemoval string `json:"read_removal"`
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
	Decisions int64         `json:"decisions"`
	StopMs    results.Float `json:"stop_ms"`
	// TimeS is the wall time of all access phases, seconds.
	TimeS results.Float `json:"time_s"`
	// Access has one entry per access method: write, rewrite, read.
	Access []JSONAccess `json:"access"`
	// Partitions has one entry per partition, ascending.
	Partitions []JSONPartition `json:"partitions"`
}

// A JSONAccess is what a b_eff_io run reports per access method.
type JSONAccess struct {
	Access string `json:"access"` // "write", "rewrite" or "read"
	// ValueMBps is the access-method value in the partition best_n (the
	// figure access/acc=<access>).
	ValueMBps results.Float `json:"value_mbps"`
	// DataMB is the data moved, Σ over partitions and types, MB.
	DataMB results.Float `json:"data_mb"`
	// DataPct is DataMB as a percentage of the total memory
	// (beffio-totalmem-mib), null when the total memory is unknown.
	DataPct results.Float `json:"data_pct"`
	// CacheRatio is DataMB divided by the file-system cache
	// (beffio-cache-mib), null when the cache size is unknown or 0 (an
	// infinite ratio).
	CacheRatio results.Float `json:"cache_ratio"`
}

// A JSONPartition is what a b_eff_io run measured with one partition.
type JSONPartition struct {
	N int `json:"n"` // processes
	// ValueMBps is the paper's partition value 0.25·write + 0.25·rewrite +
	// 0.5·read; ReferenceMBps the reference code 2.1's formula over the
	// read value ReadRemovalMBps, which has the removal of the files in its
	// times (null where that was not measured).
	ValueMBps       results.Float `json:"value_mbps"`
	ReferenceMBps   results.Float `json:"reference_mbps"`
	ReadRemovalMBps results.Float `json:"read_removal_mbps"`
	// TimeS is the sum of the phase times; ScheduledS is T / partitions.
	TimeS      results.Float `json:"time_s"`
	ScheduledS results.Float `json:"scheduled_s"`
	// Access has one entry per access method: write, rewrite, read.
	Access []JSONPartitionAccess `json:"access"`
}

// A JSONPartitionAccess is one access method of a JSONPartition.
type JSONPartitionAccess struct {
	Access string `json:"access"` // "write", "rewrite" or "read"
	// ValueMBps is the access-method value (2·type0 + type1 + type2 +
	// type3 + type4)/6 over the pattern-type bandwidths.
	ValueMBps results.Float `json:"value_mbps"`
	// PhaseS is the time of the access phase (the phase line), seconds.
	PhaseS results.Float `json:"phase_s"`
	// Types are the pattern-type totals of the scheduled types in type
	// order (scatter, shared, separated, segmented, segcoll; with
	// beffio-rewrite: scatter only scatter is rewritten).
	Types []JSONTypeTotal `json:"types"`
}

// A JSONTypeTotal is a pattern-type total: the line
// n=<n>/acc=<access>/type=<type>/pat=total.
type JSONTypeTotal struct {
	Type string `json:"type"` // scatter, shared, separated, segmented or segcoll
	// MBps is the pattern-type bandwidth, Σ bytes / the type's time; MB
	// and S are the data and that time.
	MBps results.Float `json:"mbps"`
	MB   results.Float `json:"mb"`
	S    results.Float `json:"s"`
	// OpenS and CloseS are the open and the close within S, DeleteS the
	// removal timed after a read's close; null where the line has none.
	OpenS   results.Float `json:"open_s"`
	CloseS  results.Float `json:"close_s"`
	DeleteS results.Float `json:"delete_s"`
}

// orNull is v, or null (NaN) where it is negative (not recorded).
func orNull(v float64) results.Float {
	if v < 0 {
		return results.Float(math.NaN())
	}
	return results.Float(v)
}

var removalNames = [...]string{RemovalNone: "none", RemovalApart: "apart", RemovalInClose: "close"}

// JSONDetail returns the b_eff_io details of p.
func (p *Folded) JSONDetail() any {
	out := &JSONBeffIO{
		Rules:             string(p.Rules),
		BestN:             p.BestN,
		PaperN:            p.PaperN,
		ReferenceN:        p.ReferenceN,
		PaperMBps:         results.Float(p.Paper),
		ReferenceMBps:     results.Float(p.Reference),
		ReadRemoval:       removalNames[p.Removal],
		Errors:            p.Errors,
		SharedLines:       p.SharedLines,
		SharedSubstituted: p.SharedSubstituted,
		Capped:            p.Capped,
		Decisions:         p.Decisions,
		StopMs:            results.Float(p.StopMs),
		TimeS:             results.Float(p.Time),
		Access:            make([]JSONAccess, 0, len(beffio.Accesses)),
		Partitions:        make([]JSONPartition, 0, len(p.Partitions)),
	}
	cfg := p.Run.Config
	for _, a := range beffio.Accesses {
		ja := JSONAccess{Access: a.String(), ValueMBps: results.Float(p.Access[a]), DataMB: results.Float(p.Data[a]),
			DataPct: results.Float(math.NaN()), CacheRatio: results.Float(p.CacheRatio[a])}
		if cfg.TotalMiB > 0 {
			ja.DataPct = results.Float(p.DataPct[a])
		}
		if cfg.CacheMiB < 0 {
			ja.CacheRatio = results.Float(math.NaN()) // cache unknown; a cache of 0 gives +Inf
		}
		out.Access = append(out.Access, ja)
	}
	for _, part := range p.Partitions {
		out.Partitions = append(out.Partitions, p.jsonPartition(part))
	}
	return out
}

func (p *Folded) jsonPartition(part *Partition) JSONPartition {
	rm := results.Float(part.ReadRemovalValue)
	if p.Removal == RemovalNone {
		rm = results.Float(math.NaN())
	}
	jp := JSONPartition{
		N:               part.N,
		ValueMBps:       results.Float(part.Value),
		ReferenceMBps:   results.Float(part.Reference),
		ReadRemovalMBps: rm,
		TimeS:           results.Float(part.Time),
		ScheduledS:      results.Float(part.Scheduled),
		Access:          make([]JSONPartitionAccess, 0, len(beffio.Accesses)),
	}
	for _, a := range beffio.Accesses {
		ja := JSONPartitionAccess{Access: a.String(), ValueMBps: results.Float(part.Access[a]),
			PhaseS: results.Float(part.Phase[a].Seconds), Types: []JSONTypeTotal{}}
		for _, t := range beffio.Types {
			if m := part.Totals[a][t]; m != nil {
				ja.Types = append(ja.Types, JSONTypeTotal{Type: t.String(), MBps: results.Float(m.MBps), MB: results.Float(m.MB), S: results.Float(m.Seconds),
					OpenS: orNull(m.OpenS), CloseS: orNull(m.CloseS), DeleteS: orNull(m.DeleteS)})
			}
		}
		jp.Access = append(jp.Access, ja)
	}
	return jp
}
