package harness

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// What ends a job outside MPI — a watchdog that fired, a process lost —
// is said once per job, by rank 0, with the number of ranks that had
// said so by then: on 10^5 processes that all wait in the same
// collective, every watchdog fires within a second. A rank other than 0
// sends a notice up the lifeline tree (each parent passes it on) and ends
// quietly once its parent's line ends: rank 0 says the first notice (its
// own or one passed up), ends, and its end closes the lines down the
// tree, so that the launcher, which tears the job down when it sees one
// process gone, does so after rank 0 spoke. On 256 processes on two cores
// a fixed head start of a second was not enough: the first ranks to fire
// ended, the launcher killed rank 0 before its line, and a hundred ranks
// whose notices then found no parent said their own.
//
// A rank says a notice alone only when no other will: when it cannot
// send it up (no lifeline, or its parent lost), or when its parent took
// it and did not end within noticeWait (the parent may be the process
// that is stuck, and a stopped process reads nothing). The children of
// one parent speak a second apart, the first first: the launcher ends
// the job on the first one's line. A rank
// whose parent ended on purpose (its goodbye) stays silent: the job is
// ending and its reason was said — so does a stopped process that the
// launcher wakes to end it (Open MPI sends SIGCONT before SIGTERM) and
// that then finds its children's notices and its own watchdog's. A rank
// that speaks keeps going for sayForward after its line, its lifelines
// open, so that the launcher forwards the line and the notices still on
// their way are counted. MPICH 4.2's Hydra reports about 1 job in 10
// whose rank 0 it saw killed as a success, and beff run reads the notice
// instead.

const (
	noticeByte = 'n'
	noticeMost = 1024 // bytes of a notice's text
	// sayForward is how long a rank keeps going after it said what ends
	// the job: the launcher forwards a process's last lines only while it
	// has not begun to tear the job down (Open MPI's mpirun lost rank 0's
	// line on 256 processes on two cores without it).
	sayForward = 500 * time.Millisecond
)

// gatherWindow is how long rank 0 counts notices before it says the
// first: the watchdogs look four times a second, so those of ranks
// waiting in the same call fire within it (a variable for the tests).
var gatherWindow = 300 * time.Millisecond

// noticeWait is the longest a rank that sent a notice waits for its
// parent's line to end (rank 0 having said it) before it says the notice
// alone (a variable for the tests).
var noticeWait = 10 * time.Second

// A notice is one rank's reason to end the job: its exit code and its
// message ("watchdog: …", "lost rank 3 …").
type notice struct {
	from int
	code int
	text string
}

// encode writes the notice as the lifeline carries it: the notice byte,
// the rank, the code, the length and the text.
func (n notice) encode() []byte {
	t := n.text
	if len(t) > noticeMost {
		t = t[:noticeMost]
	}
	b := make([]byte, 11, 11+len(t))
	b[0] = noticeByte
	binary.LittleEndian.PutUint32(b[1:], uint32(n.from))
	binary.LittleEndian.PutUint32(b[5:], uint32(n.code))
	binary.LittleEndian.PutUint16(b[9:], uint16(len(t)))
	return append(b, t...)
}

// readNotice reads a notice after its notice byte from r.
func readNotice(r io.Reader) (notice, error) {
	var h [10]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return notice{}, err
	}
	n := int(binary.LittleEndian.Uint16(h[8:]))
	if n > noticeMost {
		return notice{}, fmt.Errorf("a notice of %d bytes", n)
	}
	t := make([]byte, n)
	if _, err := io.ReadFull(r, t); err != nil {
		return notice{}, err
	}
	return notice{from: int(int32(binary.LittleEndian.Uint32(h[0:]))), code: int(int32(binary.LittleEndian.Uint32(h[4:]))), text: string(t)}, nil
}

// line is how rank 0 says the notice: as the rank that saw it would
// have, with how many ranks sent one.
func (n notice) line(count, size int) string {
	if count <= 1 {
		return fmt.Sprintf("rank %d: %s", n.from, n.text)
	}
	return fmt.Sprintf("rank %d: %s (%d of %d ranks said so)", n.from, n.text, count, size)
}

// gathering is rank 0's collection of notices.
type gathering struct {
	mu    sync.Mutex
	first *notice
	count int
}

// gather takes a notice on rank 0 and ends the job with the first,
// gatherWindow later (the others that arrive meanwhile are counted) — at
// once where a process was lost: the launcher saw it end too and tears
// the job down (MPICH's Hydra kills rank 0 within milliseconds, and then
// names rank 0's process as the one that failed).
func (s *Session) gather(n notice) {
	s.gathering.mu.Lock()
	defer s.gathering.mu.Unlock()
	s.gathering.count++
	if s.gathering.first != nil {
		return
	}
	s.gathering.first = &n
	window := gatherWindow
	if n.code == ExitLost {
		window = 0
	}
	go func() {
		time.Sleep(window)
		s.gathering.mu.Lock()
		first, count := *s.gathering.first, s.gathering.count
		s.gathering.mu.Unlock()
		s.endQuoted(first.code, first.line(count, s.Size))
	}()
}

// gathered is rank 0's line for the notices gathered so far and the
// first one's code; false before the first.
func (s *Session) gathered(size int) (string, int, bool) {
	s.gathering.mu.Lock()
	defer s.gathering.mu.Unlock()
	if s.gathering.first == nil {
		return "", 0, false
	}
	return s.gathering.first.line(s.gathering.count, size), s.gathering.first.code, true
}

// endWith ends the job for the reason msg seen on this rank (raise).
func (s *Session) endWith(code int, msg string) {
	s.raise(notice{from: s.Rank, code: code, text: msg})
}

// raise ends the job for n: rank 0 says it (with the others' notices
// counted); another rank sends it up the lifeline and ends quietly once
// its parent's line ends (rank 0 having said it, or the parent lost: its
// own parent names it). Where the notice cannot be sent, or the parent
// takes it and does not end within noticeWait (the parent may be the
// process that is stuck), the rank says it alone.
func (s *Session) raise(n notice) {
	if s.IsRoot() || s.Size < 2 {
		s.gather(n)
		return
	}
	if s.sendUp(n.encode()) && s.waitParentEnd(noticeWait) {
		s.endAfter(n.code, "", 0)
	}
	s.sayAlone(n)
}

// aloneStagger is how much later each child of a parent says alone what
// it could not send up than the child before it: where all of them must
// (their parent stuck or lost), the first speaks, the launcher sees it
// end and ends the others before they do.
const aloneStagger = time.Second

// sayAlone ends this process saying n itself, after its place among its
// parent's children times aloneStagger; quietly where the parent ended
// on purpose (its goodbye: the job is ending, and its reason was said)
// or the process is ending meanwhile. The first child of a lost parent
// speaks at once, beside the lost parent's parent: a launcher that
// kills the job the moment a process dies (MPICH's Hydra, rank 0 first)
// leaves no time to wait for the other.
func (s *Session) sayAlone(n notice) {
	s.waitParentEnd(time.Second) // a line that failed ends at once: learn how
	if !s.parentSaidGoodbye() {
		time.Sleep(time.Duration((s.Rank-1)%fanOut) * aloneStagger)
	}
	if s.parentSaidGoodbye() {
		s.endAfter(n.code, "", 0)
	}
	s.endQuoted(n.code, n.line(1, s.Size))
}

// sendUp writes b to this rank's parent on the lifeline; false when
// there is none or the write failed.
func (s *Session) sendUp(b []byte) bool {
	s.lines.mu.Lock()
	c := s.lines.parent
	s.lines.mu.Unlock()
	if c == nil {
		return false
	}
	s.lines.sendMu.Lock()
	defer s.lines.sendMu.Unlock()
	c.SetWriteDeadline(time.Now().Add(time.Second))
	_, err := c.Write(b)
	c.SetWriteDeadline(time.Time{})
	return err == nil
}

// passOn handles a notice that came from a child: rank 0 gathers it,
// another rank passes it up, or, when it cannot, raises it as its own
// (the child has ended quietly, trusting the notice to reach rank 0); a
// rank whose parent said goodbye drops it.
func (s *Session) passOn(c net.Conn) error {
	n, err := readNotice(c)
	if err != nil {
		return err
	}
	switch {
	case s.IsRoot():
		s.gather(n)
	case s.parentSaidGoodbye():
		// the job is ending, and its reason was said
	case !s.sendUp(n.encode()):
		s.raise(n)
	}
	return nil
}
