package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"image"
	"image/color"
	"image/png"
	"math"
)

// A HeatGrid is a square matrix drawn as an image for a run page: cell
// (i, j) is coloured on a log scale from the best value (dark) to the
// worst (yellow) of Lo…Hi, grey where At has no value; a white line
// separates the groups (switches) where Break says a new one starts and
// cells are large enough to show it. The rows and columns are in the
// order the caller gives (the topology's, where known).
type HeatGrid struct {
	N, Cell int
	// At is cell (i, j)'s value and whether it has one.
	At     func(i, j int) (float64, bool)
	Lo, Hi float64
	// HigherBetter: the largest value is the best (bandwidth); else the
	// smallest (time).
	HigherBetter bool
	// Break reports whether position i starts a new group; nil: none.
	Break func(i int) bool
}

// HeatSide and HeatMaxCell bound a heat map: about HeatSide pixels on a
// side, each cell at least one pixel and at most HeatMaxCell.
const (
	HeatSide    = 512
	HeatMaxCell = 24
)

// HeatCell is the cell size of an n×n map.
func HeatCell(n int) int { return min(HeatMaxCell, max(1, HeatSide/max(n, 1))) }

// heatGrey is a cell without a value (the diagonal, or not measured).
var heatGrey = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}

// Image draws the grid.
func (g HeatGrid) Image() *image.RGBA {
	side := g.N * g.Cell
	img := image.NewRGBA(image.Rect(0, 0, side, side))
	for i := 0; i < g.N; i++ {
		for j := 0; j < g.N; j++ {
			c := heatGrey
			if v, ok := g.At(i, j); ok {
				t := HeatLogPos(v, g.Lo, g.Hi)
				if g.HigherBetter {
					t = 1 - t
				}
				c = HeatColour(t)
			}
			fillCell(img, j*g.Cell, i*g.Cell, g.Cell, c)
		}
	}
	if g.Cell >= 4 && g.Break != nil {
		for i := 1; i < g.N; i++ {
			if g.Break(i) {
				for k := 0; k < side; k++ {
					img.Set(i*g.Cell, k, color.White)
					img.Set(k, i*g.Cell, color.White)
				}
			}
		}
	}
	return img
}

// PNG is the grid as a data: URI.
func (g HeatGrid) PNG() (template.URL, error) { return PNGURI(g.Image()) }

func fillCell(img *image.RGBA, x, y, n int, c color.RGBA) {
	for dy := 0; dy < n; dy++ {
		for dx := 0; dx < n; dx++ {
			img.SetRGBA(x+dx, y+dy, c)
		}
	}
}

// HeatLogPos is where v lies between lo and hi on a log scale, 0…1.
func HeatLogPos(v, lo, hi float64) float64 {
	if hi <= lo || v <= 0 || lo <= 0 {
		return 0
	}
	return min(1, max(0, math.Log(v/lo)/math.Log(hi/lo)))
}

// viridis, from the best (dark) to the worst (yellow)
var heatStops = []color.RGBA{{0x44, 0x01, 0x54, 0xff}, {0x3b, 0x52, 0x8b, 0xff}, {0x21, 0x91, 0x8c, 0xff}, {0x5e, 0xc9, 0x62, 0xff}, {0xfd, 0xe7, 0x25, 0xff}}

// HeatColour interpolates the colour at t in 0…1.
func HeatColour(t float64) color.RGBA {
	x := t * float64(len(heatStops)-1)
	i := min(int(x), len(heatStops)-2)
	f := x - float64(i)
	a, b := heatStops[i], heatStops[i+1]
	mix := func(p, q uint8) uint8 { return uint8(math.Round(float64(p) + f*(float64(q)-float64(p)))) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// HeatLegend is the colour scale, the best on the left, as a data: URI.
func HeatLegend() (template.URL, error) {
	img := image.NewRGBA(image.Rect(0, 0, 256, 12))
	for x := 0; x < 256; x++ {
		c := HeatColour(float64(x) / 255)
		for y := 0; y < 12; y++ {
			img.SetRGBA(x, y, c)
		}
	}
	return PNGURI(img)
}

// PNGURI encodes an image as a data: URI.
func PNGURI(img image.Image) (template.URL, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return "", err
	}
	return template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())), nil
}

// RangeList writes numbers as ranges, "0-3,8" (runs of consecutive
// numbers in the order given).
func RangeList(nums []int) string {
	var b bytes.Buffer
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", nums[i], nums[j])
		} else {
			fmt.Fprintf(&b, "%d", nums[i])
		}
		i = j + 1
	}
	return b.String()
}
