package links

import (
	"fmt"
	"math"
	"slices"
)

// The verdicts. A member (a node, or a process) is slow when the typical
// value of its links — their median — is an outlier against the job's
// members: its robust z-score against the members' medians passes
// OutlierZ, and it is at least Margin worse than their median. A link is
// slow when its value is an outlier against the other links of both its
// members in the same way: a slow member's links are slow against the
// job, not against each other, so it is named once, as a member. The
// z-score is Iglewicz and Hoaglin's modified one, 0.6745·(x − median)/MAD;
// where every value is alike (MAD 0) the margin alone decides, so that a
// uniform machine names nothing.

// OutlierZ is the modified z-score beyond which a value is an outlier
// (Iglewicz and Hoaglin's 3.5).
const OutlierZ = 3.5

// Margin is how much worse than typical an outlier must also be: a
// bandwidth at most 80 % of the median, a latency at least 125 %.
const Margin = 0.2

// A Link is one measured pair of members and its value (MB/s, or µs).
type Link struct {
	A, B  int
	Value float64
}

// A Finding is one verdict: a slow member (Other −1) or a slow link
// between Member and Other; Value is its value, Typical what it was held
// against (the job's median of the members, or the worse of the two
// members' medians of their links).
type Finding struct {
	Member, Other  int
	Value, Typical float64
}

// Worse says whether value a is worse than b for a figure where higher is
// better (bandwidth) or lower is (latency).
func worse(a, b float64, higher bool) bool {
	if higher {
		return a < b
	}
	return a > b
}

// outlier says whether x is an outlier on the bad side against values
// whose median is med and median absolute deviation mad.
func outlier(x, med, mad float64, higher bool) bool {
	if !worse(x, med, higher) {
		return false
	}
	limit := med * (1 - Margin)
	if !higher {
		limit = med / (1 - Margin)
	}
	if worse(limit, x, higher) { // not even Margin worse
		return false
	}
	if mad == 0 {
		return true
	}
	return math.Abs(0.6745*(x-med)/mad) > OutlierZ
}

// medianMAD is the median of v and the median of the absolute deviations
// from it (v is sorted in place).
func medianMAD(v []float64) (med, mad float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	slices.Sort(v)
	med = median(v)
	dev := make([]float64, len(v))
	for i, x := range v {
		dev[i] = math.Abs(x - med)
	}
	slices.Sort(dev)
	return med, median(dev)
}

// MedianMAD is the median of v and the median of the absolute deviations
// from it (NaN for none); v is left as it is.
func MedianMAD(v []float64) (med, mad float64) { return medianMAD(slices.Clone(v)) }

// median of sorted v.
func median(v []float64) float64 {
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// Verdicts names the slow members and the slow links among n members
// whose links were measured (each pair once; a value that is not a
// positive finite number is left out). higher says whether higher values
// are better.
func Verdicts(n int, links []Link, higher bool) (members, slow []Finding) {
	own := make([][]float64, n)
	for _, l := range links {
		if l.A < 0 || l.A >= n || l.B < 0 || l.B >= n || l.A == l.B || !(l.Value > 0) || math.IsInf(l.Value, 0) {
			continue
		}
		own[l.A] = append(own[l.A], l.Value)
		own[l.B] = append(own[l.B], l.Value)
	}
	typical := make([]float64, n)
	spread := make([]float64, n)
	var all []float64
	for i := range n {
		if len(own[i]) == 0 {
			typical[i] = math.NaN()
			continue
		}
		typical[i], spread[i] = medianMAD(own[i])
		all = append(all, typical[i])
	}
	if len(all) < 3 {
		return nil, nil // no job to hold a member against
	}
	med, mad := medianMAD(all)
	bad := make([]bool, n)
	for i := range n {
		if !math.IsNaN(typical[i]) && outlier(typical[i], med, mad, higher) {
			bad[i] = true
			members = append(members, Finding{Member: i, Other: -1, Value: typical[i], Typical: med})
		}
	}
	for _, l := range links {
		if l.A < 0 || l.A >= n || l.B < 0 || l.B >= n || l.A == l.B || bad[l.A] || bad[l.B] || !(l.Value > 0) {
			continue
		}
		if len(own[l.A]) < 3 || len(own[l.B]) < 3 {
			continue
		}
		if outlier(l.Value, typical[l.A], spread[l.A], higher) && outlier(l.Value, typical[l.B], spread[l.B], higher) {
			against := typical[l.A]
			if worse(typical[l.B], against, higher) {
				against = typical[l.B]
			}
			slow = append(slow, Finding{Member: min(l.A, l.B), Other: max(l.A, l.B), Value: l.Value, Typical: against})
		}
	}
	return members, slow
}

// Line says a finding in one line, its members named by name, for a
// figure of unit and what (e.g. "bandwidth"): "slow node n4: bandwidth
// 24 % of the median to every other node (250.0 MB/s against 1042.1)".
func (f Finding) Line(kind, what, unit string, name func(int) string) string {
	pct := 100 * f.Value / f.Typical
	if f.Other < 0 {
		return fmt.Sprintf("slow %s %s: %s %.0f %% of the median of the %ss (%.4g %s against %.4g)",
			kind, name(f.Member), what, pct, kind, f.Value, unit, f.Typical)
	}
	return fmt.Sprintf("slow link %s–%s: %s %.0f %% of the median of its %ss' links (%.4g %s against %.4g)",
		name(f.Member), name(f.Other), what, pct, kind, f.Value, unit, f.Typical)
}
