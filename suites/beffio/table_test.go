package beffio

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPartitionsByHand checks the default partitions of docs/beffio.md "Inputs" worked out
// by hand: small = 2^round(0.35·log2 N), medium = 2^round(0.70·log2 N),
// with small = 1 for N = 3 and medium = 3 for N = 4.
//
//	N   log2 N  0.35·log2 N  0.70·log2 N  partitions
//	3   1.585   0.555 → 1    1.109 → 1    {1 (exception), 2, 3}
//	4   2       0.700 → 1    1.400 → 1    {2, 3 (exception), 4}
//	5   2.322   0.813 → 1    1.625 → 2    {2, 4, 5}
//	8   3       1.050 → 1    2.100 → 2    {2, 4, 8}
//	10  3.322   1.163 → 1    2.325 → 2    {2, 4, 10}
//	11  3.459   1.211 → 1    2.422 → 2    {2, 4, 11}
//	12  3.585   1.255 → 1    2.510 → 3    {2, 8, 12}
//	19  4.248   1.487 → 1    2.974 → 3    {2, 8, 19}
//	20  4.322   1.513 → 2    3.025 → 3    {4, 8, 20}
//	32  5       1.750 → 2    3.500 → 4    {4, 16, 32}  (a tie: rounds half up)
//	64  6       2.100 → 2    4.200 → 4    {4, 16, 64}
func TestPartitionsByHand(t *testing.T) {
	want := map[int][]int{
		1:  {1},
		2:  {1, 2},
		3:  {1, 2, 3},
		4:  {2, 3, 4},
		5:  {2, 4, 5},
		6:  {2, 4, 6},
		7:  {2, 4, 7},
		8:  {2, 4, 8},
		9:  {2, 4, 9},
		10: {2, 4, 10},
		11: {2, 4, 11},
		12: {2, 8, 12},
		16: {2, 8, 16},
		19: {2, 8, 19},
		20: {4, 8, 20},
		32: {4, 16, 32},
		64: {4, 16, 64},
	}
	for n, w := range want {
		assert.Equal(t, w, Partitions(n), "Partitions(%d)", n)
	}
}

// TestPartitionsRule checks N = 1..64 against the rule, rounding by counting:
// round(c·log2 N), half up, is the number of half-integers k+1/2 (k ≥ 0)
// that are ≤ c·log2 N, that is (2k+1)·den ≤ 2·num·log2 N for c = num/den.
// The only tie for N ≤ 64 is N = 32 (0.70·5 = 3.5), which rounds up.
func TestPartitionsRule(t *testing.T) {
	roundLog := func(n, num, den int) int {
		lhs := 2 * float64(num) * math.Log2(float64(n))
		k := 0
		for float64((2*k+1)*den) <= lhs+1e-9 {
			k++
		}
		return k
	}
	for n := 1; n <= 64; n++ {
		got := Partitions(n)
		var want []int
		switch n {
		case 1:
			want = []int{1}
		case 2:
			want = []int{1, 2}
		default:
			small := 1 << roundLog(n, 35, 100)
			medium := 1 << roundLog(n, 70, 100)
			if n == 3 {
				small = 1
			}
			if n == 4 {
				medium = 3
			}
			for _, p := range []int{small, medium, n} {
				if !slices.Contains(want, p) {
					want = append(want, p)
				}
			}
		}
		assert.Equal(t, want, got, "Partitions(%d)", n)
		assert.Equal(t, n, got[len(got)-1], "Partitions(%d): the last is N", n)
		assert.True(t, slices.IsSorted(got), "Partitions(%d) = %v increases", n, got)
		for i := 1; i < len(got); i++ {
			assert.Less(t, got[i-1], got[i], "Partitions(%d) = %v: strictly increasing, no duplicates", n, got)
		}
		assert.GreaterOrEqual(t, got[0], 1)
		if n >= 3 {
			assert.Len(t, got, 3, "Partitions(%d)", n)
		}
	}
}

// row is one row of the pattern table as docs/beffio.md "The pattern table" writes it.
type row struct {
	no   int
	ty   PatternType
	l, L int64
	u    int
	fill bool
}

// specTable is docs/beffio.md "The pattern table" written out for MPART = mpart.
func specTable(mpart int64) []row {
	const k, m = KiB, MiB
	return []row{
		// type 0: scatter
		{0, Scatter, m, m, 0, false},
		{1, Scatter, mpart, mpart, 4, false},
		{2, Scatter, m, 2 * m, 4, false},
		{3, Scatter, m, m, 4, false},
		{4, Scatter, 32 * k, m, 2, false},
		{5, Scatter, k, m, 2, false},
		{6, Scatter, 32*k + 8, m + 256, 2, false},
		{7, Scatter, k + 8, m + 8*k, 2, false},
		{8, Scatter, m + 8, m + 8, 2, false},
		// type 1: shared
		{9, Shared, m, m, 0, false},
		{10, Shared, mpart, mpart, 4, false},
		{11, Shared, m, m, 2, false},
		{12, Shared, 32 * k, 32 * k, 1, false},
		{13, Shared, k, k, 1, false},
		{14, Shared, 32*k + 8, 32*k + 8, 1, false},
		{15, Shared, k + 8, k + 8, 1, false},
		{16, Shared, m + 8, m + 8, 2, false},
		// type 2: separated
		{17, Separated, m, m, 0, false},
		{18, Separated, mpart, mpart, 2, false},
		{19, Separated, m, m, 2, false},
		{20, Separated, 32 * k, 32 * k, 1, false},
		{21, Separated, k, k, 1, false},
		{22, Separated, 32*k + 8, 32*k + 8, 1, false},
		{23, Separated, k + 8, k + 8, 1, false},
		{24, Separated, m + 8, m + 8, 2, false},
		// type 3: segmented, as type 2, then fill
		{25, Segmented, m, m, 0, false},
		{26, Segmented, mpart, mpart, 2, false},
		{27, Segmented, m, m, 2, false},
		{28, Segmented, 32 * k, 32 * k, 1, false},
		{29, Segmented, k, k, 1, false},
		{30, Segmented, 32*k + 8, 32*k + 8, 1, false},
		{31, Segmented, k + 8, k + 8, 1, false},
		{32, Segmented, m + 8, m + 8, 2, false},
		{33, Segmented, 0, 0, 0, true},
		// type 4: segmented collective, as type 3
		{34, SegColl, m, m, 0, false},
		{35, SegColl, mpart, mpart, 2, false},
		{36, SegColl, m, m, 2, false},
		{37, SegColl, 32 * k, 32 * k, 1, false},
		{38, SegColl, k, k, 1, false},
		{39, SegColl, 32*k + 8, 32*k + 8, 1, false},
		{40, SegColl, k + 8, k + 8, 1, false},
		{41, SegColl, m + 8, m + 8, 2, false},
		{42, SegColl, 0, 0, 0, true},
	}
}

func TestTable(t *testing.T) {
	for _, mpart := range []int64{2 * MiB, MPART(1000), 1 << 30} {
		t.Run(fmt.Sprint(mpart), func(t *testing.T) {
			tab := Table(mpart)
			want := specTable(mpart)
			require.Len(t, tab, 43)
			for i, p := range tab {
				w := want[i]
				assert.Equal(t, i, p.No, "pattern numbers are 0..42 in order")
				assert.Equal(t, AccessPattern{No: w.no, Type: w.ty, L: w.l, Mem: w.L, U: w.u, Fill: w.fill}, p, "pattern %d", i)
				assert.Zero(t, p.L%8, "pattern %d: l = %d is a multiple of 8", i, p.L)
				assert.Zero(t, p.Mem%8, "pattern %d: L = %d is a multiple of 8", i, p.Mem)
				if !p.Fill {
					assert.Zero(t, p.Mem%p.L, "pattern %d: L/l exact", i)
					assert.Equal(t, p.Mem, p.Chunks()*p.L, "pattern %d: Chunks", i)
				}
				if p.Type != Scatter {
					assert.Equal(t, p.L, p.Mem, "pattern %d: L = l outside type 0", i)
				}
			}
			assert.Equal(t, 64, SumU(tab), "ΣU per access method")
			perType := map[PatternType]int{}
			count := map[PatternType]int{}
			for _, p := range tab {
				perType[p.Type] += p.U
				count[p.Type]++
			}
			assert.Equal(t, map[PatternType]int{Scatter: 22, Shared: 12, Separated: 10, Segmented: 10, SegColl: 10}, perType)
			assert.Equal(t, map[PatternType]int{Scatter: 9, Shared: 8, Separated: 8, Segmented: 9, SegColl: 9}, count)
		})
	}
}

func TestChunks(t *testing.T) {
	tab := Table(2 * MiB)
	for _, tt := range []struct {
		no   int
		want int64
	}{
		{0, 1}, {1, 1}, {2, 2}, {3, 1},
		{4, 32},   // 1 MiB / 32 KiB
		{5, 1024}, // 1 MiB / 1 KiB
		{6, 32},   // (1 MiB+256) / (32 KiB+8) = 1048832 / 32776
		{7, 1024}, // (1 MiB+8 KiB) / (1 KiB+8) = 1056768 / 1032
		{8, 1},    // (1 MiB+8) / (1 MiB+8)
		{12, 1}, {24, 1}, {31, 1},
		{33, 1}, {42, 1}, // fill
	} {
		assert.Equal(t, tt.want, tab[tt.no].Chunks(), "pattern %d", tt.no)
	}
	assert.Equal(t, int64(32), AccessPattern{Type: Scatter, L: 32*KiB + 8, Mem: MiB + 256}.Chunks())
}

func TestMPART(t *testing.T) {
	for _, tt := range []struct {
		memMiB int64
		want   int64
	}{
		{1, 2 * MiB},
		{8, 2 * MiB},
		{128, 2 * MiB},  // 1 MiB < 2 MiB
		{256, 2 * MiB},  // 256/128 = 2 MiB
		{512, 4 * MiB},  // 512/128
		{1000, 8192000}, // 1000·2^20/128 = 1000·8192
		{128 << 10, 1 << 30},
		{256 << 10, 1 << 30}, // 2 GiB capped
		{1 << 30, 1 << 30},
	} {
		got := MPART(tt.memMiB)
		assert.Equal(t, tt.want, got, "MPART(%d MiB)", tt.memMiB)
		assert.Zero(t, got%8, "MPART(%d) multiple of 8", tt.memMiB)
	}
}

func TestNames(t *testing.T) {
	for _, ty := range Types {
		got, ok := ParseType(ty.String())
		assert.True(t, ok)
		assert.Equal(t, ty, got)
	}
	assert.Equal(t, []string{"scatter", "shared", "separated", "segmented", "segcoll"},
		[]string{Scatter.String(), Shared.String(), Separated.String(), Segmented.String(), SegColl.String()})
	_, ok := ParseType("all")
	assert.False(t, ok)
	for _, a := range Accesses {
		got, ok := ParseAccess(a.String())
		assert.True(t, ok)
		assert.Equal(t, a, got)
	}
	assert.Equal(t, []string{"write", "rewrite", "read"}, []string{Write.String(), Rewrite.String(), Read.String()})
	_, ok = ParseAccess("append")
	assert.False(t, ok)

	tab := Table(2 * MiB)
	assert.Equal(t, "pat=1/l=2097152/L=2097152", tab[1].Name())
	assert.Equal(t, "pat=6/l=32776/L=1048832", tab[6].Name())
	assert.Equal(t, "pat=33/l=fill/L=fill", tab[33].Name())
	assert.Equal(t, "pat=42/l=fill/L=fill", tab[42].Name())
}

func TestWeights(t *testing.T) {
	assert.Equal(t, []float64{2, 1, 1, 1, 1},
		[]float64{Scatter.Weight(), Shared.Weight(), Separated.Weight(), Segmented.Weight(), SegColl.Weight()})
	assert.Equal(t, []float64{0.25, 0.25, 0.5}, []float64{Write.Weight(), Rewrite.Weight(), Read.Weight()})
}

func TestBytes(t *testing.T) {
	tab := Table(2 * MiB)
	assert.Equal(t, int64(3*(MiB+8*KiB)*4), tab[7].Bytes(3, 4))
	assert.Equal(t, int64(5*KiB*2), tab[13].Bytes(5, 2))
}
