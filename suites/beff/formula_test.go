package beff_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/beff"
)

func TestLogAvg(t *testing.T) {
	tests := []struct {
		name string
		in   []float64
		want float64
	}{
		{"one", []float64{5}, 5},
		{"two", []float64{2, 8}, 4},
		{"three", []float64{1, 10, 100}, 10},
		{"equal", []float64{3, 3, 3, 3}, 3},
		{"tiny and huge", []float64{1e-300, 1e300}, 1},
		{"below arithmetic mean", []float64{1, 4, 16, 64}, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := beff.LogAvg(tt.in)
			require.NoError(t, err)
			assert.InEpsilon(t, tt.want, got, 1e-12)
		})
	}
	for name, in := range map[string][]float64{
		"nil":      nil,
		"empty":    {},
		"zero":     {1, 0},
		"negative": {1, -1},
		"NaN":      {1, math.NaN()},
		"+Inf":     {1, math.Inf(1)},
		"-Inf":     {math.Inf(-1)},
	} {
		t.Run("error/"+name, func(t *testing.T) {
			_, err := beff.LogAvg(in)
			assert.Error(t, err)
		})
	}
}

func TestMean(t *testing.T) {
	assert.Equal(t, 2.5, beff.Mean([]float64{1, 2, 3, 4}))
	assert.Equal(t, 7.0, beff.Mean([]float64{7}))
	assert.Equal(t, 200.0, beff.Mean([]float64{300, 100}))
	assert.True(t, math.IsNaN(beff.Mean(nil)), "mean of nothing")
}

// Two ring and two random patterns, two sizes each:
//
//	ringA   [300, 100]  mean 200
//	ringB   [700, 900]  mean 800   rings:  √(200·800) = √160000 = 400
//	randomA [155,  45]  mean 100
//	randomB [ 75, 125]  mean 100   random: √(100·100) = 100
//	b_eff = √(400·100) = √40000 = 200
//
// At Lmax (size index 1) only:
//
//	rings:  √(100·900) = √90000 = 300
//	random: √(45·125)  = √5625  = 75
//	b_eff at Lmax = √(300·75) = √22500 = 150
var handBest = beff.Best{
	"ringA":   {300, 100},
	"ringB":   {700, 900},
	"randomA": {155, 45},
	"randomB": {75, 125},
	// Reported-only patterns do not enter b_eff.
	"pingpong": {1e9, 1e9},
}

func TestBeffHand(t *testing.T) {
	rings, random := []string{"ringA", "ringB"}, []string{"randomA", "randomB"}
	tests := []struct {
		name  string
		sizes []int
		want  float64
	}{
		{"b_eff", []int{0, 1}, 200},
		{"b_eff at Lmax", []int{1}, 150},
		// Size index 0 only: rings √(300·700) = √210000, random √(155·75) = √11625;
		// b_eff = (210000·11625)^(1/4).
		{"smallest size", []int{0}, math.Pow(210000*11625, 0.25)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := beff.Beff(handBest, rings, random, tt.sizes)
			require.NoError(t, err)
			assert.InEpsilon(t, tt.want, got, 1e-12)
		})
	}
}

// The two-step average weights rings and random patterns equally, however
// many patterns each group has.
func TestBeffEqualWeights(t *testing.T) {
	best := beff.Best{}
	var rings, random []string
	for i := range 6 {
		rings = append(rings, beff.RingNames[i])
		best[beff.RingNames[i]] = []float64{400, 400}
	}
	for i := range 30 {
		random = append(random, beff.RandomName(i))
		best[beff.RandomName(i)] = []float64{100, 100}
	}
	got, err := beff.Beff(best, rings, random, []int{0, 1})
	require.NoError(t, err)
	assert.InEpsilon(t, 200, got, 1e-12) // √(400·100), not weighted 6:30
}

func TestBeffErrors(t *testing.T) {
	best := beff.Best{
		"ringA":   {300, 100},
		"ringB":   {700, 900},
		"randomA": {155, 45},
		"randomB": {75, 125},
		"zero":    {0, 100},
		"short":   {100},
		"inf":     {math.Inf(1), 1},
		"nan":     {math.NaN(), 1},
	}
	tests := []struct {
		name          string
		rings, random []string
		sizes         []int
		msg           string
	}{
		{"missing ring pattern", []string{"ringA", "ringX"}, []string{"randomA"}, []int{0, 1}, "ring patterns: pattern ringX has no measurements"},
		{"missing random pattern", []string{"ringA"}, []string{"randomX"}, []int{0, 1}, "random patterns: pattern randomX has no measurements"},
		{"missing size", []string{"ringA", "short"}, []string{"randomA"}, []int{0, 1}, "pattern short has no measurement at size index 1"},
		{"size index past the end", []string{"ringA"}, []string{"randomA"}, []int{0, 2}, "size index 2"},
		{"negative size index", []string{"ringA"}, []string{"randomA"}, []int{-1}, "size index -1"},
		{"zero bandwidth", []string{"zero"}, []string{"randomA"}, []int{0, 1}, "pattern zero has no measurement at size index 0"},
		{"NaN bandwidth", []string{"nan"}, []string{"randomA"}, []int{0}, "size index 0"},
		{"infinite bandwidth", []string{"inf"}, []string{"randomA"}, []int{0, 1}, "positive and finite"},
		{"no ring patterns", nil, []string{"randomA"}, []int{0}, "ring patterns: logarithmic average of no values"},
		{"no random patterns", []string{"ringA"}, nil, []int{0}, "random patterns: logarithmic average of no values"},
		{"no sizes", []string{"ringA"}, []string{"randomA"}, nil, "no message sizes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := beff.Beff(best, tt.rings, tt.random, tt.sizes)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}
