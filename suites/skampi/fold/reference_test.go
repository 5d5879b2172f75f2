package fold

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/results"
)

// sko is SKaMPI 5 output as tools/skampi5/skampi5.ski makes it (the
// figures are made up): blocks named after beff's operations, a line per
// point, and one block beff does not know.
const sko = `# SKaMPI Version 5.0.4 rev. 355
# begin result "send-recv"
       8       0.8       0.0       16       0.8       0.8
    1024       1.4       0.0        8       1.4       1.3
# end result "send-recv"
# duration = 0.01 sec

# begin result "barrier"
       0       0.5       0.0        8       0.5       0.4
# end result "barrier"
# begin result "Pingpong_Send_Recv"
count= 4       4       3.0       0.0       80       3.0       3.0
# end result "Pingpong_Send_Recv"
# begin result "allreduce"
procs= 2        8       1.1       0.1       12       1.1       1.0
# end result "allreduce"
# begin result "bcast"
#P[0] unit ns
      64     512.5       3.1       12     512.5     498.0
#P[1] unit ns
# end result "bcast"
`

func TestReadReference(t *testing.T) {
	prefix := filepath.Join(t.TempDir(), "ref")
	require.NoError(t, os.WriteFile(prefix+".sko", []byte(sko), 0o644))
	ref, err := New().ReadReference(prefix)
	require.NoError(t, err)
	assert.Contains(t, ref.Setup, results.Setting{Key: results.SetupProcs, Value: "2"}, "a collective's times per process")
	figs := ref.Figures
	var names []string
	m := map[string]float64{}
	for _, f := range figs {
		names = append(names, f.Name)
		m[f.Name] = f.Value
		assert.Equal(t, "us", f.Unit)
	}
	assert.Equal(t, []string{"send-recv/L=8", "send-recv/L=1024", "barrier", "allreduce/L=8", "bcast/L=64"}, names)
	assert.InDelta(t, 0.5125, m["bcast/L=64"], 1e-12, "ns after set_unit")
	assert.Equal(t, 0.4, m["send-recv/L=8"], "the round trip halved")
	assert.Equal(t, 0.5, m["barrier"])
	assert.Equal(t, 1.1, m["allreduce/L=8"], "a loop variable before the length")

	for _, c := range []struct{ text, err string }{
		{"# begin result \"bcast\"\n   8  x  0.0  8\n", `not a length in bytes and a time`},
		{"# begin result \"bcast\"\n   8  1.0\n", `want <bytes> <mean> <error> <repetitions>`},
		{"# begin result \"Bcast\"\n   8  1.0 0.0 8\n", `no result of an operation beff knows`},
		{"#P[0] unit nsec\n# begin result \"bcast\"\n   8  1000.0 0.0 8\n", `"#P[0] unit nsec": a unit beff does not know`},
	} {
		require.NoError(t, os.WriteFile(prefix+".sko", []byte(c.text), 0o644))
		_, err := New().ReadReference(prefix)
		assert.ErrorContains(t, err, c.err)
	}
}

// TestConformance: a folded run gives its points on all processes (the
// ping-pong on its pair) under SKaMPI 5's names, each once.
func TestConformance(t *testing.T) {
	data, err := os.ReadFile("testdata/skampi-short-np2.txt")
	require.NoError(t, err)
	p := foldText(t, string(data))
	m := map[string]float64{}
	run := New().Conformance(p)
	assert.Contains(t, run.Setup, results.Setting{Key: results.SetupProcs, Value: "2"})
	for _, f := range run.Figures {
		assert.NotContains(t, m, f.Name, "once")
		m[f.Name] = f.Value
	}
	assert.Contains(t, m, "send-recv/L=8")
	assert.Contains(t, m, "barrier")
	assert.Contains(t, m, "bcast/L=256")
	for _, c := range p.Curves {
		for _, r := range c.Rows {
			if c.Suite.Name == "pingpong" && c.Op.Name == "send-recv" && r.Len == 8 {
				assert.Equal(t, r.Us, m["send-recv/L=8"])
			}
		}
	}
}
