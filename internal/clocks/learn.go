package clocks

import "math"

// PingPongs is the ping-pongs of a learner with its teacher in one round
// of an estimation; the one with the shortest round trip counts.
const PingPongs = 20

// Estimations bounds the estimations of a run's model, the last
// measurement included (its plan counts them): the first, then
// re-estimations ever more rarely as the samples span more time (each
// interval about half again the one before it, from a few ms: some 30
// in a quarter of an hour).
const Estimations = 32

// EstimationTime is the model's time of one estimation on p processes
// whose round trip is rtt: ⌈log2 p⌉ rounds of PingPongs round trips and
// the model's message, then two reductions over p (a tree each).
func EstimationTime(p int, rtt float64) float64 {
	r := float64(Rounds(p))
	return r*(PingPongs+1)*rtt + 2*r*rtt
}

// MaxSamples is how many samples a process keeps against its teacher
// (Add says which), so that the memory stays fixed.
const MaxSamples = 8

// DriftPrior is the drift a model may be off by before its samples span
// any time: 100 ppm, ten times what ordinary clocks of different nodes
// show.
const DriftPrior = 100e-6

// A Bound is how far a model may be off: Err at local time Since,
// growing by Drift per second after it.
type Bound struct{ Since, Err, Drift float64 }

// At is the bound at local time t.
func (b Bound) At(t float64) float64 { return b.Err + b.Drift*math.Max(0, t-b.Since) }

// A Learner is what one process knows of its teacher's clock: its
// samples against the teacher's own clock (two physical clocks: a line
// fits them however often the teacher's model changes).
type Learner struct{ samples []Sample }

// Add keeps s. Beyond MaxSamples it drops the sample, neither the first
// nor the last, whose neighbours are closest in time: the samples stay
// spread over the whole run, so that the drift rests on the longest
// span (estimations come often at first and ever more rarely).
func (l *Learner) Add(s Sample) {
	l.samples = append(l.samples, s)
	if len(l.samples) <= MaxSamples {
		return
	}
	drop, gap := 1, math.Inf(1)
	for i := 1; i < len(l.samples)-1; i++ {
		if g := l.samples[i+1].Local - l.samples[i-1].Local; g < gap {
			drop, gap = i, g
		}
	}
	l.samples = append(l.samples[:drop], l.samples[drop+1:]...)
}

// Rate is how much faster a clock runs than the reference's, from the
// drift of its model (which maps it to the reference's, so the other
// way): 1/(1 + drift) − 1.
func Rate(drift float64) float64 { return 1/(1+drift) - 1 }

// Clone is a copy of the learner that does not share its samples.
func (l *Learner) Clone() Learner { return Learner{samples: append([]Sample(nil), l.samples...)} }

// Samples is how many samples the learner keeps.
func (l *Learner) Samples() int { return len(l.samples) }

// Fit is the model of this clock against the teacher's and its bound at
// local time now: the fit's residual and sample error at the samples'
// mean time, growing with the distance from it by the drift's
// uncertainty, which is what the errors allow over the samples' span
// (DriftPrior at most, and while they span no time). With drift false
// the model is the first sample's offset alone (SKaMPI's scheme: offsets
// once, no drift) and its bound grows by DriftPrior.
func (l *Learner) Fit(now float64, drift bool) (Model, Bound) {
	s := l.samples
	if !drift {
		s = s[:min(1, len(s))]
	}
	m, err, e := Fit(s)
	if e != nil {
		return Model{}, Bound{Since: now, Drift: DriftPrior}
	}
	d := DriftPrior
	if span := s[len(s)-1].Local - s[0].Local; drift && span > 0 {
		d = math.Min(DriftPrior, 2*err/span)
	}
	return m, Bound{Since: now, Err: err + d*math.Abs(now-m.At), Drift: d}
}

// Chain is the model and bound of this clock against the reference,
// from its own against the teacher's (own, ob) and the teacher's against
// the reference (tm, tb: tb's error as the teacher sent it): the errors
// and the drifts' uncertainties add.
func Chain(own Model, ob Bound, tm Model, tb Bound) (Model, Bound) {
	return Compose(own, tm), Bound{Since: ob.Since, Err: ob.Err + tb.Err, Drift: ob.Drift + tb.Drift}
}

// Miss is how far a model m was off at a fresh sample s against a
// teacher whose model is now tm: the reference's time it predicted at
// the sample against the one the teacher gives (whose own error is in
// it).
func Miss(m, tm Model, s Sample) float64 {
	return math.Abs(m.Ref(s.Local) - tm.Ref(s.Local+s.Offset))
}

// Wire is how a teacher hands its model and bound to a learner: five
// numbers, the bound's error taken at the moment it is sent.
func Wire(m Model, b Bound, now float64) [5]float64 {
	return [5]float64{m.At, m.Offset, m.Drift, b.At(now), b.Drift}
}

// Unwire is the model and bound a learner received.
func Unwire(w [5]float64) (Model, Bound) {
	return Model{At: w[0], Offset: w[1], Drift: w[2]}, Bound{Err: w[3], Drift: w[4]}
}
