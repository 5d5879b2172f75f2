//go:build mpi

package harness

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/mpi"
)

// These tests run as a singleton MPI process (no mpirun): the group of one
// rank decides alone, which checks how the helpers sequence their steps
// and decisions. The integration tests run them on real jobs.
func TestMain(m *testing.M) { os.Exit(mpi.Singleton("serialized", m.Run)) }

func TestRound(t *testing.T) {
	g := newSession().World()
	var seen []float64
	d := g.Round([]float64{2, 7}, 2, func(max []float64) []int64 {
		seen = max
		return []int64{int64(max[0]), int64(max[1])}
	})
	assert.Equal(t, []float64{2, 7}, seen, "the maximum over one rank")
	assert.Equal(t, []int64{2, 7}, d)
	d = g.Round(nil, 1, func(max []float64) []int64 {
		assert.Nil(t, max, "nothing reduced")
		return []int64{5}
	})
	assert.Equal(t, []int64{5}, d)
}

func TestUntil(t *testing.T) {
	g := newSession().World()
	var batches []int64
	st := g.Until(1, Until{
		Step: func(k int64) []float64 { batches = append(batches, k); return []float64{float64(len(batches))} },
		Decide: func(max []float64) (int64, int64) {
			if max[0] >= 4 {
				return 0, 0
			}
			return 2 * batches[len(batches)-1], 0
		},
	})
	assert.Equal(t, []int64{1, 2, 4, 8}, batches)
	assert.Equal(t, int64(4), st.Decisions)
	assert.Zero(t, st.Verdict)
	assert.GreaterOrEqual(t, st.Seconds, 0.0)

	batches = nil
	st = g.Until(3, Until{
		Step:   func(k int64) []float64 { batches = append(batches, k); return []float64{1} },
		Decide: func([]float64) (int64, int64) { return 3, 9 },
	})
	assert.Equal(t, []int64{3}, batches, "a verdict stops the loop")
	assert.Equal(t, int64(9), st.Verdict)

	calls := 0
	st = g.Until(1, Until{
		Barrier: true,
		Step:    func(int64) []float64 { calls++; return []float64{1} },
		Decide: func(max []float64) (int64, int64) {
			assert.Nil(t, max, "a barrier instead of a reduction")
			if calls == 3 {
				return 0, 0
			}
			return 1, 0
		},
	})
	assert.Equal(t, 3, calls)
	assert.Equal(t, int64(3), st.Decisions)

	st = g.Until(0, Until{Step: func(int64) []float64 { t.Fatal("no batch"); return nil }})
	assert.Zero(t, st.Decisions)
}

func TestDecideAndCollectives(t *testing.T) {
	s := newSession()
	g := s.World()
	type plan struct {
		On   bool
		Best map[string]int
	}
	got := Decide(g, func() plan { return plan{true, map[string]int{"ring2": 1}} })
	assert.Equal(t, plan{true, map[string]int{"ring2": 1}}, got)
	assert.Equal(t, []int64{4, -1}, g.MaxAll([]int64{4, -1}))
	assert.Equal(t, []int64{3}, g.SumAll([]int64{3}))
	assert.Equal(t, [][]int64{{1, 2}}, g.Gather([]int64{1, 2}))
	v := []int64{42}
	g.Bcast(v)
	assert.Equal(t, []int64{42}, v)
	sub := s.Group(mpi.World)
	require.Equal(t, 1, sub.Size)
	assert.True(t, sub.IsRoot())
}
