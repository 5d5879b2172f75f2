package harness

import (
	"math"
	"slices"
	"testing"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/mpi"
)

// MinClockTarget is the least error the model is kept under between
// estimations: 1 µs.
const MinClockTarget = 1e-6

// A Clock is this process's model of its clock against rank 0's, for the
// suites that start operations at a common time (docs/clocks.md). Every
// estimation runs the binomial tree of package clocks on the world: in
// ⌈log2 p⌉ rounds each process but rank 0 times clocks.PingPongs
// ping-pongs with its teacher, fits its latest samples against the
// teacher's clock and chains the fit to the teacher's model. Before it
// refits, the fresh sample says how far the model it had was off: the
// error over the run.
type Clock struct {
	s       *Session
	io      ClockIO
	drift   bool         // model the drift (else offsets once: SKaMPI's scheme)
	local   clocks.Model // the injected skew (-clock.skew), the identity without
	learner clocks.Learner
	model   clocks.Model
	bound   clocks.Bound
	worst   float64 // this process's largest error found
	used    bool    // Map was called since the last estimation
	// Every process: the world's bound after the last estimation (the
	// largest error and drift uncertainty; Since on its own clock), the
	// error kept under, and rank 0's count of what the estimations cost.
	world    clocks.Bound
	target   float64
	syncs    int
	seconds  float64
	first    []float64 // rank 0: the offsets of the first estimation
	firstErr float64
}

// ClockIO is what a Clock measures with: MPI's clock and the ping-pongs
// of package mpi on the world (a fake session's tests put simulated
// clocks in their place: SetClockIO).
type ClockIO interface {
	Wtime() float64
	Learn(teacher, rounds int, local [3]float64) (sample [3]float64, wire [5]float64, err error)
	Teach(learner, rounds int, local [3]float64, wire [5]float64) error
}

// mpiClock is the ClockIO of a real job.
type mpiClock struct{ c mpi.Comm }

func (mpiClock) Wtime() float64 { return mpi.Wtime() }

func (m mpiClock) Learn(teacher, rounds int, local [3]float64) ([3]float64, [5]float64, error) {
	return mpi.ClockLearn(m.c, teacher, rounds, local)
}

func (m mpiClock) Teach(learner, rounds int, local [3]float64, wire [5]float64) error {
	return mpi.ClockTeach(m.c, learner, rounds, local, wire)
}

// SetClockIO makes the session's clocks measure with io (tests).
func (s *Session) SetClockIO(io ClockIO) { s.clockIO = io }

// Clock is the session's model of this process's clock, of offsets and
// drifts or (drift false) of the offsets of its first estimation alone:
// the first call of a kind estimates it (collective), the later ones
// return it, so that every suite of a job starts on one model.
func (s *Session) Clock(drift bool) *Clock {
	if c := s.clocks[drift]; c != nil {
		return c
	}
	if s.clockIO == nil {
		s.clockIO = mpiClock{s.World().Comm}
	}
	k, _ := clocks.ParseSkew(*s.flagsOrDefault().skew) // checked by checkTestFlags
	c := &Clock{s: s, io: s.clockIO, drift: drift}
	c.local = k.Model(s.Rank, c.io.Wtime())
	c.estimate(true)
	if s.clocks == nil {
		s.clocks = map[bool]*Clock{}
	}
	s.clocks[drift] = c
	return c
}

// flagsOrDefault is the harness's flags (a fake session has none: the
// defaults).
func (s *Session) flagsOrDefault() *flags {
	if s.flags == nil {
		return &flags{skew: new(string)}
	}
	return s.flags
}

// Skewed says whether any process's clock is skewed by -clock.skew.
func (s *Session) Skewed() bool {
	k, _ := clocks.ParseSkew(*s.flagsOrDefault().skew)
	return k.PPM != 0
}

// now is this process's clock, skewed if it is.
func (c *Clock) now() float64 { return c.local.Ref(c.io.Wtime()) }

// Map is what turns MPI_Wtime into rank 0's time on this process: the
// skew and the model, composed.
func (c *Clock) Map() clocks.Model {
	c.Use()
	return clocks.Compose(c.local, c.model)
}

// Use says that a measurement runs on the model: the next estimation
// counts how far it was off.
func (c *Clock) Use() { c.used = true }

// Report measures the offsets a last time (Finish) and writes the line
// of the run's clocks under b (clocks.ReportName), on rank 0, and a
// sentence of it to stderr (collective). spread, when given, adds what
// the suite measured of its start spreads (rank 0's values count).
func (c *Clock) Report(b *testing.B, suite string, spread ...func(*clocks.Report)) {
	rep := c.Finish()
	for _, f := range spread {
		f(&rep)
	}
	b.Run(clocks.ReportName, func(b *testing.B) {
		if c.s.IsRoot() {
			b.ReportMetric(0, "ns/op")
			for _, m := range rep.Metrics() {
				b.ReportMetric(m.Value, m.Unit)
			}
		}
	})
	c.s.Logf("%s clocks: %s", suite, rep.Summary())
}

// Predicted is the world's bound on the model's error, ahead seconds
// from now on this process's clock.
func (c *Clock) Predicted(ahead float64) float64 { return c.world.At(c.now() + ahead) }

// Keep re-estimates the model when rank 0 finds the world's bound,
// ahead seconds from now, past the error it keeps under (collective; a
// model of offsets alone is never re-estimated), at most
// clocks.Estimations times in all with the last measurement, as the
// plans count them.
func (c *Clock) Keep(ahead float64) {
	due := Decide(c.s.World(), func() bool {
		return c.drift && c.syncs < clocks.Estimations-1 && c.Predicted(ahead) > c.target
	})
	if due {
		c.estimate(false)
	}
}

// estimate runs the tree (collective) and reduces the world's bound to
// every process. The first estimation sets the error the model is kept
// under: twice the world's then, at least MinClockTarget.
func (c *Clock) estimate(first bool) {
	w := c.s.World()
	t0 := c.io.Wtime()
	c.tree(first || c.drift)
	c.bound.Since = c.now()
	ext := w.MaxAll([]int64{femto(c.bound.Err), femto(c.bound.Drift)})
	c.world = clocks.Bound{Since: c.now(), Err: fromFemto(ext[0]), Drift: fromFemto(ext[1])}
	if first {
		c.firstErr = c.world.Err
		c.target = math.Max(MinClockTarget, 2*c.world.Err)
		c.first = c.gatherFloat(c.model.Offset + c.model.Drift*(c.now()-c.model.At))
	}
	c.syncs++
	c.seconds += c.io.Wtime() - t0
}

// tree runs the rounds of the binomial tree: every learner measures
// against its teacher, keeps how far its model was off if a measurement
// used it since the last estimation, refits when refit says so, and then
// teaches its own learners.
func (c *Clock) tree(refit bool) {
	defer func() { c.used = false }()
	for r := clocks.Rounds(c.s.Size) - 1; r >= 0; r-- {
		peer, learns := clocks.Round(c.s.Size, r, c.s.Rank)
		switch {
		case peer < 0:
		case learns:
			c.learn(peer, refit)
		default:
			err := c.io.Teach(peer, clocks.PingPongs, c.localWire(), clocks.Wire(c.model, c.bound, c.now()))
			c.s.Must("estimating the clocks", err)
		}
	}
}

// learn measures against the teacher, keeps the error the model had, and
// refits when refit says so.
func (c *Clock) learn(teacher int, refit bool) {
	smp, wire, err := c.io.Learn(teacher, clocks.PingPongs, c.localWire())
	c.s.Must("estimating the clocks", err)
	s := clocks.Sample{Local: smp[0], Offset: smp[1], Err: smp[2]}
	tm, tb := clocks.Unwire(wire)
	if c.used {
		c.worst = math.Max(c.worst, clocks.Miss(c.model, tm, s))
	}
	if !refit {
		return
	}
	c.learner.Add(s)
	own, ob := c.learner.Fit(s.Local, c.drift)
	c.model, c.bound = clocks.Chain(own, ob, tm, tb)
}

// localWire is the skew as the C side takes a model.
func (c *Clock) localWire() [3]float64 { return [3]float64{c.local.At, c.local.Offset, c.local.Drift} }

// Finish measures the offsets a last time without refitting (collective)
// and returns, on rank 0, the report of the run's clocks (others get the
// zero Report): the largest error over the run and the processes, the
// median of the processes' largest, the drifts against rank 0 (fitted
// over the latest samples, this last one included, whatever the model
// used), what the estimations cost. The model goes on (for another run
// of the suite in the job), but the counts of the report start anew.
func (c *Clock) Finish() clocks.Report {
	kept := *c
	kept.learner = c.learner.Clone()
	c.drift = true // the last measurement refits with the drift, to report it
	c.tree(true)
	rep := clocks.Report{Syncs: c.syncs, Rounds: clocks.Rounds(c.s.Size), Seconds: c.seconds}
	worst, drift := c.worst, c.model.Drift
	if !kept.drift { // offsets alone stay what they were (another -test.count run goes on on them)
		*c = kept
	}
	// The next run's report is its own, on the estimation it starts on.
	c.worst, c.syncs, c.seconds, c.used = 0, 1, 0, false
	all := c.s.World().Gather([]int64{int64(math.Float64bits(worst)), int64(math.Float64bits(drift))})
	if all == nil {
		return clocks.Report{}
	}
	var errs []float64
	for rank, rec := range all {
		e, d := math.Float64frombits(uint64(rec[0])), clocks.Rate(math.Float64frombits(uint64(rec[1])))
		errs = append(errs, e)
		if rank == 0 {
			continue
		}
		if rank == 1 || d < rep.DriftMin {
			rep.DriftMin = d
		}
		if rank == 1 || d > rep.DriftMax {
			rep.DriftMax = d
		}
	}
	slices.Sort(errs)
	rep.Err, rep.ErrMedian = errs[len(errs)-1], errs[len(errs)/2]
	return rep
}

// FirstOffsets is, on rank 0, every process's offset to rank 0 at the
// first estimation, seconds (nil elsewhere).
func (c *Clock) FirstOffsets() []float64 { return c.first }

// FirstError is the world's bound just after the first estimation.
func (c *Clock) FirstError() float64 { return c.firstErr }

// gatherFloat gathers one number per process to rank 0.
func (c *Clock) gatherFloat(v float64) []float64 {
	all := c.s.World().Gather([]int64{int64(math.Float64bits(v))})
	if all == nil {
		return nil
	}
	out := make([]float64, len(all))
	for i, rec := range all {
		out[i] = math.Float64frombits(uint64(rec[0]))
	}
	return out
}

// femto is x in units of 1e-15, how non-negative small numbers travel in
// int64 reductions.
func femto(x float64) int64 { return int64(math.Min(x, 9e3) * 1e15) }

func fromFemto(v int64) float64 { return float64(v) / 1e15 }
