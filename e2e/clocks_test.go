package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/suites/skampi"
)

// clockRun is the drift test's run (e2e/testdata/skampi-drift.yaml): long
// messages first, whose points hold to their 250 ms for about 2 s in
// all while the clocks drift apart by 20 µs at 10 ppm (100 µs at 50), then the shortest
// collectives, where a start skew shows most.
var clockRun = []string{"-test.run", "^$", "-test.bench", "^BenchmarkSkampi$", "-skampi.suites", "e2e/testdata/skampi-drift.yaml"}

// TestClockDrift: rank 1's clock runs 10 ppm fast (-clock.skew). On the
// model of offsets and drifts the collectives stay near the times of
// the run without skew, the line of the run's clocks reports the drift
// within 10 %, and the fold vouches for every point; on SKaMPI's offsets
// alone (-skampi.clock=offsets), at 50 ppm, the same run's clocks drift
// apart by more than the short collectives' windows leave room for,
// which the fold says (NOT VALID, those points listed): at 10 ppm, 20 µs,
// a loaded machine's windows may hold.
func TestClockDrift(t *testing.T) {
	bin := mpiBinary(t, true)
	run := func(args ...string) (benchOut, string) {
		res := mpirun(t, 2, bin, append(append([]string(nil), clockRun...), args...)...)
		require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
		return readBench(t, res.stdout, skampi.Bench), foldStdout(t, res.stdout)
	}
	plain, _ := run()
	drift, driftText := run("-clock.skew", "10")

	rep, err := clocks.ParseReport(drift.clock)
	require.NoError(t, err)
	assert.InDelta(t, 10e-6, rep.DriftMax, 1e-6, "the drift found within 10 %% of the injected: %s", rep.Summary())
	assert.Greater(t, rep.Syncs, 1, "re-estimated")
	assert.NotContains(t, driftText, "clocks' error exceeded", "every point vouched for")
	compared := 0
	for name, m := range plain.metrics { // the short collectives: a start skew shows there, the filler's times are the machine's load
		if _, ok := m[skampi.MetricUs]; !ok || drift.metrics[name] == nil || !strings.HasPrefix(name, "suite=short/") {
			continue
		}
		compared++
		assert.LessOrEqual(t, drift.metrics[name][skampi.MetricUs], 2*m[skampi.MetricUs]+0.5, "%s: with drift modelled near the time without skew", name)
	}
	assert.Equal(t, 4, compared, "barrier, allreduce, bcast, reduce compared")

	// Whether a window holds the drift is a matter of where its doublings
	// ended (between one and two times the drift and the call): a loaded
	// machine's may all hold in one run, so up to three runs are asked.
	var old clocks.Report
	listed := 0
	for try := 0; try < 3 && listed == 0; try++ {
		out, text := run("-clock.skew", "50", "-skampi.clock", skampi.ClockOffsets)
		old, listed = offsetsListed(t, out, text)
	}
	assert.Greater(t, old.Err, 10*rep.Err, "the model keeps far closer than the offsets")
	assert.Positive(t, listed, "the short collectives' windows do not hold")
	t.Log(fmt.Sprintf("model: %s\noffsets: %s", rep.Summary(), old.Summary()))
}

// offsetsListed checks a run on SKaMPI's offsets alone: the drift seen at
// the end, the offsets estimated once and tens of µs apart, and every
// point whose window left less room than that error listed NOT VALID in
// the fold; it returns the clocks' report and how many were listed.
func offsetsListed(t *testing.T, offsets benchOut, text string) (clocks.Report, int) {
	t.Helper()
	old, err := clocks.ParseReport(offsets.clock)
	require.NoError(t, err)
	assert.InDelta(t, 50e-6, old.DriftMax, 5e-6, "the drift seen at the end: %s", old.Summary())
	assert.Equal(t, 1, old.Syncs, "offsets once")
	assert.Greater(t, old.Err, 40e-6, "SKaMPI's scheme: the offsets drift apart by tens of µs")
	listed := 0
	for name, m := range offsets.metrics {
		margin := (m[skampi.MetricWindow] - m[skampi.MetricUs]*m[skampi.MetricCalls]) / 2
		if _, ok := m[skampi.MetricUs]; ok && margin < old.Err*1e6 {
			assert.Contains(t, text, "  "+name+": the clocks' model was off by up to", name)
			assert.Contains(t, text, "NOT VALID")
			listed++
		}
	}
	return old, listed
}
