package e2e

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkKept checks what beff run leaves of a failed job in results:
// no results file, and at most one partial output under partial/, headed
// by the reason (which contains why), holding measured lines. It returns
// the partial output's path ("" when nothing was measured).
func checkKept(t *testing.T, results, why string) string {
	t.Helper()
	entries, err := os.ReadDir(results)
	require.NoError(t, err)
	for _, e := range entries {
		assert.Equal(t, "partial", e.Name(), "no results file is stored")
	}
	kept, _ := filepath.Glob(filepath.Join(results, "partial", "*.txt"))
	require.LessOrEqual(t, len(kept), 1)
	if len(kept) == 0 {
		return ""
	}
	data, err := os.ReadFile(kept[0])
	require.NoError(t, err)
	first, _, _ := strings.Cut(string(data), "\n")
	assert.Contains(t, first, "beff-partial: ", "the reason heads the kept output")
	assert.Contains(t, first, why)
	assert.Contains(t, string(data), "\nBenchmark", "it holds measured lines")
	return kept[0]
}

// beffRun is beff run of the test binary bin on 2 processes, storing
// into results.
func beffRun(t *testing.T, bin, bench, results, resume string, args ...string) *exec.Cmd {
	flags := []string{"run", "-np", "2", "-bin", bin, "-bench", bench, "-results", results, "-timeout", "300s"}
	if resume != "" {
		flags = append(flags, "-resume", resume)
	}
	cmd := exec.Command(beffCommand(t), append(append(flags, "--"), args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// TestBenchResume: beff run is sent SIGTERM (as scancel or ^C do)
// once b_eff has measured some lines: it exits with 143, keeps the lines
// under results/partial/ marked as terminated, stores no results file;
// resumed from that file the job copies those lines, measures the rest
// and stores a complete results file that folds, with the same
// measurements as a job that was not interrupted, and says what it
// copied.
func TestBenchResume(t *testing.T) {
	bin := mpiBinary(t, true)
	results := t.TempDir()
	cmd := beffRun(t, bin, "^BenchmarkBeff$", results, "", "-test.short", "-beff.lmax=4194304", "-beff.testpause=20ms")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var log strings.Builder
	signalled := false
	for l := range lines {
		log.WriteString(l + "\n")
		if _, part, ok := strings.Cut(l, "; the output goes to "); ok && !signalled {
			go func() { // once some lines are measured: they come every 20 ms
				for {
					if data, _ := os.ReadFile(part); strings.Count(string(data), "\nBenchmarkBeff/") >= 20 {
						cmd.Process.Signal(syscall.SIGTERM)
						return
					}
					time.Sleep(10 * time.Millisecond)
				}
			}()
			signalled = true
		}
	}
	err = cmd.Wait()
	require.True(t, signalled, "beff run did not name its output:\n%s", log.String())
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, log.String())
	assert.Equal(t, 143, ee.ExitCode(), log.String())
	kept := checkKept(t, results, "terminated by SIGTERM")
	require.NotEmpty(t, kept, log.String())
	data, err := os.ReadFile(kept)
	require.NoError(t, err)
	copied := strings.Count(string(data), "\nBenchmarkBeff/")
	t.Logf("kept %d lines after SIGTERM", copied)

	out, err := beffRun(t, bin, "^BenchmarkBeff$", results, kept, "-test.short", "-beff.lmax=4194304").CombinedOutput()
	require.NoError(t, err, "%s", out)
	stored, _ := filepath.Glob(filepath.Join(results, "*.txt"))
	require.Len(t, stored, 1, "%s", out)
	assert.Contains(t, string(out), "resumed: ", "the protocol says what was copied")
	assert.NoFileExists(t, kept, "the earlier partial output, now in the results file, is removed")
	res, err := os.ReadFile(stored[0])
	require.NoError(t, err)
	got := readBench(t, string(res), "Beff")
	assert.Equal(t, fmt.Sprintf("%d measurements copied from %s", copied, kept), got.config["beff-resumed"])
	plain := mpirun(t, 2, bin, append(quick, "-beff.lmax=4194304")...)
	require.Equal(t, 0, plain.code, plain.stderr)
	want := readBench(t, plain.stdout, "Beff")
	measured := 0
	for name := range got.count {
		if !strings.HasPrefix(name, "BeffFold/") {
			measured++
		}
	}
	assert.Equal(t, len(want.count), measured, "the resumed run has every measurement once")
	for name := range want.count {
		assert.Equal(t, 1, got.count[name], name)
	}
}

// TestBenchWatchdogExit: a job the watchdog ends (here: a limit of 1 ms,
// which the pauses of 600 ms between measurements exceed: the watchdog
// looks four times a second, and a look after a measurement's loop
// advanced starts its clock anew) exits from beff run
// with code 10 under either library (its processes end by SIGKILL, which
// the launcher reports as it likes) and keeps what it measured, marked
// as ended by the watchdog.
func TestBenchWatchdogExit(t *testing.T) {
	bin := mpiBinary(t, true)
	results := t.TempDir()
	out, err := beffRun(t, bin, "^BenchmarkBeff$", results, "", "-test.short", "-beff.testpause=600ms", "-beff.watchdog=1ms").CombinedOutput()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "%s", out)
	assert.Equal(t, 10, ee.ExitCode(), "%s", out)
	assert.Contains(t, string(out), "beff run: ended by the watchdog: rank ")
	checkKept(t, results, "ended by the watchdog")
}
