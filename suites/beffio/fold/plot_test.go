package fold

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/beffio"
)

func TestChunks(t *testing.T) {
	for _, mpart := range []int64{2 << 20, 98729984} {
		var got []string
		for _, c := range chunks(beffio.Table(mpart), mpart) {
			got = append(got, c.Tick)
		}
		want := []string{"1 KiB", "1 KiB+8", "32 KiB", "32 KiB+8", "1 MiB", "1 MiB+8", "MPART"}
		assert.Equal(t, want, got, "MPART %d: in size order, MPART by name", mpart)
	}
	c := chunks(beffio.Table(98729984), 98729984)
	assert.Equal(t, "MPART 94.2 MiB", c[len(c)-1].Label)
	for i, x := range c {
		assert.Equal(t, i, x.X, "equidistant")
	}
}

func TestChunkLabel(t *testing.T) {
	for l, want := range map[int64]string{
		1: "1 B", 512: "512 B", 4096: "4 KiB", 13258: "12.9 KiB", 1032: "1 KiB+8", 32776: "32 KiB+8",
		1 << 20: "1 MiB", 1<<20 + 8: "1 MiB+8", 49364992: "47.1 MiB",
	} {
		assert.Equal(t, want, chunkLabel(l), "chunkLabel(%d)", l)
	}
}

// TestPlotData: per partition, access method and type the bandwidth at
// each chunk; the warm-up, fill and L = 2 MiB scatter patterns are not
// points.
func TestPlotData(t *testing.T) {
	p := mustFold(t, ioHand().text())
	d := newPlotData(p)
	assert.Equal(t, 2, d.Best)
	assert.Equal(t, []string{"write", "rewrite", "read"}, d.Accesses)
	require.Len(t, d.Partitions, 2)
	bw := d.Partitions[1].BW
	require.Len(t, bw, 3)
	require.Len(t, bw[0], 5)
	// n = 2, read, scatter: 2 · 80 · 2 MB/s at every chunk.
	for i, v := range bw[beffio.Read][beffio.Scatter] {
		assert.Equal(t, 320.0, float64(v), "chunk %d", i)
	}
	assert.Len(t, bw[0][0], len(d.Chunks))
}

func TestSection(t *testing.T) {
	p := mustFold(t, ioHand().text())
	h, err := New().Section(p)
	require.NoError(t, err)
	s := string(h)
	assert.True(t, strings.HasPrefix(s, `<section id="beffio">`))
	assert.True(t, strings.HasSuffix(s, `</section>`))
	assert.Contains(t, s, "<h2>b_eff_io = 146.25 MB/s</h2>")
	assert.Contains(t, s, `<option value="2" selected>n = 2 (b_eff_io)</option>`)
	assert.Equal(t, 3, strings.Count(s, `id="io-acc-`))
	assert.Equal(t, 5, strings.Count(s, `id="io-type-`))
	c, err := New().Controls()
	require.NoError(t, err)
	assert.Contains(t, string(c), `<option value="4">4: segcoll</option>`)
}
