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
)

// TestReadReference reads the protocol of a run of the reference code 2.1
// on this machine (2 processes, -MB 1024 -MT 2048 -T 30).
func TestReadReference(t *testing.T) {
	ref, err := New().ReadReference("testdata/ref-2.1-np2")
	require.NoError(t, err)
	figs := ref.Figures
	// per partition its value, 3 access methods, 5 + 1 + 5 types
	require.Len(t, figs, 1+2*(1+3+11))
	assert.Equal(t, "beffio", figs[0].Name)
	assert.Equal(t, "partition/n=1", figs[1].Name)
	assert.Equal(t, "access/n=1/acc=write", figs[2].Name)
	assert.Equal(t, "type/n=1/acc=write/type=scatter", figs[3].Name)
	m := resultstest.FigureMap(figs)
	assert.Equal(t, 908.373, m["beffio"])
	assert.Equal(t, 906.144, m["partition/n=2"])
	assert.Equal(t, 330.696, m["access/n=1/acc=write"])
	assert.Equal(t, 1158.749, m["access/n=1/acc=rewrite"])
	assert.Equal(t, 1509.121, m["type/n=1/acc=read/type=segcoll"])
	assert.Equal(t, 1051.725, m["type/n=2/acc=rewrite/type=scatter"])
	assert.Equal(t, []results.Setting{{Key: results.SetupMode, Value: results.ModeFull}, {Key: SetupMem, Value: "1024 MiB"},
		{Key: SetupPartitions, Value: "1,2"}, {Key: SetupT, Value: "30 s"}, {Key: SetupTotalMem, Value: "2048 MiB"}}, ref.Setup)
}

func TestReadReferenceBad(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile("testdata/ref-2.1-np2.prot")
	require.NoError(t, err)
	text := string(good)
	for _, c := range []struct{ name, text, err string }{
		{"unfinished", text[:strings.Index(text, " total partition:")], "no final b_eff_io"},
		{"bad number", strings.Replace(text, "b_eff_io_write_scatter= 337.531", "b_eff_io_write_scatter= 3x7.531", 1), `"3x7.531" is not a bandwidth`},
		{"long line", text + strings.Repeat("x", results.MaxScanLine+1), "line longer than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			prefix := filepath.Join(dir, c.name)
			require.NoError(t, os.WriteFile(prefix+".prot", []byte(c.text), 0o644))
			_, err := New().ReadReference(prefix)
			assert.ErrorContains(t, err, c.err)
		})
	}
	_, err = New().ReadReference(filepath.Join(dir, "absent"))
	assert.Error(t, err)
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.prot")))
	_, err = New().ReadReference(filepath.Join(dir, "zero"))
	assert.ErrorContains(t, err, "not a regular file")
}

// TestConformance: a folded run gives the figures the reference code
// prints, under the same names: the read with the removal timed apart, the
// rewrite of the scatter type.
func TestConformance(t *testing.T) {
	s := ioHand()
	s.deleteFactor = 1
	p := mustFold(t, s.text())
	run := New().Conformance(p)
	m := resultstest.FigureMap(run.Figures)
	ref, err := New().ReadReference("testdata/ref-2.1-np2")
	require.NoError(t, err)
	assert.Contains(t, results.SetupDiffers(run.Setup, ref.Setup), "T 1800 s against 30 s")
	for _, f := range ref.Figures {
		assert.Contains(t, m, f.Name)
	}
	assert.Equal(t, p.Reference, m["beffio"])
	assert.Equal(t, p.Partitions[1].ReadRemovalValue, m["access/n=2/acc=read"])
	assert.Equal(t, p.Partitions[1].Totals[1][0].MBps, m["access/n=2/acc=rewrite"])
	assert.InEpsilon(t, 160, m["type/n=2/acc=read/type=scatter"], 1e-5)
}
