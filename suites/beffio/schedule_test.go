package beffio

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScheduleSumU(t *testing.T) {
	tab := Table(2 * MiB)
	// The paper's schedule: 3 access methods × 64.
	assert.Equal(t, 192, ScheduleSumU(tab, RewriteAll))
	// Release 2: write 64 + rewrite of the scatter type 22 + read 64.
	assert.Equal(t, 150, ScheduleSumU(tab, RewriteScatter))

	for _, ty := range Types {
		assert.True(t, RewriteAll.Scheduled(Rewrite, ty))
		assert.Equal(t, ty == Scatter, RewriteScatter.Scheduled(Rewrite, ty), "%s", ty)
		for _, a := range []Access{Write, Read} {
			assert.True(t, RewriteAll.Scheduled(a, ty))
			assert.True(t, RewriteScatter.Scheduled(a, ty))
		}
		assert.Equal(t, Rewrite, LastWriter(RewriteAll, ty))
		want := Write
		if ty == Scatter {
			want = Rewrite
		}
		assert.Equal(t, want, LastWriter(RewriteScatter, ty), "%s", ty)
	}
}

func TestPatternTime(t *testing.T) {
	// T = 1800 s over 2 partitions: T_n = 900 s; U = 4 of 192: 18.75 s.
	assert.Equal(t, 18.75, PatternTime(900, 4, 192))
	// Release 2 schedule, U = 2 of 150: 12 s.
	assert.Equal(t, 12.0, PatternTime(900, 2, 150))
	assert.Equal(t, 0.0, PatternTime(900, 0, 192), "warm-up")
	// The scheduled times of one partition add up to T_n.
	tab := Table(2 * MiB)
	sum := 0.0
	for range Accesses {
		for _, p := range tab {
			sum += PatternTime(900, p.U, ScheduleSumU(tab, RewriteAll))
		}
	}
	assert.InDelta(t, 900, sum, 1e-9)
}

// TestSegmentReps checks r3(l) = min(r0(l)·L0(l)/l, 10·r1(l), r2(l)) on
// counts chosen so that every term of the minimum is taken somewhere.
// MPART = 2 MiB.
//
//	i  l          type 0 (L0/l)    r0·L0/l  type 1 10·r1  type 2 r2   r3  (type 3, type 4)
//	0  1 MiB      No 0 (1)         1        No 9  10      No 17 1      1  (25, 34)
//	1  MPART      No 1 (1)         3        No 10 20      No 18 5      3  (26, 35)
//	2  1 MiB      No 3 (1)         4        No 11 10      No 19 2      2  (27, 36)
//	3  32 KiB     No 4 (32)        64       No 12 500     No 20 10    10  (28, 37)
//	4  1 KiB      No 5 (1024)      1024     No 13 1000    No 21 2000 1000 (29, 38)
//	5  32 KiB+8   No 6 (32)        32       No 14 30      No 22 60    30  (30, 39)
//	6  1 KiB+8    No 7 (1024)      1024     No 15 10000   No 23 500  500  (31, 40)
//	7  1 MiB+8    No 8 (1)         7        No 16 10      No 24 9      7  (32, 41)
//
// Pattern 2 (l = 1 MiB, L = 2 MiB) does not enter. Σ r3·l = 1 MiB + 3·2 MiB
// + 2 MiB + 10·32 KiB + 1000 KiB + 30·(32 KiB+8) + 500·(1 KiB+8) + 7·(1 MiB+8)
// = 16 MiB + 2780 KiB + (240 + 4000 + 56) B = 19628232 B, rounded up to
// Lseg = 19 MiB.
func TestSegmentReps(t *testing.T) {
	tab := Table(2 * MiB)
	counts := map[int]int64{
		0: 1, 1: 3, 2: 999, 3: 4, 4: 2, 5: 1, 6: 1, 7: 1, 8: 7,
		9: 1, 10: 2, 11: 1, 12: 50, 13: 100, 14: 3, 15: 1000, 16: 1,
		17: 1, 18: 5, 19: 2, 20: 10, 21: 2000, 22: 60, 23: 500, 24: 9,
	}
	reps, lseg, err := SegmentReps(tab, counts)
	require.NoError(t, err)
	want3 := []int64{1, 3, 2, 10, 1000, 30, 500, 7}
	want := map[int]int64{}
	for i, r := range want3 {
		want[25+i] = r
		want[34+i] = r // type-4 numbers = type-3 numbers + 9
	}
	assert.Equal(t, want, reps)
	var sum int64
	for i, r := range want3 {
		sum += r * tab[25+i].L
	}
	assert.Equal(t, int64(19628232), sum)
	assert.Equal(t, int64(19*MiB), lseg)
	assert.Zero(t, lseg%MiB)
	assert.GreaterOrEqual(t, lseg, sum)

	// Every count 1: each r3 is 1 and Lseg = Σ l rounded up:
	// 1 MiB + 2 MiB + 1 MiB + 32 KiB + 1 KiB + 32 KiB+8 + 1 KiB+8 + 1 MiB+8
	// = 5 MiB + 66 KiB + 24 B → 6 MiB.
	ones := map[int]int64{}
	for no := 0; no < 25; no++ {
		ones[no] = 1
	}
	reps, lseg, err = SegmentReps(tab, ones)
	require.NoError(t, err)
	for no := 25; no < 43; no++ {
		if no == 33 || no == 42 {
			assert.NotContains(t, reps, no, "fill pattern")
			continue
		}
		assert.Equal(t, int64(1), reps[no], "pattern %d", no)
	}
	assert.Equal(t, int64(6*MiB), lseg)
}

func TestSegmentRepsMissing(t *testing.T) {
	tab := Table(2 * MiB)
	counts := map[int]int64{}
	for no := 0; no < 25; no++ {
		counts[no] = 2
	}
	delete(counts, 24)
	_, _, err := SegmentReps(tab, counts)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "patterns 8, 16, 24")

	counts[24] = 0
	_, _, err = SegmentReps(tab, counts)
	require.Error(t, err)

	_, _, err = SegmentReps(tab, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "patterns 0, 9, 17")
}

func TestNextBatchRule(t *testing.T) {
	tests := []struct {
		name            string
		done, last      int64
		elapsed, target float64
		want            int64
	}{
		{"first batch", 0, 0, 0, 10, 1},
		{"first batch, nothing scheduled", 0, 0, 0, 0, 1},
		{"doubles at most", 1, 1, 0.001, 100, 2},
		{"doubles at most, later", 7, 4, 0.007, 100, 8},
		{"predicted rest", 15, 8, 15, 20, 5},
		{"predicted rest, rounded", 4, 2, 4, 5.4, 1},
		{"one more call ends nearer", 4, 2, 4, 4.6, 1},
		{"tie: stop", 4, 2, 4, 4.5, 0},
		{"one more call ends further", 4, 2, 4, 4.4, 0},
		{"at the target", 4, 2, 4, 4, 0},
		{"past the target", 4, 2, 5, 4, 0},
		{"one call longer than the target", 1, 1, 2, 1, 0},
		{"no last batch", 3, 0, 3, 100, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, NextBatch(tt.done, tt.last, tt.elapsed, tt.target))
		})
	}
}

// TestNextBatchZeroElapsed: calls faster than the clock's resolution leave
// elapsed at 0. The doc promises the predicted number of calls left (here
// unbounded), at most twice the last batch, so 2·last.
func TestNextBatchZeroElapsed(t *testing.T) {
	assert.Equal(t, int64(2), NextBatch(1, 1, 0, 1))
	assert.Equal(t, int64(8), NextBatch(7, 4, 0, 1))
}

// simulate runs the geometric stop rule on a pattern whose calls take
// perCall seconds each and returns the calls made, the time spent and the
// number of decisions (calls of NextBatch, including the one that stops).
func simulate(t *testing.T, perCall, target float64) (calls int64, elapsed float64, decisions int) {
	t.Helper()
	var last int64
	for {
		b := NextBatch(calls, last, elapsed, target)
		decisions++
		if b == 0 {
			return calls, elapsed, decisions
		}
		if calls == 0 {
			require.Equal(t, int64(1), b, "first batch")
		} else {
			require.LessOrEqual(t, b, 2*max(last, 1), "batch after %d calls: at most double the last (%d)", calls, last)
		}
		require.GreaterOrEqual(t, b, int64(1))
		calls += b
		last = b
		elapsed = float64(calls) * perCall
		require.Less(t, decisions, 1000, "no end")
	}
}

func TestNextBatchSimulation(t *testing.T) {
	for _, perCall := range []float64{1e-5, 0.001, 0.0137, 0.3, 1, 2.5, 7} {
		for _, target := range []float64{0.5, 1, 3, 10, 100, 1000, 12345} {
			t.Run(fmt.Sprintf("call=%gs/target=%gs", perCall, target), func(t *testing.T) {
				calls, elapsed, decisions := simulate(t, perCall, target)
				require.GreaterOrEqual(t, calls, int64(1))
				if target >= perCall {
					assert.GreaterOrEqual(t, elapsed, target-perCall/2-1e-9*target, "ends no earlier than half a call before the target")
					assert.LessOrEqual(t, elapsed, target+perCall/2+1e-9*target, "ends no later than half a call after the target")
				} else {
					assert.Equal(t, int64(1), calls, "a call longer than the target: 1 call")
				}
				bound := 2*math.Log2(float64(calls)) + 2
				assert.LessOrEqual(t, float64(decisions), bound, "%d decisions for %d calls", decisions, calls)
				// Stopping is right: one more call would not end nearer.
				assert.GreaterOrEqual(t, math.Abs(elapsed+perCall-target)+1e-9*target, math.Abs(elapsed-target))
			})
		}
	}
}

func TestNextBatchLongCall(t *testing.T) {
	calls, elapsed, decisions := simulate(t, 5, 2)
	assert.Equal(t, int64(1), calls)
	assert.Equal(t, 5.0, elapsed)
	assert.Equal(t, 2, decisions)
}
