package driver

import (
	"fmt"
	"sort"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/skampi"
)

// Rounds of ping-pongs behind one round trip of the matrix and one clock
// offset: the fastest counts.
const (
	rttRounds    = 20
	offsetRounds = 50
	timerSamples = 1000
)

// Prepared is what a run measures before its first point.
type Prepared struct {
	Wtick     float64
	Timer     float64 // median cost of an empty measurement, seconds
	Global    bool    // MPI_WTIME_IS_GLOBAL
	Offsets   []float64
	OffsetErr float64 // the largest half round trip behind an offset
	Bcast     float64 // the slowest of a few 16-byte broadcasts on all ranks
	Max, Min  skampi.Pair
	MaxRTT    float64
	MinRTT    float64
}

// prepareRun measures, on every rank, the pairs for ping-pong (the full
// matrix of round trips), the clock offsets to rank 0 and the cost of a
// clock read; rank 0 decides what the run keeps.
func prepareRun(s *harness.Session) any {
	var st Settings
	s.Must("reading the SKaMPI settings", s.State(name, &st))
	w := s.World()
	row := rttRow(s)
	rows := gatherRows(w, row)
	global, err := mpi.WtimeIsGlobal()
	s.Must("reading MPI_WTIME_IS_GLOBAL", err)
	var offs []float64
	var offErr float64
	if !global {
		offs, offErr = clockOffsets(s)
	}
	bcast := bcastTime(w)
	timer := skampi.Median(mpi.TimerCosts(timerSamples))
	st.Prep = harness.Decide(w, func() Prepared {
		p := Prepared{Wtick: mpi.Wtick(), Timer: timer, Global: global, Offsets: offs, OffsetErr: offErr, Bcast: bcast}
		p.Max, p.Min = skampi.Pairs(rows)
		if len(rows) > 1 {
			p.MaxRTT, p.MinRTT = rows[p.Max.A][p.Max.B], rows[p.Min.A][p.Min.B]
		}
		return p
	})
	for _, su := range st.Suites {
		su.Rule.Wtick = st.Prep.Wtick
	}
	return st
}

// rttRow measures this rank's minimum round trip to every other rank,
// round by round of disjoint pairs; the lower rank of a pair initiates.
func rttRow(s *harness.Session) []float64 {
	row := make([]float64, s.Size)
	for _, partner := range skampi.Rounds(s.Size) {
		p := partner[s.Rank]
		if p >= 0 {
			t, err := mpi.PairRTT(mpi.World, p, s.Rank < p, rttRounds)
			s.Must("measuring the round trips of the pairs", err)
			row[p] = t
		}
		s.World().Barrier()
	}
	return row
}

// gatherRows gathers the rows to rank 0 and makes the matrix symmetric
// (each pair was timed by its lower rank); nil on the other ranks.
func gatherRows(w *harness.Group, row []float64) [][]float64 {
	bits := make([]int64, len(row))
	for i, v := range row {
		bits[i] = int64(v * 1e12) // picoseconds
	}
	all := w.Gather(bits)
	if all == nil {
		return nil
	}
	m := make([][]float64, len(all))
	for i := range m {
		m[i] = make([]float64, len(all))
	}
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			m[i][j] = float64(all[i][j]) / 1e12
			m[j][i] = m[i][j]
		}
	}
	return m
}

// clockOffsets estimates every rank's clock offset to rank 0, one rank
// after the other; rank 0 returns them and the largest half round trip
// (the others nil).
func clockOffsets(s *harness.Session) ([]float64, float64) {
	if !s.IsRoot() {
		_, _, err := mpi.ClockOffset(mpi.World, s.Rank, 0, offsetRounds)
		s.Must("estimating the clock offsets", err)
		return nil, 0
	}
	offs := make([]float64, s.Size)
	var worst float64
	for r := 1; r < s.Size; r++ {
		o, rtt, err := mpi.ClockOffset(mpi.World, 0, r, offsetRounds)
		s.Must("estimating the clock offsets", err)
		offs[r], worst = o, max(worst, rtt/2)
	}
	return offs, worst
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
	m := w.MaxAll([]int64{int64(worst * 1e12)})
	return float64(m[0]) / 1e12
}

func (p Prepared) clock() string {
	if p.Global {
		return "global (MPI_WTIME_IS_GLOBAL: no offsets estimated)"
	}
	return fmt.Sprintf("offsets (best of %d ping-pongs per rank)", offsetRounds)
}

// offsetStats is "min median max" of the offsets, µs.
func (p Prepared) offsetStats() string {
	o := append([]float64(nil), p.Offsets...)
	sort.Float64s(o)
	return fmt.Sprintf("%.3f %.3f %.3f", o[0]*1e6, skampi.Median(o)*1e6, o[len(o)-1]*1e6)
}

// pairLine is "a b host-a host-b rtt-us".
func (p Prepared) pairLine(pr skampi.Pair, rtt float64, hosts []string) string {
	return fmt.Sprintf("%d %d %s %s %.3f", pr.A, pr.B, hosts[pr.A], hosts[pr.B], rtt*1e6)
}
