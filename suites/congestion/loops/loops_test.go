//go:build mpi

package loops_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/mpi/mpitest"
	"github.com/beff-suite/beff/suites/congestion/loops"
)

// The loops on a singleton MPI process: a ring of one process (it is its
// own left and right), an incast onto itself. What a real network does
// under load is e2e's; these show that every loop runs, samples and
// validates.

// TestCanariesAlone: each canary, isolated, samples for its duration:
// samples in the histogram as many as it counted, none wrong.
func TestCanariesAlone(t *testing.T) {
	const n = 256
	send, recv := mpitest.Buffers(t, loops.CanaryBuffer(n))
	for _, c := range loops.Canaries {
		s, err := loops.RunCanary(&loops.CanaryRun{Canary: c, Comm: mpi.World, World: mpi.CommNull, Len: n, Duration: 0.02, Send: send, Recv: recv})
		require.NoError(t, err, c)
		assert.Positive(t, s.N, c)
		assert.Positive(t, s.Iters, c)
		assert.GreaterOrEqual(t, s.Elapsed, 0.02, c)
		assert.Zero(t, s.Faults, c)
		var sum int64
		for _, k := range s.Hist {
			sum += k
		}
		assert.Equal(t, s.N, sum, "%s: every sample in a bin", c)
		assert.Positive(t, s.Sum, c)
		assert.GreaterOrEqual(t, s.Max*float64(s.N), s.Sum, "%s: no sample above the largest", c)
	}
}

// TestCongestorsAlone: each congestor loads for its duration and counts
// its calls and bytes.
func TestCongestorsAlone(t *testing.T) {
	const n = 512
	send, recv := mpitest.Buffers(t, loops.CongestorBuffer(n))
	for _, g := range loops.Congestors {
		run := &loops.CongestorRun{Congestor: g, Comm: mpi.World, World: mpi.CommNull, Len: n, Duration: 0.02, Send: send, Recv: recv}
		if g == loops.CongestorRMAIncast {
			ok, why, err := mpi.RMAProbe(mpi.World, false)
			require.NoError(t, err)
			if !ok { // the driver leaves the congestor out so (setup.go)
				_, err := loops.RunCongestor(run)
				assert.Error(t, err, "a library without windows here: the loop says so (%v)", why)
				continue
			}
		}
		l, err := loops.RunCongestor(run)
		require.NoError(t, err, g)
		assert.Positive(t, l.Calls, g)
		assert.GreaterOrEqual(t, l.Elapsed, 0.02, g)
		assert.GreaterOrEqual(t, l.Bytes, int64(0), g)
	}
}
