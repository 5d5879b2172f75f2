package fold

import (
	"fmt"
	"math"
	"slices"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/links"
)

// A Finding is a verdict: a slow member or a slow link, by latency or by
// bandwidth, and its line for people.
type Finding struct {
	links.Finding
	Figure string // "latency" or "bandwidth"
	Line   string
}

// Folded is a folded links run.
type Folded struct {
	results.Validity
	Run     *results.Run
	Config  *Config
	Pairs   []*Measurement // a full matrix's pairs, by members
	Members []*Measurement // by member number
	// Lat, Bw and Both are the medians of the members' medians: the job's
	// typical link.
	Lat, Bw, Both float64
	// MinBw and MaxLat are the job's worst link.
	MinBw, MaxLat float64
	Findings      []Finding
}

// Source is the run folded.
func (p *Folded) Source() *results.Run { return p.Run }

// Fold checks that the run holds every line its configuration says and
// folds it: the figures and the verdicts.
func Fold(r *results.Run) (*Folded, error) {
	cfg := reading{}.Config(r)
	p := &Folded{Run: r, Config: cfg}
	var members []*Measurement
	for _, l := range r.Lines {
		m := reading{}.Value(l)
		switch {
		case m.IsMember && m.Member >= cfg.Members:
			return nil, fmt.Errorf("links: line %d: member %d of %d", l.Line, m.Member, cfg.Members)
		case m.IsMember:
			members = append(members, m)
		case cfg.Matrix != links.MatrixFull:
			return nil, fmt.Errorf("links: line %d: a pair in a run without the full matrix", l.Line)
		case m.B >= cfg.Members:
			return nil, fmt.Errorf("links: line %d: pair %d–%d of %d members", l.Line, m.A, m.B, cfg.Members)
		default:
			p.Pairs = append(p.Pairs, m)
		}
	}
	if err := p.check(members); err != nil {
		return nil, err
	}
	p.figures()
	p.verdicts()
	if cfg.Short() {
		p.Reasons = append(p.Reasons, "a quick run (-test.short)")
	}
	if why := r.FileConfig.Oversubscribed(); why != "" {
		p.Reasons = append(p.Reasons, why+": its verdicts weigh the scheduler, not the links")
	}
	p.Notes = append(p.Notes, fmt.Sprintf("a %s is slow when its median is an outlier against the job's (modified z-score beyond %g) and %.0f %% worse; a link when it is so against both its %s' links",
		memberWord(cfg), links.OutlierZ, 100*links.Margin, links.Plural(memberWord(cfg))))
	return p, nil
}

// check refuses a run whose lines are not all there, a member twice,
// and one whose members' lines do not say what their pairs do. The
// members are placed only once their lines are counted: the
// configuration's count allocates nothing.
func (p *Folded) check(members []*Measurement) error {
	n := p.Config.Members
	if len(members) != n {
		return fmt.Errorf("links: %d lines of members of %d: the run did not finish, or it was edited", len(members), n)
	}
	p.Members = make([]*Measurement, n)
	for _, m := range members {
		if p.Members[m.Member] != nil {
			return fmt.Errorf("links: member %d twice, on two hosts: the file was edited", m.Member)
		}
		p.Members[m.Member] = m
	}
	if p.Config.Matrix != links.MatrixFull {
		return nil
	}
	if want := n * (n - 1) / 2; len(p.Pairs) != want {
		return fmt.Errorf("links: %d pairs of the %d of %d members", len(p.Pairs), want, n)
	}
	// a name twice starts another run (results.Read): the pairs of one
	// run are distinct, and as many as a round robin has, so all there
	slices.SortFunc(p.Pairs, func(x, y *Measurement) int { return (x.A-y.A)*n + x.B - y.B })
	return p.checkMembers()
}

// checkMembers holds each member's line to the summary of its pairs.
func (p *Folded) checkMembers() error {
	own := make([][]links.Own, len(p.Members))
	for _, m := range p.Pairs {
		own[m.A] = append(own[m.A], links.Own{To: m.B, Lat: m.Lat, Fw: m.Fw, Bk: m.Bk, Both: m.Both})
		own[m.B] = append(own[m.B], links.Own{To: m.A, Lat: m.Lat, Fw: m.Fw, Bk: m.Bk, Both: m.Both})
	}
	for i, m := range p.Members {
		want := links.Summarize(own[i])
		for _, x := range []struct {
			what      string
			got, want float64
		}{{"latency", m.Lat, want.Lat}, {"bandwidth", m.Bw, want.Bw}, {"bandwidth both ways", m.Both, want.Both},
			{"slowest latency", m.WorstLat, want.WorstLat}, {"slowest bandwidth", m.MinBw, want.MinBw},
			{"links", float64(m.Links), float64(want.Links)}} {
			if !agree(x.got, x.want) {
				return fmt.Errorf("links: member %d's %s is %g, its pairs' %g: the file was edited", i, x.what, x.got, x.want)
			}
		}
	}
	return nil
}

// agree says whether a member's figure and its pairs' agree, to the
// digits a results line keeps.
func agree(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) == math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-3*math.Max(math.Abs(a), math.Abs(b))+1e-9
}

// figures are the medians of the members' medians and the worst link.
func (p *Folded) figures() {
	var lat, bw, both []float64
	p.MinBw, p.MaxLat = math.Inf(1), 0
	for _, m := range p.Members {
		lat, bw, both = append(lat, m.Lat), append(bw, m.Bw), append(both, m.Both)
		p.MinBw, p.MaxLat = min(p.MinBw, m.MinBw), max(p.MaxLat, m.WorstLat)
	}
	p.Lat, p.Bw, p.Both = results.Median(lat), results.Median(bw), results.Median(both)
}

// verdicts names the slow members and links, from the pairs where the
// run has them all, else from the members' summaries.
func (p *Folded) verdicts() {
	n := p.Config.Members
	name := func(i int) string { return p.name(i) }
	for _, fig := range []struct {
		what, unit string
		higher     bool
		pair       func(m *Measurement) float64
		sum        func(m *Measurement) links.Summary
	}{
		{"latency", "µs", false, func(m *Measurement) float64 { return m.Lat },
			func(m *Measurement) links.Summary {
				return links.Summary{Median: m.Lat, MAD: m.MADLat, Worst: m.WorstLat, To: m.WorstLatTo}
			}},
		{"bandwidth", "MB/s", true, func(m *Measurement) float64 { return m.Bw },
			func(m *Measurement) links.Summary {
				return links.Summary{Median: m.Bw, MAD: m.MADBw, Worst: m.MinBw, To: m.MinBwTo}
			}},
	} {
		var members, slow []links.Finding
		if p.Pairs != nil {
			ls := make([]links.Link, len(p.Pairs))
			for i, m := range p.Pairs {
				ls[i] = links.Link{A: m.A, B: m.B, Value: fig.pair(m)}
			}
			members, slow = links.Verdicts(n, ls, fig.higher)
		} else {
			sum := make([]links.Summary, n)
			for i, m := range p.Members {
				sum[i] = fig.sum(m)
			}
			members, slow = links.SummaryVerdicts(sum, fig.higher)
		}
		for _, f := range append(members, slow...) {
			p.Findings = append(p.Findings, Finding{Finding: f, Figure: fig.what, Line: f.Line(memberWord(p.Config), fig.what, fig.unit, name)})
		}
	}
}

// name is member i's name: its host at the level of nodes, host:member
// at the level of processes.
func (p *Folded) name(i int) string {
	m := p.Members[i]
	if p.Config.Level == links.LevelNodes {
		return m.Host
	}
	return fmt.Sprintf("rank %d (%s)", i, m.Host)
}

// memberWord is what a member is: node or process; members its plural.
func memberWord(c *Config) string {
	if c.Level == links.LevelNodes {
		return "node"
	}
	return "process"
}

// Figures are the job's typical link and its worst.
func (p *Folded) Figures() []results.Figure {
	return []results.Figure{
		{Name: "lat", Label: "latency, median of the members' medians", Value: p.Lat, Unit: "us"},
		{Name: "bw", Label: "bandwidth one way, median of the members' medians", Value: p.Bw, Unit: "MB/s"},
		{Name: "both", Label: "bandwidth both ways, median of the members' medians", Value: p.Both, Unit: "MB/s"},
		{Name: "min-bw", Label: "the slowest link's bandwidth", Value: p.MinBw, Unit: "MB/s"},
		{Name: "max-lat", Label: "the slowest link's latency", Value: p.MaxLat, Unit: "us"},
	}
}
