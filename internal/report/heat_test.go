package report

import (
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRangeList(t *testing.T) {
	assert.Equal(t, "0-3,8,10-11", RangeList([]int{0, 1, 2, 3, 8, 10, 11}))
	assert.Equal(t, "5", RangeList([]int{5}))
	assert.Equal(t, "", RangeList(nil))
}

// TestHeatGrid: the best value is dark and the worst yellow whichever
// way is better, a cell without a value grey, a group's start a white
// line where cells are large enough, none where they are not.
func TestHeatGrid(t *testing.T) {
	v := [][]float64{{math.NaN(), 10, 100}, {10, math.NaN(), 1000}, {100, 1000, math.NaN()}}
	at := func(i, j int) (float64, bool) { return v[i][j], !math.IsNaN(v[i][j]) }
	for _, higher := range []bool{false, true} {
		g := HeatGrid{N: 3, Cell: 8, At: at, Lo: 10, Hi: 1000, HigherBetter: higher, Break: func(i int) bool { return i == 2 }}
		img := g.Image()
		assert.Equal(t, 24, img.Bounds().Dx())
		best, worst := HeatColour(0), HeatColour(1)
		if higher {
			best, worst = worst, best
		}
		assert.Equal(t, best, img.At(8+1, 1), "10: higher better %v", higher)
		assert.Equal(t, worst, img.At(2*8+1, 8+1), "1000")
		assert.Equal(t, HeatColour(0.5), img.At(2*8+1, 1), "100: halfway on a log scale")
		assert.Equal(t, heatGrey, img.At(1, 1), "the diagonal")
		assert.Equal(t, color.RGBA{0xff, 0xff, 0xff, 0xff}, img.At(2*8, 1), "the line before the group of 2")
		assert.Equal(t, best, img.At(8, 1), "no line before 1")
	}
	small := HeatGrid{N: 3, Cell: 2, At: at, Lo: 10, Hi: 1000, Break: func(i int) bool { return true }}.Image()
	assert.Equal(t, HeatColour(0.5), small.At(2*2, 0), "cells of 2 pixels: no line")
	assert.Equal(t, 24, HeatCell(3), "a small map: the largest cells")
	assert.Equal(t, 1, HeatCell(100000), "a large map: a pixel a cell")
	u, err := HeatLegend()
	assert.NoError(t, err)
	assert.Contains(t, string(u), "data:image/png;base64,")
}
