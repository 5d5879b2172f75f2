package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/suites/beffio"
)

// ioResumeJob is a short job of 2 processes on one host.
func ioResumeJob() *harness.Job {
	return &harness.Job{Hosts: []string{"h", "h"}, MemMiB: 1024, TotalMiB: 2048, RootMiB: 2048, ProcsNode: 2, Thread: "single",
		Short: true, Library: "Open MPI v4.1.4"}
}

// partialIO is the output of a job of ioResumeJob with partitions 1 and
// 2 that finished partition 1 (its three phases) and began partition 2.
func partialIO(t *testing.T) string {
	t.Helper()
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beffio.partitions": "1,2", "beffio.resume": ""})
	v, err := td.f.setup(ioResumeJob())
	require.NoError(t, err)
	st := v
	var b strings.Builder
	b.WriteString("mpi-library: Open MPI v4.1.4\nmpi-thread: single\nmpi-procs: 2\nmpi-hosts: h (2)\nbeff-mode: short (quick check, not a valid result)\n")
	for _, l := range st.lines() {
		b.WriteString(l + "\n")
	}
	for _, k := range beffio.PartitionKeys(1, st.Rewrite, beffio.Table(st.MPART)) {
		b.WriteString("BenchmarkBeffIO/" + k.String() + " 1 0 ns/op 100 MB/s 10 MB 0.1 s\n")
	}
	b.WriteString("BenchmarkBeffIO/n=2/acc=write/type=scatter/pat=total 1 0 ns/op 90 MB/s 10 MB 0.11 s\n")
	path := filepath.Join(t.TempDir(), "partial.txt")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// TestResumeIO: a resumed run copies the partitions whose three phases
// the earlier job finished, only their lines, and measures the others; it
// refuses another configuration and the test fault.
func TestResumeIO(t *testing.T) {
	path := partialIO(t)
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beffio.resume": path})
	v, err := td.f.setup(ioResumeJob())
	require.NoError(t, err)
	st := v
	assert.Equal(t, []int{1}, st.Copied, "partition 1 is whole, partition 2 is measured again")
	require.NotNil(t, st.Resume)
	whole := len(beffio.PartitionKeys(1, st.Rewrite, beffio.Table(st.MPART)))
	assert.Equal(t, whole, st.Resume.Total(), "partition 1's lines only")
	for _, n := range st.Resume.Order {
		assert.True(t, strings.HasPrefix(n, "n=1/"), n)
	}
	job := ioResumeJob()
	require.NoError(t, setupState(job, st))
	lines := td.settings.Lines(job)
	assert.Equal(t, fmt.Sprintf("%s: %d lines of partitions 1 copied from %s", beffio.KeyResumed, whole, path), lines[len(lines)-1])

	// a pattern line of partition 1 deleted: the partition is not whole
	// and is measured again
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	holed := filepath.Join(t.TempDir(), "holed.txt")
	require.NoError(t, os.WriteFile(holed, []byte(strings.Replace(string(data), "BenchmarkBeffIO/n=1/acc=read/", "BenchmarkBeffIO/n=3/acc=read/", 1)), 0o644))
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beffio.resume": holed})
	v, err = td.f.setup(ioResumeJob())
	require.NoError(t, err)
	st = v
	assert.Empty(t, st.Copied)
	assert.Nil(t, st.Resume)
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beffio.resume": path})

	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beffio.partitions": "2"})
	_, err = td.f.setup(ioResumeJob())
	assert.ErrorContains(t, err, "not the configuration of this run")
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beffio.partitions": "1,2", "beffio.testfault": "true"})
	_, err = td.f.setup(ioResumeJob())
	assert.EqualError(t, err, "-beffio.resume: not with -beffio.testfault")
}
