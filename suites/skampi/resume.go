package skampi

import (
	"fmt"
	"io"
	"strings"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/results"
)

// A Partial is the output of a run that stopped before its end (or any
// output of a run): its configuration and its points in file order, each
// with its curve.
type Partial struct {
	*results.PartialOutput
	Curves []string // Curve.Key of each point
}

// Saved is a point of a partial output.
type Saved = results.Saved

// ReadPartial reads the points of BenchmarkSkampi from r
// (results.ReadPartial); a point's name must start with
// suite=<name>/op=<operation>.
func ReadPartial(r io.Reader, file string) (*Partial, error) {
	rp, err := results.ReadPartial(r, file, Bench)
	if err != nil {
		return nil, err
	}
	p := &Partial{PartialOutput: rp}
	points := rp.Points[:0:0]
	for _, s := range rp.Points {
		if s.Name == clocks.ReportName { // a finished run's clocks: not a point
			continue
		}
		points = append(points, s)
		parts := strings.SplitN(s.Name, "/", 3)
		if len(parts) < 2 || !strings.HasPrefix(parts[0], "suite=") || !strings.HasPrefix(parts[1], "op=") {
			return nil, fmt.Errorf("%s:%d: Benchmark%s/%s: want suite=<name>/op=<operation>/…", file, s.Line, Bench, s.Name)
		}
		method := ""
		if len(parts) == 3 {
			if m, ok := strings.CutPrefix(parts[2], "method="); ok {
				method, _, _ = strings.Cut(m, "/")
			}
		}
		p.Curves = append(p.Curves, CurveKey(strings.TrimPrefix(parts[0], "suite="), strings.TrimPrefix(parts[1], "op="), method))
	}
	if len(points) == 0 {
		return nil, fmt.Errorf("%s: no point of Benchmark%s", file, Bench)
	}
	rp.Points = points
	return p, nil
}

// Plan splits the run's curves (in run order) by the partial output:
// done holds the points of every curve the output finished, with every
// point of its grid (refinement adds others); order is the curves to go
// through, in run order, with the curve that was running when the output
// stopped (that of its last point) moved to the end, so that a curve
// that crashed the job runs after all others. A curve with a point of its
// grid missing (an edited or damaged file) is measured again.
func (p *Partial) Plan(curves []Curve) (done map[string][]Saved, order []string) {
	running := p.Curves[len(p.Curves)-1]
	saved := map[string][]Saved{}
	for i, s := range p.Points {
		if c := p.Curves[i]; c != running {
			saved[c] = append(saved[c], s)
		}
	}
	done = map[string][]Saved{}
	last := false
	for _, c := range curves {
		k := c.Key()
		if k == running {
			last = true
			continue
		}
		order = append(order, k)
		if s, ok := saved[k]; ok && wholeGrid(c, s) {
			done[k] = s
		}
	}
	if last {
		order = append(order, running)
	}
	return done, order
}

// wholeGrid says whether the saved points hold every point of the
// curve's grid.
func wholeGrid(c Curve, saved []Saved) bool {
	have := make(map[string]bool, len(saved))
	for _, s := range saved {
		have[s.Name] = true
	}
	for _, pt := range c.Grid() {
		if !have[pt.Name()] {
			return false
		}
	}
	return true
}

// Differs names every key of want, and every suite line of either side,
// where the partial output's configuration differs.
func (p *Partial) Differs(want map[string]string) []string {
	return p.PartialOutput.Differs(want, KeySuite)
}
