package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/report"
)

// TestMain lets a test run this binary as beff in a child process
// (BEFF_TEST_AS_BEFF=1), which ends with its peak resident memory on
// stderr. (Not the kernel's rusage of the child: its maxrss counts the
// test process's memory, which the child shared until its exec.)
func TestMain(m *testing.M) {
	if os.Getenv("BEFF_TEST_AS_BEFF") == "1" {
		boundMemory()
		code := beffMain(os.Stdout, os.Stderr, os.Args[1:])
		status, _ := os.ReadFile("/proc/self/status")
		if m := vmHWM.FindSubmatch(status); m != nil {
			fmt.Fprintf(os.Stderr, "peak-kib: %s\n", m[1])
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}

var (
	vmHWM   = regexp.MustCompile(`(?m)^VmHWM:\s+(\d+) kB$`)
	peakKiB = regexp.MustCompile(`(?m)^peak-kib: (\d+)$`)
)

// readerBound is the readers' peak memory the README states for files of
// up to 64 MiB.
const readerBound = 600 << 20

// peakOf runs beff with args in a child process and returns its exit
// code, stderr and peak resident memory in bytes.
func peakOf(t *testing.T, args ...string) (int, string, int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "BEFF_TEST_AS_BEFF=1", "GOMEMLIMIT=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	m := peakKiB.FindStringSubmatch(stderr.String())
	require.NotNil(t, m, "the child's peak memory: %s", stderr.String())
	kib, err := strconv.ParseInt(m[1], 10, 64)
	require.NoError(t, err)
	return code, stderr.String(), kib << 10
}

// configHeavy writes a b_eff run with about size bytes of configuration
// lines (1 KB each) after its own.
func configHeavy(t *testing.T, dir string, size int) string {
	t.Helper()
	run, err := os.ReadFile("testdata/short-np2.txt")
	require.NoError(t, err)
	head, tail, ok := bytes.Cut(run, []byte("\nBenchmark"))
	require.True(t, ok)
	var b bytes.Buffer
	b.Write(head)
	note := strings.Repeat("v", 1000)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "\nx-note-%06d: %s", i, note)
	}
	b.WriteString("\nBenchmark")
	b.Write(tail)
	p := filepath.Join(dir, "config-heavy.txt")
	require.NoError(t, os.WriteFile(p, b.Bytes(), 0o644))
	return p
}

// manyRuns writes n one-line SKaMPI runs of one configuration.
func manyRuns(t *testing.T, dir string, n int) string {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("mpi-library: synthetic\nmpi-procs: 4\nmpi-hosts: a (2), b (2)\nmpi-oversubscribed: no\nbeff-mode: full\n" +
		"skampi-suites: synth.yaml sha256:0123456789abcdef\n" +
		"skampi-suite-local: ops=wtime vary=none lengths=1:1 step=2 refine=false points=0 length=256 procs=4 chunks=16 pair=max eps=0.03 min-reps=8 max-reps=1000 budget=1s time=0s sync=window cache=auto warmup=2\n" +
		"skampi-wtick-s: 1e-09\nskampi-timer-s: 3e-08\nskampi-clock: offsets (best of 50 ping-pongs per rank)\n")
	for i := range n {
		v := 0.03 + float64(i)*1e-6
		fmt.Fprintf(&b, "BenchmarkSkampi/suite=local/op=wtime 1 100 calls 0 invalid %.6f median-us 0.029 min-us 8 n 0.050 p90-us 0.060 p99-us 0.001 rse 1 stop %.6f us 5 window-us\n", v, v)
	}
	p := filepath.Join(dir, "many-runs.txt")
	require.NoError(t, os.WriteFile(p, b.Bytes(), 0o644))
	return p
}

// TestReaderMemory: fold, fold -json and report stay within the README's
// bound on a 60 MB file of configuration and on a file of 10,000 runs,
// whose report gives pages to the newest DefaultRunPages runs only.
func TestReaderMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes files of 60 MB")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc/self/status to read a process's peak memory from (Linux only)")
	}
	dir := t.TempDir()
	for _, input := range []string{configHeavy(t, dir, 60<<20), manyRuns(t, dir, 10000)} {
		site := filepath.Join(dir, "site-"+filepath.Base(input))
		for _, args := range [][]string{{"fold", input}, {"fold", "-json", input}, {"report", "-o", site, input}} {
			code, stderr, peak := peakOf(t, args...)
			require.Equal(t, 0, code, stderr)
			t.Logf("%s %s: peak %.0f MiB", strings.Join(args[:len(args)-1], " "), filepath.Base(input), float64(peak)/(1<<20))
			assert.LessOrEqual(t, peak, int64(readerBound), "%v", args)
		}
		if strings.HasPrefix(filepath.Base(input), "many") {
			pages, err := os.ReadDir(filepath.Join(site, "runs"))
			require.NoError(t, err)
			assert.Len(t, pages, report.DefaultRunPages)
		}
	}
}
