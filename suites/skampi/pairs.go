package skampi

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// The pair search (docs/skampi.md, "Ping-pong pairs"): every pair of
// processes meets in rounds of disjoint pairs (the circle method), the
// lower rank of a pair times the round trip and keeps it in its RoundTrips; two
// reductions of each process's slowest and fastest partner find the
// job's slowest and fastest pair. Above FullPairs processes a sample of
// the rounds is measured.

// FullPairs is the most processes whose every pair is measured: p − 1
// rounds of 20 round trips and a barrier each (about 0.1 s per 1,000
// rounds at 5 µs a round trip). Above it SampledRounds rounds are drawn
// with a seed.
const (
	FullPairs     = 1024
	SampledRounds = 1023
)

// RTTRounds is the round trips behind one pair's round trip: the fastest
// counts.
const RTTRounds = 20

// Re-timing the slowest pair after the search (docs/skampi.md): at most
// RetimeLimit pairs, each RetimeTimes more times RetimeRounds round
// trips, RetimeGap apart: as many round trips each time as the search's,
// so that a fresh fastest rests on no fewer of them.
const (
	RetimeLimit  = 8
	RetimeTimes  = 4
	RetimeRounds = RTTRounds
	RetimeGap    = 10 * time.Millisecond
)

// Confirmed says whether fresh, the fastest round trip of a pair's
// re-timing, confirms searched, its fastest in the search: fresh is at
// least half of searched. Noise that lifted a pair's round trips, the
// kind the re-timing looks for, lifts them by more (a pair in shared
// memory lifted above one across the network); within a factor of 2 the
// pair keeps the search's round trip, so pairs of alike links do not
// hand the place round for nothing.
func Confirmed(searched, fresh int64) bool { return 2*fresh >= searched }

// RoundCount is the number of rounds of disjoint pairs that meet every
// pair of p processes once: p − 1 for even p, p for odd p.
func RoundCount(p int) int {
	if p < 2 {
		return 0
	}
	return p - 1 + p%2
}

// Partner is the process rank meets in round r of p processes, or −1
// when it sits out (odd p). Seat 0 stays, the others rotate; the seats
// i and n−1−i meet.
func Partner(r, rank, p int) int {
	n := p + p%2                 // a ghost process p: who meets it sits out
	seat := func(proc int) int { // the seat of proc in round r
		if proc == 0 {
			return 0
		}
		return 1 + (proc-1-r%(n-1)+(n-1))%(n-1)
	}
	proc := func(s int) int { // the process at seat s in round r
		if s == 0 {
			return 0
		}
		return 1 + (s-1+r)%(n-1)
	}
	q := proc(n - 1 - seat(rank))
	if q >= p {
		return -1
	}
	return q
}

// SearchRounds is how many rounds a search of p processes measures:
// len(Rounds(p, seed)) for any seed.
func SearchRounds(p int) int {
	if n := RoundCount(p); p <= FullPairs || n <= SampledRounds {
		return n
	}
	return SampledRounds
}

// Rounds are the rounds a search of p processes measures: all of them up
// to FullPairs processes, else SampledRounds drawn from the seed
// (ascending), and whether they were sampled.
func Rounds(p int, seed uint64) ([]int, bool) {
	n := RoundCount(p)
	if SearchRounds(p) == n {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, false
	}
	// Floyd's sampling: k distinct rounds in O(k).
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	picked := make(map[int]bool, SampledRounds)
	for j := n - SampledRounds; j < n; j++ {
		t := rng.IntN(j + 1)
		if picked[t] {
			t = j
		}
		picked[t] = true
	}
	out := make([]int, 0, SampledRounds)
	for r := range picked {
		out = append(out, r)
	}
	slices.Sort(out)
	return out, true
}

// A Pair is two processes, A < B.
type Pair struct{ A, B int }

// Extremes are one process's slowest and fastest round trip to the
// partners above it that it timed (picoseconds; Hi −1 and Lo MaxInt64
// when it timed none), the first partner of each in rank order.
type Extremes struct {
	Hi, Lo   int64
	HiB, LoB int
}

// NoExtremes is a process that timed no pair.
var NoExtremes = Extremes{Hi: -1, Lo: math.MaxInt64, HiB: -1, LoB: -1}

// Add takes the round trip rtt (picoseconds) to partner b.
func (e *Extremes) Add(b int, rtt int64) {
	if rtt > e.Hi || rtt == e.Hi && b < e.HiB {
		e.Hi, e.HiB = rtt, b
	}
	if rtt < e.Lo || rtt == e.Lo && b < e.LoB {
		e.Lo, e.LoB = rtt, b
	}
}

// Values is what a process contributes to the first reduction (MAX):
// the slowest round trip and the fastest negated.
func (e Extremes) Values() []int64 { return []int64{e.Hi, -e.Lo} }

// Keys is what process rank of p contributes to the second reduction
// (MAX), given the first's result: for each of the slowest and the
// fastest, −(rank·p + partner) where its own pair has the job's extreme
// (the largest key is the first pair in (A, B) order), else MinInt64.
func (e Extremes) Keys(rank, p int, max []int64) []int64 {
	key := func(v, want int64, b int) int64 {
		if b < 0 || v != want {
			return math.MinInt64
		}
		return -(int64(rank)*int64(p) + int64(b))
	}
	return []int64{key(e.Hi, max[0], e.HiB), key(e.Lo, -max[1], e.LoB)}
}

// RoundTrips are the round trips one process timed to the partners above it
// (picoseconds), one per partner: at most one per round it measured, so
// at most FullPairs − 1 or SampledRounds entries whatever p. The search
// keeps it so that a pair re-timed faster can give up the slowest place
// to the next.
type RoundTrips map[int]int64

// Add takes the round trip rtt to partner b; a partner timed before
// keeps the faster of the two.
func (r RoundTrips) Add(b int, rtt int64) {
	if old, ok := r[b]; !ok || rtt < old {
		r[b] = rtt
	}
}

// Extremes are the row's slowest and fastest partner.
func (r RoundTrips) Extremes() Extremes {
	e := NoExtremes
	for b, rtt := range r {
		e.Add(b, rtt)
	}
	return e
}

// PairOf decodes a key of Keys on p processes: the pair and whether a
// process had one.
func PairOf(key int64, p int) (Pair, bool) {
	if key == math.MinInt64 {
		return Pair{}, false
	}
	k := -key
	return Pair{A: int(k / int64(p)), B: int(k % int64(p))}, true
}
