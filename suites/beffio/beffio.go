// Package beffio holds the definition of the effective I/O bandwidth
// benchmark b_eff_io (Rabenseifner and Koniges; docs/beffio.md) as pure
// functions: the pattern table, the default partitions, the schedule, the
// size-driven repetition rule of the segmented types, the geometric stop
// rule of the time-driven initial write, the file layouts, the validation
// values, the b_eff_io formula, the limits of a run and of its validity
// (limits.go), the hints file (hints.go) and the names of its results files
// (names.go). The MPI-IO side lives in packages driver and loops;
// reading and folding the results in package fold.
//
//	pattern bandwidth      = bytes of all n processes / (barrier before first call … barrier after last call and sync)
//	pattern-type bandwidth = Σ bytes of its patterns / Σ time from open to close   (a ratio of sums)
//	access-method value    = (2·type0 + type1 + type2 + type3 + type4) / 6
//	partition value        = 0.25·write + 0.25·rewrite + 0.5·read
//	b_eff_io               = max over partitions
package beffio

import (
	"fmt"
	"math"
)

// MiB and KiB are the binary units of chunk and memory sizes.
const (
	KiB = 1 << 10
	MiB = 1 << 20
)

// PatternType is a pattern type.
type PatternType int

const (
	Scatter   PatternType = iota // 0: collective, strided fileview, L bytes per call scattered to l-byte disk chunks
	Shared                       // 1: collective, shared file pointer, MPI_File_write_ordered
	Separated                    // 2: one file per process, non-collective
	Segmented                    // 3: one file, a segment per process, non-collective
	SegColl                      // 4: as 3 with collective calls
)

// Types lists the pattern types in order.
var Types = []PatternType{Scatter, Shared, Separated, Segmented, SegColl}

var typeNames = [...]string{"scatter", "shared", "separated", "segmented", "segcoll"}

func (t PatternType) String() string { return typeNames[t] }

// ParseType is the inverse of Type.String.
func ParseType(s string) (PatternType, bool) {
	for i, n := range typeNames {
		if n == s {
			return PatternType(i), true
		}
	}
	return 0, false
}

// Weight is the type's weight in the access-method value (scatter counts twice).
func (t PatternType) Weight() float64 {
	if t == Scatter {
		return 2
	}
	return 1
}

// Access is an access method.
type Access int

const (
	Write Access = iota
	Rewrite
	Read
)

// Accesses lists the access methods in the order they run.
var Accesses = []Access{Write, Rewrite, Read}

var accessNames = [...]string{"write", "rewrite", "read"}

func (a Access) String() string { return accessNames[a] }

// ParseAccess is the inverse of Access.String.
func ParseAccess(s string) (Access, bool) {
	for i, n := range accessNames {
		if n == s {
			return Access(i), true
		}
	}
	return 0, false
}

// Weight is the access method's weight in the partition value.
func (a Access) Weight() float64 {
	if a == Read {
		return 0.5
	}
	return 0.25
}

// AccessPattern is one row of the pattern table (the paper's Table 2).
type AccessPattern struct {
	No   int         // the paper's pattern number, 0..42
	Type PatternType //
	L    int64       // disk chunk l, bytes (0 for the fill pattern: the rest of the segment)
	Mem  int64       // memory chunk L per call, bytes (= L except for type 0; 0 for fill)
	U    int         // time units
	Fill bool        // the fill pattern of types 3 and 4
}

// Chunks is the number of disk chunks one call accesses (L/l).
func (p AccessPattern) Chunks() int64 {
	if p.L == 0 {
		return 1
	}
	return p.Mem / p.L
}

// MPART is the largest chunk size: max(2 MiB, memory per process/128),
// capped at 1 GiB (the reference code's cap).
func MPART(memMiB int64) int64 {
	m := memMiB * MiB / 128
	m = max(m, 2*MiB)
	return min(m, 1<<30)
}

// Table returns the 43 patterns for a given MPART (bytes, a multiple of 8).
func Table(mpart int64) []AccessPattern {
	var t []AccessPattern
	add := func(ty PatternType, l, mem int64, u int) {
		t = append(t, AccessPattern{No: len(t), Type: ty, L: l, Mem: mem, U: u})
	}
	// type 0: scatter
	add(Scatter, MiB, MiB, 0)
	add(Scatter, mpart, mpart, 4)
	add(Scatter, MiB, 2*MiB, 4)
	add(Scatter, MiB, MiB, 4)
	add(Scatter, 32*KiB, MiB, 2)
	add(Scatter, KiB, MiB, 2)
	add(Scatter, 32*KiB+8, MiB+256, 2)
	add(Scatter, KiB+8, MiB+8*KiB, 2)
	add(Scatter, MiB+8, MiB+8, 2)
	// types 1 and 2: memory chunk = disk chunk
	for _, ty := range []PatternType{Shared, Separated} {
		first := []int{4, 2} // U of the MPART pattern
		fi := 0
		if ty == Separated {
			fi = 1
		}
		add(ty, MiB, MiB, 0)
		add(ty, mpart, mpart, first[fi])
		add(ty, MiB, MiB, 2)
		add(ty, 32*KiB, 32*KiB, 1)
		add(ty, KiB, KiB, 1)
		add(ty, 32*KiB+8, 32*KiB+8, 1)
		add(ty, KiB+8, KiB+8, 1)
		add(ty, MiB+8, MiB+8, 2)
	}
	// types 3 and 4: as type 2, then the fill pattern
	for _, ty := range []PatternType{Segmented, SegColl} {
		for _, p := range t[17:25] {
			add(ty, p.L, p.Mem, p.U)
		}
		t = append(t, AccessPattern{No: len(t), Type: ty, U: 0, Fill: true})
	}
	return t
}

// SumU is ΣU over the patterns of one access method (64).
func SumU(table []AccessPattern) int {
	s := 0
	for _, p := range table {
		s += p.U
	}
	return s
}

// Partitions returns the default partitions for n processes (docs/beffio.md "Inputs"):
// {1} for 1, {1,2} for 2, otherwise {2^round(0.35·log2 n), 2^round(0.70·log2 n), n}
// with small = 1 for n = 3 and medium = 3 for n = 4, without duplicates.
func Partitions(n int) []int {
	switch {
	case n <= 1:
		return []int{1}
	case n == 2:
		return []int{1, 2}
	}
	lg := math.Log2(float64(n))
	small := 1 << int(math.Round(0.35*lg))
	medium := 1 << int(math.Round(0.70*lg))
	if n == 3 {
		small = 1
	}
	if n == 4 {
		medium = 3
	}
	var out []int
	for _, p := range []int{small, medium, n} {
		p = min(p, n)
		if len(out) == 0 || out[len(out)-1] < p {
			out = append(out, p)
		}
	}
	return out
}

// RewriteMode selects which types are rewritten: the paper's schedule
// rewrites all types, release 2 of the reference code only the scatter type.
type RewriteMode string

const (
	RewriteAll     RewriteMode = "all"
	RewriteScatter RewriteMode = "scatter"
)

// Scheduled reports whether (access, type) is measured in the mode.
func (m RewriteMode) Scheduled(a Access, t PatternType) bool {
	return a != Rewrite || m == RewriteAll || t == Scatter
}

// PartitionKeys are the lines a run writes for partition n, in the
// driver's order: for each access, every pattern of the table of each
// type the access schedules, that type's total, then the access's phase
// line. A partition is complete (a resume may copy it) only with all.
func PartitionKeys(n int, rewrite RewriteMode, table []AccessPattern) []Key {
	var keys []Key
	for _, a := range Accesses {
		for _, t := range Types {
			if !rewrite.Scheduled(a, t) {
				continue
			}
			for _, p := range table {
				if p.Type == t {
					keys = append(keys, PatternKey(n, a, p))
				}
			}
			keys = append(keys, TotalKey(n, a, t))
		}
		keys = append(keys, PhaseKey(n, a))
	}
	return keys
}

// ScheduleSumU is ΣU over every scheduled (access method, pattern).
func ScheduleSumU(table []AccessPattern, mode RewriteMode) int {
	s := 0
	for _, a := range Accesses {
		for _, p := range table {
			if mode.Scheduled(a, p.Type) {
				s += p.U
			}
		}
	}
	return s
}

// PatternTime is the scheduled time of a pattern: T_n · U / ΣU.
func PatternTime(tPartition float64, u, sumU int) float64 {
	return tPartition * float64(u) / float64(sumU)
}

// scatterOf maps the index of a type-2 pattern (0..7) to the type-0 pattern
// with the same disk chunk: type 0 has a second 1 MiB pattern (l = 1 MiB,
// L = 2 MiB) where the others have one; the l = L = 1 MiB one (No 3) is used.
var scatterOf = [8]int{0, 1, 3, 4, 5, 6, 7, 8}

// SegmentReps returns, per chunk size of the segmented types, the
// size-driven repetition count r3(l) = min(r0(l)·L0(l)/l, 10·r1(l), r2(l))
// from the initial-write counts of types 0, 1 and 2, and the segment size
// Lseg = Σ r3(l)·l rounded up to a multiple of 1 MiB. counts maps a pattern
// number to its write repetitions. Each returned count is at least 1.
func SegmentReps(table []AccessPattern, counts map[int]int64) (map[int]int64, int64, error) {
	reps := map[int]int64{}
	var sum int64
	for _, p := range table {
		if p.Type != Segmented || p.Fill {
			continue
		}
		// the patterns of types 0, 1, 2 with the same disk chunk l
		i := p.No - 25 // 0..7, index into the type-1, type-2 patterns
		p1, p2 := table[9+i], table[17+i]
		p0 := table[scatterOf[i]]
		if p0.L != p.L || p1.L != p.L || p2.L != p.L {
			return nil, 0, fmt.Errorf("pattern table: chunk sizes of patterns %d, %d, %d, %d differ", p0.No, p1.No, p2.No, p.No)
		}
		r0, r1, r2 := counts[p0.No], counts[p1.No], counts[p2.No]
		if r0 < 1 || r1 < 1 || r2 < 1 {
			return nil, 0, fmt.Errorf("segment size: patterns %d, %d, %d need write counts (have %d, %d, %d)", p0.No, p1.No, p2.No, r0, r1, r2)
		}
		r := min(r0*p0.Chunks(), 10*r1, r2)
		r = max(r, 1)
		reps[p.No] = r
		reps[p.No+9] = r // the same pattern of type 4
		sum += r * p.L
	}
	lseg := (sum + MiB - 1) / MiB * MiB
	return reps, lseg, nil
}

// StopRule decides, in the time-driven initial write, when to stop
// repeating a pattern.
type StopRule string

const (
	// StopGeometric: calls run in batches whose size at most doubles, the
	// decision is taken after each batch (a few collective decisions per
	// pattern instead of one per call; the paper's §5.4 proposal).
	StopGeometric StopRule = "geometric"
	// StopBarrier: after each call a barrier, rank 0 decides
	// (loops/beffio.c, beffio_ref_continue), a broadcast: the reference code's
	// rule.
	StopBarrier StopRule = "barrier"
)

// NextBatch is the geometric stop rule. After done calls that took elapsed
// seconds (maximum over the processes) of a pattern scheduled for target
// seconds, with the last batch of size last, it returns the size of the
// next batch, or 0 to stop. It stops when one more call would end further
// from the target than stopping now; otherwise the next batch is the
// predicted number of calls left, at least 1 and at most twice the last.
func NextBatch(done, last int64, elapsed, target float64) int64 {
	if done == 0 {
		return 1
	}
	limit := 2 * max(last, 1)
	perCall := elapsed / float64(done)
	left := target - elapsed
	if left <= perCall/2 {
		return 0
	}
	if perCall <= 0 {
		return limit // faster than the clock: no prediction yet, grow
	}
	return max(1, min(int64(math.Min(math.Round(left/perCall), float64(limit))), limit))
}

// Value is the validation value of the first (last=false) or last 8-byte
// element of a disk chunk: a hash of the repetition, the chunk's file
// offset, the pattern and the access method that wrote it. It is never zero.
func Value(rep int64, offset int64, pattern int, access Access, last bool) uint64 {
	x := uint64(rep)*0x9E3779B97F4A7C15 ^ uint64(offset)*0xC2B2AE3D27D4EB4F ^
		uint64(pattern)<<48 ^ uint64(access)<<56
	if last {
		x ^= 0xA5A5A5A5A5A5A5A5
	}
	// splitmix64 finaliser
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	if x == 0 {
		x = 1
	}
	return x
}

// Offset returns the file offset of disk chunk j (0 ≤ j < Chunks) of call c
// of rank r in a partition of n processes, for a pattern whose region starts
// at base in its file (type 2: in the rank's own file; types 3 and 4: in the
// rank's segment, which starts at r·lseg).
//
//   - scatter: the fileview deals l-byte blocks round-robin to the ranks, so
//     the j-th chunk of call c is block (c·Chunks + j)·n + r;
//   - shared: write_ordered puts the ranks' chunks of one call in rank order;
//   - separated: consecutive chunks in the rank's own file;
//   - segmented, segcoll: consecutive chunks in the rank's segment.
func (p AccessPattern) Offset(base int64, n, r int, c, j, lseg int64) int64 {
	switch p.Type {
	case Scatter:
		return base + ((c*p.Chunks()+j)*int64(n)+int64(r))*p.L
	case Shared:
		return base + (c*int64(n)+int64(r))*p.L
	case Separated:
		return base + c*p.L
	}
	return int64(r)*lseg + base + c*p.L
}

// Region is the number of bytes reps calls of the pattern occupy in its file
// (type 2: in each rank's file; types 3 and 4: in each rank's segment).
func (p AccessPattern) Region(reps int64, n int) int64 {
	switch p.Type {
	case Scatter:
		return reps * p.Mem * int64(n)
	case Shared:
		return reps * p.L * int64(n)
	}
	return reps * p.L
}

// Bytes is the data reps calls of the pattern move, over all n processes.
func (p AccessPattern) Bytes(reps int64, n int) int64 { return reps * p.Mem * int64(n) }

// Name is the pattern's part of a benchmark name: pat=<No>/l=<l>/L=<L>
// ("fill" for the fill pattern, whose size depends on the run).
func (p AccessPattern) Name() string {
	if p.Fill {
		return fmt.Sprintf("pat=%d/l=fill/L=fill", p.No)
	}
	return fmt.Sprintf("pat=%d/l=%d/L=%d", p.No, p.L, p.Mem)
}

// LastWriter is the access method that last wrote a type, whose validation
// values a read expects: the rewrite where the type was rewritten, the
// initial write otherwise.
func LastWriter(mode RewriteMode, t PatternType) Access {
	if mode.Scheduled(Rewrite, t) {
		return Rewrite
	}
	return Write
}

// AccessValue is the access-method value from the pattern-type values:
// (2·type0 + type1 + … + type4)/6 over the types present (weights
// renormalised when a type is missing, as for the rewrite of release 2,
// which only has the scatter type).
func AccessValue(types map[PatternType]float64) float64 {
	s, w := 0.0, 0.0
	for _, t := range Types { // in type order: the sum must not depend on map order
		if v, ok := types[t]; ok {
			s += t.Weight() * v
			w += t.Weight()
		}
	}
	if w == 0 {
		return 0
	}
	return s / w
}

// PartitionValue is 0.25·write + 0.25·rewrite + 0.5·read.
func PartitionValue(write, rewrite, read float64) float64 {
	return Write.Weight()*write + Rewrite.Weight()*rewrite + Read.Weight()*read
}

// A Segments is the layout of the segmented types of one partition: the
// repetitions of their patterns and the segment each process owns.
type Segments struct {
	// Reps holds the repetitions of every pattern of types 3 and 4: r3(l)
	// (SegmentReps), and for the fill patterns 1, or 0 when the other
	// patterns fill the segment.
	Reps map[int]int64
	Lseg int64 // the segment size, a multiple of 1 MiB
	Fill int64 // the fill pattern's chunk: what the other patterns leave of the segment
}

// SegmentLayout fixes the layout of the segmented types from the initial
// write counts of types 0, 1 and 2 (see SegmentReps).
func SegmentLayout(table []AccessPattern, counts map[int]int64) (Segments, error) {
	reps, lseg, err := SegmentReps(table, counts)
	if err != nil {
		return Segments{}, err
	}
	s := Segments{Reps: reps, Lseg: lseg, Fill: lseg}
	for _, p := range table {
		if p.Type == Segmented && !p.Fill {
			s.Fill -= reps[p.No] * p.L
		}
	}
	for _, p := range table {
		if p.Fill {
			s.Reps[p.No] = 0
			if s.Fill > 0 {
				s.Reps[p.No] = 1
			}
		}
	}
	return s, nil
}

// Bytes per process of b_eff_io's tables that grow with the job's p (the
// job's description) and of rank 0's (the node records of every process),
// and what MPI-IO holds on a process that aggregates the collective
// writes and reads of a partition, rank 0 among them: AggregatorBytes and
// AggregatorPerProc per process of the partition (Open MPI 4.1's OMPIO on
// one node, measured 85 MiB at 32 processes and 100 MiB at 64;
// docs/scale.md).
const (
	TableBytes        = 48
	RootBytes         = 320
	AggregatorBytes   = 72 << 20
	AggregatorPerProc = 512 << 10
)

// Memory is what a process of b_eff_io holds on p processes on top of the
// base, and what rank 0 holds on top of that: the I/O buffer of the
// largest chunk of the table, the tables, MPI-IO's collective buffers.
func Memory(table []AccessPattern, p int) (perProcess, root int64) {
	var buf int64
	for _, x := range table {
		buf = max(buf, x.Mem)
	}
	return buf + TableBytes*int64(p), RootBytes*int64(p) + AggregatorBytes + AggregatorPerProc*int64(p)
}
