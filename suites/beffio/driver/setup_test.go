package driver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/suites/beffio"
)

func TestSetup(t *testing.T) {
	job := &harness.Job{Hosts: []string{"h", "h", "h", "h"}, MemMiB: 2048, TotalMiB: 8192, RootMiB: 8192, ProcsNode: 4}
	dir := t.TempDir()
	hints := filepath.Join(dir, "hints.txt")
	require.NoError(t, os.WriteFile(hints, []byte("type=shared l=1024 striping_unit=65536\n"), 0o644))
	cases := []harnesstest.SetupCase[Settings]{
		{Name: "default", Check: func(t *testing.T, st Settings) {
			assert.Equal(t, 150.0, st.T)
			assert.Equal(t, []int{2, 3, 4}, st.Partitions, "N = 4: medium partition 3")
			assert.Equal(t, int64(2048), st.MemMiB)
			assert.Equal(t, beffio.MPART(2048), st.MPART)
			assert.Equal(t, int64(8192), st.TotalMiB)
			assert.Equal(t, int64(8192), st.CacheMiB, "rank 0's node")
			assert.Equal(t, os.TempDir(), st.Parent, "the run's own directory goes under the temporary directory")
			assert.Equal(t, beffio.RewriteAll, st.Rewrite)
			assert.Equal(t, beffio.StopGeometric, st.Stop)
			assert.Equal(t, beffio.RulesPaper, st.Rules)
			assert.Equal(t, "off", st.DropCaches)
			assert.Positive(t, st.MaxData)
			assert.LessOrEqual(t, st.MaxData, TempMaxData, "at most 8 GiB in the temporary directory")
		}},
		{Name: "a directory of the user's", Flags: map[string]string{"beffio.dir": dir}, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, "half of the free space at the start", st.MaxDataWhy, "the file system under test: no 8 GiB bound")
		}},
		// before any case that sets -beffio.rewrite or -beffio.stop: a flag
		// once set stays set for harness.IsSet
		{Name: "reference", Flags: map[string]string{"beffio.reference": "true"}, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, beffio.RulesReference, st.Rules)
			assert.Equal(t, beffio.RewriteScatter, st.Rewrite, "the reference code rewrites the scatter type only")
			assert.Equal(t, beffio.StopBarrier, st.Stop)
		}},
		{Name: "reference, rewrite all", Flags: map[string]string{"beffio.reference": "true", "beffio.rewrite": "all"}, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, beffio.RewriteAll, st.Rewrite, "as the reference code's -rewrite")
		}},
		{Name: "reference, geometric", Flags: map[string]string{"beffio.reference": "true", "beffio.stop": "geometric"},
			Err: "-beffio.stop=geometric: -beffio.reference stops the timed write by the reference code's rule"},
		{Name: "short", Short: true, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, 6.0, st.T)
			assert.Equal(t, int64(8), st.MemMiB)
			assert.Equal(t, QuickMaxData, st.MaxData, "a quick run writes at most 1 GiB (the free space here is larger)")
		}},
		{Name: "partitions", Flags: map[string]string{"beffio.partitions": "4, 1"}, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, []int{1, 4}, st.Partitions)
		}},
		{Name: "dir and data", Flags: map[string]string{"beffio.dir": dir, "beffio.maxdata": "100"}, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, dir, st.Parent)
			assert.Empty(t, st.Dir, "made by the run")
			assert.Equal(t, int64(100)<<20, st.MaxData)
			assert.Equal(t, "-beffio.maxdata", st.MaxDataWhy)
		}},
		{Name: "hints", Flags: map[string]string{"beffio.hints": hints}, Check: func(t *testing.T, st Settings) {
			require.Len(t, st.Hints, 1)
			assert.Equal(t, int64(1024), st.Hints[0].L)
		}},
		{Name: "rewrite", Flags: map[string]string{"beffio.rewrite": "some"}, Err: "-beffio.rewrite=some: want all or scatter"},
		{Name: "sharedfp", Flags: map[string]string{"beffio.sharedfp": "maybe"}, Err: "-beffio.sharedfp=maybe: want auto or off"},
		{Name: "stop", Flags: map[string]string{"beffio.stop": "never"}, Err: "-beffio.stop=never: want geometric or barrier"},
		{Name: "partition too large", Flags: map[string]string{"beffio.partitions": "5"}, Err: "partition 5 is larger than the job (4 processes)"},
		{Name: "partition twice", Flags: map[string]string{"beffio.partitions": "2,2"}, Err: "partition 2 given twice"},
		{Name: "partition zero", Flags: map[string]string{"beffio.partitions": "0"}, Err: `"0" is not a positive number of processes`},
		{Name: "mem", Flags: map[string]string{"beffio.mem": "4096"}, Err: "more than the 2048 MiB"},
		{Name: "T", Flags: map[string]string{"beffio.T": "2"}, Err: "use at least 2.9 s"},
		{Name: "no dir", Flags: map[string]string{"beffio.dir": filepath.Join(dir, "absent")}, Err: "no such file or directory"},
		{Name: "maxdata", Flags: map[string]string{"beffio.maxdata": "-1"}, Err: "-beffio.maxdata=-1"},
		{Name: "bad hints", Flags: map[string]string{"beffio.hints": filepath.Join(dir, "absent.txt")}, Err: "-beffio.hints: open"},
	}
	harnesstest.CheckSetup(t, td.f.fs, job, td.f.setup, cases)
}

func TestConfig(t *testing.T) {
	job := &harness.Job{Hosts: []string{"h"}, MemMiB: 1024, TotalMiB: 1024, RootMiB: 1024}
	st, err := td.f.setup(job)
	require.NoError(t, err)
	require.NoError(t, setupState(job, st))
	lines := td.settings.Lines(job)
	require.Len(t, lines, 15, "with the file system of /tmp")
	assert.Equal(t, beffio.KeyT+": 150", lines[0])
	assert.Regexp(t, `^`+beffio.KeyFS+`: \S+ \S+`, lines[14], "its type and source")
	assert.Equal(t, beffio.KeyPartitions+": 1", lines[1])
	assert.Equal(t, beffio.KeyRules+": paper", lines[7])
	assert.Equal(t, beffio.KeyHints+": none", lines[12])
}

// setupState keeps st as the decided settings of b_eff_io in job, as the
// harness does.
func setupState(job *harness.Job, st any) error {
	raw, err := json.Marshal(st)
	job.SuiteState = map[string]json.RawMessage{name: raw}
	return err
}
