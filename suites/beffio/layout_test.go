package beffio

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chunk is one disk chunk written by a call: [off, off+len).
type chunk struct{ off, len int64 }

// chunks returns the disk chunks of reps calls of p by ranks in of a
// partition of n processes, grouped by file: one file for types 0, 1, 3
// and 4 (key 0), one per rank for type 2 (key = rank).
func chunks(p AccessPattern, base int64, n int, reps, lseg int64) map[int][]chunk {
	files := map[int][]chunk{}
	for r := 0; r < n; r++ {
		file := 0
		if p.Type == Separated {
			file = r
		}
		for c := int64(0); c < reps; c++ {
			for j := int64(0); j < p.Chunks(); j++ {
				files[file] = append(files[file], chunk{p.Offset(base, n, r, c, j, lseg), p.L})
			}
		}
	}
	return files
}

// tiles checks that cs are distinct and exactly cover [lo, hi).
func tiles(t *testing.T, cs []chunk, lo, hi int64, msg string) {
	t.Helper()
	cs = slices.Clone(cs)
	slices.SortFunc(cs, func(a, b chunk) int { return cmp.Compare(a.off, b.off) })
	at := lo
	for _, c := range cs {
		if c.off != at {
			t.Errorf("%s: chunk at %d, want %d (gap or overlap)", msg, c.off, at)
			return
		}
		at += c.len
	}
	assert.Equal(t, hi, at, "%s: end of the chunks", msg)
}

func TestOffsetRegion(t *testing.T) {
	tab := Table(2 * MiB)
	// Patterns of each type, with several chunks per call for type 0.
	pats := []int{
		1, 2, 4, 6, 7, 8, // scatter
		10, 12, 14, 15, // shared
		18, 20, 22, 24, // separated
		26, 28, 30, 31, // segmented
		35, 37, 39, 41, // segcoll
	}
	const base = 3*MiB + 8*KiB // where the pattern's region starts
	const reps = 3
	for _, no := range pats {
		p := tab[no]
		for n := 1; n <= 4; n++ {
			t.Run(fmt.Sprintf("pat=%d/type=%s/n=%d", no, p.Type, n), func(t *testing.T) {
				region := p.Region(reps, n)
				lseg := base + region + 5*MiB // room for the pattern in each segment
				files := chunks(p, base, n, reps, lseg)
				for _, cs := range files {
					for _, c := range cs {
						if p.L%8 == 0 {
							require.Zero(t, c.off%8, "offset %d is 8-aligned", c.off)
						}
					}
				}
				switch p.Type {
				case Scatter, Shared:
					require.Len(t, files, 1)
					assert.Equal(t, p.Bytes(reps, n), region, "region = bytes of all processes")
					tiles(t, files[0], base, base+region, "the file")
				case Separated:
					require.Len(t, files, n)
					assert.Equal(t, p.Bytes(reps, 1), region, "region = bytes of one process")
					for r := 0; r < n; r++ {
						tiles(t, files[r], base, base+region, fmt.Sprintf("the file of rank %d", r))
					}
				case Segmented, SegColl:
					require.Len(t, files, 1)
					assert.Equal(t, p.Bytes(reps, 1), region, "region = bytes of one process")
					byRank := map[int64][]chunk{}
					for _, c := range files[0] {
						r := c.off / lseg
						byRank[r] = append(byRank[r], c)
					}
					require.Len(t, byRank, n)
					for r := int64(0); r < int64(n); r++ {
						seg := r * lseg
						tiles(t, byRank[r], seg+base, seg+base+region, fmt.Sprintf("the segment of rank %d", r))
					}
				}
			})
		}
	}
}

// TestOffsetWholeFile lays out all patterns of each type one after another
// (base = end of the previous pattern's region) with different repetition
// counts and checks that together they tile the file, or each rank's file
// or segment.
func TestOffsetWholeFile(t *testing.T) {
	tab := Table(4 * MiB)
	const n = 3
	for _, ty := range Types {
		t.Run(ty.String(), func(t *testing.T) {
			var pats []AccessPattern
			for _, p := range tab {
				if p.Type == ty && !p.Fill {
					pats = append(pats, p)
				}
			}
			var size int64 // of the file, or of each rank's file or segment
			for i, p := range pats {
				size += p.Region(int64(i+1), n)
			}
			lseg := (size + MiB - 1) / MiB * MiB
			var all []chunk
			files := map[int][]chunk{}
			var base int64
			for i, p := range pats {
				for f, cs := range chunks(p, base, n, int64(i+1), lseg) {
					files[f] = append(files[f], cs...)
					all = append(all, cs...)
				}
				base += p.Region(int64(i+1), n)
			}
			switch ty {
			case Scatter, Shared:
				tiles(t, files[0], 0, size, "the file")
			case Separated:
				for r := 0; r < n; r++ {
					tiles(t, files[r], 0, size, fmt.Sprintf("the file of rank %d", r))
				}
			default:
				// The segments hold the patterns; the fill pattern would
				// write the rest [size, lseg) of each.
				var withFill []chunk
				withFill = append(withFill, all...)
				for r := int64(0); r < n; r++ {
					withFill = append(withFill, chunk{r*lseg + size, lseg - size})
				}
				tiles(t, withFill, 0, n*lseg, "the file with fill")
			}
		})
	}
}

// TestOffsetScatterByHand: n = 2, l = 1 KiB, L = 4 KiB. The fileview deals
// 1 KiB blocks alternately to rank 0 and rank 1; each call writes 4 blocks
// of its rank.
func TestOffsetScatterByHand(t *testing.T) {
	p := AccessPattern{Type: Scatter, L: KiB, Mem: 4 * KiB}
	const base = 100 * KiB
	var got []int64
	for j := int64(0); j < p.Chunks(); j++ {
		got = append(got, p.Offset(base, 2, 1, 0, j, 0)-base)
	}
	assert.Equal(t, []int64{1 * KiB, 3 * KiB, 5 * KiB, 7 * KiB}, got, "rank 1, call 0")
	got = got[:0]
	for j := int64(0); j < p.Chunks(); j++ {
		got = append(got, p.Offset(base, 2, 0, 1, j, 0)-base)
	}
	assert.Equal(t, []int64{8 * KiB, 10 * KiB, 12 * KiB, 14 * KiB}, got, "rank 0, call 1")
	assert.Equal(t, int64(3*4*KiB*2), p.Region(3, 2))
}

func TestOffsetOthersByHand(t *testing.T) {
	const base = 64 * KiB
	shared := AccessPattern{Type: Shared, L: KiB, Mem: KiB}
	// Call 2 of rank 1 of 3: after 2 calls of all 3 ranks and rank 0's chunk.
	assert.Equal(t, base+(2*3+1)*int64(KiB), shared.Offset(base, 3, 1, 2, 0, 0))
	sep := AccessPattern{Type: Separated, L: KiB, Mem: KiB}
	assert.Equal(t, base+2*int64(KiB), sep.Offset(base, 3, 1, 2, 0, 0), "in the rank's own file")
	seg := AccessPattern{Type: Segmented, L: KiB, Mem: KiB}
	assert.Equal(t, 1*int64(MiB)+base+2*KiB, seg.Offset(base, 3, 1, 2, 0, MiB))
	segc := AccessPattern{Type: SegColl, L: KiB, Mem: KiB}
	assert.Equal(t, 2*int64(MiB)+base, segc.Offset(base, 3, 2, 0, 0, MiB))
}

func TestValue(t *testing.T) {
	// Deterministic.
	assert.Equal(t, Value(7, 4096, 12, Rewrite, true), Value(7, 4096, 12, Rewrite, true))
	// Pinned, so that a change of the function (which would make old files
	// unreadable by a new reader) is noticed.
	assert.Equal(t, uint64(1), Value(0, 0, 0, Write, false), "all-zero input: the finaliser gives 0, replaced by 1")

	seen := map[uint64]string{}
	for _, rep := range []int64{0, 1, 2, 3, 1000, math.MaxInt32} {
		for _, off := range []int64{0, 8, 1024, 1032, MiB, MiB + 8, 1 << 40} {
			for pat := 0; pat < 43; pat++ {
				for _, a := range Accesses {
					for _, last := range []bool{false, true} {
						v := Value(rep, off, pat, a, last)
						key := fmt.Sprint(rep, off, pat, a, last)
						require.NotZero(t, v, key)
						if prev, ok := seen[v]; ok {
							t.Fatalf("Value(%s) = Value(%s) = %#x", key, prev, v)
						}
						seen[v] = key
					}
				}
			}
		}
	}
	base := Value(5, 2048, 7, Write, false)
	assert.NotEqual(t, base, Value(5, 2048, 7, Write, true), "first / last")
	assert.NotEqual(t, base, Value(6, 2048, 7, Write, false), "rep")
	assert.NotEqual(t, base, Value(5, 2056, 7, Write, false), "offset")
	assert.NotEqual(t, base, Value(5, 2048, 8, Write, false), "pattern")
	assert.NotEqual(t, base, Value(5, 2048, 7, Rewrite, false), "access")
	assert.NotEqual(t, Value(5, 2048, 7, Rewrite, false), Value(5, 2048, 7, Read, false), "access")
}

func TestAccessValue(t *testing.T) {
	// (2·60 + 30 + 60 + 30 + 30) / 6 = 270 / 6 = 45.
	all := map[PatternType]float64{Scatter: 60, Shared: 30, Separated: 60, Segmented: 30, SegColl: 30}
	assert.InDelta(t, 45, AccessValue(all), 1e-12)
	// Equal values give that value.
	assert.InDelta(t, 7, AccessValue(map[PatternType]float64{Scatter: 7, Shared: 7, Separated: 7, Segmented: 7, SegColl: 7}), 1e-12)
	// Only the scatter type (the rewrite of release 2): its value.
	assert.Equal(t, 80.0, AccessValue(map[PatternType]float64{Scatter: 80}))
	// Scatter and shared: (2·60 + 30) / 3 = 50.
	assert.InDelta(t, 50, AccessValue(map[PatternType]float64{Scatter: 60, Shared: 30}), 1e-12)
	// Without scatter: plain mean, (30 + 60) / 2.
	assert.InDelta(t, 45, AccessValue(map[PatternType]float64{Shared: 30, Separated: 60}), 1e-12)
	assert.Equal(t, 0.0, AccessValue(nil))
}

func TestPartitionValue(t *testing.T) {
	// 0.25·30 + 0.25·22.5 + 0.5·120 = 7.5 + 5.625 + 60.
	assert.Equal(t, 73.125, PartitionValue(30, 22.5, 120))
	// The IPDPS 2001 slides: 21.530, 29.472, 93.602 → 59.552 MB/s.
	assert.InDelta(t, 59.552, PartitionValue(21.530, 29.472, 93.602), 0.0005)
	assert.InDelta(t, 62.906, PartitionValue(53.256, 68.252, 65.058), 0.0005)
}

func TestReferenceValue(t *testing.T) {
	all := func(v float64) map[PatternType]float64 {
		return map[PatternType]float64{Scatter: v, Shared: v, Separated: v, Segmented: v, SegColl: v}
	}
	// sqrt((5·30 + 30)/6 · 120) = sqrt(3600) = 60.
	assert.Equal(t, 60.0, ReferenceValue(all(30), 30, 120))
	assert.Equal(t, 0.0, ReferenceValue(all(10), 10, 0))
	// A run of the reference code 2.1 on this machine (2 processes, -T 30,
	// partition n=1): the write types, the scatter rewrite, the read
	// access-method value and the b_eff_io it printed, 908.373 MB/s.
	w := map[PatternType]float64{Scatter: 337.531, Shared: 275.471, Separated: 340.754, Segmented: 346.387, SegColl: 346.499}
	assert.InDelta(t, 908.373, ReferenceValue(w, 1158.749, 1764.764), 0.0005)
	// The scatter type's write counts once, unlike in the access-method value.
	w[Scatter] += 60
	assert.InDelta(t, math.Sqrt((1158.749+337.531+60+275.471+340.754+346.387+346.499)/6*1764.764), ReferenceValue(w, 1158.749, 1764.764), 1e-9)
}
