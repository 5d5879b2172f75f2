package loops

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/mpi/mpitest"
)

// What the congestion loops refuse before any C runs, their names and the
// buffers they need; no MPI needed.

// TestRefused: a kind out of the table, a length beyond an MPI count,
// buffers smaller than the loop needs and a duration that is not a finite
// number of seconds are refused with what is wrong.
func TestRefused(t *testing.T) {
	const n = 64
	canary := func() CanaryRun {
		return CanaryRun{Canary: CanaryRingBandwidth, Len: n, Duration: 0.01, Send: mpitest.Buffer(t, CanaryBuffer(n)), Recv: mpitest.Buffer(t, CanaryBuffer(n))}
	}
	for _, c := range []struct {
		edit func(r *CanaryRun)
		want string
	}{
		{func(r *CanaryRun) { r.Canary = Canary(len(Canaries)) }, "canary 3: no such kind"},
		{func(r *CanaryRun) { r.Canary = -1 }, "canary -1: no such kind"},
		{func(r *CanaryRun) { r.Len = 0 }, "canary: messages of 0 bytes (1 to 2147483647)"},
		{func(r *CanaryRun) { r.Len = mpi.MaxInt32 + 1 }, "canary: messages of 2147483648 bytes (1 to 2147483647)"},
		{func(r *CanaryRun) { r.Send = mpitest.Buffer(t, n) }, "canary: buffers of fewer than the 1024 bytes it needs"},
		{func(r *CanaryRun) { r.Recv = nil }, "canary: buffers of fewer than the 1024 bytes it needs"},
		{func(r *CanaryRun) { r.Duration = -1 }, "canary: a duration of -1 s"},
	} {
		r := canary()
		c.edit(&r)
		_, err := RunCanary(&r)
		assert.EqualError(t, err, c.want)
	}
	g := CongestorRun{Congestor: CongestorIncast, Len: n, Send: mpitest.Buffer(t, CongestorBuffer(n)), Recv: mpitest.Buffer(t, CongestorBuffer(n))}
	bad := g
	bad.Recv = mpitest.Buffer(t, CongestorBuffer(n)-1)
	_, err := RunCongestor(&bad)
	assert.EqualError(t, err, "congestor: buffers of fewer than the 4096 bytes it needs")
	bad = g
	bad.Congestor = Congestor(len(Congestors))
	_, err = RunCongestor(&bad)
	assert.EqualError(t, err, "congestor 5: no such kind")
	for _, d := range []float64{math.NaN(), math.Inf(1)} {
		bad = g
		bad.Duration = d
		_, err = RunCongestor(&bad)
		assert.ErrorContains(t, err, "congestor: a duration of ")
	}
}

// TestNames: the canaries' and congestors' names in value order, and the
// bytes each buffer needs.
func TestNames(t *testing.T) {
	var got []string
	for _, c := range Canaries {
		got = append(got, c.String())
	}
	for _, c := range Congestors {
		got = append(got, c.String())
	}
	assert.Equal(t, []string{"rr-lat", "rr-bw", "allreduce", "incast", "rma-incast", "bcast", "alltoall", "worst-cycle"}, got)
	assert.Equal(t, int64(2*CanaryOutstanding*100), CanaryBuffer(100), "a message each way per outstanding slot")
	assert.Equal(t, int64(CongestorWindow*100), CongestorBuffer(100))
}
