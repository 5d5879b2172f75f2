package driver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/internal/results"
)

// partialOutput is the output of a job of harnesstest.ShortJob and the suite file
// suites that stopped in its second curve: its configuration lines (as
// the driver writes them), the first curve's three points and the
// second's first.
func partialOutput(t *testing.T, suites string) (string, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "s.yaml")
	require.NoError(t, os.WriteFile(file, []byte(suites), 0o644))
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.suites": file})
	v, err := td.f.setup(harnesstest.ShortJob())
	require.NoError(t, err)
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	job := harnesstest.ShortJob()
	job.SuiteState = map[string]json.RawMessage{name: raw}
	var b strings.Builder
	fmt.Fprintf(&b, "mpi-library: %s\nmpi-thread: single\nmpi-procs: 2\nmpi-hosts: vm (2)\nbeff-mode: %s\n", job.Library, results.ModeShort)
	for _, l := range td.settings.Lines(job) {
		b.WriteString(l + "\n")
	}
	for _, l := range []int{1, 8, 64} {
		fmt.Fprintf(&b, "BenchmarkSkampi/suite=pp/op=send-recv/pair=max/L=%d 1 2.5 us 2.4 median-us 2.3 min-us 2.6 p90-us 2.7 p99-us 0.01 rse 8 n 0 invalid 1 calls 1 stop\n", l)
	}
	// the next curve had begun: the first is finished
	b.WriteString("BenchmarkSkampi/suite=b/op=bcast/procs=2/L=256 1 7.5 us 7.4 median-us 7.3 min-us 7.6 p90-us 7.7 p99-us 0.01 rse 8 n 0 invalid 1 calls 1 stop 7 rank-min-us 7.2 rank-med-us 7.5 rank-max-us\n")
	path := filepath.Join(t.TempDir(), "partial.txt")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return file, path
}

// TestResume: the run of the same configuration copies the curves a
// partial output finished and measures the others first-unfinished
// first; another configuration, or no such file, is refused with why.
func TestResume(t *testing.T) {
	_, path := partialOutput(t, "suites:\n  - name: pp\n    ops: send-recv\n    lengths: 1:64\n    step: 8\n  - name: b\n    ops: bcast\n    vary: none\n")
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.resume": path})
	v, err := td.f.setup(harnesstest.ShortJob())
	require.NoError(t, err)
	st := v
	require.NotNil(t, st.Resume)
	assert.Positive(t, st.Resume.Points)
	assert.Regexp(t, `^\d+ curves \(\d+ points\) copied from `+path+`$`, st.Resume.describe())
	order := st.order()
	require.Len(t, order, len(st.curves()), "every curve once")
	assert.Equal(t, 3, st.Resume.Points, "the finished curve's three points")
	require.Len(t, st.Resume.Done, 1)
	var pp, b int
	for i, c := range order {
		if c.Suite.Name == "pp" {
			pp = i
			assert.Len(t, st.Resume.saved(c), 3, "copied")
		} else {
			b = i
			assert.Nil(t, st.Resume.saved(c), "measured")
		}
	}
	assert.NotEqual(t, pp, b)
	var none *Resume
	assert.Nil(t, none.saved(order[0]), "no resume, nothing saved")

	other := harnesstest.ShortJob()
	other.Hosts = []string{"vm", "vm", "vm"}
	_, err = td.f.setup(other)
	assert.ErrorContains(t, err, "-skampi.resume="+path+": not the configuration of this run:")
	assert.ErrorContains(t, err, "mpi-procs")

	// a finished curve with a point of its grid missing (an edited file)
	// is measured again, not copied with a hole
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var kept []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.Contains(l, "/L=8 ") {
			kept = append(kept, l)
		}
	}
	holed := filepath.Join(t.TempDir(), "holed.txt")
	require.NoError(t, os.WriteFile(holed, []byte(strings.Join(kept, "\n")), 0o644))
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.resume": holed})
	v, err = td.f.setup(harnesstest.ShortJob())
	require.NoError(t, err)
	st = v
	require.NotNil(t, st.Resume)
	assert.Empty(t, st.Resume.Done, "no curve copied")
	assert.Equal(t, 0, st.Resume.Points)

	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.resume": filepath.Join(t.TempDir(), "none.txt")})
	_, err = td.f.setup(harnesstest.ShortJob())
	assert.ErrorContains(t, err, "-skampi.resume: ")
}
