package results_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
)

// TestFingerprint: a run is its measurements: a copy whose configuration
// lines are edited, re-encoded with a byte-order mark and Windows line
// ends, or whose lines are in another order is the same run; one figure
// changed is another.
func TestFingerprint(t *testing.T) {
	text := resultstest.File(2, 3, 1, "full", value)
	fp := func(text string) results.Fingerprint {
		t.Helper()
		return read(t, text).Runs[0].Fingerprint()
	}
	want := fp(text)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	n := len(lines)
	swapped := strings.Join(append(append(lines[:n-2:n-2], lines[n-1]), lines[n-2]), "\n") + "\n"
	for name, same := range map[string]string{
		"date":    strings.Replace(text, "date: 2026-11-22T10:00:00Z", "date: 2030-01-01T00:00:00Z", 1),
		"commit":  "beff-commit: 0123456789ab\n" + text,
		"hosts":   strings.Replace(text, "toyhost (2)", "othertoy (2)", 1),
		"BOM":     "\ufeff" + strings.ReplaceAll(text, "\n", "\r\n"),
		"order":   swapped,
		"procs":   strings.Replace(text, "BenchmarkToy/x=1 ", "BenchmarkToy/x=1-8 ", 1),
		"spacing": strings.Replace(text, " \t1\t", "  \t1\t", 1),
	} {
		assert.Equal(t, want, fp(same), name)
	}
	assert.NotEqual(t, want, fp(strings.Replace(text, "\t1 MB/s", "\t1.5 MB/s", 1)), "a figure")
	assert.NotEqual(t, want, fp(strings.Replace(text, " \t1\t1 MB/s", " \t2\t1 MB/s", 1)), "the iterations")

	kept, notes := results.Distinct([]*results.Run{read(t, text).Runs[0], read(t, swapped).Runs[0]})
	assert.Len(t, kept, 1)
	assert.Equal(t, []string{"toy.txt (toy run 1) repeats toy.txt (toy run 1) (the same measurements, whatever its configuration lines say): counted once"}, notes)
}

// TestJob: runs of one file differ in Job when their job's lines differ
// (a concatenation of two files); a job's -test.count runs share it; a
// job does not inherit the lines of the one before it, while the lines
// before a file's first job (a partial output's beff-partial) are the
// first job's.
func TestJob(t *testing.T) {
	f := read(t, resultstest.File(2, 1, 2, "full", value)+strings.Replace(resultstest.File(4, 1, 1, "full", value), "toyhost", "other", 1))
	require.Len(t, f.Runs, 3)
	assert.Equal(t, f.Runs[0].Job(), f.Runs[1].Job())
	assert.NotEqual(t, f.Runs[0].Job(), f.Runs[2].Job())

	// a key of the first job that the second does not restate is not
	// the second's (a job's configuration comes before its results)
	first := "beff-version: 1\nslurm-job: 42\n" + resultstest.File(2, 1, 1, "full", value)
	second := "beff-version: 1\n" + resultstest.File(2, 1, 1, "full", func(run, k int) float64 { return 7 })
	f = read(t, first+second)
	require.Len(t, f.Runs, 2)
	assert.Equal(t, "42", f.Runs[0].FileConfig[results.KeySlurmJob])
	assert.NotContains(t, f.Runs[1].FileConfig, results.KeySlurmJob)
	assert.Equal(t, "2", f.Runs[1].FileConfig[results.KeyProcs])
	f = read(t, "beff-partial: killed\n"+first)
	assert.Equal(t, "killed", f.Runs[0].FileConfig[results.KeyPartial])
}

// TestEncoding: a UTF-8 byte-order mark is passed over; a UTF-16 or
// UTF-32 file is refused with what to do, not read as no results.
func TestEncoding(t *testing.T) {
	text := resultstest.File(2, 1, 1, "full", value)
	f := read(t, "\ufeff"+text)
	assert.Equal(t, "2", f.Runs[0].FileConfig[results.KeyProcs])
	for _, bom := range []string{"\xff\xfe", "\xfe\xff", "\x00\x00\xfe\xff"} {
		_, err := results.Read(strings.NewReader(bom+text), "u16.txt", []results.Suite{toy})
		assert.EqualError(t, err, "u16.txt:1: encoded as UTF-16 or UTF-32 (it starts with that byte-order mark); beff reads UTF-8: convert it, e.g. iconv -f UTF-16 -t UTF-8", "% x", bom)
	}
}
