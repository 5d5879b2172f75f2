package e2e

// The scale tests (docs/scale.md): jobs of 32 and 64 processes on this
// machine, oversubscribed, that run each suite and fold it, with every
// process's peak resident memory checked against the suite's memory
// model, and the lifeline of a 64-process
// job whose processes may each hold only 48 descriptors. They take
// minutes, so they run with BEFF_SCALE_TESTS=1 (make scale-test, which CI
// calls).

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func requireScale(t *testing.T) {
	t.Helper()
	if os.Getenv("BEFF_SCALE_TESTS") != "1" {
		t.Skip("the scale tests run with BEFF_SCALE_TESTS=1 (make scale-test)")
	}
}

// scaleSuites are the scale jobs, one suite each (-test.short): SKaMPI's
// broadcast over its default curves, one point per process count curve
// (all processes) and two repetitions a point; b_eff whole; b_eff_io on
// one partition of all processes; links on every pair of processes (one
// node), each measurement capped at 5 ms.
func scaleSuites(np int) []struct {
	name, bench, model string
	args               []string
} {
	return []struct {
		name, bench, model string
		args               []string
	}{
		{"b_eff", "^BenchmarkBeff$", "b_eff", nil},
		{"b_eff_io", "^BenchmarkBeffIO$", "b_eff_io", []string{"-beffio.partitions", strconv.Itoa(np)}},
		{"SKaMPI", "^BenchmarkSkampi$", "SKaMPI", []string{"-skampi.ops", "bcast", "-skampi.procs", "N",
			"-skampi.max", "2", "-skampi.min", "1", "-skampi.warmup", "0"}},
		{"links", "^BenchmarkLinks$", "links", []string{"-links.cap", "5ms", "-links.lat-reps", "100", "-links.reps", "4"}},
	}
}

var peakLine = regexp.MustCompile(`peak resident memory per process \(VmHWM\): min ([0-9.]+) MiB, median ([0-9.]+) MiB, max ([0-9.]+) MiB \(rank (\d+)\); rank 0 ([0-9.]+) MiB`)
var modelLine = regexp.MustCompile(`\[beff\] (b_eff|b_eff_io|SKaMPI|links) memory model: ([0-9.]+) MiB per process, rank 0 ([0-9.]+) MiB`)

func mib(t *testing.T, s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err)
	return v
}

// TestScaleJobs runs each suite in a job of 32 and of 64 processes, folds
// its output, checks that no line grows with p, and checks every
// process's peak resident memory against the model the suite logs.
func TestScaleJobs(t *testing.T) {
	requireScale(t)
	bin := mpiBinary(t, true)
	for _, np := range []int{32, 64} {
		for _, su := range scaleSuites(np) {
			t.Run(fmt.Sprintf("np=%d/%s", np, su.name), func(t *testing.T) {
				dir := t.TempDir()
				start := time.Now()
				job := mpirun(t, np, bin, append([]string{"-test.run", "^$", "-test.bench", su.bench, "-test.short", "-beffio.dir", dir}, su.args...)...)
				took := time.Since(start)
				require.Equal(t, 0, job.code, job.stderr)
				m := modelLine.FindStringSubmatch(job.stderr)
				require.NotNil(t, m, "the suite logs its memory model:\n%s", job.stderr)
				require.Equal(t, su.model, m[1])
				perProc, root := mib(t, m[2]), mib(t, m[3])
				p := peakLine.FindStringSubmatch(job.stderr)
				require.NotNil(t, p, job.stderr)
				median, most, rootPeak := mib(t, p[2]), mib(t, p[3]), mib(t, p[5])
				t.Logf("%s on %d processes: %.0f s; peak per process: median %.1f MiB, max %.1f MiB (rank %s), rank 0 %.1f MiB; model: %.1f MiB per process, rank 0 %.1f MiB",
					su.name, np, took.Seconds(), median, most, p[4], rootPeak, perProc, root)
				assert.LessOrEqual(t, most, root, "no process above rank 0's model")
				assert.LessOrEqual(t, median, perProc, "the processes within the model")

				folded := foldStdout(t, job.stdout)
				assert.Contains(t, string(folded), su.name)
				for _, line := range strings.Split(job.stdout, "\n") {
					assert.Less(t, len(line), 4096, "a line that grows with p: %.80s…", line)
				}
			})
		}
	}
}

// TestLifelineUnderFdLimit starts 64 processes that may each hold only 48
// file descriptors (rank 0 could not hold one lifeline per process), kills
// rank 2 (a parent of ranks 31–45 in the tree) and expects the job to end
// naming it.
func TestLifelineUnderFdLimit(t *testing.T) {
	requireScale(t)
	bin := mpiBinary(t, true)
	wrap := filepath.Join(t.TempDir(), "limited.sh")
	require.NoError(t, os.WriteFile(wrap, []byte("#!/bin/sh\nulimit -n 48 || exit 9\nexec "+bin+" \"$@\"\n"), 0o755))
	cmd := testLib(t).command(t, 64, wrap, "-test.run", "^$", "-test.bench", "^BenchmarkSkampi$", "-test.short",
		"-skampi.ops", "bcast", "-skampi.procs", "N")
	j := startJob(t, cmd)
	j.waitFor(t, "[beff] SKaMPI on 64")
	assert.NotContains(t, j.stderr(), "no lifeline", "every parent listens")
	assert.NotContains(t, j.stderr(), "cannot reach rank", "every child reaches its parent")
	pid := rankPid(t, bin, 2)
	require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
	j.wait(t, time.Now(), 2*time.Minute)
	assert.NotEqual(t, 0, j.code, "a job with a killed rank fails")
	t.Logf("stderr: %s", lastLines(j.stderr(), 8))
	// The lifeline (rank 0, told by a child or the parent of rank 2) or
	// the launcher names it, whichever speaks first: Open MPI's mpirun by
	// rank, MPICH's Hydra by process id (on stdout), and Hydra kills rank
	// 0 at once (beff run names the rank of that process id).
	want := `lost rank 2 \(on |process rank 2 with PID|PID ` + strconv.Itoa(pid) + ` RUNNING AT`
	assert.Regexp(t, want, j.stderr()+j.out.String())
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}
