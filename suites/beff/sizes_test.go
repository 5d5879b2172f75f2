package beff_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/beff"
)

// powersOfTwo are the 13 sizes below the geometric ones: 2^0..2^12.
var powersOfTwo = []int64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}

func TestSizesHand(t *testing.T) {
	tests := []struct {
		name string
		lmax int64
		geo  []int64 // the 8 geometric sizes, L_1..L_8
	}{
		// a = 2^(1/8): 4096·2^(k/8) = 4466.8, 4871.0, 5311.9, 5792.6, 6316.9, 6888.6, 7512.1, 8192.
		{"8KiB", 8192, []int64{4467, 4871, 5312, 5793, 6317, 6889, 7512, 8192}},
		// a = √2: 4096·2^(k/2) = 5792.6, 8192, 11585.2, 16384, 23170.5, 32768, 46341.0, 65536.
		{"64KiB", 65536, []int64{5793, 8192, 11585, 16384, 23170, 32768, 46341, 65536}},
		// a = 2: plain powers of two.
		{"1MiB", 1 << 20, []int64{8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576}},
		// a = 4: 4096·4^k.
		{"256MiB", 1 << 28, []int64{1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24, 1 << 26, 1 << 28}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := append(append([]int64(nil), powersOfTwo...), tt.geo...)
			assert.Equal(t, want, beff.Sizes(tt.lmax))
		})
	}
}

func TestSizesRule(t *testing.T) {
	for _, lmax := range []int64{8192, 8200, 12345, 65536, 1 << 20, 3 << 20, 50331648, 100663296, 1 << 28, 357908480} {
		t.Run("", func(t *testing.T) {
			require.NoError(t, beff.CheckLmax(lmax))
			s := beff.Sizes(lmax)
			require.Len(t, s, beff.NumSizes)
			assert.Equal(t, powersOfTwo, s[:13], "1..4096 as powers of two")
			assert.Equal(t, lmax, s[20], "the last size is Lmax exactly")
			for i := 1; i < len(s); i++ {
				assert.Greater(t, s[i], s[i-1], "sizes strictly increasing at %d", i)
			}
			// Independently: L_k = round(4096 · (Lmax/4096)^(k/8)); allow one
			// byte for a .5 rounded differently by the two ways of computing it.
			a := beff.GeometricFactor(lmax)
			assert.InDelta(t, math.Pow(float64(lmax)/4096, 0.125), a, 1e-12)
			for k := 1; k <= 8; k++ {
				want := math.Round(4096 * math.Pow(float64(lmax)/4096, float64(k)/8))
				assert.InDelta(t, want, float64(s[12+k]), 1, "L_%d", k)
			}
		})
	}
}

// Every Lmax CheckLmax accepts gives 21 strictly increasing sizes ending at Lmax.
func TestCheckLmaxImpliesIncreasingSizes(t *testing.T) {
	for lmax := int64(4000); lmax <= 20000; lmax++ {
		if beff.CheckLmax(lmax) != nil {
			continue
		}
		s := beff.Sizes(lmax)
		if s[20] != lmax {
			t.Fatalf("Lmax %d: last size %d", lmax, s[20])
		}
		for i := 1; i < len(s); i++ {
			if s[i] <= s[i-1] {
				t.Fatalf("Lmax %d accepted by CheckLmax, but sizes are not increasing: %v", lmax, s)
			}
		}
	}
}

func TestCheckLmax(t *testing.T) {
	// Largest Lmax whose buffer 6·(Lmax+16) fits an int32: (2^31-1)/6 - 16.
	const maxLmax = 357913941 - 16
	tests := []struct {
		name string
		lmax int64
		ok   bool
	}{
		{"zero", 0, false},
		{"negative", -8192, false},
		{"4096", 4096, false},
		{"4097", 4097, false},
		{"8191", 8191, false},
		{"1MiB memory", beff.LmaxFromMem(1), true},
		{"8192", 8192, true},
		{"48MiB", 50331648, true},
		{"96MiB", 100663296, true},
		{"128MiB", 128 << 20, true},
		{"largest", maxLmax, true},
		{"largest+1", maxLmax + 1, false},
		{"512MiB", 512 << 20, false},
		{"2GiB", 2 << 30, false},
		// The memory the error message advises as the maximum, and one more.
		{"43690MiB memory", beff.LmaxFromMem(43690), true},
		{"43691MiB memory", beff.LmaxFromMem(43691), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := beff.CheckLmax(tt.lmax)
			if tt.ok {
				assert.NoError(t, err)
				assert.LessOrEqual(t, beff.BufferSize(tt.lmax), int64(math.MaxInt32))
			} else {
				assert.Error(t, err)
			}
		})
	}
	assert.Equal(t, int64(357913941*6), beff.BufferSize(maxLmax))
	assert.Contains(t, beff.CheckLmax(maxLmax+1).Error(), "at most 43690 MiB")
}

func TestLmaxFromMem(t *testing.T) {
	assert.Equal(t, int64(8192), beff.LmaxFromMem(1))
	assert.Equal(t, int64(65536), beff.LmaxFromMem(8))
	assert.Equal(t, int64(50331648), beff.LmaxFromMem(6144))
	assert.Equal(t, int64(1<<30), beff.LmaxFromMem(128<<10))
	assert.Equal(t, int64(6*(1000+16)), beff.BufferSize(1000))
}

func TestShortSizeIndexes(t *testing.T) {
	s := beff.Sizes(1 << 20)
	var got []int64
	for _, i := range beff.ShortSizeIndexes {
		require.Less(t, i, len(s))
		got = append(got, s[i])
	}
	// 1 B, 64 B, 4 KiB, the middle geometric size (k = 4) and Lmax.
	assert.Equal(t, []int64{1, 64, 4096, 65536, 1 << 20}, got)
}

func TestNextOffset(t *testing.T) {
	tests := []struct {
		name             string
		off, l, buf, out int64
	}{
		{"first", 0, 5, 100, 8},
		{"rounded up to 8", 8, 9, 100, 24},
		{"multiple of 8", 16, 16, 100, 32},
		{"fits exactly", 88, 4, 100, 96},
		{"one byte too many wraps", 88, 5, 100, 0},
		{"whole buffer", 0, 100, 100, 0},
		{"1 byte", 0, 1, 100, 8},
		{"1 byte at end", 96, 1, 100, 0},
		{"1 byte fits", 88, 1, 97, 96},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.out, beff.NextOffset(tt.off, tt.l, tt.buf))
		})
	}
}

// Walking the buffer: every message lies inside it at an offset that is a
// multiple of 8, the walk wraps exactly when the next message would not fit,
// and 6 messages of Lmax fit (a 7th does not).
func TestNextOffsetCycle(t *testing.T) {
	for _, lmax := range []int64{8192, 8200, 65536, 100001, 1 << 20, 50331648} {
		buf := beff.BufferSize(lmax)
		for _, l := range append(beff.Sizes(lmax), 7, 4095, lmax-1) {
			step := (l + 7) &^ 7
			slots := (buf-l)/step + 1 // offsets k·step with k·step + l ≤ buf
			if l == lmax {
				assert.Equal(t, int64(6), slots, "Lmax %d: 6 messages of Lmax fit", lmax)
			}
			// From the start: consecutive slots, then back to 0.
			off := int64(0)
			for k := int64(0); k < min(slots, 2000); k++ {
				require.Equal(t, k*step, off, "Lmax %d L %d slot %d", lmax, l, k)
				require.LessOrEqual(t, off+l, buf)
				off = beff.NextOffset(off, l, buf)
			}
			// Around the end of the buffer.
			last := (slots - 1) * step
			require.LessOrEqual(t, last+l, buf, "Lmax %d L %d", lmax, l)
			assert.Equal(t, int64(0), beff.NextOffset(last, l, buf), "Lmax %d L %d: wraps after the last slot", lmax, l)
			if slots >= 2 {
				assert.Equal(t, last, beff.NextOffset(last-step, l, buf), "Lmax %d L %d", lmax, l)
			}
		}
	}
}

func TestName(t *testing.T) {
	assert.Equal(t, "pat=ring2/L=4096/mthd=alltoallv", beff.Name("ring2", 4096, beff.Alltoallv))
}

func TestPatternNames(t *testing.T) {
	names := beff.PatternNames(3)
	assert.Equal(t, []string{"ring2", "ring4", "ring8", "ringquarter", "ringhalf", "ringall", "random01", "random02", "random03"}, names[:9])
	assert.Equal(t, beff.ExtraNames, names[9:])
	var set []string
	for _, p := range beff.PureSet(8, 3, 1).Patterns {
		set = append(set, p.Name)
	}
	assert.Equal(t, set, names, "the names of the pattern set, in its order")
}
