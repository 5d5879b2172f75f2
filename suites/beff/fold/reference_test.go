package fold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
	"github.com/beff-suite/beff/suites/beff"
)

// TestReadReference reads the summary of a run of the reference code
// 3.6.0.1 on this machine (2 processes, MEMORY_PER_PROCESSOR=1024).
func TestReadReference(t *testing.T) {
	ref, err := New().ReadReference("testdata/ref-3.6-np2")
	require.NoError(t, err)
	figs := ref.Figures
	require.Len(t, figs, 7)
	assert.Equal(t, "beff", figs[0].Name)
	m := resultstest.FigureMap(figs)
	assert.Equal(t, 3409.788, m["beff"])
	assert.Equal(t, 10166.546, m["beff-lmax"])
	assert.Equal(t, 10212.302, m["beff-lmax-rings"])
	assert.Equal(t, 5420.082, m["pingpong-bw-lmax"])
	assert.Equal(t, 0.546, m["lat-rings-random"])
	assert.Equal(t, 0.273*2, m["lat-rings"], "the summary's ring latency leaves out the factor of the processes")
	assert.Equal(t, 0.435, m["lat-pingpong"])
	assert.Equal(t, []results.Setting{{Key: results.SetupMode, Value: results.ModeFull}, {Key: results.SetupProcs, Value: "2"}, {Key: SetupLmax, Value: "8 MiB"}}, ref.Setup)
}

func TestReadReferenceBad(t *testing.T) {
	good, err := os.ReadFile("testdata/ref-3.6-np2.short")
	require.NoError(t, err)
	text := string(good)
	dir := t.TempDir()
	for _, c := range []struct{ name, text, err string }{
		{"unfinished", text[:strings.Index(text, "The effective bandwidth")], "no b_eff"},
		{"bad number", strings.Replace(text, "b_eff =   3409.788", "b_eff =   34x9.788", 1), `"34x9.788" is not a number`},
	} {
		prefix := filepath.Join(dir, c.name)
		require.NoError(t, os.WriteFile(prefix+".short", []byte(c.text), 0o644))
		_, err := New().ReadReference(prefix)
		assert.ErrorContains(t, err, c.err, c.name)
	}
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.short")))
	_, err = New().ReadReference(filepath.Join(dir, "zero"))
	assert.ErrorContains(t, err, "not a regular file")
}

// TestConformance: a folded run gives the reference code's figures under
// the same names, the rings' b_eff at Lmax for all processes.
func TestConformance(t *testing.T) {
	data, err := os.ReadFile("testdata/short-np2.txt")
	require.NoError(t, err)
	p := mustFold(t, string(data))[0]
	run := New().Conformance(p)
	figs := run.Figures
	ref, err := New().ReadReference("testdata/ref-3.6-np2")
	require.NoError(t, err)
	require.Len(t, figs, len(ref.Figures))
	for i := range ref.Figures {
		assert.Equal(t, ref.Figures[i].Name, figs[i].Name)
		assert.Equal(t, ref.Figures[i].Unit, figs[i].Unit)
	}
	// the short run on 2 processes differs from the reference code's run
	// in its mode and Lmax
	assert.Equal(t, []string{"mode " + results.ModeShort + " against full", "Lmax 0 MiB against 8 MiB"}, results.SetupDiffers(run.Setup, ref.Setup))
	m := resultstest.FigureMap(figs)
	assert.Equal(t, p.Beff, m["beff"])
	assert.Equal(t, p.BeffLmaxRingsPerProc*2, m["beff-lmax-rings"])
}

// TestFoldReferenceShortcut: under the reference code's rules the best
// method of the shortcut may differ between repetitions, so a pattern can
// have two methods at the second-largest size and another at the largest;
// the fold takes the best of them and notes the shortcut. Without
// beff-rules the same lines are incomplete.
func TestFoldReferenceShortcut(t *testing.T) {
	sizes := []int64{1, 4096, 65536, 1 << 20}
	s := synth{n: 8, sizes: sizes, random: 3, mode: "full", reference: true,
		meas: func(pat string, l int64, m beff.Method) (meas, bool) {
			v := meas{mbps: float64(l) / 1e3, msLoop: 1, looplen: 10}
			switch l {
			case sizes[2]:
				v.reps = 1 + int(m) // sendrecv 1, alltoallv 2
				return v, m != beff.Nonblocking
			case sizes[3]:
				v.reps = 2
				return v, m == beff.Nonblocking || pat == "pingpong"
			}
			return v, true
		}}
	p := mustFold(t, s.text())[0]
	assert.True(t, p.Shortcut)
	assert.Contains(t, p.Notes, NoteReference)
	assert.Contains(t, p.Notes, NoteShortcut)
	s.reference = false
	_, err := foldText(t, s.text())
	assert.ErrorContains(t, err, "missing")
}
