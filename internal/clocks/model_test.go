package clocks

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFit: samples of a clock 12 µs ahead at t = 0 that runs 10 ppm
// fast give back the offset and the drift; the model's time is the
// reference's to within the samples' error; one sample gives no drift.
func TestFit(t *testing.T) {
	var s []Sample
	for k := range 8 {
		local := float64(k) * 7.5
		noise := 0.2e-6 * float64(k%3-1)
		s = append(s, Sample{Local: local, Offset: 12e-6 + 10e-6*local + noise, Err: 0.5e-6})
	}
	m, err, e := Fit(s)
	require.NoError(t, e)
	assert.InDelta(t, 10e-6, m.Drift, 0.05e-6, "the drift, within 0.5 %")
	assert.InDelta(t, 12e-6, m.Ref(0), 0.5e-6, "the offset at 0")
	assert.InDelta(t, 60+12e-6+600e-6, m.Ref(60), 1e-6, "a minute later: 612 µs ahead")
	assert.Less(t, err, 1e-6, "residual and sample error")
	one, _, e := Fit(s[:1])
	require.NoError(t, e)
	assert.Zero(t, one.Drift)
	_, _, e = Fit(nil)
	assert.ErrorIs(t, e, ErrNoSamples)
}

// TestCompose: a model composed of two gives the reference's time as
// applying them in turn does.
func TestCompose(t *testing.T) {
	a := Model{At: 3, Offset: 5e-6, Drift: 20e-6}
	b := Model{At: 100, Offset: -40e-6, Drift: -7e-6}
	c := Compose(a, b)
	for _, x := range []float64{0, 3, 17.25, 600} {
		assert.InDelta(t, b.Ref(a.Ref(x)), c.Ref(x), 1e-12, "t=%g", x)
	}
}

// TestHCA: in ⌈log2 p⌉ rounds every process but rank 0 learns exactly
// once, against a process that is taught in the same round, and the
// chain of teachers from any process reaches rank 0 through processes
// that learnt in a later-applied round (a larger stride).
func TestHCA(t *testing.T) {
	assert.Equal(t, []int{0, 0, 1, 2, 2, 3, 10, 20}, []int{Rounds(0), Rounds(1), Rounds(2), Rounds(3), Rounds(4), Rounds(5), Rounds(1024), Rounds(1 << 20)})
	for _, p := range []int{1, 2, 3, 5, 8, 13, 64, 1000} {
		teacher := make([]int, p)
		learnt := make([]int, p) // the round it learnt in
		for i := range teacher {
			teacher[i], learnt[i] = -1, -1
		}
		for r := range Rounds(p) {
			for i := range p {
				peer, learns := Round(p, r, i)
				if peer < 0 {
					continue
				}
				back, theirs := Round(p, r, peer)
				assert.Equal(t, i, back, "p=%d r=%d: %d and %d pair", p, r, i, peer)
				assert.NotEqual(t, learns, theirs, "one learns, one teaches")
				if learns {
					assert.Equal(t, -1, teacher[i], "p=%d: %d learns once", p, i)
					teacher[i], learnt[i] = peer, r
				}
			}
		}
		for i := 1; i < p; i++ {
			require.NotEqual(t, -1, teacher[i], "p=%d: %d learnt", p, i)
			steps := 0
			for j := i; j != 0; j = teacher[j] {
				if teacher[j] != 0 {
					assert.Greater(t, learnt[teacher[j]], learnt[j], "p=%d: %d's teacher learnt in a larger stride", p, j)
				}
				steps++
			}
			assert.LessOrEqual(t, steps, Rounds(p))
		}
		assert.Equal(t, -1, teacher[0])
	}
}
