package harness

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"time"
)

// Progress modes (-progress).
const (
	progressTerminal = "terminal"
	progressLog      = "log"
	progressOff      = "off"
	progressAuto     = "auto"
)

// Rates of the progress s.lines.
const (
	terminalEvery = 2 * time.Second // a line in a terminal at most this often
	logEvery      = time.Minute     // in a log, a line at least this often
	logStep       = 0.1             // and one at every tenth of the predicted time
	logMinGap     = 2 * time.Second // but never more often than in a terminal
)

// checkProgressFlag refuses a -progress that is none of the modes.
func checkProgressFlag(mode string) error {
	switch mode {
	case progressTerminal, progressLog, progressOff, progressAuto:
		return nil
	}
	return fmt.Errorf("-progress=%s: want terminal, log, off or auto", mode)
}

// progressMode is the mode of -progress, auto resolved by whether rank 0's
// stderr is a terminal.
func progressMode(mode string) string {
	if mode != progressAuto {
		return mode
	}
	if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		return progressTerminal
	}
	return progressLog
}

// A Progress reports how far a suite's benchmark is, on stderr of rank 0:
// done of all measurements, the time elapsed and an ETA from the suite's
// time model. Each measurement weighs its predicted time in the model
// (1 where the suite gives none); the ETA is the model's time of what is
// left, scaled by how long the model's time of what is done took (so a
// model that is right up to a factor still predicts right). A model of
// seconds (ModelSeconds) is taken as it is, and what else a measurement
// costs as the same for every measurement left of its kind, from the
// last ones of the kind done (overheads), without what was done once
// (Aside). In a
// terminal a line comes every 2 s; in a log (-progress) at every tenth of
// the predicted time and at least once a minute.
type Progress struct {
	s         *Session
	what      string
	done, all int
	count     int // -test.count: how often each measurement runs
	// planned is the model's time of all measurements, weight the part
	// of it done; left, when set, predicts what is left instead of
	// planned − weight.
	planned, weight float64
	// aside is the time spent once for what follows (Aside), not again
	// for the measurements left.
	aside float64
	left  func() float64
	// secondsLeft, a model of seconds (ModelSeconds), predicts the
	// seconds of the timed work left and counts the measurements left of
	// each kind (a decision still to come may drop some).
	secondsLeft func() (float64, []int)
	mode        string
	start, log  time.Time
	over        overheads
	logged      float64 // the fraction done at the last line
	warming     bool    // the suite will call Warm
	guess       string  // why the suite's model only guesses for now (Rough)
	saidAll     int     // the total a line said was all done (0: none)
}

// NewProgress starts the progress of all measurements of what (e.g.
// "b_eff"), each of weight 1 until Plan says otherwise; testing repeats
// every sub-benchmark -test.count times, so all counts them that often.
func (s *Session) NewProgress(what string, all int) *Progress {
	count := 1
	if c, err := strconv.Atoi(flagValue("test.count")); err == nil && c > 1 {
		count = c
	}
	now := time.Now()
	return &Progress{s: s, what: what, all: all * count, count: count, planned: float64(all * count),
		mode: progressMode(s.progressFlag()), start: now, log: now}
}

// Plan sets the model's time of all measurements, seconds (each of the
// -test.count runs of a measurement counts); Done then takes each
// measurement's predicted time.
func (p *Progress) Plan(seconds float64) { p.planned = seconds * float64(p.count) }

// Model sets the suite's time model: left predicts the time of what is
// left, each measurement once (-test.count multiplies it); it is asked on
// rank 0 only, when a line is due.
func (p *Progress) Model(left func() float64) { p.left = left }

// ModelSeconds sets a model whose left, and whose weight of each
// measurement done (DoneWeighing, DoneOf), are the seconds of its timed
// work itself, and which counts the measurements left (each once) of
// each kind (DoneOf; one kind, 0, for DoneWeighing): the ETA is what is
// left plus, for every measurement left, what the measurements of its
// kind done took beside their weight and beside the work done once
// (Aside).
func (p *Progress) ModelSeconds(left func() (float64, []int)) { p.secondsLeft = left }

// Grow adds n measurements to the total, decided while the suite runs
// (SKaMPI's refinement adds lengths to a curve), of weight w each; n < 0
// takes out measurements a decision dropped (b_eff's shortcut).
func (p *Progress) Grow(n int, w float64) {
	p.all += n * p.count
	p.planned += float64(n*p.count) * w
}

// Total is the number of measurements, -test.count included.
func (p *Progress) Total() int { return p.all }

// Done counts one measurement of weight 1.
func (p *Progress) Done() { p.DoneWeighing(1) }

// DoneWeighing counts one measurement the model predicted at w.
func (p *Progress) DoneWeighing(w float64) { p.DoneOf(0, w) }

// DoneOf counts one measurement of kind (a small number: b_eff's
// method) the model predicted at w.
func (p *Progress) DoneOf(kind int, w float64) {
	p.done++
	p.weight += w
	p.over.add(kind, time.Since(p.start).Seconds()-p.weight-p.aside)
}

// Warming says that the suite's first measurements pay once for what the
// others reuse beyond the work it sets aside (connections made at first
// contact, buffers touched): until it calls Warm, its ETA is said to be
// rough.
func (p *Progress) Warming() { p.warming = true }

// Warm says that the measurements done so far paid what comes once: a
// model of seconds takes the overhead of each kind of measurement left
// only from those done after this call, once there is one (b_eff calls
// it at its second size: on 128 processes on 2 cores a measurement of
// the first size cost 2 to 5 times as much beside its loops as one of a
// later size).
func (p *Progress) Warm() { p.over.warmUp() }

// Rough says why the suite's model only guesses for now ("" once it
// does not): its ETA is said to be rough, with why (b_eff_io's before
// every partition wrote, where processes share CPUs: a write's calls
// then outlast its share of the time by as much as its partition has
// processes).
func (p *Progress) Rough(why string) { p.guess = why }

// rough is why the ETA is rough ("" when it is not): the suite's model
// guesses, or it is still warming (a kind has not been measured since
// Warm: "first contacts").
func (p *Progress) rough() string {
	switch {
	case p.guess != "":
		return p.guess
	case p.warming && p.over.cold():
		return "first contacts"
	}
	return ""
}

// Aside counts seconds of work done once for the measurements that
// follow (a suite's first probes of a pattern): a model of seconds does
// not expect it again of the measurements left.
func (p *Progress) Aside(seconds float64) { p.aside += seconds }

// Add counts n measurements done at once (copied, not measured), of
// weight w each: they took no time.
func (p *Progress) Add(n int, w float64) {
	p.done += n
	p.planned -= float64(n) * w
}

// Log writes the progress when a line is due.
func (p *Progress) Log() { p.write(false) }

// Finish writes the last progress line.
func (p *Progress) Finish() { p.write(true) }

func (p *Progress) write(final bool) {
	if !p.s.IsRoot() || p.mode == progressOff {
		return
	}
	now := time.Now()
	since := now.Sub(p.log)
	el := now.Sub(p.start)
	eta, frac := p.eta(el)
	if !final && !p.due(since, frac) || p.done >= p.all && p.saidAll == p.all {
		return // the line that says all are done comes once (Grow may add more)
	}
	p.log, p.logged = now, frac
	if p.done >= p.all {
		p.saidAll = p.all
	}
	text := "?"
	switch {
	case p.done >= p.all:
		text = "0s"
	case p.done > 0 && p.rough() != "":
		text = "~" + eta.Round(time.Second).String() + " (rough: " + p.rough() + ")"
	case p.done > 0:
		text = eta.Round(time.Second).String()
	}
	p.s.Logf("%s %d/%d measurements, %s elapsed, ETA %s", p.what, p.done, p.all, el.Round(time.Second), text)
}

// due reports whether a line is due since seconds after the last one,
// with frac of the predicted time done.
func (p *Progress) due(since time.Duration, frac float64) bool {
	if p.mode == progressTerminal {
		return since >= terminalEvery
	}
	return since >= logMinGap && (since >= logEvery || frac >= p.logged+logStep)
}

// eta is the predicted time of what is left after el, and the fraction
// of the whole predicted time that is done.
func (p *Progress) eta(el time.Duration) (time.Duration, float64) {
	var eta float64
	if p.secondsLeft != nil {
		t, kinds := p.secondsLeft()
		eta = max(t, 0)
		for k, n := range kinds {
			eta += float64(n) * p.over.of(k)
		}
		eta *= float64(p.count)
	} else {
		left := p.planned - p.weight
		if p.left != nil {
			left = p.left() * float64(p.count)
		}
		rate := 1.0 // seconds per unit of the model, from what is done
		if p.weight > 0 && el > 0 {
			rate = el.Seconds() / p.weight
		}
		eta = max(left, 0) * rate
	}
	if math.IsNaN(eta) || math.IsInf(eta, 0) || eta > 1e9 {
		eta = 1e9
	}
	frac := 1.0
	if total := el.Seconds() + eta; total > 0 {
		frac = el.Seconds() / total
	}
	return time.Duration(eta * float64(time.Second)), frac
}
