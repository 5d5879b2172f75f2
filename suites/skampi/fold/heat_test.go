package fold

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/results"
)

// synthMatrix is the round trips of the 4 synthetic processes: a (0, 1)
// and b (2, 3) on leaf0 and leaf1, slow across the spine.
const synthMatrix = `skampi-place-0: a spine.leaf0
skampi-place-1: a spine.leaf0
skampi-place-2: b spine.leaf1
skampi-place-3: b spine.leaf1
skampi-rtt-0-1: 0.3 5.5 5
skampi-rtt-1-2: 5.1 4.9
skampi-rtt-2-3: 0.4
`

// heatOf folds the synthetic run with the matrix lines and makes its heat
// map and the map's image.
func heatOf(t *testing.T, matrix string) (*Folded, *heatMap, image.Image) {
	t.Helper()
	p := foldText(t, synthText(synthConfig+matrix, synthLines))
	require.NotNil(t, p.Config.Matrix)
	h, err := newHeatMap(p.Config.Matrix)
	require.NoError(t, err)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(string(h.PNG), "data:image/png;base64,"))
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(raw))
	require.NoError(t, err)
	return p, h, img
}

// TestHeatMap: a run with the matrix gets the heat map on its page: the
// PNG has a cell per pair (N×cell pixels), the slowest pairs cross the
// spine, the fastest share a node, and the order table names the hosts.
func TestHeatMap(t *testing.T) {
	p, h, img := heatOf(t, synthMatrix)
	assert.Equal(t, 4, h.N)
	assert.Equal(t, report.HeatMaxCell, h.Cell, "4 processes: the largest cells")
	assert.Equal(t, 4*report.HeatMaxCell, img.Bounds().Dx())
	// the slowest pair (0, 2) is yellow, the fastest (0, 1) dark
	slowest := img.At(2*report.HeatMaxCell+1, 0*report.HeatMaxCell+1)
	fastest := img.At(1*report.HeatMaxCell+1, 0*report.HeatMaxCell+1)
	assert.Equal(t, report.HeatColour(1), slowest)
	assert.Equal(t, report.HeatColour(0), fastest)
	assert.Equal(t, heatPair{Ranks: "0, 2", HostA: "a", HostB: "b", Us: 5.5, Crossing: "spine"}, h.Slow[0])
	assert.Equal(t, "node", h.Fast[0].Crossing)
	assert.Equal(t, "4 cross the spine and 2 share a node", h.Crossings)
	assert.Equal(t, []heatGroup{{"spine.leaf0", "a", 0, 1, "0-1"}, {"spine.leaf1", "b", 2, 3, "2-3"}}, h.Groups)

	html, err := New().Section(p)
	require.NoError(t, err)
	for _, want := range []string{`<img id="skampi-heat" src="data:image/png;base64,`, `id="skampi-slowest"`,
		`<td>0, 2</td><td>a, b</td><td>spine</td>`, "Of the 6 slowest pairs, 4 cross the spine and 2 share a node."} {
		assert.Contains(t, string(html), want)
	}
}

// synthNodes is the matrix of the synthetic run kept per node: a and b on
// leaf0, c on leaf1; c's round trips are slow, and no pair of b and c was
// timed.
const synthNodes = `skampi-rtt-of: node 3
skampi-place-0: a spine.leaf0
skampi-place-1: b spine.leaf0
skampi-place-2: c spine.leaf1
skampi-rtt-0-0: 0.3 5 80
skampi-rtt-1-1: 0.4 -
skampi-rtt-2-2: 0.5
`

// TestHeatMapNodes: a matrix kept per node has a row per node with its
// diagonal (within the node) drawn, a cell without a timed pair grey, the
// slowest pair of nodes listed by host and path without ranks, and the
// page says what the rows are.
func TestHeatMapNodes(t *testing.T) {
	p, h, img := heatOf(t, synthNodes)
	assert.Equal(t, 3, h.N)
	assert.Equal(t, report.HeatColour(0), img.At(1, 1), "a's diagonal: the fastest cell")
	assert.Equal(t, report.HeatColour(1), img.At(2*report.HeatMaxCell+1, 1), "a to c: the slowest")
	assert.Equal(t, color.RGBA{0xdd, 0xdd, 0xdd, 0xff}, img.At(2*report.HeatMaxCell+1, report.HeatMaxCell+1), "b to c: not timed")
	assert.Equal(t, heatPair{HostA: "a", HostB: "c", Us: 80, Crossing: "spine"}, h.Slow[0])
	assert.InDelta(t, 0.3, h.Fast[0].Us, 1e-6)
	h.Fast[0].Us = 0
	assert.Equal(t, heatPair{HostA: "a", HostB: "a", Crossing: "node"}, h.Fast[0])
	assert.Equal(t, []heatGroup{{"spine.leaf0", "a", 0, 0, ""}, {"spine.leaf0", "b", 1, 1, ""}, {"spine.leaf1", "c", 2, 2, ""}}, h.Groups)
	html, err := New().Section(p)
	require.NoError(t, err)
	for _, want := range []string{"a row and column per node (3)", "Of the 5 slowest pairs of nodes, 1 crosses the spine, 1 stays on one switch and 3 share a node.",
		`<tr><td>a, c</td><td>spine</td><td class="num">80.00</td></tr>`} {
		assert.Contains(t, string(html), want)
	}
	assert.NotContains(t, string(html), `<th scope="col">ranks</th>`)
}

// TestNoHeatMap: a run without the matrix (two processes of old, or
// above 1,024) has no heat map, and its page renders.
func TestNoHeatMap(t *testing.T) {
	p := foldText(t, synthText(synthConfig, synthLines))
	assert.Nil(t, p.Config.Matrix)
	html, err := New().Section(p)
	require.NoError(t, err)
	assert.NotContains(t, string(html), "skampi-heat")
}

// TestHeatMapRefused: a matrix line that does not fit the run is an
// error of the fold that names the key.
func TestHeatMapRefused(t *testing.T) {
	_, err := results.Read(strings.NewReader(synthText(synthConfig+"skampi-rtt-0-9: 1\n", synthLines)), "bad.txt", []results.Suite{New()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "skampi-rtt-0-9")
}

// TestCrossings: where the slowest pairs go, in agreement with their
// number.
func TestCrossings(t *testing.T) {
	pairs := func(cs ...string) []heatPair {
		var out []heatPair
		for _, c := range cs {
			out = append(out, heatPair{Crossing: c})
		}
		return out
	}
	assert.Equal(t, "shares a node", crossings(pairs("node")))
	assert.Equal(t, "1 crosses the spine and 2 share a node", crossings(pairs("node", "spine", "node")))
	assert.Equal(t, "2 stay on one switch", crossings(pairs("switch", "switch")))
}
