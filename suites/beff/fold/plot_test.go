package fold

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/beff"
)

func TestSizePos(t *testing.T) {
	for _, lmax := range []int64{beff.MinLmax, 65536, 49364992, 98729984, 1 << 30} {
		for i, l := range beff.Sizes(lmax) {
			assert.InDelta(t, float64(i), sizePos(l, lmax), 0.02, "lmax %d, size %d", lmax, l)
		}
	}
}

func TestBytesLabel(t *testing.T) {
	for l, want := range map[int64]string{
		1: "1", 512: "512", 4096: "4K", 13258: "12.9K", 1032: "1.01K", 32776: "32.0K",
		1 << 20: "1M", 1<<20 + 8: "1.00M", 49364992: "47.1M",
	} {
		assert.Equal(t, want, bytesLabel(l), "bytesLabel(%d)", l)
	}
}

// TestPlotData: the seed's axis (size index i at i), the classes, then
// every pattern; the class of the rings is the logarithmic average of the
// rings; a method a pattern lacks is missing.
func TestPlotData(t *testing.T) {
	p := mustFold(t, handRun().text())[0]
	d := newPlotData(p)
	assert.Equal(t, []int64{1, 65536}, d.Sizes)
	assert.Equal(t, []string{"best", "sendrecv", "alltoallv", "nonblocking"}, d.Methods)
	require.Len(t, d.Curves, 2+len(p.Patterns))
	assert.Equal(t, "rings (logavg)", d.Curves[0].Name)
	assert.Equal(t, "random (logavg)", d.Curves[1].Name)
	// Rings at 1 byte, best: 2, 2, 2, 8, 8, 8 MB/s: logavg 4.
	assert.InDelta(t, 4, float64(d.Curves[0].Y["best"][0]), 1e-12)
	var ping PlotLine
	for _, c := range d.Curves {
		if c.Name == "pingpong" {
			ping = c
		}
	}
	assert.Equal(t, "extra", ping.Kind)
	assert.NotContains(t, ping.Y, "alltoallv", "ping-pong is measured with sendrecv only")
	assert.Equal(t, 50.0, float64(ping.Y["best"][1]))
	assert.False(t, math.IsNaN(float64(d.Curves[0].Y["sendrecv"][0])), "every ring is measured with sendrecv")
}

func TestSection(t *testing.T) {
	p := mustFold(t, handRun().text())[0]
	h, err := New().Section(p)
	require.NoError(t, err)
	s := string(h)
	assert.True(t, strings.HasPrefix(s, `<section id="beff">`))
	assert.True(t, strings.HasSuffix(s, `</section>`), "no newline: the page puts the section on its lines")
	assert.Contains(t, s, "<h2>b_eff = 20.000 MB/s</h2>")
	assert.Contains(t, s, `<td>processes N</td><td class="num">2</td>`)
	c, err := New().Controls()
	require.NoError(t, err)
	assert.Contains(t, string(c), `<option value="nonblocking">nonblocking</option>`)
	assert.Contains(t, string(New().Script()), `R.register({ key: 'beff'`)
}

// TestPlotPerProcess: every curve says what divides it into a process's
// bandwidth: N for the classes, one pair for the ping-pong (the figure's
// unit), the processes taking part for a pattern of fewer.
func TestPlotPerProcess(t *testing.T) {
	p := mustFold(t, handRun().text())[0]
	d := newPlotData(p)
	per := map[string]string{}
	var ping PlotLine
	for _, c := range d.Curves {
		per[c.Name] = fmt.Sprintf("%d %s", c.Div, c.Per)
		if c.Name == "pingpong" {
			ping = c
		}
	}
	assert.Equal(t, "2 per process", per["rings (logavg)"])
	assert.Equal(t, "2 per process", per["ring2"])
	assert.Equal(t, "1 one pair", per["pingpong"])
	assert.Equal(t, p.PingPongLmax, float64(ping.Y["best"][len(d.Sizes)-1])/float64(ping.Div),
		"the ping-pong curve ends at the figure ping-pong bandwidth at Lmax")
	assert.Equal(t, []any{5, "per process of the 5 taking part"}, func() []any {
		n, s := perProcess(&PatternTable{Name: "acyclic-2dim-all", Participants: 5}, 6)
		return []any{n, s}
	}())
}
