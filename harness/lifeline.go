package harness

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"
)

// The lifeline names a process that died. The processes form a tree of
// TCP connections outside MPI, fanOut children per process (rank r's
// parent is (r−1)/fanOut), so that no process holds more than fanOut+1
// of them, whatever the job's size. Every process closes its lifelines
// with a goodbye byte when it ends on purpose (finished, stopped, failed
// with a message of its own). A process that is killed or crashes closes
// them without one: the kernel does that at once, and its parent and
// children print which rank was lost, on which host and during which
// measurement, and end. Open MPI's mpirun names the lost rank itself;
// MPICH's hydra names only its process id.
//
// A connection counts only with the job's token, 16 random bytes rank 0
// broadcasts over MPI (never on a command line or in a file), sent with
// the child's rank within handshakeWait; anything else is closed without
// stalling or ending the job. A process listens on one address: the one
// in the subnet its children reach it through (as MPI's TCP transports
// pair interfaces), or loopback when they all share its host.

const (
	goodbye       = 'b'
	fanOut        = 15               // children per process
	handshakeWait = 10 * time.Second // a connection sends the token and its rank within this
	acceptWait    = 2 * time.Minute  // a listener waits this long for its children
	addrSlots     = 4                // IPv4 addresses of a process in the gathered record
	tokenLen      = 16
)

// lifelines are a process's lines to its parent and children.
type lifelines struct {
	mu     sync.Mutex
	conns  []net.Conn
	parent net.Conn // the line to the parent, nil on rank 0 or without one
	ending bool
	// parentEnd is closed when the line to the parent ends, whatever
	// the reason (nil without a line to the parent); parentBye says the
	// parent ended on purpose (its goodbye).
	parentEnd chan struct{}
	parentBye bool
	sendMu    sync.Mutex // one notice at a time to the parent
}

// logProcesses names the host and process id of every rank on stderr, so
// that a launcher's report of a lost process id (MPICH's hydra names no
// rank) can be read as a rank; beff run does (package launch).
func (s *Session) logProcesses() {
	const most = 256
	var parts []string
	for r, h := range s.Job.Hosts {
		if r == most {
			parts = append(parts, fmt.Sprintf("… %d more", len(s.Job.Hosts)-most))
			break
		}
		parts = append(parts, fmt.Sprintf("rank %d on %s (pid %d)", r, h, s.Job.PIDs[r]))
	}
	s.Logf("processes: %s", strings.Join(parts, ", "))
}

// treeParent is the parent of rank r > 0 in the lifeline tree.
func treeParent(r int) int { return (r - 1) / fanOut }

// treeChildren are the children of rank r among p processes: first to
// last (none when first > last).
func treeChildren(r, p int) (first, last int) {
	return fanOut*r + 1, min(fanOut*r+fanOut, p-1)
}

// startLifeline builds the tree: every process's addresses go to rank 0,
// which picks where each parent listens; the parents listen, their ports
// go to rank 0 and on to the children with the job's token; the children
// connect. All of it in a fixed number of collectives, rank 0's tables
// O(p), every other process's O(1). A process that cannot take part says
// so on stderr and goes on without (nothing else depends on it).
func (s *Session) startLifeline() {
	if s.Size < 2 {
		return
	}
	w := s.World()
	own, parentIP := s.treeAddrs()
	first, last := treeChildren(s.Rank, s.Size)
	var ln net.Listener
	port := 0
	if first <= last {
		var err error
		if ln, err = net.Listen("tcp", net.JoinHostPort(own.String(), "0")); err != nil {
			fmt.Fprintf(s.Log, "beff: rank %d: no lifeline for ranks %d-%d (%v): if one is lost, it may not be named\n", s.Rank, first, last, err)
		} else {
			port = ln.Addr().(*net.TCPAddr).Port
		}
	}
	parentPort := s.parentPorts(port)
	token := make([]byte, tokenLen)
	if s.IsRoot() {
		rand.Read(token)
	}
	s.Must("broadcasting the lifeline token", w.Comm.BcastBytes(token, 0))
	// The line to the parent first: its listener already queues the
	// connection, and under a tight limit of descriptors the children
	// accepted first would leave none for it.
	if !s.IsRoot() {
		s.connectParent(parentIP, parentPort, token)
	}
	if ln != nil {
		go s.acceptLifelines(ln, token, first, last)
	}
}

// connectParent connects this rank to its parent and watches it.
func (s *Session) connectParent(ip net.IP, port int, token []byte) {
	parent := treeParent(s.Rank)
	if port == 0 {
		return // the parent said why
	}
	c, err := net.DialTimeout("tcp", net.JoinHostPort(ip.String(), fmt.Sprint(port)), 5*time.Second)
	if err != nil {
		fmt.Fprintf(s.Log, "beff: rank %d: cannot reach rank %d at %s port %d outside MPI (%v): if it is lost, it will not be named\n", s.Rank, parent, ip, port, err)
		return
	}
	var rk [4]byte
	binary.LittleEndian.PutUint32(rk[:], uint32(s.Rank))
	c.SetWriteDeadline(time.Now().Add(handshakeWait))
	c.Write(append(append([]byte(nil), token...), rk[:]...))
	c.SetWriteDeadline(time.Time{})
	s.keepLine(c)
	s.lines.mu.Lock()
	s.lines.parent = c
	s.lines.parentEnd = make(chan struct{})
	s.lines.mu.Unlock()
	go s.watchLifeline(c, parent)
}

func (s *Session) keepLine(c net.Conn) {
	s.lines.mu.Lock()
	s.lines.conns = append(s.lines.conns, c)
	s.lines.mu.Unlock()
}

// acceptLifelines takes the connections of the children first..last: a
// connection counts when it sends the token and a child's rank within
// handshakeWait; any other is closed. The listener closes when every
// child is in, or after acceptWait.
func (s *Session) acceptLifelines(ln net.Listener, token []byte, first, last int) {
	var mu sync.Mutex
	seen := map[int]bool{}
	time.AfterFunc(acceptWait, func() { ln.Close() })
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			rank, ok := handshake(c, token, first, last, handshakeWait)
			mu.Lock()
			ok = ok && !seen[rank]
			if ok {
				seen[rank] = true
			}
			all := len(seen) == last-first+1
			mu.Unlock()
			if !ok {
				c.Close()
				return
			}
			s.keepLine(c)
			go s.watchLifeline(c, rank)
			if all {
				ln.Close()
			}
		}()
	}
}

// handshake reads the token and a rank from c within wait: the rank, and
// whether it is the job's token and a rank from first to last.
func handshake(c net.Conn, token []byte, first, last int, wait time.Duration) (int, bool) {
	c.SetReadDeadline(time.Now().Add(wait))
	defer c.SetReadDeadline(time.Time{})
	b := make([]byte, tokenLen+4)
	if _, err := io.ReadFull(c, b); err != nil || !bytes.Equal(b[:tokenLen], token) {
		return 0, false
	}
	r := int(binary.LittleEndian.Uint32(b[tokenLen:]))
	return r, r >= first && r <= last
}

// watchLifeline waits for the goodbye of rank on c; a connection that
// closes without one means the rank is lost.
func (s *Session) watchLifeline(c net.Conn, rank int) {
	if rank < s.Rank {
		defer s.parentEnded()
	}
	var b [1]byte
	for {
		_, err := c.Read(b[:])
		if err == nil && b[0] == goodbye {
			if rank < s.Rank {
				s.lines.mu.Lock()
				s.lines.parentBye = true
				s.lines.mu.Unlock()
			}
			return
		}
		if err == nil && b[0] == noticeByte && rank > s.Rank && s.passOn(c) == nil {
			continue // a child passed on what ends the job
		}
		break
	}
	s.lines.mu.Lock()
	ending := s.lines.ending
	s.lines.mu.Unlock()
	if ending {
		return
	}
	if rank < s.Rank {
		s.forgetParent(c) // a notice written to a dead parent is lost: say it here
		s.parentEnded()
	}
	host := "?"
	if rank < len(s.Job.Hosts) {
		host = s.Job.Hosts[rank]
	}
	msg := fmt.Sprintf("lost rank %d (on %s): it ended without finishing MPI (killed or crashed)", rank, host)
	if what := s.inProgress(); what != "" {
		msg += "; measurement in progress: " + what
	}
	s.endWith(ExitLost, msg)
}

// parentEnded says that the line to the parent has ended (once).
func (s *Session) parentEnded() {
	s.lines.mu.Lock()
	defer s.lines.mu.Unlock()
	if s.lines.parentEnd != nil {
		select {
		case <-s.lines.parentEnd:
		default:
			close(s.lines.parentEnd)
		}
	}
}

// parentSaidGoodbye says whether the parent ended on purpose.
func (s *Session) parentSaidGoodbye() bool {
	s.lines.mu.Lock()
	defer s.lines.mu.Unlock()
	return s.lines.parentBye
}

// waitParentEnd waits until the line to the parent ends, at most d,
// and says whether it ended (at once without a line).
func (s *Session) waitParentEnd(d time.Duration) bool {
	s.lines.mu.Lock()
	ch := s.lines.parentEnd
	s.lines.mu.Unlock()
	if ch == nil {
		return true
	}
	select {
	case <-ch:
		return true
	case <-time.After(d):
		return false
	}
}

// forgetParent drops c as the line to the parent: the parent was lost.
// (A write to a peer that has just died may still succeed.)
func (s *Session) forgetParent(c net.Conn) {
	s.lines.mu.Lock()
	defer s.lines.mu.Unlock()
	if s.lines.parent == c {
		s.lines.parent = nil
	}
}

// sayGoodbye closes every lifeline of this rank with the goodbye byte: this
// process ends on purpose.
func (s *Session) sayGoodbye() {
	s.lines.mu.Lock()
	defer s.lines.mu.Unlock()
	if s.lines.ending {
		return
	}
	s.lines.ending = true
	for _, c := range s.lines.conns {
		c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		c.Write([]byte{goodbye})
		c.Close()
	}
}
