package harness

import (
	"encoding/binary"
	"net"
)

// An ifAddr is one IPv4 address of a process's host with its prefix.
type ifAddr struct {
	IP   [4]byte
	Bits uint8
}

// addrRec is the bytes of one process's record of addresses.
const addrRec = 5 * addrSlots

// localIfAddrs are this host's IPv4 addresses other than loopback, at
// most addrSlots.
func localIfAddrs() []ifAddr {
	var out []ifAddr
	as, _ := net.InterfaceAddrs()
	for _, a := range as {
		n, ok := a.(*net.IPNet)
		if !ok || n.IP.To4() == nil || n.IP.IsLoopback() || len(out) == addrSlots {
			continue
		}
		bits, _ := n.Mask.Size()
		var x ifAddr
		copy(x.IP[:], n.IP.To4())
		x.Bits = uint8(bits)
		out = append(out, x)
	}
	return out
}

func encodeAddrs(a []ifAddr) []byte {
	b := make([]byte, addrRec)
	for i, x := range a[:min(len(a), addrSlots)] {
		copy(b[5*i:], x.IP[:])
		b[5*i+4] = x.Bits
	}
	return b
}

func decodeAddrs(b []byte) []ifAddr {
	var out []ifAddr
	for i := 0; i+5 <= len(b) && i < addrRec; i += 5 {
		if x := (ifAddr{IP: [4]byte(b[i : i+4]), Bits: b[i+4]}); x.IP != [4]byte{} {
			out = append(out, x)
		}
	}
	return out
}

// contains says whether a's subnet holds b.
func (a ifAddr) contains(b ifAddr) bool {
	n := net.IPNet{IP: net.IP(a.IP[:]), Mask: net.CIDRMask(int(a.Bits), 32)}
	return n.Contains(net.IP(b.IP[:]))
}

var loopback = net.IPv4(127, 0, 0, 1).To4()

// listenIP is where a process with addresses own listens for children
// with the addresses kids: the address of its subnet that a child on
// another host shares (the first such), else its first address when some
// child shares no subnet with it, else loopback (all children on its
// host, or no address but loopback).
func listenIP(own []ifAddr, kids [][]ifAddr) net.IP {
	remote := false
	for _, k := range kids {
		if sharesAddr(own, k) {
			continue
		}
		remote = true
		for _, a := range own {
			for _, b := range k {
				if a.contains(b) && b.contains(a) {
					return net.IP(a.IP[:])
				}
			}
		}
	}
	if remote && len(own) > 0 {
		return net.IP(own[0].IP[:])
	}
	return loopback
}

// sharesAddr says whether two processes have an address in common: the
// same host (or network namespace).
func sharesAddr(a, b []ifAddr) bool {
	for _, x := range a {
		for _, y := range b {
			if x.IP == y.IP {
				return true
			}
		}
	}
	return false
}

// treeListenIPs is where every process of the tree listens (nil for the
// processes without children), from every process's addresses.
func treeListenIPs(all [][]ifAddr) []net.IP {
	out := make([]net.IP, len(all))
	for q := range all {
		first, last := treeChildren(q, len(all))
		if first > last {
			continue
		}
		out[q] = listenIP(all[q], all[first:last+1])
	}
	return out
}

// treeAddrs gathers every process's addresses to rank 0, which decides
// where each process listens, and gives every process its own address to
// listen on and its parent's.
func (s *Session) treeAddrs() (own, parent net.IP) {
	rec := encodeAddrs(localIfAddrs())
	var all, out []byte
	if s.IsRoot() {
		all = make([]byte, addrRec*s.Size)
	}
	s.Must("gathering the lifeline addresses", s.World().Comm.GatherBytes(rec, all, 0))
	if s.IsRoot() {
		addrs := make([][]ifAddr, s.Size)
		for r := range addrs {
			addrs[r] = decodeAddrs(all[r*addrRec : (r+1)*addrRec])
		}
		listen := treeListenIPs(addrs)
		out = make([]byte, 8*s.Size)
		for r := range s.Size {
			copy(out[8*r:], listen[r].To4())
			if r > 0 {
				copy(out[8*r+4:], listen[treeParent(r)].To4())
			}
		}
	}
	mine := make([]byte, 8)
	s.Must("giving out the lifeline addresses", s.World().Comm.ScatterBytes(out, mine, 0))
	return net.IP(mine[:4]), net.IP(mine[4:])
}

// parentPorts gathers every process's listening port (0: none) to rank 0
// and gives every process its parent's.
func (s *Session) parentPorts(port int) int {
	in := make([]byte, 4)
	binary.LittleEndian.PutUint32(in, uint32(port))
	var all, out []byte
	if s.IsRoot() {
		all = make([]byte, 4*s.Size)
	}
	s.Must("gathering the lifeline ports", s.World().Comm.GatherBytes(in, all, 0))
	if s.IsRoot() {
		out = make([]byte, 4*s.Size)
		for r := 1; r < s.Size; r++ {
			copy(out[4*r:], all[4*treeParent(r):4*treeParent(r)+4])
		}
	}
	mine := make([]byte, 4)
	s.Must("giving out the lifeline ports", s.World().Comm.ScatterBytes(out, mine, 0))
	return int(binary.LittleEndian.Uint32(mine))
}
