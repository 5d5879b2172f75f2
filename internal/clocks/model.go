package clocks

import (
	"errors"
	"math"
	"math/bits"
)

// A Sample is one measured offset: when this process's clock read
// Local seconds the reference's read Local + Offset, to within Err (half
// the round trip of the ping-pong behind it).
type Sample struct{ Local, Offset, Err float64 }

// A Model maps this process's clock to the reference's:
// Ref(t) = t + Offset + Drift·(t − At).
type Model struct {
	At, Offset, Drift float64
}

// Ref is the reference's time at local time t.
func (m Model) Ref(t float64) float64 { return t + m.Offset + m.Drift*(t-m.At) }

// ErrNoSamples is Fit's error without a sample.
var ErrNoSamples = errors.New("no clock samples")

// Fit fits a model to samples by least squares, At their mean local
// time: with one sample, or all at one time, the drift is 0. It returns
// the model and its largest residual plus the largest sample error: how
// far the model is off at the samples' times.
func Fit(s []Sample) (Model, float64, error) {
	if len(s) == 0 {
		return Model{}, 0, ErrNoSamples
	}
	var mt, mo, worst float64
	for _, x := range s {
		mt += x.Local
		mo += x.Offset
		worst = max(worst, x.Err)
	}
	n := float64(len(s))
	mt, mo = mt/n, mo/n
	var sxy, sxx float64
	for _, x := range s {
		sxy += (x.Local - mt) * (x.Offset - mo)
		sxx += (x.Local - mt) * (x.Local - mt)
	}
	m := Model{At: mt, Offset: mo}
	if sxx > 0 {
		m.Drift = sxy / sxx
	}
	res := 0.0
	for _, x := range s {
		res = max(res, math.Abs(x.Offset-(m.Offset+m.Drift*(x.Local-mt))))
	}
	return m, res + worst, nil
}

// Compose is the model of this process's clock against the reference of
// outer, where m maps it to an intermediate clock and outer maps that one
// to the reference. It is exact: both are linear.
func Compose(m, outer Model) Model {
	mid := m.Ref(m.At)
	return Model{At: m.At, Offset: outer.Ref(mid) - m.At, Drift: (1+m.Drift)*(1+outer.Drift) - 1}
}

// Rounds is the rounds of learning that reach every one of p
// processes: ⌈log2 p⌉.
func Rounds(p int) int {
	if p <= 1 {
		return 0
	}
	return bits.Len(uint(p - 1))
}

// Round is process i's part in round r of p processes, counted from
// the last round to the first: it learns its clock against peer (learns
// true), or teaches peer (false), or sits the round out (peer −1). In the
// round of stride 2^r, a process whose number is an odd multiple of 2^r
// learns against the one 2^r below it; composing then down the rounds
// (the learner's model with its teacher's, whose own is complete by
// then) reaches rank 0 from every process.
func Round(p, r, i int) (peer int, learns bool) {
	stride := 1 << r
	switch {
	case i%(2*stride) == stride:
		return i - stride, true
	case i%(2*stride) == 0 && i+stride < p:
		return i + stride, false
	}
	return -1, false
}
