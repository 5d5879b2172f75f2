package results

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

// TestLimitLines: benchfmt's reader takes a line of MaxLine bytes; one byte
// more is an *Error naming the file, the line and the limit, whatever the
// line (a configuration line, a result, text), and not bufio's bare "token
// too long".
func TestLimitLines(t *testing.T) {
	long := func(n int) string { return "key: " + strings.Repeat("x", n-len("key: ")) }
	for _, tc := range []struct {
		name  string
		input string
		line  int // 0: no error
	}{
		{"at the limit", "goos: linux\n" + long(MaxLine) + "\nBenchmarkX 1 1 ns/op\n", 0},
		{"one byte over", "goos: linux\n" + long(MaxLine+1) + "\nBenchmarkX 1 1 ns/op\n", 2},
		{"a result line", "BenchmarkX 1 1 ns/op\nBenchmarkX" + strings.Repeat("y", MaxLine) + " 1 1 ns/op\n", 2},
		{"no line end", strings.Repeat("z", 3*MaxLine), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			br := benchfmt.NewReader(LimitLines(strings.NewReader(tc.input), "f.txt"), "f.txt")
			for br.Scan() {
			}
			err := ReaderErr(br.Err())
			if tc.line == 0 {
				assert.NoError(t, err)
				return
			}
			re, ok := err.(*InputError)
			require.True(t, ok, "got %v", err)
			assert.Equal(t, "f.txt", re.FileName)
			assert.Equal(t, tc.line, re.Line)
			assert.Contains(t, re.Msg, "65535 bytes")
		})
	}
}

// TestReadLongLine: Read names the file and the long line, once.
func TestReadLongLine(t *testing.T) {
	in := "goos: linux\nhosts: " + strings.Repeat("n", MaxLine) + "\nBenchmarkX 1 1 ns/op\n"
	_, err := Read(strings.NewReader(in), "run.txt", nil)
	require.Error(t, err)
	assert.Equal(t, "run.txt:2: a line longer than 65535 bytes, the limit of benchmark output: not written by beff, or damaged", err.Error())
}
