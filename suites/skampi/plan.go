package skampi

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/beff-suite/beff/internal/clocks"
)

// ColdBytes is the size of each buffer a cold-cache point cycles over:
// well above the last-level caches of current processors. A point whose
// footprint is this large or larger is cold by its size and uses one
// slot.
const ColdBytes = 32 << 20

// MaxInt is the largest count or size MPI takes (a C int).
const MaxInt = math.MaxInt32

// BsendOverhead bounds MPI_BSEND_OVERHEAD of the libraries beff builds
// with (Open MPI 128, MPICH 96): the attached buffer of a buffered send
// is sized with it.
const BsendOverhead = 1024

// Footprint is the bytes one call of operation op with length l on procs
// processes uses of each buffer: one block of l per process for the
// operations that gather, scatter or exchange blocks (Op.Blocks), the
// message otherwise.
func Footprint(op int, l int64, procs int) int64 {
	if Ops[op].Family == FamilyNeighborhood { // a block per neighbor: at most MaxNeighbors
		return l * MaxNeighbors
	}
	if Ops[op].Blocks && procs > 1 {
		return l * int64(procs)
	}
	return l
}

// MaxNeighbors is the most neighbors of any topology (stencil-3d), the
// blocks the plan counts for a neighborhood collective.
const MaxNeighbors = 26

// Attach is the buffer a buffered-send operation attaches on its
// communicator of procs processes (0 for the other operations): room for
// two messages in flight per process.
func Attach(op int, l int64, procs int) int64 {
	switch Ops[op].Name {
	case "bsend-recv", "mw-bsend":
		return 2 * (l + BsendOverhead) * int64(max(procs, 2))
	}
	return 0
}

// Check says why a point cannot be expressed in MPI's C types: a v-
// variant's displacements (i·L) and the blocks of the others must stay
// below 2^31 bytes, and so must an attached buffer.
func (p Point) Check() error {
	o := Ops[p.Op]
	switch {
	case o.Family == FamilyPartitioned && int64(p.Chunks-1)*p.Len > MaxInt:
		return fmt.Errorf("%s at L=%d with %d partitions: the partitions' offsets (partition × L) pass 2^31−1, the most an int holds", o.Name, p.Len, p.Chunks)
	case o.Family == FamilyNeighborhood && (MaxNeighbors-1)*p.Len > MaxInt:
		return fmt.Errorf("%s at L=%d: the block offsets (neighbor × L) pass 2^31−1, the most an int holds", o.Name, p.Len)
	case o.Blocks && o.Family != FamilyNeighborhood && o.Family != FamilyPartitioned && int64(p.Procs-1)*p.Len > MaxInt:
		return fmt.Errorf("%s at L=%d on %d processes: the block offsets (process × L) pass 2^31−1, the most an int holds", o.Name, p.Len, p.Procs)
	case Attach(p.Op, p.Len, p.Procs) > MaxInt:
		return fmt.Errorf("%s at L=%d on %d processes: the buffer to attach (2·(L+overhead) per process) passes 2^31−1 bytes, the most MPI_Buffer_attach takes", o.Name, p.Len, p.Procs)
	}
	return nil
}

// Why a grid point is left out of a plan.
const (
	inPlan    = iota
	overCap   // a buffer (the attached one included) above max-buffer
	overTime  // one call predicted (Nominal) longer than the point's budget
	overInt   // a datatype whose layout MPI's ints cannot hold on the point's processes
	overCount // a length above 2^31−1 bytes for an operation that passes it as an int
)

// leaveOut says whether and why the point is left out of the plan: it
// needs more of a buffer than max-buffer (a scratch buffer of a pack or
// manual point, a window, included), or one call of it takes longer
// than the point's whole budget on the nominal model (at 10^6 processes
// the linear references, a send per process, take minutes a call).
func (s *Setup) leaveOut(p Point) int {
	if p.Len > MaxInt && !Ops[p.Op].Count64 {
		return overCount
	}
	if s.Typed() && Ops[p.Op].Typed {
		if _, _, err := s.Layouts(p.Procs); err != nil {
			return overInt
		}
	}
	switch {
	case s.MaxBuffer > 0 && max(s.Footprint(p), Attach(p.Op, p.Len, p.Procs), s.Scratch(p)/2) > s.MaxBuffer:
		return overCap
	case s.Rule.Budget > 0 && Nominal.CallTime(p) > s.Rule.Budget:
		return overTime
	}
	return inPlan
}

// BufferNeed is the bytes of each buffer (send and receive) a point needs:
// its footprint, and for a cold cache the bytes its calls cycle over.
func (s *Setup) BufferNeed(p Point) int64 {
	foot := s.Footprint(p)
	if !Cold(s.Cache, Ops[p.Op].Pattern) {
		return max(foot, 1)
	}
	if s.Span > 0 {
		return max(foot, s.Span)
	}
	return max(foot, ColdBytes)
}

// A Model is what a plan's predicted times assume of the machine: a
// message costs Alpha plus its bytes over Beta, a local copy its bytes
// over Copy, a clock read Clock.
type Model struct {
	Alpha, Beta, Copy float64 // seconds; bytes per second
	Wtick, Clock      float64 // seconds
	PointSetup        float64 // seconds per point: its communicator, the wait of the others, the decisions
}

// Nominal is the model of a plan made before anything is measured: a
// network of 2 µs and 1 GB/s per process, memory copies at 5 GB/s.
var Nominal = Model{Alpha: 2e-6, Beta: 1e9, Copy: 5e9, Wtick: 1e-9, Clock: 30e-9, PointSetup: 2e-3}

// log2 is ⌈log₂ p⌉, 0 for p ≤ 1: the steps of a tree over p processes.
func log2(p int) float64 {
	if p <= 1 {
		return 0
	}
	return float64(bits.Len(uint(p - 1)))
}

// CallTime is the model's time of one call of the point.
func (m Model) CallTime(p Point) float64 {
	o := Ops[p.Op]
	msg := m.Alpha + float64(p.Len)/m.Beta
	if o.Family == FamilyPartitioned { // chunks partitions of L bytes
		msg = m.Alpha + float64(p.Chunks)*float64(p.Len)/m.Beta
	}
	n, lg := float64(p.Procs-1), log2(p.Procs)
	switch o.Pattern {
	case PingPong:
		return 2 * msg
	case OneSided:
		if strings.HasSuffix(o.Name, "-delayed") {
			return RMADelay + 2*m.Alpha
		}
		return float64(max(1, o.Burst))*msg + 2*m.Alpha
	case MasterWorker:
		return float64(p.Chunks) * 2 * msg
	case Simple:
		switch o.Name {
		case "buffer-attach", "type-create":
			return 1e-6
		}
		return 50e-9
	}
	if p.Method == MethodPack || p.Method == MethodManual { // the copies on both sides
		msg += 2 * float64(p.Len) / m.Copy
	}
	name := o.Name
	if o.Of != "" { // a non-blocking or persistent form: the exchange of its blocking operation
		name = o.Of
	}
	if o.Family == FamilyNeighborhood { // a message to and from every neighbor
		return MaxNeighbors * msg
	}
	switch name {
	case "barrier":
		return 2 * lg * m.Alpha
	case "comm-split", "comm-dup":
		return 4*lg*m.Alpha + float64(p.Procs)*20e-9
	case "memcpy":
		return float64(p.Len) / m.Copy
	case "allreduce", "reduce-scatter-block", "reduce-scatter", "scan", "exscan", "allreduce-reduce-bcast":
		return 2 * lg * msg
	case "alltoall", "alltoallv", "alltoallw", "alltoall-isend-irecv", "bcast-sendrecv", "gather-sendrecv", "gather-irecv":
		return n * msg
	}
	if o.Blocks { // gather, scatter, allgather and their v-variants
		return lg*m.Alpha + n*float64(p.Len)/m.Beta
	}
	return lg * msg // bcast, reduce
}

// PrepareTime is the model's bound on what a run of p processes measures
// before its first point: the pair search (its rounds of RTTRounds round
// trips and a barrier; the re-timing of at most RetimeLimit pairs,
// RetimeTimes × RetimeRounds round trips RetimeGap apart and two
// reductions each) and the model of the clocks: its estimations along a
// binomial tree, the first and the re-estimations of the run, counted
// here (clocks.Estimations; a run with a global clock skips them).
func (m Model) PrepareTime(p int) float64 {
	if p < 2 {
		return 0
	}
	rtt := 2 * m.Alpha // a 1-byte round trip
	tree := 2 * log2(p) * m.Alpha
	search := float64(SearchRounds(p)) * (RTTRounds*rtt + tree)
	retime := RetimeLimit * (RetimeTimes*(RetimeGap.Seconds()+RetimeRounds*rtt) + 2*tree)
	return search + retime + clocks.Estimations*clocks.EstimationTime(p, rtt)
}

// PointTime is the model's time of a point under the suite's rules: its
// warm-up, then repetitions until the budget or the most repetitions
// (the bound: a point that converges stops earlier), and the set-up of the
// point. A non-blocking collective's point measures twice: plain, then
// with a computation as long as the call between its start and its wait.
func (m Model) PointTime(s *Setup, p Point) float64 {
	t := m.CallTime(p)
	if Ops[p.Op].NonBlocking() {
		return m.measureTime(s, p, t) + m.measureTime(s, p, 2*t) - m.PointSetup
	}
	return m.measureTime(s, p, t)
}

// measureTime is PointTime for one measurement of calls of t seconds.
func (m Model) measureTime(s *Setup, p Point, t float64) float64 {
	calls := s.Calls
	if calls == 0 {
		calls = CallsPerRep(t, MinRep(m.Wtick, m.Clock, s.Rule.Eps))
	}
	rep := 1.5*float64(calls)*t + 2*log2(p.Procs)*m.Alpha // the window's slack and its schedule
	warm := float64(max(1, s.Warmup))*t + 6*float64(calls)*t
	measured := float64(s.Rule.Max) * rep
	if s.Rule.Budget > 0 {
		measured = min(measured, s.Rule.Budget+rep)
	}
	return m.PointSetup + warm + measured
}

// A PlannedPoint is one point of a plan with its predicted time (a
// refined curve's lengths beyond the grid are counted, not listed).
type PlannedPoint struct {
	Point
	Seconds float64
}

// A PlannedCurve is one curve of a plan: its grid points, the points a
// refinement may add (at most) and the time of all of them.
type PlannedCurve struct {
	Curve
	Points  []PlannedPoint
	Refined int     // lengths a refinement may add beyond the grid
	Seconds float64 // the points' and the refinement's predicted time
}

// PlanCurve predicts a curve's points on the model. A refinement adds up
// to Budget() − grid lengths, each predicted at the longest grid length,
// and stops adding after the suite's time where it has one.
func (m Model) PlanCurve(c Curve) PlannedCurve {
	pc := PlannedCurve{Curve: c}
	var longest float64
	for _, p := range c.Grid() {
		t := m.PointTime(c.Suite, p)
		pc.Points = append(pc.Points, PlannedPoint{p, t})
		pc.Seconds += t
		longest = max(longest, t)
	}
	if c.Refined() {
		pc.Refined = max(0, c.Budget()-len(pc.Points))
		extra := float64(pc.Refined) * longest
		if c.Suite.Time > 0 {
			extra = min(extra, max(0, c.Suite.Time-pc.Seconds)+longest)
		}
		pc.Seconds += extra
	}
	return pc
}

// A Memory is what a run holds per process, bytes (docs/scale.md).
type Memory struct {
	Buffer    int64 // each of the two buffers: the largest BufferNeed of the plan
	Widest    Point // a point that needs Buffer
	Attach    int64 // the largest attached buffer of a buffered send, or scratch of a pack or manual point
	Tables    int64 // every process's tables that grow with the processes
	Root      int64 // rank 0's tables on top
	Base      int64 // the process without the suite: Go's runtime, the MPI library
	Processes int
}

// Bytes per process of the tables that grow with p (the clock offsets,
// the C loop's counts, displacements and requests, the job's description)
// and of rank 0's (every process's node record of 160 bytes, its host
// name and pid in the job's description and its encoding, the clock
// offsets and a point's means; docs/scale.md). Up to FullPairs processes
// every process holds its row of round trips (8 bytes per process) and
// rank 0 the gathered rows, their bytes, the matrix and its lines
// (matrixBytes per pair). The pair search's RoundTrips have one entry per round a
// process timed (rowBytes each in a map): at most SearchRounds.
const (
	tableBytes  = 96
	rootBytes   = 320
	matrixBytes = 24
	rowBytes    = 48
)

// Need is the memory per process of the curves' planned points on p
// processes, on top of base (the process without the suite).
func Need(curves []Curve, p int, base int64) Memory {
	m := Memory{Buffer: 1, Tables: tableBytes*int64(p) + rowBytes*int64(SearchRounds(p)), Root: rootBytes * int64(p), Base: base, Processes: p}
	if p <= FullPairs {
		m.Tables += 8 * int64(p)
		m.Root += matrixBytes * int64(p) * int64(p)
	}
	for _, c := range curves {
		for _, pt := range c.Grid() {
			if b := c.Suite.BufferNeed(pt); b > m.Buffer {
				m.Buffer, m.Widest = b, pt
			}
			m.Attach = max(m.Attach, Attach(pt.Op, pt.Len, pt.Procs)+c.Suite.Scratch(pt))
		}
	}
	return m
}

// PerProcess is the bytes a process other than rank 0 holds at most.
func (m Memory) PerProcess() int64 { return m.Base + 2*m.Buffer + m.Attach + m.Tables }

// RootProcess is the bytes rank 0 holds at most.
func (m Memory) RootProcess() int64 { return m.PerProcess() + m.Root }

// String is the need in MiB with its parts.
func (m Memory) String() string {
	return fmt.Sprintf("%s per process (%s), rank 0 %s", mebibytes(m.PerProcess()), m.Parts(), mebibytes(m.RootProcess()))
}

// Parts are what a process holds, in MiB: "base 40.0 MiB, 2 buffers of …".
func (m Memory) Parts() string {
	s := fmt.Sprintf("base %s, 2 buffers of %s", mebibytes(m.Base), mebibytes(m.Buffer))
	if m.Widest.Procs > 0 {
		s += " for " + m.Widest.Name()
	}
	if m.Attach > 0 {
		s += ", besides them " + mebibytes(m.Attach)
	}
	return s + ", tables " + mebibytes(m.Tables)
}

func mebibytes(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
