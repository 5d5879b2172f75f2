package harness

import (
	"encoding/binary"
	"encoding/json"
	"time"

	"github.com/beff-suite/beff/internal/mpi"
)

// A Group is a communicator as the benchmarks use it: its decisions are
// taken on its rank 0 and followed by every rank, and an MPI error in any
// of its calls stops the whole job (Session.Fail). Every method is
// collective: every rank of the group calls it.
//
// The reductions are named by one rule: the operation, then who gets the
// result: To0 (rank 0; nil elsewhere, where nothing that grows with the
// result is allocated) or All (every rank). The element type is the
// argument's: MaxTo0, MinTo0 and SumTo0 reduce what rank 0 reports,
// MaxAll and SumAll what every rank acts on. Bcast and Scatter start at
// rank 0, Gather ends there, as their MPI namesakes with root 0.
type Group struct {
	s    *Session
	c    Collectives // Comm, or an in-process fake (NewGroup)
	Comm mpi.Comm    // the communicator, for the suites' timed loops (CommNull in a fake)
	Rank int         // of this process in Comm
	Size int
}

// Collectives are the MPI calls a Group makes. mpi.Comm has them; tests
// run groups over the in-process fake of package harnesstest, where the
// processes of a job are goroutines.
type Collectives interface {
	Barrier() error
	QuietBarrier(poll time.Duration) error
	BcastBytes(buf []byte, root int) error
	ReduceFloat64(in, out []float64, op mpi.ReduceOp, root int) error
	ReduceInt64(in, out []int64, op mpi.ReduceOp, root int) error
	AllreduceInt64(in, out []int64, op mpi.ReduceOp) error
	GatherBytes(in, out []byte, root int) error
	ScatterBytes(in, out []byte, root int) error
}

// NewGroup is a group over the collectives c, of which this process is
// rank of size: the groups of an in-process fake job (package
// harnesstest); real ones come from Session.Group.
func NewGroup(s *Session, c Collectives, rank, size int) *Group {
	return &Group{s: s, c: c, Comm: mpi.CommNull, Rank: rank, Size: size}
}

// Group returns c as a group. c must not be CommNull.
func (s *Session) Group(c mpi.Comm) *Group {
	g := &Group{s: s, c: c, Comm: c}
	var err error
	g.Rank, err = c.Rank()
	s.Must("MPI_Comm_rank", err)
	g.Size, err = c.Size()
	s.Must("MPI_Comm_size", err)
	return g
}

// Session is the session the group belongs to.
func (g *Group) Session() *Session { return g.s }

// IsRoot reports whether this is rank 0 of the group, the rank that
// decides.
func (g *Group) IsRoot() bool { return g.Rank == 0 }

// Barrier is MPI_Barrier.
func (g *Group) Barrier() { g.s.Must("MPI_Barrier", g.c.Barrier()) }

// quietPoll is the longest a process waiting in QuietBarrier sleeps
// before it looks again whether the others arrived: its naps start at
// 50 µs and double up to it, so a short wait costs little latency and a
// long one wakes 100 times a second.
const quietPoll = 10 * time.Millisecond

// QuietBarrier is a barrier at which a process waits asleep, looking ever
// more rarely (quietPoll): where some processes wait out a measurement of others (a
// partition, a pair), their polling would take cores, caches and memory
// bandwidth from the processes measured. Every process of the group calls
// it (it does not match Barrier).
func (g *Group) QuietBarrier() { g.s.Must("MPI_Ibarrier", g.c.QuietBarrier(quietPoll)) }

// Bcast broadcasts v from rank 0 in place.
func (g *Group) Bcast(v []int64) {
	buf := make([]byte, 8*len(v))
	for i, x := range v {
		putInt64(buf[8*i:], x)
	}
	g.s.Must("broadcasting a decision", g.c.BcastBytes(buf, 0))
	for i := range v {
		v[i] = getInt64(buf[8*i:])
	}
}

// MaxTo0 reduces v element-wise with MAX to rank 0 and returns the result
// there; other ranks get nil.
func (g *Group) MaxTo0(v []float64) []float64 { return g.floatTo0(v, mpi.Max, "reducing times") }

// floatTo0 reduces v element-wise with op to rank 0, which gets the
// result (nil elsewhere: MPI_Reduce's receive buffer is on rank 0 only).
func (g *Group) floatTo0(v []float64, op mpi.ReduceOp, what string) []float64 {
	var out []float64
	if g.IsRoot() {
		out = make([]float64, len(v))
	}
	g.s.Must(what, g.c.ReduceFloat64(v, out, op, 0))
	return out
}

// MaxAll reduces v element-wise with MAX and returns the result on every
// rank: for flags every rank must agree on.
func (g *Group) MaxAll(v []int64) []int64 {
	out := make([]int64, len(v))
	g.s.Must("agreeing on a flag", g.c.AllreduceInt64(v, out, mpi.Max))
	return out
}

// MinTo0 reduces v element-wise with MIN to rank 0 and returns the
// result there; other ranks get nil (and allocate nothing for it).
func (g *Group) MinTo0(v []int64) []int64 {
	var out []int64
	if g.IsRoot() {
		out = make([]int64, len(v))
	}
	g.s.Must("reducing the smallest values", g.c.ReduceInt64(v, out, mpi.Min, 0))
	return out
}

// SumTo0 reduces v element-wise with SUM to rank 0 and returns the
// result there; other ranks get nil.
func (g *Group) SumTo0(v []float64) []float64 { return g.floatTo0(v, mpi.Sum, "summing values") }

// SumAll reduces v element-wise with SUM and returns the result on every
// rank.
func (g *Group) SumAll(v []int64) []int64 {
	out := make([]int64, len(v))
	g.s.Must("summing counts", g.c.AllreduceInt64(v, out, mpi.Sum))
	return out
}

// Gather gathers one record of int64 values from every rank to rank 0,
// which gets them indexed by rank (nil elsewhere, where nothing that grows
// with the group is allocated). Every rank passes a record of the same
// length.
func (g *Group) Gather(rec []int64) [][]int64 {
	in := make([]byte, 8*len(rec))
	for i, v := range rec {
		putInt64(in[8*i:], v)
	}
	var all []byte
	if g.IsRoot() {
		all = make([]byte, len(in)*g.Size)
	}
	g.s.Must("gathering a report", g.c.GatherBytes(in, all, 0))
	if !g.IsRoot() {
		return nil
	}
	flat := make([]int64, len(rec)*g.Size)
	out := make([][]int64, g.Size)
	for rk := range out {
		out[rk] = flat[rk*len(rec) : (rk+1)*len(rec) : (rk+1)*len(rec)]
		for i := range rec {
			out[rk][i] = getInt64(all[rk*len(in)+8*i:])
		}
	}
	return out
}

// Scatter gives every rank its own value of all, which rank 0 holds (one
// per rank, indexed by rank; ignored elsewhere).
func (g *Group) Scatter(all []int64) int64 {
	var in []byte
	if g.IsRoot() {
		in = make([]byte, 8*g.Size)
		for i, v := range all[:g.Size] {
			putInt64(in[8*i:], v)
		}
	}
	out := make([]byte, 8)
	g.s.Must("scattering a table", g.c.ScatterBytes(in, out, 0))
	return getInt64(out)
}

// Round is one decision of the group: every rank contributes local, rank 0
// sees their maximum over the ranks and decides n values, which every rank
// gets back. With local nil nothing is reduced and decide gets nil. A
// suite takes its per-measurement decisions (loop lengths, validation
// verdicts) with Round: one reduction and one broadcast.
func (g *Group) Round(local []float64, n int, decide func(max []float64) []int64) []int64 {
	var max []float64
	if local != nil {
		max = g.MaxTo0(local)
	}
	d := make([]int64, n)
	if g.IsRoot() {
		copy(d, decide(max))
	}
	g.Bcast(d)
	return d
}

// An Until is a loop that every rank of a group runs until rank 0 decides
// to stop: a batch, then a decision (Group.Until).
type Until struct {
	// Step runs a batch of k on this rank and returns what this rank
	// contributes to the decision (reduced with MAX to rank 0).
	Step func(k int64) []float64
	// Decide runs on rank 0 with the maximum over the ranks of what Step
	// returned (nil with Barrier) and returns the next batch (≤ 0: stop)
	// and a verdict: a verdict other than 0 stops the loop too.
	Decide func(max []float64) (next, verdict int64)
	// Barrier makes the ranks meet in a barrier after each batch instead
	// of reducing what Step returned (the reference code's rule).
	Barrier bool
}

// Stopped says how an Until loop ended.
type Stopped struct {
	Decisions int64   // decisions taken, one per batch
	Seconds   float64 // time this rank spent in the decisions
	Verdict   int64   // the verdict that stopped the loop, 0 if none
}

// Until runs the loop u, starting with a batch of first (nothing when
// first ≤ 0): the one "rank 0 decides, everyone follows" stop loop of the
// suites.
func (g *Group) Until(first int64, u Until) Stopped {
	var st Stopped
	for next := first; next > 0 && st.Verdict == 0; {
		local := u.Step(next)
		t0 := mpi.Wtime()
		if u.Barrier {
			g.Barrier()
			local = nil
		}
		d := g.Round(local, 2, func(max []float64) []int64 {
			n, v := u.Decide(max)
			return []int64{n, v}
		})
		st.Seconds += mpi.Wtime() - t0
		st.Decisions++
		next, st.Verdict = d[0], d[1]
	}
	return st
}

// Decide runs f on rank 0 of g and gives its result to every rank (JSON
// over MPI_Bcast). Use it for decisions with structure (patterns,
// settings); per-measurement decisions use Round.
func Decide[T any](g *Group, f func() T) T { return DecideAt(g, 0, f) }

// DecideAt runs f on rank root of g and gives its result to every rank:
// for what a sub-group measured without rank 0 (a pair of other ranks).
func DecideAt[T any](g *Group, root int, f func() T) T {
	var v T
	var buf []byte
	n := make([]byte, 8)
	if g.Rank == root {
		v = f()
		var err error
		if buf, err = json.Marshal(v); err != nil {
			g.s.Fail("encoding a decision", err)
		}
		putInt64(n, int64(len(buf)))
	}
	g.s.Must("broadcasting a decision", g.c.BcastBytes(n, root))
	if g.Rank != root {
		buf = make([]byte, getInt64(n))
	}
	g.s.Must("broadcasting a decision", g.c.BcastBytes(buf, root))
	if g.Rank != root {
		if err := json.Unmarshal(buf, &v); err != nil {
			g.s.Fail("decoding a decision", err)
		}
	}
	return v
}

func putInt64(b []byte, x int64) { binary.LittleEndian.PutUint64(b, uint64(x)) }
func getInt64(b []byte) int64    { return int64(binary.LittleEndian.Uint64(b)) }
