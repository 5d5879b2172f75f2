package launch

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain makes the test binary a fake launcher when BEFF_FAKE_LAUNCHER
// is set: "-n N PROG" as a generic launcher's command line, PROG saying
// what it does.
func TestMain(m *testing.M) {
	if os.Getenv("BEFF_FAKE_LAUNCHER") == "1" {
		os.Exit(fakeLauncher(os.Args[len(os.Args)-1]))
	}
	os.Exit(m.Run())
}

func fakeLauncher(what string) int {
	out, errs := os.Stdout, os.Stderr
	switch what {
	case "ok":
		fmt.Fprint(out, "beff-seed: 1\nBenchmarkX/a\t       1\t  5 ns/op\nBenchmarkX/b\t       1\t  6 ns/op\nPASS\n")
		fmt.Fprint(errs, "[beff] progress\n")
		return 0
	case "watchdog":
		fmt.Fprint(errs, "beff: rank 1: watchdog: b_eff ring2 has made no progress for 31s (limit 30s, -beff.watchdog=10m0s); ending the job\n")
		return 137
	case "hydra-lost":
		fmt.Fprint(errs, "[beff] processes: rank 0 on vm (pid 122), rank 1 on vm (pid 123)\n")
		fmt.Fprint(out, "BenchmarkX/a\t       1\t  5 ns/op\n\n=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   PID 123 RUNNING AT vm\n=   KILLED BY SIGNAL: 9 (Killed)\n")
		return 9
	case "hydra-lifeline": // the lifeline named rank 2; Hydra names rank 1, which it killed
		fmt.Fprint(errs, "[beff] processes: rank 0 on vm (pid 122), rank 1 on vm (pid 123), rank 2 on vm (pid 124)\n")
		fmt.Fprint(errs, "beff: rank 0: lost rank 2 (on vm): it ended without finishing MPI (killed or crashed)\n")
		fmt.Fprint(out, "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   PID 123 RUNNING AT vm\n=   EXIT CODE: 9\n")
		return 9
	case "term":
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGTERM)
		fmt.Fprint(errs, "ready\n")
		<-ch
		fmt.Fprint(errs, "beff: rank 0: terminated (terminated) during b_eff ring2\n")
		return 143
	case "hang":
		signal.Ignore(syscall.SIGTERM)
		fmt.Fprint(errs, "ready\n")
		time.Sleep(time.Hour)
	}
	return 1
}

// fakeJob is a job of the fake launcher doing what.
func fakeJob(t *testing.T, what string, spec Spec, sigs <-chan os.Signal) (*Job, *bytes.Buffer) {
	t.Helper()
	t.Setenv("BEFF_FAKE_LAUNCHER", "1")
	self, err := os.Executable()
	require.NoError(t, err)
	var stderr bytes.Buffer
	return &Job{Launcher: &Launcher{Path: self, Family: Generic}, Spec: spec, Prog: what, Stderr: &stderr, Signals: sigs}, &stderr
}

func TestJob(t *testing.T) {
	tests := []struct {
		what      string
		want      Outcome
		wantErrIn string
	}{
		{"ok", Outcome{StdoutResults: 2}, "[beff] progress"},
		{"watchdog", Outcome{Code: 10, Why: "ended by the watchdog: rank 1: watchdog: b_eff ring2 has made no progress for 31s (limit 30s, -beff.watchdog=10m0s); ending the job"}, ""},
		{"hydra-lost", Outcome{Code: 11, Why: "a process was lost: the launcher says: KILLED BY SIGNAL: 9 (Killed)", Culprit: "rank 1 on vm (pid 123)", StdoutResults: 1},
			"=   PID 123 RUNNING AT vm"},
		{"hydra-lifeline", Outcome{Code: 11, Why: "a process was lost: rank 0: lost rank 2 (on vm): it ended without finishing MPI (killed or crashed)"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.what, func(t *testing.T) {
			j, stderr := fakeJob(t, tc.what, Spec{NP: 2}, nil)
			o, err := j.Run()
			require.NoError(t, err)
			assert.Equal(t, tc.want, o)
			assert.Contains(t, stderr.String(), tc.wantErrIn)
			assert.NotContains(t, stderr.String(), "BenchmarkX", "result lines on stdout are the file's copy, not passed on")
		})
	}
}

// TestJobSignal: a signal passed on ends the job, which says so.
func TestJobSignal(t *testing.T) {
	sigs := make(chan os.Signal, 1)
	j, stderr := fakeJob(t, "term", Spec{NP: 2}, sigs)
	ready := make(chan struct{})
	j.Line = func(l string) {
		if l == "ready" {
			close(ready)
		}
	}
	go func() { <-ready; sigs <- syscall.SIGTERM }()
	o, err := j.Run()
	require.NoError(t, err)
	assert.Equal(t, Outcome{Code: 143, Why: "terminated by SIGTERM"}, o)
	assert.Contains(t, stderr.String(), "beff: rank 0: terminated (terminated) during b_eff ring2")
}

// TestJobGuard: a launcher that outlives its limit is killed.
func TestJobGuard(t *testing.T) {
	j, stderr := fakeJob(t, "hang", Spec{NP: 2, Timeout: time.Millisecond}, nil)
	j.Launcher.Family = Generic
	o, err := j.Run()
	require.NoError(t, err)
	assert.Equal(t, Outcome{Code: 137, Why: "the job failed (exit 137)"}, o)
	assert.Contains(t, stderr.String(), "launch: the launcher is still running 10.001s after the job's limit; killing it")
}

func TestOutcome(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		rc    int
		sig   syscall.Signal
		want  Outcome
	}{
		{"success", []string{"[beff] done"}, 0, 0, Outcome{}},
		{"Open MPI names the lost rank", []string{"prterun noticed that process rank 1 with PID 4711 on node n1 exited on signal 9 (Killed)."}, 137, 0,
			Outcome{Code: 11, Why: "a process was lost: the launcher says: process rank 1 with PID 4711 on node n1 exited on signal 9 (Killed)."}},
		{"the harness's lifeline names it", []string{"beff: rank 0: lost rank 2 (on n2): it ended without finishing MPI (killed or crashed)"}, 11, 0,
			Outcome{Code: 11, Why: "a process was lost: rank 0: lost rank 2 (on n2): it ended without finishing MPI (killed or crashed)"}},
		{"validation", []string{"beff: rank 1: validation FAILED: byte 3 of the message from rank 0"}, 3, 0,
			Outcome{Code: 3, Why: "validation FAILED: byte 3 of the message from rank 0"}},
		{"the watchdog before what followed it", []string{"beff: rank 1: watchdog: x", "KILLED BY SIGNAL: 9 (Killed)"}, 9, 0,
			Outcome{Code: 10, Why: "ended by the watchdog: rank 1: watchdog: x"}},
		{"a bad flag", []string{"beff: -beff.mem=abc: not a number"}, 2, 0, Outcome{Code: 2, Why: "the job failed (exit 2)"}},
		{"terminated by the launcher", []string{"beff: rank 3: terminated (terminated) during y"}, 143, 0, Outcome{Code: 143, Why: "rank 3: terminated (terminated) during y"}},
		{"a signal passed on, though the launcher exited 0", nil, 0, syscall.SIGINT, Outcome{Code: 130, Why: "terminated by SIGINT"}},
		{"a failure without a code", nil, 0, 0, Outcome{}},
		{"the watchdog, though the launcher exited 0 (Hydra 4.2)", []string{"beff: rank 0: watchdog: x; ending the job (2 of 2 ranks said so)"}, 0, 0,
			Outcome{Code: 10, Why: "ended by the watchdog: rank 0: watchdog: x; ending the job (2 of 2 ranks said so)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := &watcher{}
			for _, l := range tc.lines {
				w.line(l)
			}
			assert.Equal(t, tc.want, w.outcome(tc.rc, tc.sig))
		})
	}
}

func TestIsOutputLine(t *testing.T) {
	for l, want := range map[string]bool{
		"BenchmarkBeff/pat=ring2\t 1\t 2 ns/op": true, "beff-seed: 42": true, "mpi-library: Open MPI v5.0.7": true,
		"Unit MB/s better=higher": true, "PASS": true, "": true, "goos: linux": true,
		"=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES": false, "Abort(1) on node 0: x": false,
		"[vm:01234] *** Process received signal ***": false, "Error: something": false,
	} {
		assert.Equal(t, want, isOutputLine(l), "%q", l)
	}
	assert.True(t, strings.HasPrefix(signalName(syscall.SIGKILL), "signal "))
}
