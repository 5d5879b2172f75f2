package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/beffio"
	"github.com/beff-suite/beff/suites/beffio/loops"
)

// TestReportErrors: the bad chunks a read found on any rank are counted
// on every rank, and rank 0 names each rank that saw some with its first.
func TestReportErrors(t *testing.T) {
	var logs [3]bytes.Buffer
	totals := make([]int64, 3)
	var mu sync.Mutex
	harnesstest.Fine(t, harnesstest.Run(t, 3, harness.Job{}, func(s *harness.Session) {
		s.Log = &logs[s.Rank]
		r, p := ioRun(s, &fakeIO{})
		var errs int64
		var f loops.ChunkFault
		if s.Rank == 1 {
			errs, f = 4, loops.ChunkFault{Rep: 2, Offset: 4096, ExpectFirst: 0xab, GotFirst: 0, ExpectLast: 0xcd, GotLast: 0xcd}
		}
		n := r.reportErrors(p, "partition 3, read, type scatter, pattern 1", errs, f)
		mu.Lock()
		totals[s.Rank] = n
		mu.Unlock()
	}))
	assert.Equal(t, []int64{4, 4, 4}, totals)
	assert.Equal(t, "beff: b_eff_io validation error: partition 3, read, type scatter, pattern 1, rank 1: 4 bad chunk(s); first in call 2 at file offset 4096: first element 0x0 (expected 0xab), last element 0xcd (expected 0xcd)\n", logs[0].String())
	assert.Empty(t, logs[1].String()+logs[2].String())

	harnesstest.Fine(t, harnesstest.Run(t, 2, harness.Job{}, func(s *harness.Session) {
		r, p := ioRun(s, &fakeIO{})
		assert.Zero(t, r.reportErrors(p, "x", 0, loops.ChunkFault{}), "no bad chunk: nothing gathered, nothing said")
	}))
}

// TestStopIO: every rank of the partition stops with ExitIO after rank 0
// said why.
func TestStopIO(t *testing.T) {
	var log bytes.Buffer
	ends := harnesstest.Run(t, 2, harness.Job{}, func(s *harness.Session) {
		if s.IsRoot() {
			s.Log = &log
		}
		r, p := ioRun(s, &fakeIO{})
		r.stopIO(p, "b_eff_io stopped by an I/O error at partition 2, write (see above)")
	})
	for rk, e := range ends {
		assert.Equal(t, ExitIO, e.Code, "rank %d", rk)
	}
	assert.Equal(t, "beff: b_eff_io stopped by an I/O error at partition 2, write (see above)\n", log.String())
}

// TestPathsAndFlags: a partition's file of a type, a file per rank for
// the separated type; the open flags of the reference's modes.
func TestPathsAndFlags(t *testing.T) {
	r := &run{}
	r.st.Dir = "/scratch/beffio-1"
	assert.Equal(t, "/scratch/beffio-1/beffio_n4_scatter.dat", r.path(4, beffio.Scatter, 3))
	assert.Equal(t, "/scratch/beffio-1/beffio_n4_separated_r3.dat", r.path(4, beffio.Separated, 3))
	assert.Equal(t, mpi.OpenFlags(0), openFlags(beffio.OpenModes{}))
	assert.Equal(t, mpi.Unique|mpi.DeleteOnClose|mpi.ReadWrite, openFlags(beffio.OpenModes{Unique: true, DeleteOnClose: true, ReadWrite: true}))
}

// TestDecideSegments: the segmented types' repetitions and segment size
// from the initial write's counts of types 0–2, the same on every rank
// (each computes it from the same counts).
func TestDecideSegments(t *testing.T) {
	table := beffio.Table(2 << 20)
	counts := map[int]int64{}
	for _, p := range table {
		if p.Type <= beffio.Separated {
			counts[p.No] = 3
		}
	}
	segs := make([]beffio.Segments, 2)
	var mu sync.Mutex
	harnesstest.Fine(t, harnesstest.Run(t, 2, harness.Job{}, func(s *harness.Session) {
		r, p := ioRun(s, &fakeIO{})
		r.table = table
		p.counts = map[int]int64{}
		for k, v := range counts {
			p.counts[k] = v
		}
		r.decideSegments(p)
		mu.Lock()
		segs[s.Rank] = p.seg
		mu.Unlock()
		for no, c := range p.seg.Reps {
			assert.Equal(t, c, p.counts[no], "pattern %d takes the segment's repetitions", no)
		}
	}))
	want, err := beffio.SegmentLayout(table, counts)
	require.NoError(t, err)
	assert.Equal(t, want, segs[0])
	assert.Equal(t, segs[0], segs[1])
	assert.Zero(t, want.Lseg%beffio.MiB, "a whole number of MiB")
	assert.True(t, strings.HasPrefix(beffio.PhaseKey(2, beffio.Write).String(), "n=2/acc=write"))
}

// TestPrepareDir: rank 0 makes a fresh directory (mode 0700) under the
// parent, every rank works in it, and cleanup removes it with the run's
// files; a parent where none can be made stops every rank as bad input.
func TestPrepareDir(t *testing.T) {
	parent := t.TempDir()
	dirs := make([]string, 2)
	var mu sync.Mutex
	harnesstest.Fine(t, harnesstest.Run(t, 2, harness.Job{}, func(s *harness.Session) {
		r, _ := ioRun(s, &fakeIO{})
		r.st.Parent = parent
		r.prepareDir()
		mu.Lock()
		dirs[s.Rank] = r.st.Dir
		mu.Unlock()
	}))
	require.Equal(t, dirs[0], dirs[1], "one directory for the job")
	require.True(t, strings.HasPrefix(dirs[0], parent+"/beffio-"), dirs[0])
	fi, err := os.Stat(dirs[0])
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	file := filepath.Join(dirs[0], "beffio_n1_scatter.dat")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	harnesstest.Fine(t, harnesstest.Run(t, 1, harness.Job{}, func(s *harness.Session) {
		r, _ := ioRun(s, &fakeIO{})
		r.st.Dir, r.files = dirs[0], []string{file}
		r.cleanup()
	}))
	assert.NoDirExists(t, dirs[0])

	ends := harnesstest.Run(t, 2, harness.Job{}, func(s *harness.Session) {
		r, _ := ioRun(s, &fakeIO{})
		r.st.Parent = filepath.Join(parent, "absent")
		r.prepareDir()
	})
	for rk, e := range ends {
		assert.Equal(t, harness.ExitBadInput, e.Code, "rank %d", rk)
	}
	assert.Equal(t, "cannot create a directory under "+filepath.Join(parent, "absent")+": give -beffio.dir", ends[0].Msg)
}

// TestPartitionTimes: a partition's time is the slowest of its ranks'
// on its rank 0; the ranks outside a partition wait for its phase with
// every other rank of the job.
func TestPartitionTimes(t *testing.T) {
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beffio.watchdog": "0"}) // no watchdog left running in the test binary
	times := make([]float64, 3)
	var mu sync.Mutex
	harnesstest.Fine(t, harnesstest.Run(t, 3, harness.Job{}, func(s *harness.Session) {
		r, p := ioRun(s, &fakeIO{})
		el := p.maxTime(0.1 * float64(s.Rank+1))
		mu.Lock()
		times[s.Rank] = el
		mu.Unlock()
		outside := &partition{n: 2}
		if s.Rank < 2 {
			outside.g = s.World()
		}
		r.waitPartition(outside, beffio.Write, 0)
	}))
	assert.InDeltaSlice(t, []float64{0.3, 0, 0}, times, 1e-12)
}
