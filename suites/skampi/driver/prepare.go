package driver

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/skampi"
	"github.com/beff-suite/beff/suites/skampi/loops"
)

// timerSamples is the empty measurements behind the cost of a clock read.
const timerSamples = 1000

// Prepared is what a run measures before its first point.
type Prepared struct {
	Wtick       float64
	Timer       float64 // median cost of an empty measurement, seconds
	Global      bool    // MPI_WTIME_IS_GLOBAL (and no skew injected): no model of the clocks
	Drift       bool    // the model has a drift (-skampi.clock=drift)
	OffsetStats string  // min, median and max of the offsets at the first estimation, µs
	OffsetErr   float64 // the model's bound on its error just after it, seconds
	Bcast       float64 // the slowest of a few 16-byte broadcasts on all ranks
	Max, Min    skampi.Pair
	MaxRTT      float64
	MinRTT      float64
	PairRounds  int    // rounds of disjoint pairs the search measured
	Sampled     bool   // the rounds are a sample (above skampi.FullPairs processes)
	PairSeed    uint64 // the seed of the sample
	Retimed     int    // pairs re-timed as the slowest (confirmSlowest)
	// NoWindow holds, per kind of window (skampi.WindowAllocate,
	// WindowCreate) the job could not make, why: its one-sided suites are
	// not measured.
	NoWindow map[string]string
}

// prepareRun measures, on every rank, the pairs for ping-pong (the
// slowest and the fastest round trip, round by round of disjoint pairs),
// the clock offsets to rank 0 and the cost of a clock read; rank 0
// decides what the run keeps.
func prepareRun(s *harness.Session, st Settings) Settings {
	w := s.World()
	search := pairSearch(s, st.MatrixLimit)
	global, err := mpi.WtimeIsGlobal()
	s.Must("reading MPI_WTIME_IS_GLOBAL", err)
	global = global && !s.Skewed()
	var offs []float64
	var offErr float64
	if !global {
		clk := s.Clock(st.Clock == skampi.ClockDrift)
		offs, offErr = clk.FirstOffsets(), clk.FirstError()
	}
	noWindow := probeWindows(s, &st)
	bcast := bcastTime(w)
	timer := skampi.Median(loops.TimerCosts(timerSamples))
	st.Prep = harness.Decide(w, func() Prepared {
		p := search
		p.Wtick, p.Timer, p.Global, p.OffsetErr, p.Bcast = mpi.Wtick(), timer, global, offErr, bcast
		p.NoWindow, p.Drift = noWindow, st.Clock == skampi.ClockDrift
		if len(offs) > 1 {
			p.OffsetStats = offsetStats(offs)
		}
		return p
	})
	for _, su := range st.Suites {
		su.Rule.Wtick = st.Prep.Wtick
	}
	return st
}

// probeWindows makes and frees a window of each kind the run's one-sided
// suites use, on all ranks; it returns the kinds that failed with why
// (rank 0's error, or that another rank failed). Open MPI 4 makes no
// window across nodes over TCP with its default osc/rdma.
func probeWindows(s *harness.Session, st *Settings) map[string]string {
	out := map[string]string{}
	for _, kind := range []string{skampi.WindowAllocate, skampi.WindowCreate} {
		if !st.usesWindow(kind) {
			continue
		}
		ok, why, err := rmaProbe(s, kind == skampi.WindowAllocate)
		s.Must("probing one-sided windows", err)
		if ok {
			continue
		}
		out[kind] = s.Job.WindowFailure(why)
	}
	return out
}

// usesWindow says whether a suite with one-sided operations makes
// windows of kind.
func (st *Settings) usesWindow(kind string) bool {
	for _, su := range st.Suites {
		for _, op := range su.Ops {
			if skampi.Ops[op].RMA() && su.Window == kind {
				return true
			}
		}
	}
	return false
}

// pairSearch finds the slowest and the fastest pair: each round's pairs
// meet at once, the lower rank times the round trip and keeps it in its
// row; two reductions over all ranks give the job's extremes (the first
// pair in (A, B) order on a tie), and the slowest is re-timed
// (confirmSlowest). Above skampi.FullPairs processes the rounds are a
// sample drawn from a seed rank 0 picks. The search's round trips are
// also kept as the matrix of the ranks (up to limit processes) or of
// their nodes or switches (skampi.Groups); the re-timing changes the
// pair lines, not the matrix, whose every cell rests on the search's
// RTTRounds round trips per pair.
func pairSearch(s *harness.Session, limit int) Prepared {
	w := s.World()
	seed := uint64(harness.Decide(w, func() int64 { return time.Now().UnixNano() & math.MaxInt64 }))
	rounds, sampled := skampi.Rounds(s.Size, seed)
	row := skampi.RoundTrips{}
	keep := planMatrix(s, limit)
	for _, r := range rounds {
		if q := skampi.Partner(r, s.Rank, s.Size); q >= 0 {
			t, err := pairRTT(s, q, s.Rank < q, skampi.RTTRounds)
			s.Must("measuring the round trips of the pairs", err)
			if s.Rank < q {
				row.Add(q, picos(t))
				keep.add(s, q, picos(t))
			}
		}
		w.Barrier()
	}
	p := Prepared{PairRounds: len(rounds), Sampled: sampled}
	if sampled {
		p.PairSeed = seed
	}
	if m := keep.finish(s); m != nil {
		rttMatrix = m
	}
	if s.Size >= 2 {
		p.confirmSlowest(s, row)
	}
	return p
}

// picos is t seconds in picoseconds, how times travel in int64
// reductions; fromPicos turns them back into seconds.
func picos(t float64) int64 { return int64(t * 1e12) }

func fromPicos(ps int64) float64 { return float64(ps) / 1e12 }

// confirmSlowest finds the job's extremes and re-times the slowest pair:
// a burst of noise longer than its 20 round trips (another program on
// the core, a storm of interrupts) lifts a pair's fastest round trip, most
// easily a pair in shared memory, whose round trips are the shortest, and
// the ping-pong would measure it instead of the slowest link. A pair the
// fresh round trips do not confirm (skampi.Confirmed) takes the fastest
// of them, and the new slowest pair is re-timed in turn, until the
// slowest pair is one that was re-timed or skampi.RetimeLimit pairs were.
// The matrix keeps the search's round trips: more of them for the few
// pairs re-timed would lower those cells alone (on a loaded link, down to
// the moment its queue ran empty).
func (p *Prepared) confirmSlowest(s *harness.Session, row skampi.RoundTrips) {
	var done []skampi.Pair
	for p.extremes(s, row) && len(done) < skampi.RetimeLimit && !slices.Contains(done, p.Max) {
		retime(s, p.Max, row)
		done = append(done, p.Max)
	}
	p.Retimed = len(done)
}

// extremes sets the job's slowest and fastest pair from every rank's
// row (two reductions), and says whether there was one.
func (p *Prepared) extremes(s *harness.Session, row skampi.RoundTrips) bool {
	w := s.World()
	own := row.Extremes()
	ext := w.MaxAll(own.Values())
	keys := w.MaxAll(own.Keys(s.Rank, s.Size, ext))
	var ok bool
	p.Max, ok = skampi.PairOf(keys[0], s.Size)
	p.Min, _ = skampi.PairOf(keys[1], s.Size)
	p.MaxRTT, p.MinRTT = fromPicos(ext[0]), fromPicos(-ext[1])
	return ok
}

// retime: the two ranks of pr time skampi.RetimeRounds round trips
// skampi.RetimeTimes times, skampi.RetimeGap apart; unless the fastest
// confirms the search's, the lower rank keeps it in place of the
// search's. The other ranks go on to the next reduction.
func retime(s *harness.Session, pr skampi.Pair, row skampi.RoundTrips) {
	var q int
	switch s.Rank {
	case pr.A:
		q = pr.B
	case pr.B:
		q = pr.A
	default:
		return
	}
	initiator := s.Rank == pr.A
	fresh := int64(math.MaxInt64)
	for range skampi.RetimeTimes {
		time.Sleep(skampi.RetimeGap)
		t, err := pairRTT(s, q, initiator, skampi.RetimeRounds)
		s.Must("re-timing the slowest pair", err)
		fresh = min(fresh, picos(t))
	}
	if initiator && !skampi.Confirmed(row[q], fresh) {
		row.Add(q, fresh)
	}
}

// pairRTT times rounds round trips of this rank and q (loops.PairRTT: the
// fastest; 0 on the side that does not initiate); the tests of the pair
// search put a fake in its place.
var pairRTT = func(s *harness.Session, q int, initiator bool, rounds int) (float64, error) {
	return loops.PairRTT(mpi.World, q, initiator, rounds)
}

// rmaProbe makes and frees a window on every rank (mpi.RMAProbe); tests
// put a fake in its place.
var rmaProbe = func(s *harness.Session, allocate bool) (ok bool, why, err error) {
	return mpi.RMAProbe(s.World().Comm, allocate)
}

// rttMatrix is the round trips the pair search timed, on rank 0 of a
// job that keeps them (nil elsewhere): the configuration writes it.
var rttMatrix *skampi.Matrix

// A matrixKeeper collects a rank's part of the matrix during the pair
// search: its row of round trips to the ranks above it (a matrix of
// ranks), or the fastest round trip to each group (of nodes or switches).
type matrixKeeper struct {
	of     string
	row    []int64          // ps; -1: not measured
	group  []int64          // the group of every rank (grouped matrices)
	mins   skampi.GroupMins // this rank's fastest round trips between groups
	groups int              // how many
	places []skampi.Place   // the groups' (rank 0)
}

// planMatrix decides on rank 0 what the matrix keeps (skampi.Groups) and
// gives every rank its part: the groups of the ranks are broadcast, 8
// bytes a rank.
func planMatrix(s *harness.Session, limit int) *matrixKeeper {
	w := s.World()
	k := &matrixKeeper{}
	var group []int64
	if s.IsRoot() {
		k.of, group, k.places = skampi.Groups(s.Job.Hosts, s.Job.TopoAddrs, limit)
	}
	d := harness.Decide(w, func() [2]string { return [2]string{k.of, strconv.Itoa(len(k.places))} })
	k.of = d[0]
	switch k.of {
	case skampi.OfRanks:
		k.row = make([]int64, s.Size)
		for i := range k.row {
			k.row[i] = -1
		}
	case skampi.OfNodes, skampi.OfSwitches:
		k.groups, _ = strconv.Atoi(d[1])
		k.group = group
		if !s.IsRoot() {
			k.group = make([]int64, s.Size)
		}
		w.Bcast(k.group)
		k.mins = skampi.NewGroupMins(k.groups)
	}
	return k
}

// add takes this rank's round trip of ps to rank q. Between switches only
// pairs on different nodes count, so that a switch's diagonal is its
// network, not its nodes' shared memory.
func (k *matrixKeeper) add(s *harness.Session, q int, ps int64) {
	switch {
	case k.row != nil:
		k.row[q] = ps
	case k.mins != nil:
		if k.of == skampi.OfSwitches && s.Job.Hosts[s.Rank] == s.Job.Hosts[q] {
			return
		}
		k.mins.Add(int(k.group[s.Rank]), int(k.group[q]), k.groups, ps)
	}
}

// finish brings the parts to rank 0, which returns the matrix of them
// (nil elsewhere): the rows gathered, or the groups' fastest round trips
// reduced.
func (k *matrixKeeper) finish(s *harness.Session) *skampi.Matrix {
	w := s.World()
	switch {
	case k.row != nil && s.Size > 1:
		return rankMatrix(s, w.Gather(k.row))
	case k.mins != nil:
		if all := w.MinTo0(k.mins); all != nil {
			return skampi.GroupMins(all).Matrix(k.of, k.places)
		}
	}
	return nil
}

// rankMatrix is the matrix of the rows rank 0 gathered (nil on the
// other ranks), with each rank's place.
func rankMatrix(s *harness.Session, rows [][]int64) *skampi.Matrix {
	if rows == nil {
		return nil
	}
	m := skampi.NewMatrix(s.Size)
	for a, row := range rows {
		for b := a + 1; b < s.Size; b++ {
			if row[b] >= 0 {
				m.Set(a, b, float64(row[b])/1e6) // ps → µs
			}
		}
		addr := ""
		if a < len(s.Job.TopoAddrs) {
			addr = s.Job.TopoAddrs[a]
		}
		m.Places[a] = skampi.PlaceOf(s.Job.Hosts[a], addr)
	}
	return m
}

// bcastTime is the slowest of a few broadcasts of a batch's start on
// every rank: it decides how far ahead rank 0 schedules a batch.
func bcastTime(w *harness.Group) float64 {
	var worst float64
	for range 5 {
		t0 := mpi.Wtime()
		w.Bcast([]int64{1, 2})
		worst = max(worst, mpi.Wtime()-t0)
	}
	m := w.MaxAll([]int64{picos(worst)})
	return fromPicos(m[0])
}

func (p Prepared) clock() string {
	if p.Global {
		return "global (MPI_WTIME_IS_GLOBAL: no offsets estimated)"
	}
	how := "offsets once before the first point, SKaMPI's scheme"
	if p.Drift {
		how = "offset and drift per process, re-estimated as the error needs"
	}
	return fmt.Sprintf("model: %s (a binomial tree of best-of-%d ping-pongs)", how, clocks.PingPongs)
}

// offsetStats is "min median max" of the offsets, µs.
func offsetStats(offs []float64) string {
	o := append([]float64(nil), offs...)
	sort.Float64s(o)
	return fmt.Sprintf("%.3f %.3f %.3f", o[0]*1e6, skampi.Median(o)*1e6, o[len(o)-1]*1e6)
}

// searchLine says which rounds of disjoint pairs the search of n
// processes measured, and how many pairs it re-timed as the slowest.
func (p Prepared) searchLine(n int) string {
	if p.Sampled {
		return fmt.Sprintf("sampled %d of %d rounds of disjoint pairs, seed %d%s", p.PairRounds, skampi.RoundCount(n), p.PairSeed, p.retimedNote())
	}
	return fmt.Sprintf("all %d rounds of disjoint pairs%s", p.PairRounds, p.retimedNote())
}

// retimedNote says how many pairs were re-timed as the slowest.
func (p Prepared) retimedNote() string {
	if p.Retimed == 0 {
		return ""
	}
	return fmt.Sprintf("; slowest re-timed: %d pair%s", p.Retimed, plural(p.Retimed))
}

// pairLine is "a b host-a host-b rtt-us".
func (p Prepared) pairLine(pr skampi.Pair, rtt float64, hosts []string) string {
	return fmt.Sprintf("%d %d %s %s %.3f", pr.A, pr.B, hosts[pr.A], hosts[pr.B], rtt*1e6)
}
