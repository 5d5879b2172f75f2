package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunChecksFirst: beff run refuses a mistyped flag of the test
// binary, and a launcher of another MPI than the binary's, in one line
// with exit 2 before it launches anything: no process started, nothing
// under the results folder.
func TestRunChecksFirst(t *testing.T) {
	bin := mpiBinary(t, true)
	results := t.TempDir()
	code, stderr := runShort(t, beffRun(t, bin, "b_eff", results, "", "-beff.mme", "5"))
	assert.Equal(t, 2, code)
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1, "one line:\n%s", stderr)
	assert.Contains(t, stderr, "flag provided but not defined: -beff.mme (did you mean -beff.mem?)")
	assert.Contains(t, stderr, "nothing was launched")
	code, stderr = runShort(t, beffRun(t, bin, "skampy", results, ""))
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "names no suite; the suites are b_eff, b_eff_io, SKaMPI, congestion, links")
	entries, err := os.ReadDir(results)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing under the results folder")

	other := map[string]string{"openmpi": "mpiexec.mpich", "mpich": "mpiexec.openmpi"}[testLib(t).name]
	path, err := exec.LookPath(other)
	if err != nil {
		t.Logf("no %s here: the launcher of another MPI is not tried", other)
		return
	}
	cmd := beffRun(t, bin, "b_eff", results, "", "-test.short")
	cmd.Env = append(os.Environ(), "MPIEXEC="+path)
	code, stderr = runShort(t, cmd)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "rebuild it with the MPI you launch with")
	assert.Contains(t, stderr, "nothing was launched")
}

// runShort runs cmd, which launches nothing, for at most a minute and
// returns its exit code and stderr.
func runShort(t *testing.T, cmd *exec.Cmd) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), stderr.String()
		}
		require.NoError(t, err)
		return 0, stderr.String()
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v did not end within a minute: %s", cmd.Args, stderr.String())
	}
	return 0, ""
}
