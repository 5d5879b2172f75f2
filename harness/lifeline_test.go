package harness

import (
	"io"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTreeCoversEveryRank: every rank but 0 has one parent, which lists it
// among its children, and no process holds more than fanOut+1 ≤ 16
// lifelines, up to a million processes.
func TestTreeCoversEveryRank(t *testing.T) {
	for _, p := range []int{2, 3, 16, 17, 64, 241, 1 << 20} {
		seen := 0
		for q := range p {
			first, last := treeChildren(q, p)
			links := 0
			if q > 0 {
				links++
			}
			for c := first; c <= last; c++ {
				require.Equal(t, q, treeParent(c), "p=%d child %d", p, c)
				seen++
				links++
			}
			require.LessOrEqual(t, links, 16, "p=%d rank %d", p, q)
			if first > p {
				break // the rest are leaves
			}
		}
		assert.Equal(t, p-1, seen, "p=%d", p)
	}
	assert.LessOrEqual(t, fanOut+1, 16)
}

func addr(a, b, c, d byte, bits uint8) ifAddr { return ifAddr{IP: [4]byte{a, b, c, d}, Bits: bits} }

// TestListenIP: a parent listens where its children reach it.
func TestListenIP(t *testing.T) {
	hostA := []ifAddr{addr(10, 0, 0, 1, 24), addr(192, 168, 5, 1, 16)}
	hostB := []ifAddr{addr(192, 168, 7, 9, 16)}
	hostC := []ifAddr{addr(172, 16, 0, 3, 12)}
	assert.Equal(t, "127.0.0.1", listenIP(hostA, [][]ifAddr{hostA, hostA}).String(), "all on its host")
	assert.Equal(t, "192.168.5.1", listenIP(hostA, [][]ifAddr{hostA, hostB}).String(), "the subnet a child shares")
	assert.Equal(t, "10.0.0.1", listenIP(hostA, [][]ifAddr{hostC}).String(), "no shared subnet: the first address")
	assert.Equal(t, "127.0.0.1", listenIP(nil, [][]ifAddr{hostC}).String(), "loopback only")
	assert.Equal(t, hostA, decodeAddrs(encodeAddrs(hostA)))
	assert.Empty(t, decodeAddrs(encodeAddrs(nil)))
	assert.Len(t, decodeAddrs(make([]byte, 3)), 0, "a short record")
	ips := treeListenIPs([][]ifAddr{hostA, hostB, hostA})
	assert.Equal(t, "192.168.5.1", ips[0].String())
	assert.Nil(t, ips[1], "a leaf does not listen")
}

// TestHandshake: a connection counts only with the token and a rank of
// the listener's children, within the deadline.
func TestHandshake(t *testing.T) {
	token := []byte("0123456789abcdef")
	try := func(send []byte) (int, bool) {
		a, b := net.Pipe()
		defer a.Close()
		defer b.Close()
		go func() { a.Write(send) }()
		return handshake(b, token, 16, 30, time.Minute)
	}
	rank := func(r byte) []byte { return []byte{r, 0, 0, 0} }
	r, ok := try(append([]byte("0123456789abcdef"), rank(17)...))
	assert.True(t, ok)
	assert.Equal(t, 17, r)
	_, ok = try(append([]byte("0123456789abcdeX"), rank(17)...))
	assert.False(t, ok, "a wrong token")
	_, ok = try(append([]byte("0123456789abcdef"), rank(3)...))
	assert.False(t, ok, "not a child")
	a, b := net.Pipe()
	defer a.Close()
	_, ok = handshake(b, token, 16, 30, 10*time.Millisecond) // a silent peer: the deadline ends the read
	assert.False(t, ok)
}

// TestLostParent: a notice written to a parent that has just died is
// accepted by the kernel and lost, so a rank that lost its parent no
// longer sends up (and says the notice itself).
func TestLostParent(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	peer, err := ln.Accept()
	require.NoError(t, err)
	peer.Close() // the parent dies
	_, err = c.Read(make([]byte, 1))
	require.ErrorIs(t, err, io.EOF)

	s := NewFakeSession(1, 2, Job{}, soloComm{}, func(int, string) {})
	s.lines.parent = c
	assert.True(t, s.sendUp([]byte{noticeByte}), "the kernel takes a write to a peer that closed")
	s.forgetParent(c)
	assert.False(t, s.sendUp([]byte{noticeByte}), "no notice goes to a lost parent")
}
