package fold

import (
	"errors"
	"fmt"
	"math"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// Merge folds runs of one configuration into one run, as SKaMPI's
// post-processor does: per point the median over the runs of each time
// and count, and the spread of the value (us) between the runs (the
// fastest and the slowest run's). A point stops for the worst reason any
// run stopped for; it has a value when some run gave one.
func (*Suite) Merge(runs []results.Folded) (results.Folded, error) {
	if len(runs) < 2 {
		return nil, errors.New("merging SKaMPI runs: fewer than two")
	}
	first := runs[0].(*Folded)
	src := &results.Run{Suite: first.Run.Suite, File: first.Run.File, FileConfig: first.Run.FileConfig,
		Parsed: first.Run.Parsed, Line: first.Run.Line}
	var names []string
	byName := map[string][]*Measurement{}
	var sources []*results.Run
	for _, f := range runs {
		p := f.(*Folded)
		sources = append(sources, p.Run)
		for _, l := range p.Run.Lines {
			if byName[l.Name] == nil {
				names = append(names, l.Name)
			}
			byName[l.Name] = append(byName[l.Name], reading{}.Value(l))
		}
	}
	for _, n := range names {
		m := mergePoint(byName[n])
		src.Lines = append(src.Lines, &results.Line{Full: skampi.Bench + "/" + n, Name: n, Value: m, Line: m.Line})
	}
	p, err := Fold(src)
	if err != nil {
		return nil, err
	}
	p.Sources = sources
	if n := missing(byName, len(runs)); n > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d point%s not in every run (merged over the runs that have them)", n, results.Plural(n)))
	}
	return p, nil
}

// mergePoint is the median point of ms.
func mergePoint(ms []*Measurement) *Measurement {
	if ms[0].Clock != nil { // the clocks' line: the run whose model was off the most
		worst := ms[0]
		for _, x := range ms {
			if x.Clock != nil && x.Clock.Err > worst.Clock.Err {
				worst = x
			}
		}
		return worst
	}
	m := *ms[0]
	m.Runs = len(ms)
	var with, rse []*Measurement
	for _, x := range ms {
		m.Stop = max(m.Stop, x.Stop)
		if x.Has {
			with = append(with, x)
		}
		if x.HasRSE {
			rse = append(rse, x)
		}
	}
	m.N = int(math.Round(median(ms, func(x *Measurement) float64 { return float64(x.N) })))
	m.Invalid = int(math.Round(median(ms, func(x *Measurement) float64 { return float64(x.Invalid) })))
	m.Calls = int(math.Round(median(ms, func(x *Measurement) float64 { return float64(x.Calls) })))
	m.WindowUs = median(ms, func(x *Measurement) float64 { return x.WindowUs })
	m.Has, m.HasRSE, m.RSE = len(with) > 0, len(rse) > 0, 0
	if m.HasRSE {
		m.RSE = median(rse, func(x *Measurement) float64 { return x.RSE })
	}
	if !m.Has {
		return &m
	}
	times := func(x *Measurement) []*float64 {
		return []*float64{&x.Us, &x.Median, &x.Min, &x.P90, &x.P99, &x.RankMin, &x.RankMed, &x.RankMax}
	}
	for i, t := range times(&m) {
		*t = median(with, func(x *Measurement) float64 { return *times(x)[i] })
	}
	m.RunMin, m.RunMax = m.Us, m.Us
	for _, x := range with {
		m.RunMin, m.RunMax = math.Min(m.RunMin, x.Us), math.Max(m.RunMax, x.Us)
	}
	if m.MBps > 0 && m.Us > 0 {
		m.MBps = m.bytes() / m.Us
	}
	mergeForms(&m, with)
	return &m
}

// mergeForms sets a merged point's figures of the non-blocking and
// persistent forms: the medians over the runs that have them, the
// overlap recomputed from the median times.
func mergeForms(m *Measurement, with []*Measurement) {
	var ovrl, init []*Measurement
	for _, x := range with {
		if x.HasOvrl {
			ovrl = append(ovrl, x)
		}
		if x.InitUs > 0 {
			init = append(init, x)
		}
	}
	m.InitUs = 0
	if len(init) > 0 {
		m.InitUs = median(init, func(x *Measurement) float64 { return x.InitUs })
	}
	m.HasOvrl, m.HasOvrlRSE = len(ovrl) > 0, false
	if !m.HasOvrl {
		return
	}
	m.OvrlUs = median(ovrl, func(x *Measurement) float64 { return x.OvrlUs })
	m.CPUUs = median(ovrl, func(x *Measurement) float64 { return x.CPUUs })
	m.InMPIUs = max(0, m.OvrlUs-m.CPUUs)
	m.OverlapPct = skampi.OverlapPercent(m.Us, m.OvrlUs, m.CPUUs)
}

// median is the median of f over ms.
func median(ms []*Measurement, f func(*Measurement) float64) float64 {
	v := make([]float64, len(ms))
	for i, x := range ms {
		v[i] = f(x)
	}
	return skampi.Median(v)
}

// missing counts the points that fewer than n runs have.
func missing(byName map[string][]*Measurement, n int) int {
	c := 0
	for _, ms := range byName {
		if len(ms) < n {
			c++
		}
	}
	return c
}

// sourceNames names the merged runs: "file run i", in merge order.
func sourceNames(runs []*results.Run) []string {
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = fmt.Sprintf("%s run %d", r.File, r.Index)
	}
	return out
}
