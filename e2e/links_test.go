package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/launch"
)

// TestLinksPairLoop runs the links suite's loop tests under the launcher
// on two processes: every measurement of a pair, stopped by its count and
// by its time cap, both members together, every stamp checked.
func TestLinksPairLoop(t *testing.T) {
	mpiBinary(t, true) // skips and checks like the others
	env, err := launch.BuildEnv()
	require.NoError(t, err)
	bin := filepath.Join(t.TempDir(), "links.test")
	cmd := exec.Command("go", "test", "-c", "-tags", "mpi", "-o", bin, "./suites/links/loops")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	res := runJob(t, testLib(t).command(t, 2, bin, "-test.run", "^TestPairOfTwo$", "-test.v"))
	require.Equal(t, 0, res.code, "stderr:\n%s\nstdout:\n%s", res.stderr, res.stdout)
	assert.Equal(t, 2, strings.Count(res.stdout, "--- PASS: TestPairOfTwo"), "both members ran it, none skipped:\n%s", res.stdout)
}
