package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/suites/skampi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
			for _, su := range skampiSuites(t, run) {
				assert.Equal(t, sync, su.Sync, "-skampi.sync replaces the file's sync in suite %s", su.Name)
			}
			checkSkampiPoints(t, np, run, res.stderr)
			out := foldStdout(t, res.stdout)
			assert.Contains(t, string(out), "SKaMPI")
			assert.Contains(t, string(out), "NOT VALID: short run")
		})
	}
}

// TestSkampiSkampi5Settings runs the suite file of SKaMPI 5's settings
// (tools/skampi5/beff-skampi5.yaml): one call per repetition at every
// point, the ping-pong's repetitions back to back, buffers cycled over
// 2 MiB, the settings in the configuration lines; it folds.
func TestSkampiSkampi5Settings(t *testing.T) {
	bin := mpiBinary(t, true)
	res := mpirun(t, 2, bin, append(quickSkampi, "-skampi.suites=tools/skampi5/beff-skampi5.yaml")...)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	run := readBench(t, res.stdout, skampi.Bench)
	suites := skampiSuites(t, run)
	require.Contains(t, suites, "pingpong")
	assert.Equal(t, skampi.SyncNone, suites["pingpong"].Sync)
	for _, su := range suites {
		assert.Equal(t, 1, su.Calls, su.Name)
		assert.Equal(t, skampi.TimerKeep, su.Timer, su.Name)
		assert.Equal(t, skampi.CacheCold, su.Cache, su.Name)
		assert.Equal(t, int64(2<<20), su.Span, su.Name)
	}
	require.NotEmpty(t, run.metrics)
	for name, m := range run.metrics {
		assert.Equal(t, 1.0, m[skampi.MetricCalls], "%s: one call per repetition", name)
		assert.Positive(t, m[skampi.MetricN], name)
	}
	foldStdout(t, res.stdout)
}

// skampiSuites reads the suites of a run from its configuration lines.
func skampiSuites(t *testing.T, run benchOut) map[string]*skampi.Setup {
	t.Helper()
	out := map[string]*skampi.Setup{}
	for k, v := range run.config {
		if strings.HasPrefix(k, skampi.KeySuite) {
			su, err := skampi.ParseSuiteLine(k, v)
			require.NoError(t, err)
			out[su.Name] = su
		}
	}
	require.NotEmpty(t, out, "suite lines")
	return out
}

// checkClockLine: the line of the run's clocks reads back, with one
// estimation at least and ⌈log2 p⌉ rounds each.
func checkClockLine(t *testing.T, np int, m map[string]float64) {
	t.Helper()
	require.NotNil(t, m, "a line %s", clocks.ReportName)
	rep, err := clocks.ParseReport(m)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, rep.Syncs, 1)
	assert.Equal(t, clocks.Rounds(np), rep.Rounds)
}

// checkSkampiPoints: every curve of the run's suites has points, each
// reported once with valid repetitions (but one, which may have ended at
// its budget with every repetition started late, and says so), a positive
// time and at most the short run's repetitions; collectives report their
// stragglers' spread.
// On one process the ping-pong and master-worker operations are left out;
// so are, with a note on stderr, the operations whose MPI 4 call the
// library lacks or that it is known to get wrong.
func checkSkampiPoints(t *testing.T, np int, run benchOut, stderr string) {
	t.Helper()
	seen := map[string]bool{}
	budgetStops := 0 // at most one point of a run may end at its budget without a valid repetition
	if strings.HasPrefix(run.config[skampi.KeyClock], "global") {
		assert.Nil(t, run.clock, "MPI_WTIME_IS_GLOBAL: no model, no line")
	} else {
		checkClockLine(t, np, run.clock)
	}
	for name, m := range run.metrics {
		assert.Equal(t, 1, run.count[name], "%s once", name)
		parts := strings.SplitN(name, "/", 4)
		method := ""
		if len(parts) > 2 && strings.HasPrefix(parts[2], "method=") {
			method = strings.TrimPrefix(parts[2], "method=")
		}
		seen[skampi.CurveKey(strings.TrimPrefix(parts[0], "suite="), strings.TrimPrefix(parts[1], "op="), method)] = true
		if m[skampi.MetricN] == 0 && m[skampi.MetricStop] == 3 && m[skampi.MetricInvalid] > 0 && budgetStops == 0 {
			// every repetition started late (a noisy core, window
			// synchronisation): the point ends at its budget and says so
			t.Logf("%s: no valid repetition of %v before the budget", name, m[skampi.MetricInvalid])
			budgetStops++
			continue
		}
		assert.Positive(t, m[skampi.MetricN], "%s: valid repetitions", name)
		assert.Positive(t, m[skampi.MetricUs], "%s: a positive time", name)
		assert.LessOrEqual(t, m[skampi.MetricN]+m[skampi.MetricInvalid], 100.0, "%s: -test.short caps the repetitions", name)
		if strings.Contains(name, "procs=") && !strings.Contains(name, "op=mw-") {
			assert.GreaterOrEqual(t, m[skampi.MetricRankMax], m[skampi.MetricRankMin], "%s: straggler spread", name)
		}
	}
	ops := map[string]bool{}
	for _, su := range skampiSuites(t, run) {
		for _, c := range su.Curves() {
			assert.True(t, seen[c.Key()], "%s measured", c.Key())
			ops[skampi.Ops[c.Op].Name] = true
		}
	}
	want := 0
	for _, o := range skampi.Ops {
		if o.MinProcs() <= np && !leftOutByLibrary(o, stderr) { // ping-pong, master-worker and one-sided need two processes
			want++
		}
	}
	assert.Len(t, ops, want, "every operation the job can run is in some suite")
}

// leftOutByLibrary says whether the run's notes (stderr) leave o out for
// its library: its MPI 4 call missing, or the operation known broken.
func leftOutByLibrary(o skampi.Op, stderr string) bool {
	named := regexp.MustCompile(`[:,] ` + regexp.QuoteMeta(o.Name) + `(,|;|$)`)
	for _, l := range strings.Split(stderr, "\n") {
		body, ok := strings.CutSuffix(strings.TrimSpace(l), ": not measured")
		switch {
		case !ok || !named.MatchString(body):
		case strings.Contains(body, "lacks the MPI 4 calls") && o.Needs != "" && strings.Contains(body, o.Needs):
			return true
		case strings.Contains(body, "left out of"):
			return true
		}
	}
	return false
}

// TestSkampiTypedValidationStops: a hand-written unpacking loop that
// puts one run of a message a byte too far passes the first and last
// byte of every message; the full check at the end of the point finds
// it, and the job stops with the report and exit code 3.
func TestSkampiTypedValidationStops(t *testing.T) {
	bin := mpiBinary(t, true)
	file := filepath.Join(t.TempDir(), "lu.yaml")
	require.NoError(t, os.WriteFile(file, []byte("suites:\n  - name: lu-y\n    ops: send-recv\n    send-type: vector(32,1,34,contiguous(5,double))\n    methods: [datatype, manual]\n    vary: none\n    length: 1\n"), 0o644))
	res := mpirun(t, 2, bin, append(quickSkampi, "-skampi.suites="+file, "-skampi.testfault-layout")...)
	assert.Equal(t, 3, res.code, "stderr:\n%s", res.stderr)
	assert.Contains(t, res.stderr, "validation FAILED: suite=lu-y/op=send-recv/method=manual/pair=max/L=1280")
	assert.Regexp(t, `rank \d of the point: 41 failed checks; first in call \d+, from sender \d, byte 21760: expected \d+, got 165`, res.stderr,
		"the middle run (16 of 32, 34·40 bytes apart) kept the receive buffer's fill: its 40 bytes and the hole byte after it differ")
	assert.Contains(t, res.stdout, "method=datatype", "the datatype point before it was measured")
	assert.NotContains(t, resultLines(res.stdout), "method=manual", "no line of the faulty point")
	assert.Contains(t, res.stdout, "\nbeff-partial: validation FAILED: suite=lu-y/op=send-recv/method=manual/", "the output says why it ends")
}

// TestSkampiLostPutStops: a put the origin skips in the check at the end
// of a point is found at the target, whose window kept its fill; the
// job stops with the report and exit code 3.
func TestSkampiLostPutStops(t *testing.T) {
	bin := mpiBinary(t, true)
	res := mpirun(t, 2, bin, append(quickSkampi, "-skampi.testfault-rma", "-skampi.ops=put")...)
	assert.Equal(t, 3, res.code, "stderr:\n%s", res.stderr)
	assert.Contains(t, res.stderr, "validation FAILED: suite=rma-fence/op=put/pair=max/L=1")
	assert.Regexp(t, `rank 1 of the point: 1 failed checks; first in call \d+, from sender 0, byte 0: expected \d+, got 165`, res.stderr)
	assert.NotContains(t, resultLines(res.stdout), "op=put/", "no line of the faulty point")
}

// TestSkampiTypeSignatureRefused: a suite whose send and receive types
// carry different data is refused before anything runs, naming the
// suite and the two signatures.
func TestSkampiTypeSignatureRefused(t *testing.T) {
	bin := mpiBinary(t, true)
	file := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(file, []byte("suites:\n  - name: halo\n    ops: send-recv\n    send-type: vector(4,2,8,double)\n    recv-type: contiguous(16,float)\n"), 0o644))
	res := mpirun(t, 2, bin, append(quickSkampi, "-skampi.suites="+file)...)
	assert.Equal(t, 2, res.code, "stderr:\n%s", res.stderr)
	assert.Contains(t, res.stderr, file+":4, "+file+":5: suite halo: on 2 processes: the send data is 8 double, the receive data 16 float")
	assert.Empty(t, strings.TrimSpace(res.stdout), "nothing measured")
}

// TestSkampiValidationStops: a corrupted message stops the job with the
// report and exit code 3 on every rank.
func TestSkampiValidationStops(t *testing.T) {
	bin := mpiBinary(t, true)
	res := mpirun(t, 2, bin, append(quickSkampi, "-skampi.testfault", "-skampi.ops=send-recv")...)
	assert.Equal(t, 3, res.code, "stderr:\n%s", res.stderr)
	assert.Contains(t, res.stderr, "validation FAILED: suite=pingpong/op=send-recv/pair=max/L=1")
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
		{3, "-skampi.eps=abc", `-skampi.eps: eps: "abc": want a number`},
		{3, "-skampi.min=200", "-skampi.min: min-reps: 200 is above max-reps 100 (-test.short)"},
		{3, "-skampi.L=64:1", "the start 64 is above the end 1"},
		{3, "-skampi.step=1", "a factor above 1"},
		{3, "-skampi.ops=allreduse", `no operation "allreduse": want all, a pattern`},
		{3, "-skampi.procs=4", "from 1 to 3 (the job has 3 processes)"},
		{1, "-skampi.ops=send-recv", "needs 2 processes; the job has 1"},
		{3, "-skampi.sync=fence", "want window or barrier"},
		{3, "-skampi.chunks=0", "from 1 to"},
		{3, "-skampi.suites=/nonexistent.yaml", "-skampi.suites: open /nonexistent.yaml: no such file or directory"},
		{3, "-skampi.suites=e2e/testdata/skampi-bad-suites.yaml", "e2e/testdata/skampi-bad-suites.yaml:7: eps: 3: want a relative error between 0 and 1"},
		{3, "-skampi.resume=/nonexistent.txt", "-skampi.resume: open /nonexistent.txt: no such file or directory"},
		{3, "-skampi.resume=e2e/testdata/short-np2.txt", "no line of BenchmarkSkampi to resume from"},
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

// resumeSuites plans the resume test: a quick suite, one long enough to
// be killed in, and a last one.
const resumeSuites = `
defaults:
  budget: 100ms
suites:
  - name: first
    ops: send-recv
    lengths: 1:64
  - name: slow
    ops: [allreduce, bcast]
    lengths: 1:1Mi
    min-reps: 30
  - name: last
    ops: wtime
`

// TestSkampiResume kills one rank (kill -9) while the second suite runs,
// then resumes from the partial output: the resumed output has every
// point of the plan exactly once, the finished curves copied as they
// were, the curve that was running measured again after all others; a
// resume with another configuration is refused with the difference named.
func TestSkampiResume(t *testing.T) {
	bin := mpiBinary(t, true)
	dir := t.TempDir()
	suites := filepath.Join(dir, "suites.yaml")
	require.NoError(t, os.WriteFile(suites, []byte(resumeSuites), 0o644))
	args := []string{"-test.run", "^$", "-test.bench", "^BenchmarkSkampi$", "-skampi.suites=" + suites}
	partial := filepath.Join(dir, "partial.txt")
	start := time.Now()
	pid := killDuring(t, bin, partial, "suite=slow/op=allreduce/", args)
	t.Logf("killed rank 1 (pid %d); the job ended after %v", pid, time.Since(start).Round(time.Millisecond))
	part := readBench(t, readFile(t, partial), skampi.Bench)
	require.NotEmpty(t, part.metrics, "points were flushed before the kill")

	start = time.Now()
	res := mpirun(t, 2, bin, append(args, "-skampi.resume="+partial)...)
	t.Logf("resumed in %v", time.Since(start).Round(time.Millisecond))
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	whole := readBench(t, res.stdout, skampi.Bench)
	assert.Contains(t, whole.config[skampi.KeyResumed], "copied from "+partial)
	want := planNames(t, whole)
	assert.Len(t, whole.metrics, len(want))
	for _, n := range want {
		assert.Equal(t, 1, whole.count[n], "%s once", n)
	}
	for name, m := range part.metrics {
		if strings.HasPrefix(name, "suite=first/") {
			assert.Equal(t, m, whole.metrics[name], "%s copied as it was", name)
		}
	}
	order := benchOrder(res.stdout)
	assert.Equal(t, clocks.ReportName, order[len(order)-1], "the clocks' line ends the run")
	assert.True(t, strings.HasPrefix(order[len(order)-2], "suite=slow/op=allreduce/"), "the curve that was running comes last: %v", order[len(order)-3:])

	bad := mpirun(t, 2, bin, append(args, "-skampi.resume="+partial, "-skampi.eps=0.1")...)
	assert.Equal(t, 2, bad.code, "stderr:\n%s", bad.stderr)
	assert.Contains(t, bad.stderr, "not the configuration of this run")
	assert.Regexp(t, `skampi-suite-first: the file has "[^"]*eps=0\.03[^"]*", this run "[^"]*eps=0\.1`, bad.stderr)
	assert.Empty(t, bad.stdout)
}

// killDuring runs bin on 2 processes with stdout to out and kills rank 1
// with SIGKILL as soon as a line containing marker is in out; it returns
// the pid it killed once the job has ended.
func killDuring(t *testing.T, bin, out, marker string, args []string) int {
	t.Helper()
	f, err := os.Create(out)
	require.NoError(t, err)
	defer f.Close()
	cmd := testLib(t).command(t, 2, bin, args...)
	cmd.Stdout = f
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case err := <-done:
			t.Fatalf("the job ended (%v) before %q appeared", err, marker)
		case <-time.After(20 * time.Millisecond):
		}
		if strings.Contains(readFile(t, out), marker) {
			break
		}
	}
	pid := rankPid(t, bin, 1)
	require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
	err = <-done
	require.Error(t, err, "a job with a killed rank fails")
	return pid
}

// rankPid finds the process of bin that is rank of the job.
func rankPid(t *testing.T, bin string, rank int) int {
	t.Helper()
	dirs, err := os.ReadDir("/proc")
	require.NoError(t, err)
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		env, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if strings.HasPrefix(string(cmdline), bin+"\x00") && testLib(t).rankOf(string(env), rank) {
			return pid
		}
	}
	t.Fatalf("no process of rank %d of %s", rank, bin)
	return 0
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// planNames are the names of every point the run's suites plan before
// refinement.
func planNames(t *testing.T, run benchOut) []string {
	var out []string
	for _, su := range skampiSuites(t, run) {
		for _, c := range su.Curves() {
			for _, p := range c.Grid() {
				out = append(out, p.Name())
			}
		}
	}
	return out
}

// benchOrder lists the sub-benchmark names of BenchmarkSkampi lines in
// output order.
func benchOrder(out string) []string {
	var names []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(f[0], "BenchmarkSkampi/") {
			names = append(names, strings.TrimPrefix(f[0], "BenchmarkSkampi/"))
		}
	}
	return names
}

// TestSkampiPartitionedThreads: at -mpi.thread=multiple the partitions of
// a partitioned message are marked ready by up to 4 threads, one per
// partition at most, each message checked; the lines say how many. A
// library without partitioned requests (or known to hang in them) leaves
// the operation out and the run has nothing to measure: skipped. Barrier
// synchronisation: on 2 cores the threads of both processes share them,
// and a window would rarely find both in time.
func TestSkampiPartitionedThreads(t *testing.T) {
	bin := mpiBinary(t, true)
	file := filepath.Join(t.TempDir(), "part.yaml")
	require.NoError(t, os.WriteFile(file, []byte("suites:\n  - name: part\n    ops: psend-precv\n    vary: chunks\n    chunks: 1,2,8\n    length: 64\n"), 0o644))
	res := mpirun(t, 2, bin, append(quickSkampi, "-skampi.suites="+file, "-skampi.sync=barrier", "-mpi.thread=multiple")...)
	if res.code == 2 && strings.Contains(res.stderr, "nothing to measure") {
		t.Skipf("this library has no partitioned requests here: %s", strings.TrimSpace(res.stderr))
	}
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	run := readBench(t, res.stdout, skampi.Bench)
	want := map[string]float64{"chunks=1": 1, "chunks=2": 2, "chunks=8": 4}
	if run.config["mpi-thread"] != "multiple" {
		want = map[string]float64{"chunks=1": 1, "chunks=2": 1, "chunks=8": 1}
	}
	require.Len(t, run.metrics, 3)
	for name, m := range run.metrics {
		for part, threads := range want {
			if strings.Contains(name, "/"+part+"/") {
				assert.Equal(t, threads, m[skampi.MetricThreads], name)
			}
		}
		assert.Positive(t, m[skampi.MetricN], name)
	}
}
