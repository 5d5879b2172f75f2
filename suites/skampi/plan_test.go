package skampi

import (
	"math/bits"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// defaultCurves are the default suite file's curves on p processes.
func defaultCurves(t *testing.T, p int) []Curve {
	suites, _ := parse(t, string(DefaultSuites), Layers{Procs: p})
	var out []Curve
	for _, s := range suites {
		out = append(out, s.Curves()...)
	}
	return out
}

// plan is the default plan's grid points and predicted seconds.
func plan(curves []Curve) (points int, seconds float64) {
	for _, c := range curves {
		pc := Nominal.PlanCurve(c)
		points += len(pc.Points)
		seconds += pc.Seconds
	}
	return points, seconds
}

// TestPrepareTime: before the first point, the pair search's rounds of
// 20 round trips and a barrier, the re-timing of at most 8 pairs (4 × 20
// round trips 10 ms apart and two reductions each), and 50 ping-pongs with rank 0 per
// process; above 1,024 processes 1,023 rounds.
func TestPrepareTime(t *testing.T) {
	m := Nominal // a round trip 4 µs, a tree step 2 µs
	for _, c := range []struct {
		p    int
		want float64
	}{
		{1, 0},
		// the search, the re-timing, 32 estimations of ⌈log2 p⌉ rounds of 21 round trips and two reductions
		{2, 1*(80e-6+4e-6) + 8*(4*(10e-3+80e-6)+2*4e-6) + 32*1*(21+2)*4e-6},
		{64, 63*(80e-6+24e-6) + 8*(4*(10e-3+80e-6)+2*24e-6) + 32*6*(21+2)*4e-6},
		{1 << 20, 1023*(80e-6+80e-6) + 8*(4*(10e-3+80e-6)+2*80e-6) + 32*20*(21+2)*4e-6},
	} {
		assert.InDelta(t, c.want, m.PrepareTime(c.p), 1e-9, "p=%d", c.p)
	}
	for p, want := range map[int]int{2: 1, 3: 3, 1024: 1023, 1025: 1023, 1 << 20: 1023} {
		assert.Equal(t, want, SearchRounds(p), "p=%d", p)
		rounds, _ := Rounds(p, 7)
		assert.Len(t, rounds, want, "p=%d", p)
	}
}

// TestDefaultPlanScales: the default plan's points grow with log p, its
// predicted time at 1,024 processes stays under 15 minutes, its memory
// per process is bounded by max-buffer whatever p is, and planning for
// 2^20 processes is cheap.
func TestDefaultPlanScales(t *testing.T) {
	pts2, _ := plan(defaultCurves(t, 2))
	pts64, _ := plan(defaultCurves(t, 64))
	pts1k, sec1k := plan(defaultCurves(t, 1024))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	big := defaultCurves(t, 1<<20)
	ptsM, secM := plan(big)
	need := Need(big, 1<<20, 40<<20)
	runtime.ReadMemStats(&after)
	t.Logf("points: p=2 %d, p=64 %d, p=1024 %d (%.0f s), p=2^20 %d (%.0f s); memory at 2^20: %s", pts2, pts64, pts1k, sec1k, ptsM, secM, need)
	assert.Less(t, sec1k, 15*60.0, "the default plan at 1,024 processes")
	// one more point per curve of process counts for each doubling of p
	perDoubling := (pts1k - pts64) / (bits.Len(1024) - bits.Len(64))
	assert.LessOrEqual(t, ptsM-pts1k, perDoubling*(bits.Len(1<<20)-bits.Len(1024)), "points grow no faster than log p")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "planning for 2^20 processes allocates little")
	assert.LessOrEqual(t, need.Buffer, int64(64<<20), "max-buffer caps the buffers")
	assert.Less(t, need.PerProcess(), int64(512<<20))
	assert.Less(t, need.RootProcess()-need.PerProcess(), int64(400<<20), "rank 0's tables stay below a few hundred MiB (320 bytes per process)")
}

// TestNeedFollowsPoints: each buffer is the largest need of a planned
// point: cold points at least ColdBytes, warm ones their footprint, the
// blocks of the rooted and all-to-all operations times the processes.
func TestNeedFollowsPoints(t *testing.T) {
	gather, bcast, alltoall := OpIndex("gather"), OpIndex("bcast"), OpIndex("alltoall")
	assert.Equal(t, int64(1024*8), Footprint(gather, 1024, 8))
	assert.Equal(t, int64(1024), Footprint(bcast, 1024, 8))
	assert.Equal(t, int64(1024), Footprint(OpIndex("send-recv"), 1024, 2))
	warm := &Setup{Cache: CacheWarm}
	cold := &Setup{Cache: CacheAuto}
	assert.Equal(t, int64(1<<20*64), warm.BufferNeed(Point{Op: alltoall, Len: 1 << 20, Procs: 64}))
	assert.Equal(t, int64(ColdBytes), cold.BufferNeed(Point{Op: bcast, Len: 1 << 20, Procs: 64}))
	assert.Equal(t, int64(ColdBytes), warm.BufferNeed(Point{Op: OpIndex("send-recv"), Len: 1 << 20, Procs: 2})*32)
	assert.Equal(t, int64(2<<20), (&Setup{Cache: CacheCold, Span: 2 << 20}).BufferNeed(Point{Op: bcast, Len: 64, Procs: 4}))
	for _, p := range []int{2, 4, 32} {
		curves := defaultCurves(t, p)
		need := Need(curves, p, 0)
		var most int64
		for _, c := range curves {
			for _, pt := range c.Grid() {
				most = max(most, c.Suite.BufferNeed(pt))
				assert.LessOrEqual(t, Footprint(pt.Op, pt.Len, pt.Procs), need.Buffer, "%s fits", pt.Name())
			}
		}
		assert.Equal(t, most, need.Buffer, "p=%d: the largest need", p)
	}
}

// TestCheckRefusesWhatAnIntCannotHold: a v-variant's displacements and an
// attached buffer must stay below 2^31 bytes.
func TestCheckRefusesWhatAnIntCannotHold(t *testing.T) {
	ok := Point{Op: OpIndex("alltoallv"), Len: 1 << 20, Procs: 2048}
	assert.NoError(t, ok.Check())
	bad := Point{Op: OpIndex("alltoallv"), Len: 1 << 20, Procs: 2049}
	assert.ErrorContains(t, bad.Check(), "pass 2^31−1")
	assert.ErrorContains(t, Point{Op: OpIndex("mw-bsend"), Len: 1 << 20, Procs: 1024}.Check(), "MPI_Buffer_attach")
	assert.NoError(t, Point{Op: OpIndex("bcast"), Len: 1 << 30, Procs: 1 << 20}.Check())
}

// TestMaxBufferLeavesOut: the points above max-buffer leave the grid and
// are counted; without a cap they stay.
func TestMaxBufferLeavesOut(t *testing.T) {
	s, _ := parse(t, "suites:\n  - name: a\n    ops: [gather, bcast]\n    lengths: 1Ki:1Mi\n    step: 4\n    max-buffer: 4Mi\n", Layers{Procs: 16})
	b, g := s[0].Curves()[0], s[0].Curves()[1]
	require.Equal(t, "gather", Ops[g.Op].Name)
	left := g.LeftOut()
	over, slow := left.Buffer, left.Budget
	assert.Equal(t, 1, over, "16 × 1 MiB passes 4 MiB; 16 × 256 KiB is 4 MiB")
	assert.Zero(t, slow)
	assert.Len(t, g.Grid(), 5)
	over = b.LeftOut().Buffer
	assert.Zero(t, over)
	s, _ = parse(t, "suites:\n  - name: a\n    ops: gather\n    lengths: 1Ki:1Mi\n    step: 4\n    max-buffer: none\n", Layers{Procs: 16})
	assert.Len(t, s[0].Curves()[0].Grid(), 6)
	assert.NotContains(t, func() string { _, v := s[0].ConfigLine(); return v }(), "max-buffer", "no cap is the usual value")
}
