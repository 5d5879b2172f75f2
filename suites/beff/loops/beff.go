package loops

import (
	"fmt"

	"github.com/beff-suite/beff/internal/mpi"
)

// MaxSteps is the most exchanges one rank may have in one iteration of a
// b_eff pattern (BEFF_MAXSTEPS in beff.h).
const MaxSteps = 8

// An Exchange is how the b_eff loop moves the messages of one step (the
// C table beff_method_names in beff.c has their names, in this order).
type Exchange int

const (
	ExchangeSendrecv    Exchange = iota // MPI_Sendrecv (MPI_Send or MPI_Recv where a side is MPI_PROC_NULL)
	ExchangeAlltoallv                   // one MPI_Alltoallv for all steps
	ExchangeNonblocking                 // MPI_Irecv, MPI_Isend for all steps, MPI_Waitall
)

// Exchanges lists the exchanges in value order.
var Exchanges = []Exchange{ExchangeSendrecv, ExchangeAlltoallv, ExchangeNonblocking}

var exchangeNames = [...]string{"sendrecv", "alltoallv", "nonblocking"}

func (e Exchange) String() string { return exchangeNames[e] }

// BeffPlan is what one rank does in one iteration of a b_eff pattern: up to
// MaxSteps exchanges, each with a destination and a source (mpi.ProcNull for
// none), in the ranks of the pattern's communicator.
type BeffPlan struct {
	Dest, Src []int
}

// Fault describes the first validation failure a rank saw in a measurement.
type Fault struct {
	Count                 int64 // failed checks in the measurement
	Iter                  int64 // iteration (0 is the first untimed one when there is one)
	Step, Partner         int
	Offset                int64 // offset of the message in the receive buffer
	ExpectFirst, GotFirst int
	ExpectLast, GotLast   int
}

// BeffTiming is one call of the timed b_eff loop.
type BeffTiming struct {
	Barrier    mpi.Comm // every process of the job takes part in its barrier
	Comm       mpi.Comm // the pattern's communicator, mpi.CommNull if this rank is not in it
	Plan       BeffPlan
	Method     Exchange
	Len        int // message length in bytes
	SizeIndex  int // enters the validation bytes
	LoopLen    int // timed iterations
	Warm       int // untimed iterations before the clock starts
	Send, Recv *mpi.Buffer
	// Carry, when set, holds the send and receive offsets where the last
	// measurement left them: the loop goes on from there (from 0 where its
	// first message would not fit) and stores where it stopped, so that
	// no measurement reads what the one before just sent. Without it the
	// offsets start at 0.
	Carry *[2]int64
	// RefBase, when set, places the messages as the reference code b_eff
	// 3.6 does: one offset into both buffers, taken by every step and
	// carried from one measurement to the next through *RefBase (start it
	// at 0). With MPI_Alltoallv a partner may then have one step only.
	RefBase *int64
	Inject  bool // corrupt the first received message (tests only)
	// Quiet makes the barrier before the loop an MPI_Ibarrier that the
	// processes with nothing to do in the loop wait for asleep (a pattern
	// some processes take no part in); every process passes the same.
	Quiet bool
}

// Measure runs m in C and returns the elapsed time of the timed loop in
// seconds (0 on a rank outside the pattern's communicator) and the
// validation result.
func Measure(m *BeffTiming) (float64, Fault, error) {
	if err := m.check(); err != nil {
		return 0, Fault{}, err
	}
	return measure(m)
}

// check refuses a measurement the C loop cannot run.
func (m *BeffTiming) check() error {
	switch {
	case len(m.Plan.Dest) > MaxSteps || len(m.Plan.Dest) != len(m.Plan.Src):
		return fmt.Errorf("measure: plan with %d/%d steps (at most %d)", len(m.Plan.Dest), len(m.Plan.Src), MaxSteps)
	case m.Send == nil || m.Recv == nil:
		return fmt.Errorf("measure: no buffers")
	case m.Len < 0 || int64(m.Len) > m.Send.Len() || int64(m.Len) > m.Recv.Len():
		return fmt.Errorf("measure: message of %d bytes does not fit the %d-byte buffers", m.Len, m.Send.Len())
	case m.Len > mpi.MaxInt32 || m.SizeIndex < 0 || m.SizeIndex > mpi.MaxInt32:
		return fmt.Errorf("measure: message of %d bytes, size %d: beyond an MPI count", m.Len, m.SizeIndex)
	case m.LoopLen < 0 || m.Warm < 0 || m.LoopLen > mpi.MaxInt32 || m.Warm > mpi.MaxInt32 || m.Method < 0 || int(m.Method) >= len(exchangeNames):
		return fmt.Errorf("measure: loop of %d iterations (%d untimed), exchange %d", m.LoopLen, m.Warm, int(m.Method))
	}
	return nil
}
