package harness_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
)

// perRank collects one value per rank of a simulated job.
type perRank[T any] struct {
	mu sync.Mutex
	v  []T
}

func newPerRank[T any](n int) *perRank[T] { return &perRank[T]{v: make([]T, n)} }

func (p *perRank[T]) set(r int, v T) { p.mu.Lock(); p.v[r] = v; p.mu.Unlock() }

// TestRoundFollowsRankZero: rank 0 decides from the maximum over the ranks
// of what each measured, and every rank gets its decision.
func TestRoundFollowsRankZero(t *testing.T) {
	got := newPerRank[[]int64](4)
	seen := newPerRank[[]float64](4)
	harnesstest.Fine(t, harnesstest.Run(t, 4, harness.Job{}, func(s *harness.Session) {
		w := s.World()
		d := w.Round([]float64{float64(s.Rank), -float64(s.Rank)}, 2, func(max []float64) []int64 {
			seen.set(s.Rank, max)
			return []int64{int64(max[0]) * 10, int64(max[1])}
		})
		got.set(s.Rank, d)
	}))
	assert.Equal(t, []float64{3, 0}, seen.v[0], "rank 0 sees the maximum of every element")
	for r := 1; r < 4; r++ {
		assert.Nil(t, seen.v[r], "rank %d does not decide", r)
		assert.Equal(t, []int64{30, 0}, got.v[r], "rank %d follows", r)
	}
}

// TestUntilStopsTogether: a stop loop runs until rank 0 decides from the
// slowest rank's batch times; every rank runs the same batches and sees
// the same verdict.
func TestUntilStopsTogether(t *testing.T) {
	batches := newPerRank[[]int64](3)
	stops := newPerRank[harness.Stopped](3)
	harnesstest.Fine(t, harnesstest.Run(t, 3, harness.Job{}, func(s *harness.Session) {
		var mine []int64
		total := int64(0)
		st := s.World().Until(2, harness.Until{
			Step: func(k int64) []float64 {
				mine = append(mine, k)
				return []float64{float64(k * int64(s.Rank+1))} // rank 2 is the slowest
			},
			Decide: func(max []float64) (int64, int64) {
				total += int64(max[0])
				switch {
				case total >= 30:
					return 0, 7 // a verdict stops it
				default:
					return 2 * int64(max[0]) / 3, 0
				}
			},
		})
		batches.set(s.Rank, mine)
		stops.set(s.Rank, st)
	}))
	// rank 0: max = 3k: 2 → total 6, next 4 → 18, next 8 → 42 ≥ 30: stop
	assert.Equal(t, []int64{2, 4, 8}, batches.v[0])
	for r := range 3 {
		assert.Equal(t, batches.v[0], batches.v[r], "rank %d ran the same batches", r)
		assert.Equal(t, int64(3), stops.v[r].Decisions)
		assert.Equal(t, int64(7), stops.v[r].Verdict)
	}
}

// TestDecideAt: a decision with structure from rank 0, and one taken on
// another rank, reach every rank.
func TestDecideAt(t *testing.T) {
	type plan struct {
		Names []string
		Seed  uint64
	}
	got := newPerRank[plan](3)
	froms := newPerRank[int](3)
	harnesstest.Fine(t, harnesstest.Run(t, 3, harness.Job{}, func(s *harness.Session) {
		p := harness.Decide(s.World(), func() plan { return plan{[]string{"ring", "random"}, 42} })
		got.set(s.Rank, p)
		froms.set(s.Rank, harness.DecideAt(s.World(), 2, func() int { return 100 + s.Rank }))
	}))
	for r := range 3 {
		assert.Equal(t, plan{[]string{"ring", "random"}, 42}, got.v[r])
		assert.Equal(t, 102, froms.v[r], "rank 2's decision")
	}
}

// TestGroupCollectives: gather to rank 0 (nil elsewhere), scatter from
// it, broadcast, the reductions.
func TestGroupCollectives(t *testing.T) {
	type out struct {
		gathered [][]int64
		scat     int64
		bc       []int64
		maxAll   []int64
		sumAll   []int64
		min0     []int64
		max0     []float64
		sum0     []float64
	}
	res := newPerRank[out](4)
	harnesstest.Fine(t, harnesstest.Run(t, 4, harness.Job{}, func(s *harness.Session) {
		w := s.World()
		var o out
		o.gathered = w.Gather([]int64{int64(s.Rank), int64(s.Rank * s.Rank)})
		var table []int64
		if s.IsRoot() {
			table = []int64{7, 8, 9, 10}
		}
		o.scat = w.Scatter(table)
		o.bc = []int64{int64(s.Rank), 5}
		w.Bcast(o.bc)
		o.maxAll = w.MaxAll([]int64{int64(s.Rank), -int64(s.Rank)})
		o.sumAll = w.SumAll([]int64{int64(s.Rank), 1})
		o.min0 = w.MinTo0([]int64{int64(10 - s.Rank), int64(s.Rank)})
		o.max0 = w.MaxTo0([]float64{float64(s.Rank) / 2})
		o.sum0 = w.SumTo0([]float64{float64(s.Rank) / 2, 1})
		w.Barrier()
		w.QuietBarrier()
		res.set(s.Rank, o)
	}))
	r0 := res.v[0]
	assert.Equal(t, [][]int64{{0, 0}, {1, 1}, {2, 4}, {3, 9}}, r0.gathered)
	assert.Equal(t, []int64{7, 0}, r0.min0)
	assert.Equal(t, []float64{1.5}, r0.max0)
	assert.Equal(t, []float64{3, 4}, r0.sum0)
	for r, o := range res.v {
		if r > 0 {
			assert.Nil(t, o.gathered, "rank %d allocates nothing that grows with the group", r)
			assert.Nil(t, o.min0)
			assert.Nil(t, o.max0)
			assert.Nil(t, o.sum0)
		}
		assert.Equal(t, int64(7+r), o.scat, "rank %d's own value", r)
		assert.Equal(t, []int64{0, 5}, o.bc, "rank 0's values")
		assert.Equal(t, []int64{3, 0}, o.maxAll)
		assert.Equal(t, []int64{6, 4}, o.sumAll)
	}
}

// TestDivergenceEndsTheJob: a rank that takes another collective than
// the others (a decision it took alone), or returns while they wait, ends
// the job with a message naming the calls, instead of hanging it.
func TestDivergenceEndsTheJob(t *testing.T) {
	ends := harnesstest.Run(t, 3, harness.Job{}, func(s *harness.Session) {
		if s.Rank == 1 {
			s.World().Barrier()
			return
		}
		s.World().Bcast([]int64{1})
	})
	for r, e := range ends {
		assert.Equal(t, harnesstest.Diverged, e.Code, "rank %d", r)
		assert.Contains(t, e.Msg, "the ranks diverged: rank 0: bcast of 8 bytes from 0; rank 1: barrier", "rank %d", r)
	}

	ends = harnesstest.Run(t, 2, harness.Job{}, func(s *harness.Session) {
		if s.Rank == 0 {
			return
		}
		s.World().Barrier()
	})
	assert.Equal(t, harnesstest.End{}, ends[0], "rank 0 returned")
	assert.Equal(t, harnesstest.Diverged, ends[1].Code)
	assert.Contains(t, ends[1].Msg, "the ranks diverged")
}

// TestFailEndsTheJob: an MPI error on one rank (Session.Must) ends that
// rank with ExitMPI and its message, and the job with it; a stop decided
// on rank 0 and followed ends every rank with its code.
func TestFailEndsTheJob(t *testing.T) {
	ends := harnesstest.Run(t, 3, harness.Job{}, func(s *harness.Session) {
		if s.Rank == 2 {
			s.Must("MPI_Send", errors.New("connection reset"))
		}
		s.World().Barrier()
	})
	assert.Equal(t, harnesstest.End{Code: harness.ExitMPI, Msg: "rank 2: MPI_Send: connection reset"}, ends[2])
	for _, r := range []int{0, 1} {
		assert.Equal(t, harnesstest.Diverged, ends[r].Code, "rank %d cannot go on", r)
		assert.Contains(t, ends[r].Msg, "rank 2 ended (exit 4)")
	}

	ends = harnesstest.Run(t, 3, harness.Job{}, func(s *harness.Session) {
		stop := harness.Decide(s.World(), func() bool { return true })
		if stop {
			s.Stop(harness.ExitValidation, "validation failed")
		}
	})
	require.Len(t, ends, 3)
	for r, e := range ends {
		assert.Equal(t, harnesstest.End{Code: harness.ExitValidation, Msg: "validation failed"}, e, "rank %d follows the stop", r)
	}
}
