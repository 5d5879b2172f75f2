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
	"github.com/beff-suite/beff/suites/beff"
)

// partialBeff is the output of a short job of harnesstest.ShortJob with seed 77 that
// stopped after two measurements: its configuration lines and theirs.
func partialBeff(t *testing.T, lines ...string) string {
	t.Helper()
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beff.seed": "77", "beff.resume": "", "beff.reference": "false", "beff.mem": "0"})
	v, err := td.f.setup(harnesstest.ShortJob())
	require.NoError(t, err)
	st := v
	var b strings.Builder
	fmt.Fprintf(&b, "mpi-library: Open MPI v4.1.4\nmpi-thread: single\nmpi-procs: 2\nmpi-hosts: vm (2)\nbeff-mode: short (quick check, not a valid result)\n")
	for _, l := range st.lines() {
		b.WriteString(l + "\n")
	}
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	path := filepath.Join(t.TempDir(), "partial.txt")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beff.seed": ""})
	return path
}

// TestResumeBeff: a resumed run takes the partial output's seed, copies
// its measurements (writing each line and restoring the loop state from
// it) and refuses a file of another configuration, a line that is no
// measurement of b_eff, and the reference rules.
func TestResumeBeff(t *testing.T) {
	ring := beff.Name("ring2", 1, beff.Sendrecv)
	path := partialBeff(t, "BenchmarkBeff/"+ring+" 1 0 ns/op 1.5 MB/s 1.2 min-MB/s 1.4 avg-MB/s 0.8 ms/loop 1000 looplen 3 reps")
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beff.resume": path})
	job := harnesstest.ShortJob() // rank 0's job keeps the saved lines
	v, err := td.f.setup(job)
	require.NoError(t, err)
	st := v
	assert.Equal(t, uint64(77), st.Seed, "the file's seed")
	require.NotNil(t, st.Resume)
	assert.Equal(t, 1, st.Resume.Total())

	// a line of a size this run does not measure (the short run's sizes
	// skip 2 bytes) is not counted as copied: the count is what is copied
	other := beff.Name("ring2", 2, beff.Sendrecv)
	extra := partialBeff(t, "BenchmarkBeff/"+ring+" 1 0 ns/op 1.5 MB/s 1.2 min-MB/s 1.4 avg-MB/s 0.8 ms/loop 1000 looplen 3 reps",
		"BenchmarkBeff/"+other+" 1 0 ns/op 3 MB/s 2.4 min-MB/s 2.8 avg-MB/s 0.8 ms/loop 1000 looplen 3 reps")
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beff.resume": extra})
	v, err = td.f.setup(harnesstest.ShortJob())
	require.NoError(t, err)
	require.NotNil(t, v.Resume)
	assert.Equal(t, 1, v.Resume.Total())
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beff.resume": path})

	f := &fakeLoop{lens: map[int][]int{}, perIter: func(int, int) float64 { return 1e-6 }}
	harnesstest.Fine(t, harnesstest.Run(t, 1, *job, func(s *harness.Session) {
		r := testRun(s, f)
		r.st.Resume = st.Resume
		p := beff.RingPattern(1, 0)
		p.Name = "ring2"
		require.True(t, r.st.Resume.Next(ring))
		testing.Benchmark(func(b *testing.B) {
			if r.loops[loopKey{"ring2", beff.Sendrecv}] == nil {
				r.copySaved(b, point{p: p, si: 0, m: beff.Sendrecv}, ring)
			}
		})
		loop := 0.8e-3
		assert.Equal(t, &beff.LoopState{Len: 1000, Time: 0.8e-3, L: 1, MBps: 1.5, First: loop / 1000}, r.loops[loopKey{"ring2", beff.Sendrecv}], "the loop state of the copied line")
	}))

	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beff.mem": "16"})
	_, err = td.f.setup(harnesstest.ShortJob())
	assert.ErrorContains(t, err, "not the configuration of this run")
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beff.mem": "0", "beff.reference": "true"})
	_, err = td.f.setup(harnesstest.ShortJob())
	assert.ErrorContains(t, err, "-beff.resume: not with -beff.reference")

	bad := partialBeff(t, "BenchmarkBeff/"+ring+" 1 0 ns/op 1.5 MB/s 0 ms/loop 1000 looplen 3 reps")
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beff.resume": bad})
	_, err = td.f.setup(harnesstest.ShortJob())
	assert.ErrorContains(t, err, "not a measurement of b_eff")
}
