package harness

import (
	"strconv"
	"time"
)

// A Progress reports how far a suite's benchmark is: done of all
// measurements, elapsed time and ETA, on stderr of rank 0.
type Progress struct {
	s          *Session
	what       string
	done, all  int
	count      int // -test.count: how often each measurement runs
	start, log time.Time
}

// NewProgress starts the progress of all measurements of what (e.g.
// "b_eff"); testing repeats every sub-benchmark -test.count times, so all
// counts them that often.
func (s *Session) NewProgress(what string, all int) *Progress {
	count := 1
	if c, err := strconv.Atoi(flagValue("test.count")); err == nil && c > 1 {
		count = c
	}
	now := time.Now()
	return &Progress{s: s, what: what, all: all * count, count: count, start: now, log: now}
}

// Grow adds n measurements to the total, decided while the suite runs
// (SKaMPI's refinement adds lengths to a curve).
func (p *Progress) Grow(n int) { p.all += n * p.count }

// Total is the number of measurements, -test.count included.
func (p *Progress) Total() int { return p.all }

// Done counts one measurement.
func (p *Progress) Done() { p.done++ }

// Add counts n measurements done at once (copied, not measured).
func (p *Progress) Add(n int) { p.done += n }

// Log writes the progress when 2 s passed since the last line.
func (p *Progress) Log() { p.write(false) }

// Finish writes the last progress line.
func (p *Progress) Finish() { p.write(true) }

func (p *Progress) write(final bool) {
	if !p.s.IsRoot() {
		return
	}
	now := time.Now()
	if !final && now.Sub(p.log) < 2*time.Second {
		return
	}
	p.log = now
	el := now.Sub(p.start)
	eta := "?"
	if p.done > 0 && p.done < p.all {
		eta = (time.Duration(float64(el) / float64(p.done) * float64(p.all-p.done))).Round(time.Second).String()
	} else if p.done >= p.all {
		eta = "0s"
	}
	p.s.Logf("%s %d/%d measurements, %s elapsed, ETA %s", p.what, p.done, p.all, el.Round(time.Second), eta)
}
