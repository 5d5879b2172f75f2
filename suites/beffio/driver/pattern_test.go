package driver

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/beffio"
	"github.com/beff-suite/beff/suites/beffio/loops"
)

// A fakeIO stands for MPI-IO and the clock on one simulated rank: every
// call takes perCall seconds of the rank's clock; call number failAt (if
// positive) fails.
type fakeIO struct {
	now     float64
	perCall float64
	failAt  int64
	batches []int64
}

func (f *fakeIO) clock() float64 { return f.now }

func (f *fakeIO) calls(p *loops.PatternCalls, c0, k int64, buf *mpi.Buffer) (int64, loops.ChunkFault, error) {
	f.batches = append(f.batches, k)
	f.now += float64(k) * f.perCall
	if f.failAt > 0 && c0 < f.failAt && f.failAt <= c0+k {
		return 0, loops.ChunkFault{}, errors.New("No space left on device")
	}
	return 0, loops.ChunkFault{}, nil
}

// ioRun is a b_eff_io run on a simulated rank with its fake I/O, one
// partition of every rank, a schedule of 10 time units.
func ioRun(s *harness.Session, f *fakeIO) (*run, *partition) {
	r := &run{f: td.f, s: s, world: s.World(), clock: f.clock, ioCalls: f.calls, sumU: 10}
	p := &partition{n: s.Size, comm: mpi.CommNull, g: s.World()}
	return r, p
}

// geometric runs untilGeometric on n simulated ranks whose calls take
// perCall(rank) and returns each rank's fake and rank 0's result.
func geometric(t *testing.T, n int, tPart float64, maxData int64, pat beffio.AccessPattern, fakes []*fakeIO) ([]End, measured) {
	t.Helper()
	var m0 measured
	var mu sync.Mutex
	ends := harnesstest.Run(t, n, harness.Job{}, func(s *harness.Session) {
		f := fakes[s.Rank]
		r, p := ioRun(s, f)
		r.st.MaxData = maxData
		r.parts = []*partition{p}
		r.table = beffio.Table(2 << 20)
		c := &calls{buf: nil, fn: r.ioCalls, c: &loops.PatternCalls{L: pat.L, Len: pat.Mem}}
		m := r.untilGeometric(p, c, pat, tPart, 0, "a pattern")
		if s.IsRoot() {
			mu.Lock()
			m0 = m
			mu.Unlock()
		}
	})
	return ends, m0
}

// End is an ending of a simulated rank.
type End = harnesstest.End

// TestGeometricStop: the time-driven write grows its batches (at most
// doubling), stops when the slowest rank's time reaches the pattern's
// share of the partition's time, and every rank runs the same calls.
func TestGeometricStop(t *testing.T) {
	pat := beffio.AccessPattern{No: 1, Type: beffio.Scatter, L: 1 << 20, Mem: 1 << 20, U: 2}
	fakes := []*fakeIO{{perCall: 1e-3}, {perCall: 2e-3}, {perCall: 1.5e-3}}
	ends, m := geometric(t, 3, 1.0, 0, pat, fakes) // the pattern's time: 1 s · 2/10
	harnesstest.Fine(t, ends)
	for r, f := range fakes {
		assert.Equal(t, fakes[0].batches, f.batches, "rank %d ran the calls rank 0 decided", r)
	}
	total := int64(0)
	for i, k := range fakes[0].batches {
		if i > 0 {
			assert.LessOrEqual(t, k, 2*fakes[0].batches[i-1], "batch %d at most doubles", i)
		}
		total += k
	}
	slowest := float64(total) * 2e-3
	assert.InDelta(t, 0.2, slowest, 2e-3, "the slowest rank's time stops at the pattern's 0.2 s")
	assert.Equal(t, int64(len(fakes[0].batches)), m.stop.Decisions)
	assert.False(t, m.capped)
}

// TestGeometricCap: the data budget caps the calls before the time is up,
// and rank 0 says so.
func TestGeometricCap(t *testing.T) {
	pat := beffio.AccessPattern{No: 1, Type: beffio.Scatter, L: 1 << 20, Mem: 1 << 20, U: 2}
	table := beffio.Table(2 << 20)
	maxData := int64(64 << 20)
	limit := beffio.CallCap(maxData, 1, table, pat, 2)
	require.Positive(t, limit)
	fakes := []*fakeIO{{perCall: 1e-4}, {perCall: 1e-4}}
	ends, m := geometric(t, 2, 100, maxData, pat, fakes)
	harnesstest.Fine(t, ends)
	var total int64
	for _, k := range fakes[1].batches {
		total += k
	}
	assert.Equal(t, limit, total, "the calls stop at the cap")
	assert.True(t, m.capped)
}

// TestGeometricFailure: a call that fails on one rank stops the pattern
// on every rank at the next decision, and the job with ExitIO after the
// partition agreed on the error.
func TestGeometricFailure(t *testing.T) {
	pat := beffio.AccessPattern{No: 1, Type: beffio.Scatter, L: 1 << 20, Mem: 1 << 20, U: 2}
	fakes := []*fakeIO{{perCall: 1e-3}, {perCall: 1e-3, failAt: 5}}
	ends, _ := geometric(t, 2, 1.0, 0, pat, fakes)
	for r, e := range ends {
		assert.Equal(t, ExitIO, e.Code, "rank %d", r)
	}
	assert.Equal(t, fakes[0].batches, fakes[1].batches, "no rank ran on")
	var total int64
	for _, k := range fakes[1].batches {
		total += k
	}
	assert.GreaterOrEqual(t, total, int64(5))
	assert.Less(t, total, int64(16), "stopped at the batch that failed")
}

// TestAgreeIO: an error on no rank goes on; on one rank it stops every
// rank of the partition with ExitIO.
func TestAgreeIO(t *testing.T) {
	harnesstest.Fine(t, harnesstest.Run(t, 3, harness.Job{}, func(s *harness.Session) {
		r, p := ioRun(s, &fakeIO{})
		r.agreeIO(p, "opening", nil)
	}))
	ends := harnesstest.Run(t, 3, harness.Job{}, func(s *harness.Session) {
		r, p := ioRun(s, &fakeIO{})
		var err error
		if s.Rank == 2 {
			err = errors.New("Permission denied")
		}
		r.agreeIO(p, "opening", err)
		t.Errorf("rank %d went on after an I/O error", s.Rank)
	})
	for rk, e := range ends {
		assert.Equal(t, ExitIO, e.Code, "rank %d", rk)
	}
}

// TestCheckWritten: rank 0 checks the shared file against the farthest
// byte any rank wrote; a size that shows only after a moment (a client
// that caches attributes) passes, said once on stderr; a separated file
// is each rank's own.
func TestCheckWritten(t *testing.T) {
	dir := t.TempDir()
	shared := filepath.Join(dir, "shared.dat")
	require.NoError(t, os.WriteFile(shared, make([]byte, 100), 0o644))
	var logs [3]bytes.Buffer
	ends := harnesstest.Run(t, 3, harness.Job{}, func(s *harness.Session) {
		s.Log = &logs[s.Rank]
		r, p := ioRun(s, &fakeIO{})
		if s.IsRoot() {
			go func() { // the last 100 bytes arrive late
				time.Sleep(50 * time.Millisecond)
				os.WriteFile(shared, make([]byte, 200), 0o644)
			}()
		}
		assert.NoError(t, r.checkWritten(p, beffio.Scatter, shared, int64(100*(s.Rank%2+1))))
		own := filepath.Join(dir, fmt.Sprintf("own%d.dat", s.Rank))
		require.NoError(t, os.WriteFile(own, make([]byte, 10*(s.Rank+1)), 0o644))
		assert.NoError(t, r.checkWritten(p, beffio.Separated, own, int64(10*(s.Rank+1))))
		assert.NoError(t, r.checkWritten(p, beffio.Scatter, shared, 200), "said once only")
	})
	harnesstest.Fine(t, ends)
	assert.Equal(t, 1, strings.Count(logs[0].String(), "showed the size the writes reached only after a wait"), logs[0].String())
	assert.Empty(t, logs[1].String()+logs[2].String(), "only rank 0 looks at the shared file")
	_, err := checkSize(filepath.Join(dir, "missing.dat"), 1)
	assert.Error(t, err)
}
