package beffio

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSegmentLayout continues the example of TestSegmentReps: Σ r3·l =
// 19628232 B in a 19 MiB segment leaves 19·MiB − 19628232 = 294920 B to
// the fill patterns, which run once.
func TestSegmentLayout(t *testing.T) {
	tab := Table(2 * MiB)
	counts := map[int]int64{
		0: 1, 1: 3, 2: 999, 3: 4, 4: 2, 5: 1, 6: 1, 7: 1, 8: 7,
		9: 1, 10: 2, 11: 1, 12: 50, 13: 100, 14: 3, 15: 1000, 16: 1,
		17: 1, 18: 5, 19: 2, 20: 10, 21: 2000, 22: 60, 23: 500, 24: 9,
	}
	s, err := SegmentLayout(tab, counts)
	require.NoError(t, err)
	assert.Equal(t, int64(19*MiB), s.Lseg)
	assert.Equal(t, int64(19*MiB-19628232), s.Fill)
	assert.Equal(t, int64(1), s.Reps[33], "fill of type 3")
	assert.Equal(t, int64(1), s.Reps[42], "fill of type 4")
	assert.Equal(t, int64(1000), s.Reps[29])
	assert.Len(t, s.Reps, 18)

	_, err = SegmentLayout(tab, nil)
	require.Error(t, err, "no write counts")
}

func TestSegmentLayoutNoFill(t *testing.T) {
	// With every l a multiple of 1 MiB the segment is full and the fill
	// patterns do not run: a table whose chunk sizes are all 1 MiB.
	tab := Table(MiB)
	for i := range tab {
		if !tab[i].Fill {
			tab[i].L, tab[i].Mem = MiB, MiB
		}
	}
	counts := map[int]int64{}
	for no := 0; no < 25; no++ {
		counts[no] = 1
	}
	s, err := SegmentLayout(tab, counts)
	require.NoError(t, err)
	assert.Equal(t, int64(8*MiB), s.Lseg)
	assert.Zero(t, s.Fill)
	assert.Equal(t, int64(0), s.Reps[33])
	assert.Equal(t, int64(0), s.Reps[42])
}

func TestMinT(t *testing.T) {
	// ΣU = 192 over the schedule, 2 partitions: 2 · 192 · 5 ms = 1.92 s.
	assert.InDelta(t, 1.92, MinT(192, 2), 1e-12)
	assert.InDelta(t, 0.75, MinT(150, 1), 1e-12)
}

func TestMinDiskBytes(t *testing.T) {
	tab := Table(2 * MiB)
	var mem int64
	for _, p := range tab {
		mem += p.Mem
	}
	assert.Equal(t, 3*mem, MinDiskBytes(tab, []int{1, 3, 2}), "the largest partition writes one call of each pattern")
	assert.Equal(t, mem, MinDiskBytes(tab, []int{1}))
}

func TestCallCap(t *testing.T) {
	tab := Table(2 * MiB)
	p := tab[3] // scatter, l = L = 1 MiB, U = 4
	// 64 GiB budget over 2 partitions, U/ΣU = 4/64: 2 GiB for the
	// pattern; on 4 processes a call moves 4 MiB: 512 calls.
	assert.Equal(t, int64(512), CallCap(64<<30, 2, tab, p, 4))
	assert.Equal(t, int64(1), CallCap(1, 2, tab, p, 4), "at least one call")
	assert.Zero(t, CallCap(0, 2, tab, p, 4), "no budget")
	assert.Zero(t, CallCap(64<<30, 2, tab, tab[0], 4), "U = 0")
}

func TestLimits(t *testing.T) {
	assert.Equal(t, 900, MinPartitionTime)
	assert.Equal(t, 20, MinCacheRatio)
}
