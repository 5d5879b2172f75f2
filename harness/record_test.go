package harness

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pieces is a reader that hands out its text a few bytes at a time, as a
// pipe does when the writer writes a line in parts.
type pieces struct {
	text string
	n    int
}

func (p *pieces) Read(b []byte) (int, error) {
	if p.text == "" {
		return 0, io.EOF
	}
	k := min(p.n, len(p.text), len(b))
	copy(b, p.text[:k])
	p.text = p.text[k:]
	return k, nil
}

func TestPassLines(t *testing.T) {
	long := strings.Repeat("x", maxLine+10)
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"whole lines", "a\nbc\n", []string{"a\n", "bc\n"}},
		{"a name, then its figures", "BenchmarkBeff/pat=cyclic\t" + "       1\t  12.5 MB/s\n", []string{"BenchmarkBeff/pat=cyclic\t       1\t  12.5 MB/s\n"}},
		{"the last line without its end", "a\nb", []string{"a\n", "b"}},
		{"empty lines", "\n\n", []string{"\n", "\n"}},
		{"a line longer than the bound, in pieces", long + "\n", []string{long[:maxLine], long[maxLine:] + "\n"}},
		{"nothing", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			passLines(&pieces{tc.in, 3}, func(l []byte) { got = append(got, string(l)) })
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestIsResultLine(t *testing.T) {
	for l, want := range map[string]bool{
		"BenchmarkBeff/pat=ring2/L=1/method=sendrecv \t       1\t  0.5 µs\n": true,
		"BenchmarkBeff/pat=ring2/L=1/method=sendrecv \t\n":                   false,
		"BenchmarkBeff\n":           false,
		"beff-seed: 42\n":           false,
		"Benchmark\tname only here": true,
		"PASS\n":                    false,
	} {
		assert.Equal(t, want, isResultLine([]byte(l)), "%q", l)
	}
}

func TestOpenOut(t *testing.T) {
	dir := t.TempDir()
	f, err := openOut("")
	assert.NoError(t, err)
	assert.Nil(t, f, "no -out: no file")

	name := filepath.Join(dir, "run.txt")
	f, err = openOut(name)
	require.NoError(t, err)
	f.Close()

	_, err = openOut(name)
	assert.EqualError(t, err, "-out="+name+": the file exists: beff writes its results to a new file and overwrites none")
	_, err = openOut(filepath.Join(dir, "no", "run.txt"))
	assert.EqualError(t, err, "-out="+filepath.Join(dir, "no", "run.txt")+": no directory "+filepath.Join(dir, "no"))
	_, err = openOut(dir)
	assert.ErrorContains(t, err, "the file exists")
}

// TestRecord: what the process writes to descriptor 1 in parts reaches
// the file in whole lines, and the file holds all of it once the record
// is finished; a record without a measurement is dropped, one with a
// measurement kept.
func TestRecord(t *testing.T) {
	for _, measured := range []bool{false, true} {
		t.Run(fmt.Sprintf("measured=%v", measured), func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "run.txt")
			f, err := openOut(name)
			require.NoError(t, err)
			r, err := startRecord(f)
			require.NoError(t, err)
			var want bytes.Buffer
			for i := range 3 {
				part, rest := fmt.Sprintf("record-test line %d\t", i), "with its end\n"
				if measured && i == 2 {
					part, rest = "BenchmarkRecordTest\t", "       1\t  1.0 MB/s\n"
				}
				os.Stdout.WriteString(part)
				time.Sleep(10 * time.Millisecond) // the reader sees the half line alone
				os.Stdout.WriteString(rest)
				want.WriteString(part + rest)
			}
			os.Stdout.WriteString("no end")
			want.WriteString("no end")
			require.NoError(t, r.finish(5*time.Second))
			require.NoError(t, r.finish(5*time.Second), "a second finish does nothing")
			got, err := os.ReadFile(name)
			require.NoError(t, err)
			assert.Equal(t, want.String(), string(got))
			assert.Equal(t, measured, r.measured)
			r.drop()
			_, err = os.Stat(name)
			assert.Equal(t, measured, err == nil, "the file is kept only with a measurement")
		})
	}
}
