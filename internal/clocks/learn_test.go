package clocks

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLearnerKeepsTheSpan: beyond MaxSamples the learner drops samples
// from the middle, never the first or the last, so that estimations that
// come ever more rarely keep the whole run's span.
func TestLearnerKeepsTheSpan(t *testing.T) {
	var l Learner
	at := 0.0
	for k := range 30 {
		l.Add(Sample{Local: at})
		at += 0.01 * float64(k+1)
	}
	require.Equal(t, MaxSamples, l.Samples())
	assert.Zero(t, l.samples[0].Local, "the first stays")
	assert.InDelta(t, at-0.3, l.samples[MaxSamples-1].Local, 1e-12, "the last stays")
	for i := 1; i < MaxSamples; i++ {
		assert.Greater(t, l.samples[i].Local, l.samples[i-1].Local, "in order")
	}
}

// TestLearnerFit: a clock 10 ppm fast against its teacher, sampled with
// 0.3 µs of error over 20 s, gives a model within a few tenths of a µs a
// second on, whose bound covers that and grows by at most the drift the
// samples leave uncertain; without drift the model is the first offset
// and its bound grows by DriftPrior.
func TestLearnerFit(t *testing.T) {
	var l Learner
	truth := func(local float64) float64 { return 5e-3 - 10e-6*local } // the teacher's clock minus this one's
	for k := range 8 {
		local := 100 + 20*float64(k)/7
		noise := 0.3e-6 * float64(k%3-1)
		l.Add(Sample{Local: local, Offset: truth(local) + noise, Err: 0.3e-6})
	}
	m, b := l.Fit(120, true)
	assert.InDelta(t, -10e-6, m.Drift, 0.1e-6, "the drift within 1 %")
	off := func(t float64) float64 { return m.Ref(t) - t - truth(t) }
	assert.Less(t, abs(off(121)), b.At(121), "the bound holds a second on")
	assert.Less(t, b.Drift, 1e-6, "20 s of samples leave less than 1 ppm open")
	assert.InDelta(t, 0, off(121), 0.5e-6)
	m0, b0 := l.Fit(120, false)
	assert.Zero(t, m0.Drift)
	assert.Equal(t, DriftPrior, b0.Drift)
	var empty Learner
	_, be := empty.Fit(3, true)
	assert.Equal(t, DriftPrior, be.Drift, "no sample: the prior")
}

// TestChainAndMiss: a chained model maps through the teacher's; a model
// off by 2 µs at a sample misses by 2 µs; Wire carries a model and its
// bound across unchanged.
func TestChainAndMiss(t *testing.T) {
	own := Model{At: 10, Offset: 1e-3, Drift: 5e-6}
	tm := Model{At: 12, Offset: -4e-3, Drift: -2e-6}
	m, b := Chain(own, Bound{Since: 10, Err: 0.2e-6, Drift: 1e-7}, tm, Bound{Err: 0.3e-6, Drift: 2e-7})
	assert.InDelta(t, tm.Ref(own.Ref(50)), m.Ref(50), 1e-12)
	assert.InDelta(t, 0.5e-6, b.Err, 1e-15)
	assert.InDelta(t, 0.5e-6+3e-7*5, b.At(15), 1e-15)
	s := Sample{Local: 20, Offset: own.Ref(20) - 20 + 2e-6}
	assert.InDelta(t, 2e-6, Miss(m, tm, s), 1e-9)
	wm, wb := Unwire(Wire(m, b, 15))
	assert.Equal(t, m, wm)
	assert.InDelta(t, b.At(15), wb.Err, 1e-18)
	assert.InDelta(t, 10e-6, Rate(-10e-6/(1+10e-6)), 1e-12, "a model's drift back to the clock's rate")
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestParseSkew: the rate and the ranks, and what is refused.
func TestParseSkew(t *testing.T) {
	k, err := ParseSkew("10")
	require.NoError(t, err)
	assert.True(t, k.On(1) && k.On(3) && !k.On(0) && !k.On(2), "odd ranks by default")
	assert.Equal(t, "10@odd", k.String())
	k, err = ParseSkew("-2.5@0,4-6")
	require.NoError(t, err)
	assert.True(t, k.On(0) && k.On(5) && !k.On(3) && !k.On(7))
	assert.InDelta(t, -2.5e-6, k.Model(4, 3).Drift, 1e-18)
	assert.Equal(t, 3.0, k.Model(4, 3).At)
	assert.Equal(t, Model{}, k.Model(1, 3))
	none, err := ParseSkew("")
	require.NoError(t, err)
	assert.False(t, none.On(1))
	for _, bad := range []string{"x", "1e5", "NaN", "10@", "10@a", "10@5-2", "10@-1"} {
		_, err := ParseSkew(bad)
		assert.Error(t, err, bad)
	}
}

// TestReport: a report's metrics read back; a line missing one, with a
// negative error or with values that contradict each other is refused;
// Judge finds a margin smaller than the error.
func TestReport(t *testing.T) {
	r := Report{Err: 2e-6, ErrMedian: 1e-6, DriftMin: -3e-6, DriftMax: 10e-6, Syncs: 7, Rounds: 3, Seconds: 0.25}
	m := map[string]float64{}
	for _, x := range r.Metrics() {
		m[x.Unit] = x.Value
	}
	got, err := ParseReport(m)
	require.NoError(t, err)
	assert.InDelta(t, r.Err, got.Err, 1e-15)
	assert.InDelta(t, r.DriftMax, got.DriftMax, 1e-15)
	assert.Equal(t, r.Syncs, got.Syncs)
	for unit, v := range map[string]float64{MetricErr: -1, MetricErrMed: 5, MetricDriftMin: 20, MetricRounds: 65} {
		bad := map[string]float64{}
		for k, x := range m {
			bad[k] = x
		}
		bad[unit] = v
		_, err := ParseReport(bad)
		assert.Error(t, err, unit)
	}
	delete(m, MetricSyncS)
	_, err = ParseReport(m)
	assert.Error(t, err)
	assert.Empty(t, r.Judge(3e-6))
	assert.Contains(t, r.Judge(1e-6), "2.000 µs")
	var none *Report
	assert.Empty(t, none.Judge(0))
}
