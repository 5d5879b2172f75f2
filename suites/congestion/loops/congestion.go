package loops

import (
	"fmt"
	"math"

	"github.com/beff-suite/beff/internal/mpi"
)

// A Canary is a measurement the congestion suite takes on its canary
// processes (CONG_RR_LAT… in congestion.h, in this order).
type Canary int

const (
	CanaryRingLatency   Canary = iota // a random ring, 8 bytes to each neighbor and from each: half an iteration's time
	CanaryRingBandwidth               // a random ring, CanaryOutstanding messages to each neighbor and from each at once
	CanaryAllreduce                   // MPI_Allreduce of one double after a barrier: each call's slowest process
)

// A Congestor is a kind of load (CONG_INCAST… in congestion.h).
type Congestor int

const (
	CongestorIncast     Congestor = iota // every process sends to rank 0 of its set
	CongestorRMAIncast                   // every process puts into rank 0's window and flushes
	CongestorBcast                       // rank 0 sends to every process, one message each
	CongestorAlltoall                    // every process sends to every other, in shifted pairs
	CongestorWorstCycle                  // b_eff's worst-case cycle: a ring whose neighbours lie half the processes apart
)

// Canaries and Congestors list them in value order.
var (
	Canaries   = []Canary{CanaryRingLatency, CanaryRingBandwidth, CanaryAllreduce}
	Congestors = []Congestor{CongestorIncast, CongestorRMAIncast, CongestorBcast, CongestorAlltoall, CongestorWorstCycle}
)

var (
	canaryNames    = [...]string{"rr-lat", "rr-bw", "allreduce"}
	congestorNames = [...]string{"incast", "rma-incast", "bcast", "alltoall", "worst-cycle"}
)

func (c Canary) String() string    { return canaryNames[c] }
func (c Congestor) String() string { return congestorNames[c] }

// The histogram of a canary's samples (CONG_HIST_* in congestion.h): bin
// k holds the samples in [HistMin·HistRatio^k, HistMin·HistRatio^(k+1))
// seconds, the first and last bins also what lies below and above.
const (
	HistBins  = 2560
	HistMin   = 1e-9
	HistRatio = 1.01
)

// CanaryOutstanding is the ring bandwidth canary's messages each way per
// iteration; CongestorWindow the most messages an incast's or a
// broadcast's root has outstanding (and the slots of an RMA incast's
// window).
const (
	CanaryOutstanding = 8
	CongestorWindow   = 64
)

// CanaryBuffer and CongestorBuffer are the bytes each of a canary's and
// a congestor's two buffers needs for messages of length n.
func CanaryBuffer(n int64) int64    { return 2 * CanaryOutstanding * n }
func CongestorBuffer(n int64) int64 { return CongestorWindow * n }

// A CanaryRun is one call of the canary loop: Canary on Comm, this rank
// between Left and Right of a ring (ranks of Comm), messages of Len
// bytes, sampled for at least Duration seconds after an untimed burst.
// With Loaded the canary runs under the congestors of World (which
// enter the same two MPI_Ibarriers on World, see CongestorRun).
type CanaryRun struct {
	Canary      Canary
	Comm, World mpi.Comm
	Loaded      bool
	Left, Right int
	Len         int64
	Duration    float64
	Send, Recv  *mpi.Buffer
}

// Samples are what a canary measured on this rank.
type Samples struct {
	Hist             []int64 // HistBins counts (the allreduce canary: on rank 0 of Comm only)
	N                int64   // samples
	Sum, SumInv, Max float64 // of the samples: seconds, 1/seconds, seconds
	Elapsed          float64 // seconds the timed iterations took
	Iters, Faults    int64   // timed iterations, received data that was wrong
}

// A CongestorRun is one call of the congestor loop: Congestor on Comm with
// messages of Len bytes, for Duration seconds or, with Loaded, until the
// canaries of World are done.
type CongestorRun struct {
	Congestor   Congestor
	Comm, World mpi.Comm
	Loaded      bool
	Left, Right int // the worst cycle: this rank's neighbours in Comm
	Len         int64
	Duration    float64
	Send, Recv  *mpi.Buffer
}

// Load is what a congestor delivered on this rank.
type Load struct {
	Calls, Bytes int64   // calls made, bytes received (an RMA origin: bytes put)
	Elapsed      float64 // seconds of loading
}

// RunCanary runs a canary on this rank.
func RunCanary(r *CanaryRun) (Samples, error) {
	if err := checkLoop("canary", int(r.Canary), len(canaryNames), r.Len, CanaryBuffer(r.Len), r.Duration, r.Send, r.Recv); err != nil {
		return Samples{}, err
	}
	return runCanary(r)
}

// RunCongestor runs a congestor on this rank.
func RunCongestor(r *CongestorRun) (Load, error) {
	if err := checkLoop("congestor", int(r.Congestor), len(congestorNames), r.Len, CongestorBuffer(r.Len), r.Duration, r.Send, r.Recv); err != nil {
		return Load{}, err
	}
	return runCongestor(r)
}

// checkLoop refuses a call the C loops cannot make.
func checkLoop(what string, kind, kinds int, n, need int64, d float64, send, recv *mpi.Buffer) error {
	switch {
	case kind < 0 || kind >= kinds:
		return fmt.Errorf("%s %d: no such kind", what, kind)
	case n < 1 || n > mpi.MaxInt32:
		return fmt.Errorf("%s: messages of %d bytes (1 to %d)", what, n, mpi.MaxInt32)
	case send == nil || recv == nil || send.Len() < need || recv.Len() < need:
		return fmt.Errorf("%s: buffers of fewer than the %d bytes it needs", what, need)
	case !(d >= 0) || math.IsInf(d, 0):
		return fmt.Errorf("%s: a duration of %v s", what, d)
	}
	return nil
}
