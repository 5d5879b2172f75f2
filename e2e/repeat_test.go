package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRepeatedRuns runs each suite's quick run BEFF_REPEAT times (make
// trixie-test and make module-test set it) through beff run, as make
// bench does: every run must be stored, that is folded, which a run
// missing a line is not, and the launcher's stdout must have passed every
// result line on as well (beff run says when it lost some).
func TestRepeatedRuns(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("BEFF_REPEAT"))
	if n <= 0 {
		t.Skip("BEFF_REPEAT=N runs each quick suite N times")
	}
	bin := mpiBinary(t, true)
	for _, s := range []struct {
		bench string
		args  []string
	}{
		{"^BenchmarkBeff$", nil},
		{"^BenchmarkBeffIO$", []string{"-beffio.T=3"}},
		{"^BenchmarkSkampi$", nil},
	} {
		t.Run(strings.Trim(s.bench, "^$"), func(t *testing.T) {
			results := t.TempDir()
			whole := 0
			for i := range n {
				out, err := beffRun(t, bin, s.bench, results, "", append([]string{"-test.short"}, s.args...)...).CombinedOutput()
				if !assert.NoError(t, err, "run %d:\n%s", i+1, out) {
					continue
				}
				assert.NotContains(t, string(out), "the launcher's stdout lost", "run %d", i+1)
				assert.Contains(t, string(out), "beff run: stored ", "run %d", i+1)
				assert.Regexp(t, `\n  as pages: +\S+ report -o site \S+ +\(then open site/index.html\)\n  beside others: .*\n$`, string(out), "run %d: the job ends with where to look", i+1)
				if err == nil && !strings.Contains(string(out), "stdout lost") {
					whole++
				}
			}
			stored, _ := filepath.Glob(filepath.Join(results, "*.txt"))
			require.Len(t, stored, n, "every run stored")
			for _, f := range stored {
				lines, err := exec.Command("grep", "-c", "^Benchmark", f).Output()
				require.NoError(t, err)
				t.Logf("%s: %s lines", filepath.Base(f), strings.TrimSpace(string(lines)))
			}
			t.Logf("%s: %d of %d runs with every line in the file and on stdout", testLib(t).l.Version, whole, n)
		})
	}
}
