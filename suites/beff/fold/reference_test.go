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
	for _, f := range figs {
		switch {
		case f.Name == "beff", f.Unit == "us":
			assert.Empty(t, f.Per, "%s: b_eff itself and the latencies are not shares of b_eff", f.Name)
		default:
			assert.Equal(t, "beff", f.Per, "%s: a bandwidth, compared also as a share of b_eff", f.Name)
		}
	}
}

// TestReadReferencePatterns: the tables by pattern and by methods give
// each pattern's mean over the sizes for all processes (the table by
// methods prints it per process), the random patterns as one, and b_eff
// per method; a method a pattern is not measured with has no figure.
func TestReadReferencePatterns(t *testing.T) {
	ref, err := New().ReadReference("testdata/ref-3.6-np2")
	require.NoError(t, err)
	names := make([]string, len(ref.Figures))
	for i, f := range ref.Figures {
		names[i] = f.Name
	}
	// 7 headline figures, 17 patterns (6 rings, the random ones, 10 more),
	// 4 figures each but the ping-pong's 2, b_eff of 3 methods
	require.Len(t, names, 7+16*4+2+3)
	assert.Equal(t, []string{"pat-ring2", "pat-ring2-sendrecv", "pat-ring2-alltoallv", "pat-ring2-nonblocking"}, names[7:11])
	assert.Equal(t, "pat-random", names[7+6*4], "the random patterns after the rings")
	assert.Equal(t, []string{"beff-sendrecv", "beff-alltoallv", "beff-nonblocking"}, names[len(names)-3:])
	m := resultstest.FigureMap(ref.Figures)
	for name, want := range map[string]float64{
		"pat-ring2": 3344.193, "pat-ring2-sendrecv": 1632.738 * 2, "pat-ringall-nonblocking": 1644.229 * 2,
		"pat-random": 3413.429, "pat-random-alltoallv": 1641.011 * 2,
		"pat-worstcycle": 3434.440, "pat-bestbisect-sendrecv": 858.852 * 2, "pat-pingpong": 1790.813,
		"pat-pingpong-sendrecv": 895.406 * 2, "pat-acyclic-3dim-all": 3244.377, "pat-cyclic-3dim-all-nonblocking": 1621.010 * 2,
		"beff-sendrecv": 3332.668, "beff-nonblocking": 3292.966,
	} {
		assert.InDelta(t, want, m[name], 1e-9, name)
	}
	assert.NotContains(t, m, "pat-pingpong-alltoallv", "the ping-pong is measured with MPI_Sendrecv only")
	assert.NotContains(t, m, "pat-random06", "random patterns are compared as one")
}

// TestReadReferenceShortcut: under the reference code's shortcut its
// means per method are not over all sizes; only the best method's stay.
func TestReadReferenceShortcut(t *testing.T) {
	good, err := os.ReadFile("testdata/ref-3.6-np2.short")
	require.NoError(t, err)
	text := strings.Replace(string(good), "\nSECTION-BY-METHODS-END", "\n CAUTION! Due to performance reasons the two largest messages are shortened.\n\nSECTION-BY-METHODS-END", 1)
	prefix := filepath.Join(t.TempDir(), "ref")
	require.NoError(t, os.WriteFile(prefix+".short", []byte(text), 0o644))
	ref, err := New().ReadReference(prefix)
	require.NoError(t, err)
	m := resultstest.FigureMap(ref.Figures)
	assert.Equal(t, 3344.193, m["pat-ring2"])
	for name := range m {
		assert.NotRegexp(t, `-(sendrecv|alltoallv|nonblocking)$`, name)
	}
}

func TestReadReferenceBad(t *testing.T) {
	good, err := os.ReadFile("testdata/ref-3.6-np2.short")
	require.NoError(t, err)
	text := string(good)
	dir := t.TempDir()
	for _, c := range []struct{ name, text, err string }{
		{"unfinished", text[:strings.Index(text, "The effective bandwidth")], "no b_eff"},
		{"bad number", strings.Replace(text, "b_eff =   3409.788", "b_eff =   34x9.788", 1), `"34x9.788" is not a number`},
		{"bad pattern", strings.Replace(text, "-> 1714.473 ->   3428.947", "-> 1714.473 ->   -3428.947", 1), `pattern ringhalf: "-3428.947" is not a number`},
		{"bad method", strings.Replace(text, "Sndrcv Alltoal non-blk -> best", "Sndrcv Alltoal Bcast -> best", 1), `column "Bcast"`},
		{"method twice", strings.Replace(text, "Sndrcv Alltoal non-blk -> best", "Sndrcv Alltoal Sndrcv -> best", 1), `the column "Sndrcv" twice`},
		{"short row", strings.Replace(text, ": 1632.738 1610.826 1598.748 ->", ": 1632.738 1610.826 ->", 1), "pattern ring2: 2 values for 3 methods"},
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
	units, pers := map[string]string{}, map[string]string{}
	for _, f := range figs {
		units[f.Name], pers[f.Name] = f.Unit, f.Per
	}
	for _, f := range ref.Figures {
		assert.Equal(t, f.Unit, units[f.Name], "beff has the reference code's figure %s", f.Name)
		assert.Equal(t, f.Per, pers[f.Name], "%s: a share of the same figure on both sides", f.Name)
	}
	for i := range 7 {
		assert.Equal(t, ref.Figures[i].Name, figs[i].Name, "the headline figures first, in the same order")
	}
	// the short run on 2 processes differs from the reference code's run
	// in its mode and Lmax
	assert.Equal(t, []string{"mode " + results.ModeShort + " against full", "Lmax 0 MiB against 8 MiB"}, results.SetupDiffers(run.Setup, ref.Setup))
	m := resultstest.FigureMap(figs)
	assert.Equal(t, p.Beff, m["beff"])
	assert.Equal(t, p.BeffLmaxRingsPerProc*2, m["beff-lmax-rings"])

	// per pattern: the mean over the sizes of the best method and of each
	// method; the random patterns' logarithmic average; b_eff per method
	tables := map[string]*PatternTable{}
	var random []float64
	for _, pt := range p.Patterns {
		tables[pt.Name] = pt
		if pt.Kind == beff.KindRandom {
			random = append(random, pt.Avg)
		}
	}
	assert.Equal(t, tables["ring2"].Avg, m["pat-ring2"])
	assert.InDelta(t, methodMean(tables["ring2"], beff.Alltoallv), m["pat-ring2-alltoallv"], 1e-9)
	assert.InDelta(t, methodMean(tables["pingpong"], beff.Sendrecv), m["pat-pingpong-sendrecv"], 1e-9)
	assert.NotContains(t, m, "pat-pingpong-nonblocking")
	assert.NotContains(t, m, "pat-random01", "random patterns are compared as one")
	want, err := beff.LogAvg(random)
	require.NoError(t, err)
	assert.InDelta(t, want, m["pat-random"], 1e-9)
	best := beff.Best{}
	for _, pt := range p.Patterns {
		if pt.Kind != beff.KindExtra {
			best[pt.Name] = methodBWs(pt, beff.Nonblocking)
		}
	}
	all := make([]int, len(p.Run.Config.Sizes))
	for i := range all {
		all[i] = i
	}
	want, err = beff.Beff(best, p.names(beff.KindRing), p.names(beff.KindRandom), all)
	require.NoError(t, err)
	assert.InDelta(t, want, m["beff-nonblocking"], 1e-9)
}

// methodBWs is a pattern's bandwidth with method m at each size.
func methodBWs(pt *PatternTable, m beff.Method) []float64 {
	var out []float64
	for _, row := range pt.Rows {
		for _, x := range row.Measured {
			if x.Method == m {
				out = append(out, x.MBps)
			}
		}
	}
	return out
}

// methodMean is the mean of methodBWs.
func methodMean(pt *PatternTable, m beff.Method) float64 { return beff.Mean(methodBWs(pt, m)) }

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
	// conformance: no mean per method where a method missed a size
	m := resultstest.FigureMap(New().Conformance(p).Figures)
	assert.Contains(t, m, "pat-ring2")
	assert.Contains(t, m, "pat-pingpong-sendrecv", "the ping-pong measured every size with its one method")
	for name := range m {
		assert.NotRegexp(t, `^(pat-ring|pat-random|beff-).*-(sendrecv|alltoallv|nonblocking)$|^beff-(sendrecv|alltoallv|nonblocking)$`, name)
	}
	s.reference = false
	_, err := foldText(t, s.text())
	assert.ErrorContains(t, err, "missing")
}
