package beff_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/skampi"
)

var quickSkampi = []string{"-test.run", "^$", "-test.bench", "^BenchmarkSkampi$", "-test.short"}

// TestQuickSkampi runs the short suite on 1 to 5 processes (window
// synchronisation where the node is not oversubscribed, barrier where it
// is): every operation of the run reports its points once, each with
// valid repetitions and a positive time; nothing but rank 0 writes; the
// fold of the output works.
func TestQuickSkampi(t *testing.T) {
	bin := mpiBinary(t, true)
	for np := 1; np <= 5; np++ {
		sync := skampi.SyncWindow
		if np > 2 {
			sync = skampi.SyncBarrier
		}
		t.Run("np="+strconv.Itoa(np)+"/"+sync, func(t *testing.T) {
			res := mpirun(t, np, bin, append(quickSkampi, "-skampi.sync="+sync)...)
			require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
			run := readBench(t, res.stdout, skampi.Bench)
			assert.Equal(t, sync, run.config[skampi.KeySync])
			checkSkampiPoints(t, np, run)
			file := filepath.Join(t.TempDir(), "skampi.txt")
			require.NoError(t, os.WriteFile(file, []byte(res.stdout), 0o644))
			out, err := exec.Command("go", "run", "./cmd/beff", "fold", file).CombinedOutput()
			require.NoError(t, err, "%s", out)
			assert.Contains(t, string(out), "SKaMPI")
			assert.Contains(t, string(out), "NOT VALID: short run")
		})
	}
}

func checkSkampiPoints(t *testing.T, np int, run benchOut) {
	t.Helper()
	ops := strings.Split(run.config[skampi.KeyOps], ",")
	want := len(skampi.Ops)
	if np == 1 {
		want -= 17 // ping-pong and master-worker need two processes
	}
	assert.Len(t, ops, want)
	seen := map[string]bool{}
	for name, m := range run.metrics {
		assert.Equal(t, 1, run.count[name], "%s once", name)
		op := strings.TrimPrefix(strings.SplitN(name, "/", 2)[0], "op=")
		seen[op] = true
		assert.Positive(t, m[skampi.MetricN], "%s: valid repetitions", name)
		assert.Positive(t, m[skampi.MetricUs], "%s: a positive time", name)
		assert.LessOrEqual(t, m[skampi.MetricN]+m[skampi.MetricInvalid], 100.0, "%s: -test.short caps the repetitions", name)
		if strings.Contains(name, "procs=") && !strings.HasPrefix(op, "mw-") {
			assert.GreaterOrEqual(t, m[skampi.MetricRankMax], m[skampi.MetricRankMin], "%s: straggler spread", name)
		}
	}
	for _, op := range ops {
		assert.True(t, seen[op], "%s measured", op)
	}
}

// TestSkampiValidationStops: a corrupted message stops the job with the
// report and exit code 3 on every rank.
func TestSkampiValidationStops(t *testing.T) {
	bin := mpiBinary(t, true)
	res := mpirun(t, 2, bin, append(quickSkampi, "-skampi.testfault", "-skampi.ops=send-recv")...)
	assert.Equal(t, 3, res.code, "stderr:\n%s", res.stderr)
	assert.Contains(t, res.stderr, "validation FAILED: op=send-recv/pair=max/L=1")
	assert.Regexp(t, `rank \d of the point: 1 failed checks; first in call \d+, from sender \d, byte 0: expected \d+, got \d+`, res.stderr)
}

// TestSkampiBadInput: each bad flag gives one message from rank 0 and exit
// code 2 from every rank, before anything is measured.
func TestSkampiBadInput(t *testing.T) {
	bin := mpiBinary(t, true)
	cases := []struct {
		np        int
		flag, msg string
	}{
		{3, "-skampi.eps=0", "between 0 and 1"},
		{3, "-skampi.eps=1", "between 0 and 1"},
		{3, "-skampi.min=200", "is above -skampi.max=100"},
		{3, "-skampi.L=64:1", "the start 64 is above the end 1"},
		{3, "-skampi.step=1", "a factor above 1"},
		{3, "-skampi.ops=allreduse", `no operation "allreduse": want all, a pattern`},
		{3, "-skampi.procs=4", "from 1 to 3 (the job has 3 processes)"},
		{1, "-skampi.ops=send-recv", "needs 2 processes; the job has 1"},
		{3, "-skampi.sync=fence", "want window or barrier"},
		{3, "-skampi.chunks=0", "from 1 to"},
	}
	for _, c := range cases {
		t.Run(c.flag, func(t *testing.T) {
			res := mpirun(t, c.np, bin, append(quickSkampi, c.flag)...)
			assert.Equal(t, 2, res.code, "stderr:\n%s", res.stderr)
			assert.Equal(t, 1, strings.Count(res.stderr, "beff: "), "one message, from rank 0:\n%s", res.stderr)
			assert.Contains(t, res.stderr, c.msg)
			assert.Empty(t, res.stdout, "nothing is measured or printed")
		})
	}
}
