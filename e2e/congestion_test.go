package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beff-suite/beff/suites/congestion"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quickCongestion is a short congestion run: 0.1 s per measurement, one
// repetition.
var quickCongestion = []string{"-test.run", "^$", "-test.bench", "^BenchmarkCongestion$", "-test.short",
	"-congestion.time=0.1", "-congestion.reps=1", "-congestion.bw-len=4096"}

// TestQuickCongestion runs the suite on one machine, congestors one at a
// time, and in congestors-only mode (TestCongestionResume runs them
// together): every line of the plan is there, and the fold says NOT
// VALID for the one node.
func TestQuickCongestion(t *testing.T) {
	bin := mpiBinary(t, true)
	for _, tc := range []struct {
		name  string
		np    int
		args  []string
		mix   string
		lines int
	}{
		{"each", 4, []string{"-congestion.bw-len=4"}, congestion.MixEach, 3 + 4 + 3*4*2}, // shorter than the 8-byte canaries
		{"congestors-only", 4, []string{"-congestion.congestors-only", "-congestion.congestors=alltoall,rma-incast"}, congestion.MixTogether, 2 + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := mpirun(t, tc.np, bin, append(append([]string(nil), quickCongestion...), tc.args...)...)
			require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
			run := readBench(t, res.stdout, congestion.Bench)
			assert.Equal(t, tc.mix, run.config[congestion.KeyMix])
			assert.Len(t, run.metrics, tc.lines, "every line of the plan")
			checkClockLine(t, tc.np, run.clock)
			for name, m := range run.metrics {
				if strings.HasPrefix(name, "canary=") {
					assert.Positive(t, m[congestion.MetricSamples], name)
				} else {
					assert.Positive(t, m[congestion.MetricMBps], name)
					assert.Positive(t, m[congestion.MetricCalls], name)
				}
			}
			out := foldStdout(t, res.stdout)
			assert.Contains(t, string(out), "NOT VALID: on 1 node: congestion needs at least 3 nodes")
		})
	}
}

// TestCongestionBadInput: a bad flag or too few processes is one message
// from rank 0 and exit code 2 everywhere, nothing measured (the driver's
// TestSetupRefuses checks every message).
func TestCongestionBadInput(t *testing.T) {
	bin := mpiBinary(t, true)
	for _, c := range []struct {
		np        int
		flag, msg string
	}{
		{3, "-congestion.time=0", "-congestion.time"},
		{4, "-congestion.canary-nodes=nowhere", `canary node "nowhere" runs none of the job's processes`},
		{2, "-congestion.reps=1", "congestion on 2 processes: 0 congestor processes: a congestor needs 2 (the job has 2 processes on 1 node)"},
	} {
		t.Run(c.flag, func(t *testing.T) {
			res := mpirun(t, c.np, bin, append(append([]string(nil), quickCongestion...), c.flag)...)
			assert.Equal(t, 2, res.code, "stderr:\n%s", res.stderr)
			assert.Equal(t, 1, strings.Count(res.stderr, "beff: "), "one message, from rank 0:\n%s", res.stderr)
			assert.Contains(t, res.stderr, c.msg)
			assert.Empty(t, res.stdout, "nothing is measured or printed")
		})
	}
}

// TestCongestionResume: a job's output cut inside its second repetition
// is resumed: the first repetition is copied as it was, the second
// measured again whole, and the run folds.
func TestCongestionResume(t *testing.T) {
	bin := mpiBinary(t, true)
	args := append(append([]string(nil), quickCongestion...), "-congestion.reps=2", "-congestion.seed=5", "-congestion.congestors=incast")
	first := mpirun(t, 4, bin, args...)
	require.Equal(t, 0, first.code, "stderr:\n%s", first.stderr)
	cut := first.stdout[:strings.Index(first.stdout, "BenchmarkCongestion/canary=rr-bw/load=congested/rep=2")]
	if i := strings.Index(first.stdout, "BenchmarkCongestion/canary=rr-lat/load=isolated/rep=2"); i < 0 || i > len(cut) {
		t.Fatalf("the cut is not inside the second repetition")
	}
	partial := filepath.Join(t.TempDir(), "partial.txt")
	require.NoError(t, os.WriteFile(partial, []byte(cut), 0o644))
	again := mpirun(t, 4, bin, append(args, "-congestion.resume="+partial)...)
	require.Equal(t, 0, again.code, "stderr:\n%s", again.stderr)
	assert.Contains(t, again.stdout, "congestion-resumed: ")
	line := func(out, name string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "BenchmarkCongestion/"+name+" ") {
				return l
			}
		}
		return ""
	}
	old, now := readBench(t, first.stdout, congestion.Bench), readBench(t, again.stdout, congestion.Bench)
	assert.Len(t, now.metrics, len(old.metrics), "every line")
	for name := range old.metrics {
		if congestion.RepOf(name) == 1 {
			assert.Equal(t, line(first.stdout, name), line(again.stdout, name), "copied: %s", name)
		} else {
			assert.NotEqual(t, line(first.stdout, name), line(again.stdout, name), "measured again: %s", name)
		}
	}
	foldStdout(t, again.stdout)
}
