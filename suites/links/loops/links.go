package loops

import (
	"fmt"

	"github.com/beff-suite/beff/internal/mpi"
)

// A Measure is one of the four measurements of a pair (LINKS_LAT… in
// links.h, in this order).
type Measure int

const (
	Latency Measure = iota // a ping-pong: the lower member pings
	Forth                  // the lower member sends, the higher receives
	Back                   // the higher member sends, the lower receives
	Both                   // both send and receive at once
)

// Measures lists them in value order.
var Measures = []Measure{Latency, Forth, Back, Both}

var measureNames = [...]string{"lat", "forth", "back", "both"}

func (m Measure) String() string { return measureNames[m] }

// A Pair is one measurement of one pair of processes of Comm: this
// process and Partner, Lower when this one is the lower member. Reps
// exchanges of Len bytes, fewer when the deciding member's clock passes
// Cap seconds.
type Pair struct {
	Comm       mpi.Comm
	Partner    int
	Lower      bool
	Measure    Measure
	Len        int64
	Reps       int
	Cap        float64
	Send, Recv *mpi.Buffer
}

// A Result is what the measurement gave: on the lower member the seconds
// it took and the exchanges made, and for a latency the median over its
// blocks of a ping-pong's seconds (nothing on the higher one); on both,
// the received messages whose stamps were wrong.
type Result struct {
	Seconds float64
	Count   int
	Typical float64 // a latency's: seconds of a ping-pong, the median of its blocks'
	Faults  int64
}

// Run runs the measurement; both members call it together.
func Run(p *Pair) (Result, error) {
	if err := p.check(); err != nil {
		return Result{}, err
	}
	return run(p)
}

// check refuses a measurement the C loop cannot run.
func (p *Pair) check() error {
	switch {
	case p.Measure < 0 || int(p.Measure) >= len(measureNames):
		return fmt.Errorf("links: measurement %d: no such kind", int(p.Measure))
	case p.Len < 1 || p.Len > mpi.MaxInt32:
		return fmt.Errorf("links: messages of %d bytes (1 to %d)", p.Len, mpi.MaxInt32)
	case p.Reps < 1 || p.Reps > mpi.MaxInt32:
		return fmt.Errorf("links: %d exchanges (1 to %d)", p.Reps, mpi.MaxInt32)
	case !(p.Cap > 0):
		return fmt.Errorf("links: a cap of %v s", p.Cap)
	case p.Partner < 0:
		return fmt.Errorf("links: partner %d", p.Partner)
	case p.Send == nil || p.Recv == nil || p.Send.Len() < p.Len || p.Recv.Len() < p.Len:
		return fmt.Errorf("links: buffers of fewer than the %d bytes a message needs", p.Len)
	}
	return nil
}

// Values are what the lower member of a pair measured, one per Measure:
// the latency in µs, the bandwidths in MB/s.
type Values [len(measureNames)]float64

// Share hands the lower member's values to the higher member of the pair
// (both call it): both then hold every link of theirs.
func Share(c mpi.Comm, partner int, lower bool, v *Values) error {
	if partner < 0 {
		return fmt.Errorf("links: partner %d", partner)
	}
	return share(c, partner, lower, v)
}

// Window is the most messages of a multi-pair window (LINKS_WINDOW).
const Window = 64

// A Multi is one of the process pairs of two nodes that measure at once:
// this process and Partner of Comm, Lower when this one is the lower;
// windows of Window messages of Len bytes (Both: each way at once, else
// from the lower to the higher), Reps windows or fewer when the lower
// one's clock passes Cap seconds. Recv holds Window·Len bytes.
type Multi struct {
	Comm       mpi.Comm
	Partner    int
	Lower      bool
	Both       bool
	Len        int64
	Window     int
	Reps       int
	Cap        float64
	Send, Recv *mpi.Buffer
}

// RunMulti runs the measurement; both processes call it together. The
// result's Count is windows.
func RunMulti(m *Multi) (Result, error) {
	if err := m.check(); err != nil {
		return Result{}, err
	}
	return runMulti(m)
}

func (m *Multi) check() error {
	switch {
	case m.Len < 1 || m.Len > mpi.MaxInt32:
		return fmt.Errorf("links: messages of %d bytes (1 to %d)", m.Len, mpi.MaxInt32)
	case m.Window < 1 || m.Window > Window:
		return fmt.Errorf("links: a window of %d messages (1 to %d)", m.Window, Window)
	case m.Reps < 1 || m.Reps > mpi.MaxInt32:
		return fmt.Errorf("links: %d windows (1 to %d)", m.Reps, mpi.MaxInt32)
	case !(m.Cap > 0):
		return fmt.Errorf("links: a cap of %v s", m.Cap)
	case m.Partner < 0:
		return fmt.Errorf("links: partner %d", m.Partner)
	case m.Send == nil || m.Recv == nil || m.Send.Len() < m.Len || m.Recv.Len() < int64(m.Window)*m.Len:
		return fmt.Errorf("links: buffers of fewer than the bytes a window of %d messages of %d bytes needs", m.Window, m.Len)
	}
	return nil
}
