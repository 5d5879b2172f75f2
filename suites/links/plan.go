package links

import (
	"fmt"
	"math"
)

// A pair of members is measured four times, each measurement bounded by
// the settings' cap: the latency (a ping-pong of LatLen bytes), the
// bandwidth from the lower member to the higher, back, and both ways at
// once (bidirectional, as osu_bibw).
const (
	MeasLatency = iota
	MeasForth
	MeasBack
	MeasBoth
	PerPair // measurements of a pair
)

// LatLen is the bytes of a latency ping-pong.
const LatLen = 8

// RoundSync is what one round adds to its pairs' time: the decision to go
// on, a broadcast from rank 0, taken after every round (seconds, an
// upper bound on a cluster of 10^5 nodes).
const RoundSync = 0.002

// PairSync is what a pair adds to a round measured serially: the
// barrier, waited for asleep, that starts each pair (seconds; it polls
// every 10 ms).
const PairSync = 0.012

// Settle is how long rank 0 waits, in a serial run, after it wrote a
// round's lines and before the next pair measures (the others wait
// asleep): the launcher forwards rank 0's output on some node, and a
// pair measured while it does measured that (seconds).
const Settle = 0.02

// FullMatrix is the most members whose every link is a line of the
// results file (p(p−1)/2 pairs: 523,776 lines at 1,024); above it each
// member's line sums up its links (its median, its worst link and with
// whom), which is what the verdicts need.
const FullMatrix = 1024

// Settings are what a run measures per pair.
type Settings struct {
	LatReps int     // ping-pongs of a latency measurement
	BwLen   int64   // bytes of a bandwidth message
	BwReps  int     // messages each way of a bandwidth measurement
	Cap     float64 // seconds a measurement may take at most; it stops early with what it has
	// MultiKs are the multi-pair process counts per node (none: no
	// multi-pair measurements)
	MultiKs []int
	// Serial: a round's pairs take turns, the others waiting asleep, so
	// that no pair shares the network or a node's cores with another;
	// else they all measure at once.
	Serial bool
}

// DefaultSettings measure 1000 ping-pongs and 16 messages of 1 MiB each
// way, each measurement stopped after 50 ms.
var DefaultSettings = Settings{LatReps: 1000, BwLen: 1 << 20, BwReps: 16, Cap: 0.05}

// Check refuses settings a run cannot take.
func (s Settings) Check() error {
	switch {
	case s.LatReps < 1 || s.LatReps > 1<<20:
		return fmt.Errorf("%d ping-pongs: want 1 to %d", s.LatReps, 1<<20)
	case s.BwLen < 1 || s.BwLen > math.MaxInt32:
		return fmt.Errorf("a bandwidth message of %d bytes: want 1 to %d", s.BwLen, math.MaxInt32)
	case s.BwReps < 1 || s.BwReps > 1<<20:
		return fmt.Errorf("%d bandwidth messages: want 1 to %d", s.BwReps, 1<<20)
	case !(s.Cap > 0) || s.Cap > 3600:
		return fmt.Errorf("a cap of %v s per measurement: want more than 0, at most 3600", s.Cap)
	}
	return nil
}

// A Plan is a run's schedule and its time, known before it runs.
type Plan struct {
	Members int     // nodes, or processes
	Rounds  int     // rounds of disjoint pairs
	Pairs   int64   // pairs measured
	Seconds float64 // the most the measurements take
	Full    bool    // every link is a line (Members ≤ FullMatrix)
}

// NewPlan is the plan of a round robin of members under s: every round
// takes at most PerPair caps and its sync, whatever the network; a
// serial round takes that for each of its pairs, each after a PairSync,
// and Settle;
// a full matrix adds the suspects' second measurements (RecheckSeconds).
func NewPlan(members int, s Settings) Plan {
	r := Rounds(members)
	round := PerPair*s.Cap + RoundSync
	if s.Serial {
		round = float64(members/2)*(PerPair*s.Cap+PairSync) + RoundSync + Settle
	}
	p := Plan{Members: members, Rounds: r, Pairs: int64(members) * int64(members-1) / 2,
		Seconds: float64(r) * round, Full: members <= FullMatrix}
	if p.Full && members > 1 {
		p.Seconds += RecheckSeconds(s)
	}
	p.Seconds += MultiSeconds(s.MultiKs, members, s)
	return p
}
