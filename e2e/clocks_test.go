package e2e

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/suites/skampi"
)

// clockRun is the drift test's run (e2e/testdata/skampi-drift.yaml): long
// messages first, whose points hold to their 250 ms for about 2 s in
// all while the clocks drift apart by 20 µs at 10 ppm, then the shortest
// collectives, where a start skew shows most.
var clockRun = []string{"-test.run", "^$", "-test.bench", "^BenchmarkSkampi$", "-skampi.suites", "e2e/testdata/skampi-drift.yaml"}

// TestClockDrift: rank 1's clock runs 10 ppm fast (-clock.skew). On the
// model of offsets and drifts the collectives stay near the times of
// the run without skew, the line of the run's clocks reports the drift
// within 10 %, and the fold vouches for every point; on SKaMPI's offsets
// alone (-skampi.clock=offsets) the same run's clocks drift apart by
// more than the short collectives' windows leave room for, which the
// fold says (NOT VALID, those points listed).
func TestClockDrift(t *testing.T) {
	bin := mpiBinary(t, true)
	run := func(args ...string) (benchOut, string) {
		res := mpirun(t, 2, bin, append(append([]string(nil), clockRun...), args...)...)
		require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
		return readBench(t, res.stdout, skampi.Bench), foldStdout(t, res.stdout)
	}
	plain, _ := run()
	drift, driftText := run("-clock.skew", "10")
	offsets, offsetsText := run("-clock.skew", "10", "-skampi.clock", skampi.ClockOffsets)

	rep, err := clocks.ParseReport(drift.clock)
	require.NoError(t, err)
	assert.InDelta(t, 10e-6, rep.DriftMax, 1e-6, "the drift found within 10 %% of the injected: %s", rep.Summary())
	assert.Greater(t, rep.Syncs, 1, "re-estimated")
	assert.NotContains(t, driftText, "clocks' error exceeded", "every point vouched for")
	for name, m := range plain.metrics {
		if _, ok := m[skampi.MetricUs]; !ok || drift.metrics[name] == nil {
			continue
		}
		assert.LessOrEqual(t, drift.metrics[name][skampi.MetricUs], 2*m[skampi.MetricUs]+0.5, "%s: with drift modelled near the time without skew", name)
	}

	old, err := clocks.ParseReport(offsets.clock)
	require.NoError(t, err)
	assert.InDelta(t, 10e-6, old.DriftMax, 1e-6, "the drift seen at the end: %s", old.Summary())
	assert.Equal(t, 1, old.Syncs, "offsets once")
	assert.Greater(t, old.Err, 10e-6, "SKaMPI's scheme: the offsets drift apart by tens of µs")
	assert.Greater(t, old.Err, 10*rep.Err, "and the model keeps far closer")
	listed := 0
	for name, m := range offsets.metrics { // a point whose window left less room than that is listed NOT VALID
		margin := (m[skampi.MetricWindow] - m[skampi.MetricUs]*m[skampi.MetricCalls]) / 2
		if _, ok := m[skampi.MetricUs]; ok && margin < old.Err*1e6 {
			assert.Contains(t, offsetsText, "  "+name+": the clocks' model was off by up to", name)
			listed++
		}
	}
	assert.Positive(t, listed, "the short collectives' windows do not hold")
	assert.Contains(t, offsetsText, "NOT VALID")
	t.Log(fmt.Sprintf("model: %s\noffsets: %s", rep.Summary(), old.Summary()))
}
