package harness_test

import (
	"math"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/internal/clocks"
)

// simClocks are the clocks of a simulated job: process i's reads
// off[i] + (1 + rate[i])·T at the true time T, which stands still while
// processes exchange (the ping-pongs are exact) and moves when the test
// says. Each learner has channels of its own to its teacher; rounds
// counts the exchanges each process took part in.
type simClocks struct {
	off, rate []float64
	t         atomic.Uint64 // math.Float64bits(T)
	req       []chan struct{}
	resp      []chan float64
	wire      []chan [5]float64
	mu        sync.Mutex
	rounds    []int
}

func newSimClocks(p int) *simClocks {
	c := &simClocks{off: make([]float64, p), rate: make([]float64, p), rounds: make([]int, p)}
	for i := range p {
		c.off[i] = 1e-3 * float64(i)
		c.rate[i] = 50e-6 * float64(i%3-1) // −50, 0, +50 ppm
		c.req = append(c.req, make(chan struct{}))
		c.resp = append(c.resp, make(chan float64))
		c.wire = append(c.wire, make(chan [5]float64))
	}
	c.rate[0] = 0
	return c
}

func (c *simClocks) now() float64       { return math.Float64frombits(c.t.Load()) }
func (c *simClocks) advance(dt float64) { c.t.Store(math.Float64bits(c.now() + dt)) }
func (c *simClocks) raw(i int) float64  { return c.off[i] + (1+c.rate[i])*c.now() }
func (c *simClocks) io(i int) simIO     { return simIO{c, i} }
func (c *simClocks) count(i int)        { c.mu.Lock(); c.rounds[i]++; c.mu.Unlock() }
func apply(m [3]float64, t float64) float64 {
	return clocks.Model{At: m[0], Offset: m[1], Drift: m[2]}.Ref(t)
}

type simIO struct {
	c *simClocks
	i int
}

func (s simIO) Wtime() float64 { return s.c.raw(s.i) }

func (s simIO) Learn(teacher, rounds int, local [3]float64) ([3]float64, [5]float64, error) {
	s.c.count(s.i)
	var theirs float64
	for range rounds {
		s.c.req[s.i] <- struct{}{}
		theirs = <-s.c.resp[s.i]
	}
	mine := apply(local, s.c.raw(s.i))
	return [3]float64{mine, theirs - mine, 0}, <-s.c.wire[s.i], nil
}

func (s simIO) Teach(learner, rounds int, local [3]float64, wire [5]float64) error {
	s.c.count(s.i)
	for range rounds {
		<-s.c.req[learner]
		s.c.resp[learner] <- apply(local, s.c.raw(s.i))
	}
	s.c.wire[learner] <- wire
	return nil
}

// TestClockFollowsDrift: on 13 processes whose clocks are up to 12 ms
// apart and run 50 ppm fast or slow, a model with drift learns every
// offset and rate along the tree (each process in at most ⌈log2 13⌉ = 4
// exchanges an estimation), is re-estimated when its bound passes its
// target (after 10 s, not after a µs) and not once the exact ping-pongs
// left no doubt, and then maps every clock onto rank 0's exactly a
// minute later: the report says the rates and no error (what a
// measurement ran on before the model had a drift does not count); a
// model of the first offsets alone is 50 ppm × 70 s off and says so.
func TestClockFollowsDrift(t *testing.T) {
	const p = 13
	for _, drift := range []bool{true, false} {
		sim := newSimClocks(p)
		maps := newPerRank[clocks.Model](p)
		var rep clocks.Report
		harnesstest.Fine(t, harnesstest.Run(t, p, harness.Job{}, func(s *harness.Session) {
			s.SetClockIO(sim.io(s.Rank))
			c := s.Clock(drift)
			w := s.World()
			for _, dt := range []float64{1e-6, 10, 60} { // a µs is too soon to re-estimate; 10 s is not
				w.Barrier()
				if s.IsRoot() {
					sim.advance(dt)
				}
				w.Barrier()
				c.Keep(0)
				if dt >= 10 {
					c.Use() // a measurement runs on the model with drift, until the next estimation
				}
			}
			maps.set(s.Rank, c.Map())
			if r := c.Finish(); s.IsRoot() {
				rep = r
			}
			if again := c.Finish(); s.IsRoot() { // a second run of the suite reports on its own
				assert.Equal(t, 1, again.Syncs, "drift %v: the estimation it starts on", drift)
				assert.Less(t, again.Err, 1e-9, "drift %v: nothing measured on the model since", drift)
			}
			if !drift {
				assert.Zero(t, c.Map().Drift, "offsets alone stay offsets after the report")
			}
		}))
		for i := range p {
			assert.InDelta(t, sim.raw(0), maps.v[i].Ref(sim.raw(i)), 1e-9, "drift %v: rank %d on rank 0's clock", drift, i)
			if !drift {
				break
			}
		}
		assert.Equal(t, clocks.Rounds(p), rep.Rounds)
		if drift {
			assert.Equal(t, 2, rep.Syncs, "re-estimated after 10 s, not after a µs; then the drift is known exactly and holds for the minute")
			assert.InDelta(t, -50e-6, rep.DriftMin, 1e-9)
			assert.InDelta(t, 50e-6, rep.DriftMax, 1e-9)
			assert.Less(t, rep.Err, 1e-9, "no error left")
		} else {
			assert.Equal(t, 1, rep.Syncs, "offsets once")
			assert.InDelta(t, 50e-6*70, rep.Err, 1e-6, "50 ppm over the 70 s since the offsets")
			assert.InDelta(t, 50e-6, rep.DriftMax, 1e-9, "the drift seen at the end")
		}
		for i, n := range sim.rounds {
			assert.LessOrEqual(t, n, (rep.Syncs+2)*clocks.Rounds(p), "rank %d: at most ⌈log2 p⌉ exchanges an estimation (and each of the two last measurements)", i)
		}
		require.NotZero(t, sim.rounds[p-1])
	}
}
