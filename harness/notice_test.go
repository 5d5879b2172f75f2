package harness

import (
	"bytes"
	"net"
	"strings"
	"testing"

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

// TestPassOnWithoutParent: a rank that cannot pass a child's notice up
// (its line to its parent is gone) says the notice itself: the child has
// ended quietly.
func TestPassOnWithoutParent(t *testing.T) {
	s := NewFakeSession(1, 4, Job{}, soloComm{}, func(int, string) {}) // no line to its parent
	var log bytes.Buffer
	s.Log = &log
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	go b.Write(notice{from: 7, code: ExitWatchdog, text: "watchdog: x"}.encode()[1:])
	require.NoError(t, s.passOn(a))
	assert.Equal(t, "beff: rank 7: watchdog: x\n", log.String())
}
