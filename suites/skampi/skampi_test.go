package skampi

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSummarizeByHand(t *testing.T) {
	// Eight values, sorted 0.5 1 2 3 4 5 6 100: the cut drops two at each
	// end, leaving 2 3 4 5.
	x := []float64{100, 6, 1, 4, 3, 5, 2, 0.5}
	s := Summarize(x)
	assert.Equal(t, 8, s.N)
	assert.InDelta(t, 3.5, s.Mean, 1e-12) // (2+3+4+5)/4
	assert.InDelta(t, 3.5, s.Median, 1e-12)
	assert.Equal(t, 0.5, s.Min)
	// σ of 2 3 4 5 with divisor n: √1.25; rse = σ/(√4·3.5).
	assert.InDelta(t, math.Sqrt(1.25)/2/3.5, s.RSE, 1e-12)
	// p90 of the sorted 0.5 1 2 3 4 5 6 100: position 6.3 → 6 + 0.3·94.
	assert.InDelta(t, 34.2, s.P90, 1e-9)
	assert.InDelta(t, 6+0.93*94, s.P99, 1e-9)
	assert.Equal(t, []float64{100, 6, 1, 4, 3, 5, 2, 0.5}, x, "the input is not changed")
}

func TestCutKeepsAValue(t *testing.T) {
	for n := 1; n <= 9; n++ {
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(i)
		}
		mid := Cut(s)
		assert.NotEmpty(t, mid, "n=%d", n)
		assert.Equal(t, n-2*int(math.Floor(0.25*float64(n))), len(mid), "n=%d", n)
	}
	one := Summarize([]float64{7})
	assert.Equal(t, 7.0, one.Mean)
	assert.True(t, math.IsInf(one.RSE, 1), "one value has no error")
	assert.Equal(t, Summary{}, Summarize(nil))
}

func TestRuleNext(t *testing.T) {
	r := Rule{Eps: 0.03, Min: 8, Max: 1000, Wtick: 1e-6, Budget: 1}
	tests := []struct {
		name string
		p    PointProgress
		next int
		why  int
	}{
		{"the first batch is the minimum", PointProgress{RSE: math.Inf(1)}, 8, Going},
		{"converged", PointProgress{Tries: 8, Valid: 8, RSE: 0.01, Total: 1}, 0, Converged},
		{"below the minimum count", PointProgress{Tries: 6, Valid: 6, RSE: 0.01, Total: 1}, 4, Going},
		{"total under Wtick/ε", PointProgress{Tries: 8, Valid: 8, RSE: 0.01, Total: 1e-5}, 4, Going},
		// rse 0.06 at n=8 needs n = 8·(0.06/0.03)² = 32: 24 more.
		{"aims for the n that reaches ε", PointProgress{Tries: 8, Valid: 8, RSE: 0.06, Total: 1}, 24, Going},
		{"the maximum", PointProgress{Tries: 1000, Valid: 990, RSE: 0.05, Total: 1}, 0, HitMax},
		{"never past the maximum", PointProgress{Tries: 990, Valid: 990, RSE: 0.5, Total: 1}, 10, Going},
		{"the budget", PointProgress{Tries: 20, Valid: 20, RSE: 0.05, Total: 1, Elapsed: 1.5}, 0, HitBudget},
		{"the budget bounds a batch", PointProgress{Tries: 8, Valid: 8, RSE: 0.3, Total: 1, Elapsed: 0.5, Rep: 0.025}, 20, Going},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next, why := r.Next(tt.p)
			assert.Equal(t, tt.next, next)
			assert.Equal(t, tt.why, why)
		})
	}
}

func TestMinRep(t *testing.T) {
	assert.InDelta(t, 3e-6, MinRep(1e-9, 30e-9, 0.03), 1e-15) // the clock read: 3·30 ns/0.03
	assert.InDelta(t, 1e-5, MinRep(1e-6, 30e-9, 0.03), 1e-15) // a coarse clock: ten ticks
	assert.InDelta(t, 1e-8, MinRep(1e-9, 30e-9, 0), 1e-15)    // no ε: ticks only
}

func TestCallsPerRep(t *testing.T) {
	assert.Equal(t, 1, CallsPerRep(1e-5, 1e-6))
	assert.Equal(t, 1, CallsPerRep(1e-6, 1e-6))
	assert.Equal(t, 4, CallsPerRep(3e-7, 1e-6)) // ⌈1/0.3⌉
	assert.Equal(t, 10, CallsPerRep(3e-7, 3e-6))
	assert.Equal(t, MaxCalls, CallsPerRep(0, 3e-6))
	assert.Equal(t, MaxCalls, CallsPerRep(-1e-9, 3e-6))
	assert.Equal(t, 1, CallsPerRep(1e-9, 0))
}

func TestCold(t *testing.T) {
	tests := []struct {
		mode string
		p    MeasurePattern
		cold bool
	}{
		{CacheAuto, PingPong, false},
		{CacheAuto, Collective, true},
		{CacheAuto, MasterWorker, true},
		{CacheAuto, Simple, true},
		{CacheCold, PingPong, true},
		{CacheCold, Collective, true},
		{CacheWarm, PingPong, false},
		{CacheWarm, Collective, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.cold, Cold(tt.mode, tt.p), "%s %v", tt.mode, tt.p)
	}
}

// fakeBatch runs the scheduling loop of skampi.c on a fake clock: each
// repetition waits for its window's start, then takes d[k]; a process
// that is late waits for nothing.
func fakeBatch(w Window, ready float64, d []float64) (arrive, end []float64) {
	now := ready
	for k := range d {
		arrive = append(arrive, now)
		now = max(now, w.Target(k))
		now += d[k]
		end = append(end, now)
	}
	return arrive, end
}

func TestWindowInvalidation(t *testing.T) {
	w := Window{Start: 10, Len: 1}
	// Repetition 1 overruns its window (1.5 > 1), so 2 starts late; 3
	// starts on time again.
	arrive, end := fakeBatch(w, 9.5, []float64{0.5, 1.5, 0.2, 0.3})
	assert.Equal(t, []bool{false, true, true, false}, w.Invalid(arrive, end))
	// A process that is ready only after the first start loses it.
	arrive, end = fakeBatch(w, 10.2, []float64{0.1, 0.1})
	assert.Equal(t, []bool{true, false}, w.Invalid(arrive, end))
}

func TestWindowGrows(t *testing.T) {
	assert.Equal(t, 2e-6, Grow(1e-6, 3, 10), "3 of 10 invalid: more than a quarter")
	assert.Equal(t, 1e-6, Grow(1e-6, 2, 10))
	assert.Equal(t, MinWindow, FirstWindow(1e-9, 0))
	assert.InDelta(t, 2*3e-6+2*1e-6, FirstWindow(3e-6, 1e-6), 1e-15)
	// After growing, the window holds the repetitions of the fake batch.
	win := 0.5
	for range 5 {
		w := Window{Start: 0, Len: win}
		arrive, end := fakeBatch(w, 0, []float64{0.8, 0.8, 0.8, 0.8})
		bad := 0
		for _, b := range w.Invalid(arrive, end) {
			if b {
				bad++
			}
		}
		win = Grow(win, bad, 4)
	}
	assert.Equal(t, 1.0, win, "0.5 → 1 and then no more invalid repetitions")
}

func TestRoundsCoverEveryPairOnce(t *testing.T) {
	for p := 1; p <= 12; p++ {
		seen := map[Pair]int{}
		rounds, sampled := Rounds(p, 1)
		assert.False(t, sampled)
		assert.Len(t, rounds, RoundCount(p), "p=%d", p)
		for _, r := range rounds {
			for a := range p {
				b := Partner(r, a, p)
				if b >= 0 {
					require.NotEqual(t, a, b, "p=%d round %d", p, r)
					require.Equal(t, a, Partner(r, b, p), "p=%d: partners meet each other", p)
					if a < b {
						seen[Pair{a, b}]++
					}
				}
			}
		}
		assert.Len(t, seen, p*(p-1)/2, "p=%d", p)
		for pr, n := range seen {
			assert.Equal(t, 1, n, "p=%d pair %v", p, pr)
		}
	}
}

// TestRoundsSampled: above FullPairs processes the search measures
// SampledRounds distinct rounds, the same for the same seed; a round of
// a million processes pairs every process with another in O(1) each.
func TestRoundsSampled(t *testing.T) {
	const p = 1 << 20
	a, sampled := Rounds(p, 42)
	require.True(t, sampled)
	require.Len(t, a, SampledRounds)
	assert.True(t, slices.IsSorted(a))
	assert.Len(t, slices.Compact(slices.Clone(a)), SampledRounds, "distinct")
	assert.Less(t, a[len(a)-1], RoundCount(p))
	b, _ := Rounds(p, 42)
	assert.Equal(t, a, b, "the seed reproduces the sample")
	c, _ := Rounds(p, 43)
	assert.NotEqual(t, a, c)
	full, sampled := Rounds(FullPairs, 42)
	assert.False(t, sampled)
	assert.Len(t, full, FullPairs-1)
	for _, rank := range []int{0, 1, p / 2, p - 1} {
		q := Partner(a[0], rank, p)
		assert.Equal(t, rank, Partner(a[0], q, p))
	}
}

// reducePairs is what the two MAX reductions of the driver give for
// every rank's extremes.
func reducePairs(ext []Extremes) (slow, fast Pair, hi, lo int64) {
	p := len(ext)
	max := func(vec func(e Extremes, rank int) []int64) []int64 {
		out := []int64{math.MinInt64, math.MinInt64}
		for rank, e := range ext {
			for i, v := range vec(e, rank) {
				out[i] = maxI(out[i], v)
			}
		}
		return out
	}
	m := max(func(e Extremes, _ int) []int64 { return e.Values() })
	k := max(func(e Extremes, rank int) []int64 { return e.Keys(rank, p, m) })
	slow, _ = PairOf(k[0], p)
	fast, _ = PairOf(k[1], p)
	return slow, fast, m[0], -m[1]
}

func maxI(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// searchMatrix runs the search on a full matrix: each lower rank keeps
// its extremes over the partners above it.
func searchMatrix(rtt [][]int64) []Extremes {
	ext := make([]Extremes, len(rtt))
	for a := range rtt {
		ext[a] = NoExtremes
		for b := a + 1; b < len(rtt); b++ {
			ext[a].Add(b, rtt[a][b])
		}
	}
	return ext
}

func TestPairsFromRows(t *testing.T) {
	// Two nodes of two processes: 0,1 on one, 2,3 on the other; 1↔2 is
	// the slowest link, 2↔3 the fastest. SKaMPI's rank-0-only search
	// would miss 1↔2.
	rtt := [][]int64{
		{0, 40, 300, 310},
		{40, 0, 350, 320},
		{300, 350, 0, 30},
		{310, 320, 30, 0},
	}
	slow, fast, hi, lo := reducePairs(searchMatrix(rtt))
	assert.Equal(t, Pair{1, 2}, slow)
	assert.Equal(t, Pair{2, 3}, fast)
	assert.Equal(t, int64(350), hi)
	assert.Equal(t, int64(30), lo)
	// ties go to the first pair in (A, B) order
	tie := [][]int64{{0, 5, 9, 5}, {5, 0, 9, 9}, {9, 9, 0, 5}, {5, 9, 5, 0}}
	slow, fast, _, _ = reducePairs(searchMatrix(tie))
	assert.Equal(t, Pair{0, 2}, slow)
	assert.Equal(t, Pair{0, 1}, fast)
	// one process: no pair
	_, ok := PairOf(NoExtremes.Keys(0, 1, NoExtremes.Values())[0], 1)
	assert.False(t, ok)
}

// TestRow: a partner timed again keeps the faster round trip, and a
// slowest pair re-timed faster gives its place to the next.
func TestRow(t *testing.T) {
	r := RoundTrips{}
	assert.Equal(t, NoExtremes, r.Extremes(), "no partner timed")
	r.Add(3, 900) // a burst of noise
	r.Add(1, 40)
	r.Add(2, 300)
	assert.Equal(t, Extremes{Hi: 900, HiB: 3, Lo: 40, LoB: 1}, r.Extremes())
	r.Add(3, 950)
	assert.Equal(t, int64(900), r[3], "a slower re-timing changes nothing")
	r.Add(3, 30)
	assert.Equal(t, Extremes{Hi: 300, HiB: 2, Lo: 30, LoB: 3}, r.Extremes(), "re-timed faster: 2 is the slowest, 3 the fastest")
	r.Add(0, 300)
	assert.Equal(t, Extremes{Hi: 300, HiB: 0, Lo: 30, LoB: 3}, r.Extremes(), "ties: the first partner, whatever the order they came in")
}

// TestConfirmed: a re-timing confirms the search's round trip unless it
// is faster by more than a factor of 2.
func TestConfirmed(t *testing.T) {
	for _, c := range []struct {
		searched, fresh int64
		want            bool
	}{
		{100, 100, true}, {100, 120, true}, {100, 70, true}, {100, 50, true},
		{100, 49, false}, {853e6, 20e6, false}, {1, 0, false}, {0, 0, true},
	} {
		assert.Equal(t, c.want, Confirmed(c.searched, c.fresh), "%d then %d", c.searched, c.fresh)
	}
}

// TestPairsAtAMillion reduces the extremes of 2^20 processes (each with
// one partner, as after one round) and checks them against a scan; the
// per-process state is four numbers whatever p is.
func TestPairsAtAMillion(t *testing.T) {
	const p = 1 << 20
	ext := make([]Extremes, p)
	wantHi, wantLo := Pair{}, Pair{}
	var hi, lo int64 = -1, math.MaxInt64
	for a := range p {
		ext[a] = NoExtremes
		if b := Partner(7, a, p); b > a {
			v := int64((a*7919+b*104729)%1000003) + 1
			ext[a].Add(b, v)
			if v > hi {
				hi, wantHi = v, Pair{a, b}
			}
			if v < lo {
				lo, wantLo = v, Pair{a, b}
			}
		}
	}
	slow, fast, gotHi, gotLo := reducePairs(ext)
	assert.Equal(t, wantHi, slow)
	assert.Equal(t, wantLo, fast)
	assert.Equal(t, hi, gotHi)
	assert.Equal(t, lo, gotLo)
}

func TestOpsTable(t *testing.T) {
	seen := map[string]bool{}
	for i, o := range Ops {
		assert.False(t, seen[o.Name], "%s twice", o.Name)
		seen[o.Name] = true
		assert.Equal(t, i, OpIndex(o.Name))
		assert.NotEmpty(t, o.Call, o.Name)
		if o.Vary&VaryLength != 0 {
			assert.Positive(t, o.Elem, o.Name)
		}
		if o.Ref != "" {
			assert.GreaterOrEqual(t, OpIndex(o.Ref), 0, "%s is a reference of an operation in the table", o.Name)
		}
	}
	assert.Equal(t, -1, OpIndex("nope"))
}

func TestAnswers(t *testing.T) {
	for name, want := range map[string]bool{"send-recv": true, "bsend-recv": true, "sendrecv": false,
		"sendrecv-replace": false, "allreduce": false, "mw-waitany": true, "wtime": false} {
		assert.Equal(t, want, Ops[OpIndex(name)].Answers(), name)
	}
}

func TestForms(t *testing.T) {
	for name, want := range map[string]Op{
		"iallreduce": {Call: "MPI_Iallreduce (MPI_FLOAT, MPI_SUM); MPI_Wait", Of: "allreduce", Family: FamilyNonblocking,
			OSU: "osu_iallreduce", Elem: 4},
		"ireduce-scatter-block": {Call: "MPI_Ireduce_scatter_block (MPI_FLOAT, MPI_SUM), L per process; MPI_Wait",
			Of: "reduce-scatter-block", Family: FamilyNonblocking, OSU: "osu_ireduce_scatter_block", Elem: 4, Blocks: true},
		"bcast-persistent": {Call: "MPI_Start, MPI_Wait of an MPI_Bcast_init request: MPI_Bcast from rank 0",
			Of: "bcast", Family: FamilyPersistent, Needs: "MPI_Bcast_init", OSU: "osu_bcast_persistent", Elem: 1},
		"alltoallw-persistent": {Call: "MPI_Start, MPI_Wait of an MPI_Alltoallw_init request: MPI_Alltoallw (MPI_BYTE for each peer), L per pair",
			Of: "alltoallw", Family: FamilyPersistent, Needs: "MPI_Alltoallw_init", OSU: "osu_alltoallw_persistent", Elem: 1, Blocks: true},
		"ibarrier": {Call: "MPI_Ibarrier; MPI_Wait", Of: "barrier", Family: FamilyNonblocking, OSU: "osu_ibarrier", Elem: 1},
		"allgather-persistent": {Call: "MPI_Start, MPI_Wait of an MPI_Allgather_init request: MPI_Allgather, L per process",
			Of: "allgather", Family: FamilyPersistent, Needs: "MPI_Allgather_init", OSU: "osu_allgather_persistent", Elem: 1, Blocks: true},
	} {
		i := OpIndex(name)
		require.GreaterOrEqual(t, i, 0, name)
		o := Ops[i]
		assert.Equal(t, want.Call, o.Call, name)
		assert.Equal(t, []any{want.Of, want.Family, want.Needs, want.OSU, want.Elem, want.Blocks, Collective, false},
			[]any{o.Of, o.Family, o.Needs, o.OSU, o.Elem, o.Blocks, o.Pattern, o.Typed}, name)
		assert.Equal(t, Ops[OpIndex(o.Of)].Vary, o.Vary, name)
	}
}

func TestParseOps(t *testing.T) {
	ops, err := ParseOps("allreduce, ping-pong")
	require.NoError(t, err)
	assert.Len(t, ops, 14, "ten ping-pongs, the persistent one, two MPI_Isendrecv and allreduce")
	assert.Equal(t, "allreduce", Ops[ops[10]].Name, "table order")
	assert.Equal(t, "isendrecv-replace", Ops[ops[13]].Name, "table order")
	for word, want := range map[string]int{"collective": 25, "nonblocking": 17, "persistent": 18, "neighborhood": 12, "partitioned": 1} {
		ops, err = ParseOps(word)
		require.NoError(t, err)
		assert.Len(t, ops, want, word)
		for _, i := range ops {
			if word == "collective" {
				assert.Empty(t, Ops[i].Family, "the families' collectives come only with their family")
			} else {
				assert.Equal(t, word, Ops[i].Family)
			}
		}
	}
	_, err = ParseOps("allreduse")
	assert.ErrorContains(t, err, `no operation "allreduse"`)
	assert.ErrorContains(t, err, "send-recv, send-recv-anytag")
}

func TestLengths(t *testing.T) {
	r, err := ParseRange("1:64", 2)
	require.NoError(t, err)
	assert.Equal(t, []int64{1, 2, 4, 8, 16, 32, 64}, r.Lengths(1))
	assert.Equal(t, []int64{4, 8, 16, 32, 64}, r.Lengths(4), "reductions: whole floats, no repeats")
	r, _ = ParseRange("1:4Mi", math.Sqrt2)
	l := r.Lengths(1)
	assert.Equal(t, int64(4<<20), l[len(l)-1])
	assert.Len(t, l, 44, "1.41 rounds to 1: no repeat")
	r, _ = ParseRange("0:100", 10)
	assert.Equal(t, []int64{0, 1, 10, 100}, r.Lengths(1))
	for _, bad := range []struct{ s, step, msg string }{
		{"64:1", "2", "above the end"},
		{"1:64", "1", "above 1"},
		{"1-64", "2", "from:to"},
		{"x:64", "2", "byte count"},
	} {
		step := 2.0
		if bad.step == "1" {
			step = 1
		}
		_, err := ParseRange(bad.s, step)
		assert.ErrorContains(t, err, bad.msg, bad.s)
	}
}

func TestParseCounts(t *testing.T) {
	c, err := ParseCounts("2:4,N,3", 1, 6, 1)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 3, 4, 6}, c)
	_, err = ParseCounts("8", 1, 4, 1)
	assert.ErrorContains(t, err, "from 1 to 4")
	_, err = ParseCounts("4:2", 1, 4, 1)
	assert.ErrorContains(t, err, "above the end")
}

// TestParseCountsGeometric: a range on a factor gives both ends and the
// counts between on the axis, at least one apart; a list of more than
// MaxCounts is refused before it is made, whatever N is.
func TestParseCountsGeometric(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		step float64
		want []int
	}{
		{"1:N", 64, 2, []int{1, 2, 4, 8, 16, 32, 64}},
		{"1:N", 100, 2, []int{1, 2, 4, 8, 16, 32, 64, 100}},
		{"1:N", 1, 2, []int{1}},
		{"2:N", 10, 1.5, []int{2, 3, 5, 8, 10}},
		{"1:6", 6, 1.2, []int{1, 2, 3, 4, 5, 6}},
		{"1,2,3,4:16", 16, 2, []int{1, 2, 3, 4, 8, 16}},
	} {
		c, err := ParseCounts(tc.s, 1, tc.n, tc.step)
		require.NoError(t, err, tc.s)
		assert.Equal(t, tc.want, c, "%s on %d at %v", tc.s, tc.n, tc.step)
		back, err := ParseCounts(JoinCounts(c, tc.step), 1, tc.n, tc.step)
		require.NoError(t, err)
		assert.Equal(t, c, back, "JoinCounts reads back: %s", JoinCounts(c, tc.step))
	}
	c, err := ParseCounts("1:N", 1, 1<<20, 2)
	require.NoError(t, err)
	assert.Len(t, c, 21)
	_, err = ParseCounts("1:N", 1, 1<<30, 1)
	assert.ErrorContains(t, err, "more than 10000 counts")
	c, err = ParseCounts("1:N", 1, MaxCounts, 1)
	require.NoError(t, err)
	assert.Equal(t, "1:10000", JoinCounts(c, 1))
}

func TestOverlapPercent(t *testing.T) {
	for _, c := range []struct{ pure, ovrl, cpu, want float64 }{
		{10, 10, 10, 100}, // the computation hid the whole operation
		{10, 20, 10, 0},   // nothing overlapped: the times add up
		{10, 25, 10, 0},   // worse than adding up: no negative overlap
		{10, 15, 10, 50},
		{4, 10, 8, 25}, // (4+8−10)/8: relative to the longer of the two
		{0, 0, 0, 0},
	} {
		assert.InDelta(t, c.want, OverlapPercent(c.pure, c.ovrl, c.cpu), 1e-9, "%+v", c)
	}
}

// TestPartitionedPoint: a partitioned point is named with its
// partitions, moves and uses partitions × L bytes.
func TestPartitionedPoint(t *testing.T) {
	op := OpIndex("psend-precv")
	p := Point{Suite: "p", Op: op, Pair: PairMax, Procs: 2, Chunks: 4, Len: 1024}
	assert.Equal(t, "suite=p/op=psend-precv/pair=max/chunks=4/L=1024", p.Name())
	assert.Equal(t, int64(4096), p.Bytes())
	assert.Equal(t, int64(4096), (&Setup{Cache: CacheWarm}).Footprint(p))
	assert.Equal(t, int64(1024*64), Point{Op: OpIndex("put-bw"), Len: 1024}.Bytes(), "a burst of puts")
	assert.ErrorContains(t, Point{Op: op, Chunks: 3, Len: 1 << 30}.Check(), "the partitions' offsets")
	assert.True(t, Ops[op].Persistent())
}
