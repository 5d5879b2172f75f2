package harness

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The lifeline names a process that died. Every rank but 0 holds a TCP
// connection to rank 0, outside MPI, and closes it with a goodbye byte when
// it ends on purpose (finished, stopped, failed with a message of its own).
// A process that is killed or crashes closes it without one: the kernel
// does that at once, and rank 0 (or, when rank 0 died, every other rank)
// prints which rank was lost, on which host and during which measurement,
// and ends. Open MPI's mpirun names the lost rank itself; MPICH's hydra
// names only its process id.

const goodbye = 'b'

// lifelineAddr is where rank 0 listens: a port and its addresses, the
// non-loopback ones first.
type lifelineAddr struct {
	Port  int
	Addrs []string
}

var lines struct {
	mu     sync.Mutex
	conns  []net.Conn
	ending bool
}

// logProcesses names the host and process id of every rank on stderr, so
// that a launcher's report of a lost process id (MPICH's hydra names no
// rank) can be read as a rank; tools/bench.sh does.
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

// startLifeline connects every rank to rank 0. A rank that cannot connect
// says so on stderr and goes on without (nothing else depends on it).
func (s *Session) startLifeline() {
	if s.Size < 2 {
		return
	}
	var ln net.Listener
	la := Decide(s.World(), func() lifelineAddr {
		var err error
		ln, err = net.Listen("tcp", ":0")
		if err != nil {
			fmt.Fprintf(s.Log, "beff: rank 0: no lifeline (%v): a lost process will not be named\n", err)
			return lifelineAddr{}
		}
		return lifelineAddr{Port: ln.Addr().(*net.TCPAddr).Port, Addrs: localAddrs()}
	})
	if la.Port == 0 {
		return
	}
	if s.IsRoot() {
		go s.acceptLifelines(ln)
		return
	}
	c := dialLifeline(la)
	if c == nil {
		fmt.Fprintf(s.Log, "beff: rank %d: cannot reach rank 0 at %v port %d outside MPI: if it is lost, it will not be named\n", s.Rank, la.Addrs, la.Port)
		return
	}
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(s.Rank))
	c.Write(b[:])
	lines.mu.Lock()
	lines.conns = append(lines.conns, c)
	lines.mu.Unlock()
	go s.watchLifeline(c, 0)
}

// localAddrs are the IP addresses of this host, loopback last.
func localAddrs() []string {
	var out, lo []string
	as, _ := net.InterfaceAddrs()
	for _, a := range as {
		ip, ok := a.(*net.IPNet)
		if !ok || ip.IP.To4() == nil {
			continue
		}
		if ip.IP.IsLoopback() {
			lo = append(lo, ip.IP.String())
		} else {
			out = append(out, ip.IP.String())
		}
	}
	return append(out, lo...)
}

func dialLifeline(la lifelineAddr) net.Conn {
	for _, a := range la.Addrs {
		c, err := net.DialTimeout("tcp", net.JoinHostPort(a, strconv.Itoa(la.Port)), 2*time.Second)
		if err == nil {
			return c
		}
	}
	return nil
}

// acceptLifelines takes the connection of every other rank on rank 0.
func (s *Session) acceptLifelines(ln net.Listener) {
	defer ln.Close()
	for n := 1; n < s.Size; n++ {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		var b [4]byte
		if _, err := io.ReadFull(c, b[:]); err != nil {
			c.Close()
			continue
		}
		lines.mu.Lock()
		lines.conns = append(lines.conns, c)
		lines.mu.Unlock()
		go s.watchLifeline(c, int(binary.LittleEndian.Uint32(b[:])))
	}
}

// watchLifeline waits for the goodbye of rank on c; a connection that
// closes without one means the rank is lost.
func (s *Session) watchLifeline(c net.Conn, rank int) {
	var b [1]byte
	_, err := c.Read(b[:])
	if err == nil && b[0] == goodbye {
		return
	}
	lines.mu.Lock()
	ending := lines.ending
	lines.mu.Unlock()
	if ending {
		return
	}
	host := "?"
	if rank < len(s.Job.Hosts) {
		host = s.Job.Hosts[rank]
	}
	msg := fmt.Sprintf("lost rank %d (on %s): it ended without finishing MPI (killed or crashed)", rank, host)
	if what := inProgress(); what != "" {
		msg += "; measurement in progress: " + what
	}
	s.endNow(ExitLost, msg)
}

// sayGoodbye closes every lifeline of this rank with the goodbye byte: this
// process ends on purpose.
func sayGoodbye() {
	lines.mu.Lock()
	defer lines.mu.Unlock()
	if lines.ending {
		return
	}
	lines.ending = true
	for _, c := range lines.conns {
		c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		c.Write([]byte{goodbye})
		c.Close()
	}
}
