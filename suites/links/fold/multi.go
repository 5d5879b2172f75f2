package fold

import (
	"fmt"
	"math"
	"slices"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/links"
)

// A MultiRow is the multi-pair figure at k processes per node: the
// medians over the node pairs of their aggregate bandwidth and message
// rate, one way and both ways, and the least node pair's bandwidth.
type MultiRow struct {
	K, Pairs       int
	MBps, Both     float64
	Rate, BothRate float64
	MinMBps        float64
	MinA, MinB     int // the node pair of MinMBps
}

// foldMulti checks that the multi-pair lines are a line per node pair
// (the round robin's first round) and k of the configuration, each once,
// and folds them per k.
func (p *Folded) foldMulti(lines []*Measurement) error {
	c := p.Config
	n := c.Members
	if want := len(c.Meas.MultiKs) * c.NodePairs(); len(lines) != want {
		return fmt.Errorf("links: %d multi-pair lines of the %d that %d values of k and %d node pairs make: the run did not finish, or it was edited",
			len(lines), want, len(c.Meas.MultiKs), c.NodePairs())
	}
	byK := map[int][]*Measurement{}
	for _, m := range lines {
		if !slices.Contains(c.Meas.MultiKs, m.K) || links.Partner(n, 0, m.A) != m.B {
			return fmt.Errorf("links: multi-pair line %s: not a k and a node pair of the run", links.MultiName(m.K, m.A, m.B))
		}
		byK[m.K] = append(byK[m.K], m)
	}
	for _, k := range c.Meas.MultiKs {
		ms := byK[k]
		if len(ms) != c.NodePairs() {
			return fmt.Errorf("links: %d node pairs at k=%d of %d: the file was edited", len(ms), k, c.NodePairs())
		}
		row := MultiRow{K: k, Pairs: len(ms), MinMBps: math.Inf(1)}
		var bw, both, rate, bothRate []float64
		for _, m := range ms {
			bw, both, rate, bothRate = append(bw, m.Fw), append(both, m.Both), append(rate, m.Rate), append(bothRate, m.BothRate)
			if m.Fw < row.MinMBps {
				row.MinMBps, row.MinA, row.MinB = m.Fw, m.A, m.B
			}
		}
		row.MBps, row.Both, row.Rate, row.BothRate = results.Median(bw), results.Median(both), results.Median(rate), results.Median(bothRate)
		p.Multi = append(p.Multi, row)
	}
	return nil
}
