package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCleanWriter: control characters are shown, not obeyed, also where a
// write splits a rune; newlines, tabs and other text pass.
func TestCleanWriter(t *testing.T) {
	var b bytes.Buffer
	w := newCleanWriter(&b)
	for _, p := range []string{"title \x1b]0;pwned\x07 clear \x1b[2J\r", "tab\tok\n", "caf\xc3", "\xa9 \xc2", "\x9b31m \x7f \xff \u202eevil\n"} {
		n, err := w.Write([]byte(p))
		require.NoError(t, err)
		assert.Equal(t, len(p), n)
	}
	require.NoError(t, w.Flush())
	assert.Equal(t, "title ␛]0;pwned␇ clear ␛[2J␍tab\tok\ncafé \uFFFD31m ␡ \uFFFD \uFFFDevil\n", b.String())
}

// TestNoControlFromFile: a results file whose configuration and lines
// carry terminal control sequences reaches the terminal through fold's
// protocol and its refusals without one.
func TestNoControlFromFile(t *testing.T) {
	forged := strings.Replace(fixture(t, "short-np2.txt"), "mpi-hosts: vm (2)", "mpi-hosts: vm\x1b]52;c;cHduZWQ=\x07\x1b[2J (2)", 1)
	code, stdout, stderr := run("fold", writeTemp(t, "forged.txt", forged))
	require.Equal(t, exitOK, code, stderr)
	assert.NotContains(t, stdout, "\x1b")
	assert.Contains(t, stdout, "vm␛]52;c;cHduZWQ=␇␛[2J (2)", "shown, not obeyed")

	bad := strings.Replace(fixture(t, "short-np2.txt"), "BenchmarkBeff/pat=ring2/L=1/mthd=sendrecv", "BenchmarkBeff/pat=ring2\x1b[31m/L=1/mthd=sendrecv", 1)
	code, _, stderr = run("fold", writeTemp(t, "bad.txt", bad))
	assert.Equal(t, exitBadInput, code)
	assert.NotContains(t, stderr, "\x1b")
}
