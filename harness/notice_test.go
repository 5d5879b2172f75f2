package harness

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNotice: a notice crosses the lifeline whole (its text cut at
// noticeMost), and rank 0 says it as the rank that saw it would, with
// the count.
func TestNotice(t *testing.T) {
	for _, n := range []notice{
		{from: 7, code: ExitWatchdog, text: "watchdog: b_eff ring2 has made no progress for 31s"},
		{from: 1 << 20, code: ExitLost, text: ""},
	} {
		b := n.encode()
		require.Equal(t, byte(noticeByte), b[0])
		got, err := readNotice(bytes.NewReader(b[1:]))
		require.NoError(t, err)
		assert.Equal(t, n, got)
	}
	long := notice{from: 1, code: 1, text: strings.Repeat("x", 3*noticeMost)}
	got, err := readNotice(bytes.NewReader(long.encode()[1:]))
	require.NoError(t, err)
	assert.Len(t, got.text, noticeMost)

	_, err = readNotice(bytes.NewReader([]byte{1, 2, 3}))
	assert.Error(t, err, "a cut notice")
	bad := notice{from: 1, text: "x"}.encode()
	bad[9], bad[10] = 0xff, 0xff
	_, err = readNotice(bytes.NewReader(bad[1:]))
	assert.ErrorContains(t, err, "a notice of 65535 bytes")

	n := notice{from: 5, text: "watchdog: x; ending the job"}
	assert.Equal(t, "rank 5: watchdog: x; ending the job", n.line(1, 256))
	assert.Equal(t, "rank 5: watchdog: x; ending the job (250 of 256 ranks said so)", n.line(250, 256))
}

// TestGather: rank 0 counts the notices that arrive within gatherWindow
// of the first and says the first with the count; a lost process it says
// at once, however long the window (the launcher is tearing the job down).
func TestGather(t *testing.T) {
	old := gatherWindow
	t.Cleanup(func() { gatherWindow = old })
	gatherWindow = 200 * time.Millisecond
	s := NewFakeSession(0, 8, Job{}, soloComm{}, func(int, string) {})
	assert.Equal(t, "rank 5: watchdog: x (3 of 8 ranks said so)", endOf(t, s, func() {
		for r := 5; r < 8; r++ {
			s.gather(notice{from: r, code: ExitWatchdog, text: "watchdog: x"})
		}
	}))

	gatherWindow = time.Hour
	s = NewFakeSession(0, 8, Job{}, soloComm{}, func(int, string) {})
	assert.Equal(t, "rank 2: lost rank 3 (on a)", endOf(t, s, func() {
		s.gather(notice{from: 2, code: ExitLost, text: "lost rank 3 (on a)"})
	}))
}

// endOf runs f on s in a goroutine of its own, as a fake session ends
// it, and returns the message s ended with ("" when it ended quietly).
func endOf(t *testing.T, s *Session, f func()) string {
	t.Helper()
	got := make(chan string, 1)
	s.ended = func(_ int, msg string) { got <- msg }
	go f()
	select {
	case msg := <-got:
		return msg
	case <-time.After(time.Minute):
		t.Fatal("the rank did not end")
		return ""
	}
}

// parentLine gives s (rank r of a job of p) a lifeline to a parent in
// this test: the parent's end of it, and the line watched as a real
// one is.
func parentLine(t *testing.T, r, p int) (*Session, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	peer, err := ln.Accept()
	require.NoError(t, err)
	t.Cleanup(func() { c.Close(); peer.Close() })
	s := NewFakeSession(r, p, Job{Hosts: make([]string, p)}, soloComm{}, func(int, string) {})
	s.keepLine(c)
	s.lines.parent, s.lines.parentEnd = c, make(chan struct{})
	go s.watchLifeline(c, treeParent(r))
	return s, peer
}

// TestPassOnWithoutParent: a rank that cannot pass a child's notice up
// (it has no line to its parent) says the notice itself: the child has
// ended quietly.
func TestPassOnWithoutParent(t *testing.T) {
	s := NewFakeSession(1, 4, Job{}, soloComm{}, func(int, string) {}) // no line to its parent
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	go b.Write(notice{from: 7, code: ExitWatchdog, text: "watchdog: x"}.encode()[1:])
	assert.Equal(t, "rank 7: watchdog: x", endOf(t, s, func() { s.passOn(a) }))
}

// readUp reads one notice from a child on the parent's end of the line.
func readUp(t *testing.T, c net.Conn) notice {
	t.Helper()
	var b [1]byte
	_, err := io.ReadFull(c, b[:])
	require.NoError(t, err)
	require.Equal(t, byte(noticeByte), b[0])
	n, err := readNotice(c)
	require.NoError(t, err)
	return n
}

// shortWait makes noticeWait d for the test.
func shortWait(t *testing.T, d time.Duration) {
	old := noticeWait
	noticeWait = d
	t.Cleanup(func() { noticeWait = old })
}

// TestNoticeUpTheTree: a rank sends its notice up and ends quietly when
// its parent's line ends, with a goodbye (rank 0 said it) or without
// (the parent was lost after it took the notice: its own parent names
// that).
func TestNoticeUpTheTree(t *testing.T) {
	for _, bye := range []bool{true, false} {
		s, parent := parentLine(t, 17, 40)
		go func() {
			n := readUp(t, parent)
			assert.Equal(t, notice{from: 17, code: ExitWatchdog, text: "watchdog: x"}, n)
			if bye {
				parent.Write([]byte{goodbye})
			}
			parent.Close()
		}()
		assert.Equal(t, "", endOf(t, s, func() { s.endWith(ExitWatchdog, "watchdog: x") }), "goodbye %v", bye)
	}
}

// TestNoticeStuckParent: a parent that takes the notice and does not end
// (a stopped process reads nothing) leaves its child to say it alone
// after noticeWait.
func TestNoticeStuckParent(t *testing.T) {
	shortWait(t, 50*time.Millisecond)
	s, parent := parentLine(t, 16, 40) // the first child of rank 1: no stagger
	go readUp(t, parent)
	assert.Equal(t, "rank 16: watchdog: x", endOf(t, s, func() { s.endWith(ExitWatchdog, "watchdog: x") }))
}

// TestNoticeLostParent: the first child of a lost parent names it at
// once, beside the parent's parent (a launcher may kill the job the
// moment the process died); the next children a second apart each.
func TestNoticeLostParent(t *testing.T) {
	for _, r := range []int{1, 16, 17} {
		s, parent := parentLine(t, r, 40)
		s.Job.Hosts[treeParent(r)] = "n7"
		start := time.Now()
		msg := endOf(t, s, func() { parent.Close() })
		assert.Equal(t, fmt.Sprintf("rank %d: lost rank %d (on n7): it ended without finishing MPI (killed or crashed)", r, treeParent(r)), msg)
		if r == 17 {
			assert.GreaterOrEqual(t, time.Since(start), aloneStagger, "the second child of rank 1 after the first")
		}
	}
}

// TestNoticeAfterGoodbye: a rank whose parent ended on purpose passes no
// notice on and says none: the job is ending, its reason said (a stopped
// rank that the launcher wakes to end it finds its children's notices);
// where the goodbye is still on its way, the rank ends quietly.
func TestNoticeAfterGoodbye(t *testing.T) {
	child := notice{from: 241, code: ExitWatchdog, text: "watchdog: x"}
	for _, read := range []bool{true, false} {
		s, parent := parentLine(t, 16, 40)
		ended := false
		s.ended = func(int, string) { ended = true }
		if read {
			parent.Write([]byte{goodbye})
			parent.Close()
			require.True(t, s.waitParentEnd(time.Minute))
			a, b := net.Pipe()
			go b.Write(child.encode()[1:])
			assert.NoError(t, s.passOn(a))
			assert.False(t, ended, "dropped")
			continue
		}
		parent.Write([]byte{goodbye})
		parent.Close()
		assert.Equal(t, "", endOf(t, s, func() { s.raise(child) }), "the goodbye read or not yet")
	}
}
