package congestion

import (
	"strconv"
	"strings"
)

// A Plan is the sequence of measurements of a run, known before it runs:
// per repetition every canary isolated, the congestors without canaries
// (all sets at once, or each congestor in turn), then every canary under
// each load. Congestors only: each set alone in turn, then all at once.
type Plan struct {
	Canaries   []string
	Congestors []string
	Mix        string
	Only       bool
	Reps       int
	Time       float64 // seconds of each measurement
}

// Loads are the loads every canary is measured under after its isolated
// measurement: every congestor together, or each in turn.
func (p Plan) Loads() []string {
	if p.Mix == MixTogether {
		return []string{LoadCongested}
	}
	return p.Congestors
}

// A PlanStep is one entry of the plan, one timed phase or (congestors
// only, each set alone in turn) one per set: a canary under a load, the
// congestors without canaries (Canary "", Load LoadIsolated), one
// congestor alone (Canary "", Load its name, MixEach), or all congestors
// together (congestors only).
type PlanStep struct {
	Canary string // "" for the congestors alone
	Load   string
	Rep    int
}

// Steps lists the plan's measurements in order.
func (p Plan) Steps() []PlanStep {
	var out []PlanStep
	for rep := 1; rep <= p.Reps; rep++ {
		if !p.Only {
			for _, c := range p.Canaries {
				out = append(out, PlanStep{c, LoadIsolated, rep})
			}
		}
		alone := p.Congestors
		if p.Mix == MixTogether {
			alone = []string{LoadIsolated}
		}
		for _, l := range alone {
			out = append(out, PlanStep{"", l, rep})
		}
		if p.Only {
			if p.Mix == MixTogether {
				out = append(out, PlanStep{"", LoadTogether, rep})
			}
			continue
		}
		for _, c := range p.Canaries {
			for _, l := range p.Loads() {
				out = append(out, PlanStep{c, l, rep})
			}
		}
	}
	return out
}

// Lines are the result lines of a step: a canary's measurement gives the
// canary's line and one per congestor running beside it; the congestors
// alone give one line per congestor.
func (p Plan) Lines(s PlanStep) []string {
	switch {
	case s.Canary == "" && s.Load == LoadIsolated: // all sets at once, or (congestors only) each alone in turn
		return p.congestorLines(p.Congestors, LoadIsolated, s.Rep)
	case s.Canary == "" && s.Load == LoadTogether:
		return p.congestorLines(p.Congestors, LoadTogether, s.Rep)
	case s.Canary == "": // MixEach: the one congestor alone
		return []string{CongestorName(s.Load, LoadIsolated, s.Rep)}
	case s.Load == LoadIsolated:
		return []string{CanaryName(s.Canary, s.Load, s.Rep)}
	case s.Load == LoadCongested:
		return append([]string{CanaryName(s.Canary, s.Load, s.Rep)}, p.congestorLines(p.Congestors, s.Canary, s.Rep)...)
	}
	return []string{CanaryName(s.Canary, s.Load, s.Rep), CongestorName(s.Load, s.Canary, s.Rep)}
}

func (p Plan) congestorLines(list []string, load string, rep int) []string {
	var out []string
	for _, c := range list {
		out = append(out, CongestorName(c, load, rep))
	}
	return out
}

// Names are every line of the run, in order.
func (p Plan) Names() []string {
	var out []string
	for _, s := range p.Steps() {
		out = append(out, p.Lines(s)...)
	}
	return out
}

// Measurements is how many timed phases the plan has: with congestors
// only, the sets alone are one phase each.
func (p Plan) Measurements() int {
	n := 0
	for _, s := range p.Steps() {
		if s.Canary == "" && s.Load == LoadIsolated && p.Only {
			n += len(p.Congestors)
		} else {
			n++
		}
	}
	return n
}

// Seconds is the time the plan's measurements take: each at least Time,
// and at most one burst more (PhaseSlack).
func (p Plan) Seconds() float64 { return float64(p.Measurements()) * (p.Time + PhaseSlack) }

// PhaseSlack is what a measurement takes beyond its time, at most, in the
// plan: an untimed burst, the start and the last burst's overrun.
const PhaseSlack = 0.05

// RepOf is the repetition of a line's name (0 when it has none).
func RepOf(name string) int {
	i := strings.LastIndex(name, "/rep=")
	if i < 0 {
		return 0
	}
	k, err := strconv.Atoi(name[i+len("/rep="):])
	if err != nil {
		return 0
	}
	return k
}

// WholeReps are the repetitions of the plan of which saved holds every
// line.
func WholeReps(p Plan, saved map[string]int) map[int]bool {
	out := map[int]bool{}
	for rep := 1; rep <= p.Reps; rep++ {
		out[rep] = true
	}
	for _, n := range p.Names() {
		if saved[n] == 0 {
			out[RepOf(n)] = false
		}
	}
	return out
}
