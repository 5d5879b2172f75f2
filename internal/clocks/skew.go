package clocks

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A Skew makes chosen processes' clocks run fast (or slow) by a rate, for
// the tests of the model against drift: a process whose clock is skewed
// reads t + PPM·1e-6·(t − t0) where its MPI clock reads t.
type Skew struct {
	PPM   float64
	Odd   bool     // the odd ranks (half the processes, rank 0 not among them)
	Ranks [][2]int // else these ranges of ranks, inclusive
}

// MaxSkewPPM is the largest skew taken: 1 %.
const MaxSkewPPM = 1e4

// ParseSkew reads "PPM[@RANKS]", RANKS being odd (the default) or a
// list of ranks and ranges of them (1,3,8-15); "" or 0 is no skew.
func ParseSkew(s string) (Skew, error) {
	if s == "" {
		return Skew{}, nil
	}
	rate, who, hasAt := strings.Cut(s, "@")
	ppm, err := strconv.ParseFloat(rate, 64)
	if err != nil || math.IsNaN(ppm) || math.Abs(ppm) > MaxSkewPPM {
		return Skew{}, fmt.Errorf("clock skew %q: want ppm[@ranks], the ppm a number of at most %g in size", s, MaxSkewPPM)
	}
	k := Skew{PPM: ppm}
	if hasAt && who == "" {
		return Skew{}, fmt.Errorf("clock skew %q: no ranks after @ (odd, or a list such as 1,3,8-15)", s)
	}
	if who == "" || who == "odd" {
		k.Odd = true
		return k, nil
	}
	for _, f := range strings.Split(who, ",") {
		lo, hi, isRange := strings.Cut(f, "-")
		if !isRange {
			hi = lo
		}
		a, e1 := strconv.Atoi(lo)
		b, e2 := strconv.Atoi(hi)
		if e1 != nil || e2 != nil || a < 0 || b < a {
			return Skew{}, fmt.Errorf("clock skew %q: ranks %q: want odd or a list of ranks and ranges (1,3,8-15)", s, who)
		}
		k.Ranks = append(k.Ranks, [2]int{a, b})
	}
	return k, nil
}

// On says whether rank's clock is skewed.
func (k Skew) On(rank int) bool {
	if k.PPM == 0 {
		return false
	}
	if k.Odd {
		return rank%2 == 1
	}
	for _, r := range k.Ranks {
		if rank >= r[0] && rank <= r[1] {
			return true
		}
	}
	return false
}

// Model is rank's skewed clock as a model of its MPI clock, from t0 on.
func (k Skew) Model(rank int, t0 float64) Model {
	if !k.On(rank) {
		return Model{}
	}
	return Model{At: t0, Drift: k.PPM * 1e-6}
}

// String is the skew as ParseSkew reads it.
func (k Skew) String() string {
	if k.PPM == 0 {
		return ""
	}
	if k.Odd {
		return strconv.FormatFloat(k.PPM, 'g', -1, 64) + "@odd"
	}
	var f []string
	for _, r := range k.Ranks {
		f = append(f, fmt.Sprintf("%d-%d", r[0], r[1]))
	}
	return strconv.FormatFloat(k.PPM, 'g', -1, 64) + "@" + strings.Join(f, ",")
}
