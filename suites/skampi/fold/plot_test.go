package fold

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/report"
)

// TestPlotData: one plot per suite in the order of the run, each curve's
// points in increasing order with its refined lengths, convergence, band
// (collectives) and bandwidth (ping-pong); a point without a value is
// null.
func TestPlotData(t *testing.T) {
	d := newPlotData(foldText(t, synthText(synthConfig, synthLines)))
	var names, varies []string
	for _, s := range d.Suites {
		names, varies = append(names, s.Name), append(varies, s.Vary)
	}
	assert.Equal(t, []string{"pp", "pp-min", "coll", "mw", "local"}, names)
	assert.Equal(t, []string{"length", "length", "procs", "length", "none"}, varies)

	pp := d.Suites[0]
	assert.Equal(t, "max", pp.Pair)
	require.Len(t, pp.Curves, 1)
	c := pp.Curves[0]
	assert.Equal(t, []int64{1, 32, 1024}, c.X, "sorted, though 32 was measured last")
	assert.Equal(t, []report.PlotNum{2.5, 3.2, 5.12}, c.Us)
	assert.Equal(t, []bool{false, true, false}, c.Refined, "32 is not on the grid 1, 1024")
	assert.Equal(t, []bool{true, true, false}, c.Converged)
	assert.Equal(t, []report.PlotNum{0.4, 10, 200}, c.MBps)
	assert.Nil(t, c.Lo, "no band for a ping-pong")

	coll := d.Suites[2]
	assert.Empty(t, coll.Pair)
	require.Len(t, coll.Curves, 2)
	assert.Equal(t, "barrier", coll.Curves[0].Op)
	assert.Equal(t, []int64{2, 4}, coll.Curves[0].X, "x is the processes")
	assert.Equal(t, []report.PlotNum{3.9, 6.9}, coll.Curves[0].Lo)
	assert.Equal(t, []report.PlotNum{4.5, 9.5}, coll.Curves[0].Hi)
	assert.Nil(t, coll.Curves[0].MBps)

	mw := d.Suites[3].Curves[0]
	assert.True(t, math.IsNaN(float64(mw.Us[0])), "no valid repetition")
	b, err := json.Marshal(mw)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"us":[null]`)

	local := d.Suites[4].Curves[0]
	assert.Equal(t, []int64{0}, local.X)
	assert.Equal(t, "simple", local.Pattern)
}

// TestSuiteRows: the run page's table of suites counts curves, points,
// refined lengths and points short of ε, with the ids of the plots.
func TestSuiteRows(t *testing.T) {
	rows := suiteRows(foldText(t, synthText(synthConfig, synthLines)))
	require.Len(t, rows, 5)
	assert.Equal(t, suiteRow{Plot: "skampi-plot-0", Name: "pp", Text: rows[0].Text, Curves: 1, Points: 3, Added: 1, NotConverged: 1}, rows[0])
	assert.Equal(t, suiteRow{Plot: "skampi-plot-2", Name: "coll", Text: rows[2].Text, Curves: 2, Points: 4, NotConverged: 1}, rows[2])
	assert.Equal(t, 1, rows[3].NotConverged, "no value counts as short of ε")
}
