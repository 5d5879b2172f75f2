package beff

import (
	"errors"
	"fmt"
	"math"
)

// LogAvg is the geometric mean (the paper's logarithmic average). It returns
// an error for an empty list or a value that is not positive and finite.
func LogAvg(v []float64) (float64, error) {
	if len(v) == 0 {
		return 0, errors.New("logarithmic average of no values")
	}
	s := 0.0
	for _, x := range v {
		if !(x > 0) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("logarithmic average of %v: values must be positive and finite", x)
		}
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(v))), nil
}

// Mean is the arithmetic mean (NaN for no values).
func Mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// Best holds, per pattern name and size index, the bandwidth max over
// methods and repetitions (MB/s).
type Best map[string][]float64

// Beff combines per-pattern bandwidths into b_eff: the logarithmic average of
// the logarithmic averages over the ring and the random patterns of each
// pattern's mean over sizes. sizes selects which size indexes enter the mean
// (all of them for b_eff, only Lmax for "b_eff at Lmax").
func Beff(best Best, rings, random []string, sizes []int) (float64, error) {
	if len(sizes) == 0 {
		return 0, errors.New("no message sizes selected")
	}
	avg := func(names []string) (float64, error) {
		var v []float64
		for _, n := range names {
			b, ok := best[n]
			if !ok {
				return 0, fmt.Errorf("pattern %s has no measurements", n)
			}
			var per []float64
			for _, i := range sizes {
				if i < 0 || i >= len(b) || !(b[i] > 0) {
					return 0, fmt.Errorf("pattern %s has no measurement at size index %d", n, i)
				}
				per = append(per, b[i])
			}
			v = append(v, Mean(per))
		}
		return LogAvg(v)
	}
	r, err := avg(rings)
	if err != nil {
		return 0, fmt.Errorf("ring patterns: %w", err)
	}
	x, err := avg(random)
	if err != nil {
		return 0, fmt.Errorf("random patterns: %w", err)
	}
	return LogAvg([]float64{r, x})
}
