package fold

import (
	"cmp"
	"errors"
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
	Again   []*Measurement // the suspects' second measurements, by members
	Multi   []MultiRow     // per k of the multi-pair measurements
	Members []*Measurement // by member number
	// Lat, Bw and Both are the medians of the members' medians: the job's
	// typical link.
	Lat, Bw, Both float64
	// MinBw and MaxLat are the job's worst link.
	MinBw, MaxLat float64
	Findings      []Finding
}

var _ results.Finder = (*Folded)(nil)

// FindingLines are the verdicts, a line each.
func (p *Folded) FindingLines() []string {
	var out []string
	for _, f := range p.Findings {
		out = append(out, f.Line)
	}
	return out
}

// Source is the run folded.
func (p *Folded) Source() *results.Run { return p.Run }

// Fold checks that the run holds every line its configuration says and
// folds it: the figures and the verdicts. Its refusals name the file and
// the line (the run's first for the run as a whole).
func Fold(r *results.Run) (*Folded, error) {
	p, err := fold(r)
	var in *results.InputError
	switch {
	case errors.As(err, &in):
		return nil, err
	case err != nil:
		return nil, &results.InputError{FileName: r.File, Line: r.Line, Msg: err.Error()}
	}
	return p, nil
}

// lineError refuses line l of run r.
func lineError(r *results.Run, l *results.Line, msg string) error {
	return &results.InputError{FileName: r.File, Line: l.Line, Msg: msg}
}

func fold(r *results.Run) (*Folded, error) {
	cfg := reading{}.Config(r)
	p := &Folded{Run: r, Config: cfg}
	var members, multi []*Measurement
	for _, l := range r.Lines {
		m := reading{}.Value(l)
		switch {
		case m.K > 0:
			multi = append(multi, m)
			continue
		case m.IsMember && m.Member >= cfg.Members:
			return nil, lineError(r, l, fmt.Sprintf("links: member %d of %d", m.Member, cfg.Members))
		case m.IsMember:
			members = append(members, m)
		case cfg.Matrix != links.MatrixFull:
			return nil, lineError(r, l, "links: a pair in a run without the full matrix")
		case m.B >= cfg.Members:
			return nil, lineError(r, l, fmt.Sprintf("links: pair %d–%d of %d members", m.A, m.B, cfg.Members))
		case m.Again:
			p.Again = append(p.Again, m)
		default:
			p.Pairs = append(p.Pairs, m)
		}
	}
	if err := p.check(members); err != nil {
		return nil, err
	}
	if err := p.foldMulti(multi); err != nil {
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
	if n := len(p.Again); n > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d suspect %s measured again, %d of them fast the second time: not named",
			n, map[bool]string{true: "link", false: "links"}[n == 1], n-p.namedAgain()))
	}
	p.Notes = append(p.Notes, fmt.Sprintf("a %s is slow when its median is an outlier against the job's (modified z-score beyond %g) and its bandwidth at most %.0f %% of the median or its latency at least %g times; a link when it is so against both its %s' links",
		memberWord(cfg), links.OutlierZ, 100*(1-links.Margin), links.LatencyFactor, links.Plural(memberWord(cfg))))
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
	switches := map[string]string{} // a host's switch
	for _, m := range members {
		if p.Members[m.Member] != nil {
			return fmt.Errorf("links: member %d twice, on two hosts: the file was edited", m.Member)
		}
		p.Members[m.Member] = m
		if sw, ok := switches[m.Host]; ok && sw != m.Switch {
			return fmt.Errorf("links: host %s under two switches (%q, %q): the file was edited", m.Host, sw, m.Switch)
		}
		switches[m.Host] = m.Switch
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
	if err := p.checkAgain(); err != nil {
		return err
	}
	return p.checkMembers()
}

// checkAgain holds the second measurements to the suspects of the first:
// each suspect once, none else.
func (p *Folded) checkAgain() error {
	lat, bw := p.links(false)
	sus := links.Suspects(p.Config.Members, lat, bw)
	if len(p.Again) != len(sus) {
		return fmt.Errorf("links: %d pairs measured again, but the first measurements name %d suspects: the run did not finish, or it was edited", len(p.Again), len(sus))
	}
	slices.SortFunc(p.Again, func(x, y *Measurement) int { return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B)) })
	for i, m := range p.Again {
		if [2]int{m.A, m.B} != sus[i] {
			return fmt.Errorf("links: pair %d–%d measured again is not a suspect of the first measurements: the file was edited", m.A, m.B)
		}
	}
	return nil
}

// namedAgain counts the suspects measured again that a verdict names as
// a link.
func (p *Folded) namedAgain() int {
	named := map[[2]int]bool{}
	for _, f := range p.Findings {
		if f.Other >= 0 {
			named[[2]int{min(f.Member, f.Other), max(f.Member, f.Other)}] = true
		}
	}
	n := 0
	for _, m := range p.Again {
		if named[[2]int{m.A, m.B}] {
			n++
		}
	}
	return n
}

// links are the pairs' latencies and lesser bandwidths; with again, a
// suspect's the better of its two measurements.
func (p *Folded) links(again bool) (lat, bw []links.Link) {
	second := map[[2]int]*Measurement{}
	if again {
		for _, m := range p.Again {
			second[[2]int{m.A, m.B}] = m
		}
	}
	for _, m := range p.Pairs {
		l, b := m.Lat, m.Bw
		if s, ok := second[[2]int{m.A, m.B}]; ok {
			l, b = links.Better(l, s.Lat, false), links.Better(b, s.Bw, true)
		}
		lat, bw = append(lat, links.Link{A: m.A, B: m.B, Value: l}), append(bw, links.Link{A: m.A, B: m.B, Value: b})
	}
	return lat, bw
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
	lat, bw := p.links(true)
	for _, fig := range []struct {
		what, unit string
		higher     bool
		links      []links.Link
		sum        func(m *Measurement) links.Summary
	}{
		{"latency", "µs", false, lat,
			func(m *Measurement) links.Summary {
				return links.Summary{Median: m.Lat, MAD: m.MADLat, Worst: m.WorstLat, To: m.WorstLatTo}
			}},
		{"bandwidth", "MB/s", true, bw,
			func(m *Measurement) links.Summary {
				return links.Summary{Median: m.Bw, MAD: m.MADBw, Worst: m.MinBw, To: m.MinBwTo}
			}},
	} {
		var members, slow []links.Finding
		if p.Pairs != nil {
			members, slow = links.Verdicts(n, fig.links, fig.higher)
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

// Figures are the job's typical link and its worst, and with multi-pair
// measurements the node pairs' aggregate at the largest k.
func (p *Folded) Figures() []results.Figure {
	figs := p.linkFigures()
	if n := len(p.Multi); n > 0 {
		r := p.Multi[n-1]
		figs = append(figs,
			results.Figure{Name: "multi-bw", Label: fmt.Sprintf("multi-pair bandwidth one way, %d per node, median of the node pairs", r.K), Value: r.MBps, Unit: "MB/s"},
			results.Figure{Name: "multi-rate", Label: fmt.Sprintf("multi-pair message rate one way, %d per node, median of the node pairs", r.K), Value: r.Rate, Unit: links.MetricRate})
	}
	return figs
}

// linkFigures are the job's typical link and its worst.
func (p *Folded) linkFigures() []results.Figure {
	return []results.Figure{
		{Name: "lat", Label: "latency, median of the members' medians", Value: p.Lat, Unit: "us"},
		{Name: "bw", Label: "bandwidth one way, median of the members' medians", Value: p.Bw, Unit: "MB/s"},
		{Name: "both", Label: "bandwidth both ways, median of the members' medians", Value: p.Both, Unit: "MB/s"},
		{Name: "min-bw", Label: "the slowest link's bandwidth", Value: p.MinBw, Unit: "MB/s"},
		{Name: "max-lat", Label: "the slowest link's latency", Value: p.MaxLat, Unit: "us"},
	}
}
