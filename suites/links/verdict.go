package links

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// The verdicts. A member (a node, or a process) is slow when the typical
// value of its links — their median — is an outlier against the job's
// members: its robust z-score against the members' medians passes
// OutlierZ, and it is much worse than their median (Margin,
// LatencyFactor). A link is
// slow when its value is an outlier against the other links of both its
// members in the same way: a slow member's links are slow against the
// job, not against each other, so it is named once, as a member. The
// z-score is Iglewicz and Hoaglin's modified one, 0.6745·(x − median)/MAD;
// where every value is alike (MAD 0) the margin alone decides, so that a
// uniform machine names nothing.

// OutlierZ is the modified z-score beyond which a value is an outlier
// (Iglewicz and Hoaglin's 3.5).
const OutlierZ = 3.5

// Margin is how much worse than typical an outlier of bandwidth must
// also be: at most 80 % of the median. LatencyFactor is how many times
// the typical latency an outlier of latency must also take: in a healthy
// fabric the hops alone make one path's latency up to half as long again
// as another's, so only a doubling marks a fault.
const (
	Margin        = 0.2
	LatencyFactor = 2.0
)

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
		limit = med * LatencyFactor
	}
	if worse(limit, x, higher) { // not even that much worse
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

// A Summary is one member's links in short: the median and the median
// absolute deviation of their values, and its worst link: its value and
// the member it leads to (−1 for none).
type Summary struct {
	Median, MAD float64
	Worst       float64
	To          int
}

// Verdicts names the slow members and the slow links among n members
// whose links were measured (each pair once; a value that is not a
// positive finite number is left out). higher says whether higher values
// are better.
func Verdicts(n int, links []Link, higher bool) (members, slow []Finding) {
	own := make([][]float64, n)
	for _, l := range links {
		if usable(n, l) {
			own[l.A] = append(own[l.A], l.Value)
			own[l.B] = append(own[l.B], l.Value)
		}
	}
	sum := make([]Summary, n)
	for i := range n {
		sum[i] = Summary{Median: math.NaN(), To: -1}
		if len(own[i]) >= 3 {
			sum[i].Median, sum[i].MAD = medianMAD(own[i])
		} else if len(own[i]) > 0 {
			sum[i].Median, _ = medianMAD(own[i])
		}
	}
	members = MemberVerdicts(sum, higher)
	bad := slowSet(members)
	for _, l := range links {
		if usable(n, l) && !bad[l.A] && !bad[l.B] && len(own[l.A]) >= 3 && len(own[l.B]) >= 3 {
			if f, ok := slowLink(sum, l, higher); ok {
				slow = append(slow, f)
			}
		}
	}
	return members, slow
}

// SummaryVerdicts are the verdicts where each member's links are known
// by their summary alone (a run of more members than a full matrix): the
// slow members as Verdicts names them, and each member's worst link
// where it is slow against both its members.
func SummaryVerdicts(sum []Summary, higher bool) (members, slow []Finding) {
	members = MemberVerdicts(sum, higher)
	bad := slowSet(members)
	seen := map[[2]int]bool{}
	for i, s := range sum {
		j := s.To
		if j < 0 || j >= len(sum) || j == i || bad[i] || bad[j] || seen[[2]int{min(i, j), max(i, j)}] {
			continue
		}
		seen[[2]int{min(i, j), max(i, j)}] = true
		if f, ok := slowLink(sum, Link{i, j, s.Worst}, higher); ok {
			slow = append(slow, f)
		}
	}
	return members, slow
}

// MemberVerdicts are the members whose median is an outlier against the
// members' medians (none among fewer than 3 members with a median).
func MemberVerdicts(sum []Summary, higher bool) []Finding {
	var all []float64
	for _, s := range sum {
		if !math.IsNaN(s.Median) {
			all = append(all, s.Median)
		}
	}
	if len(all) < 3 {
		return nil
	}
	med, mad := medianMAD(all)
	var out []Finding
	for i, s := range sum {
		if !math.IsNaN(s.Median) && outlier(s.Median, med, mad, higher) {
			out = append(out, Finding{Member: i, Other: -1, Value: s.Median, Typical: med})
		}
	}
	return out
}

// slowLink says whether link l is an outlier against the links of both
// its members, and the finding.
func slowLink(sum []Summary, l Link, higher bool) (Finding, bool) {
	a, b := sum[l.A], sum[l.B]
	if math.IsNaN(a.Median) || math.IsNaN(b.Median) || !outlier(l.Value, a.Median, a.MAD, higher) || !outlier(l.Value, b.Median, b.MAD, higher) {
		return Finding{}, false
	}
	against := a.Median
	if worse(b.Median, against, higher) {
		against = b.Median
	}
	return Finding{Member: min(l.A, l.B), Other: max(l.A, l.B), Value: l.Value, Typical: against}, true
}

func usable(n int, l Link) bool {
	return l.A >= 0 && l.A < n && l.B >= 0 && l.B < n && l.A != l.B && l.Value > 0 && !math.IsInf(l.Value, 0)
}

func slowSet(f []Finding) map[int]bool {
	out := map[int]bool{}
	for _, x := range f {
		out[x.Member] = true
	}
	return out
}

// Line says a finding in one line, its members named by name, for a
// figure of unit and what (e.g. "bandwidth"): "slow node n4: bandwidth
// 24 % of the median to every other node (250.0 MB/s against 1042.1)".
func (f Finding) Line(kind, what, unit string, name func(int) string) string {
	pct := 100 * f.Value / f.Typical
	if f.Other < 0 {
		return fmt.Sprintf("slow %s %s: %s %.0f %% of the median of the %s (%.4g %s against %.4g)",
			kind, name(f.Member), what, pct, Plural(kind), f.Value, unit, f.Typical)
	}
	return fmt.Sprintf("slow link %s–%s: %s %.0f %% of the median of its %s' links (%.4g %s against %.4g)",
		name(f.Member), name(f.Other), what, pct, Plural(kind), f.Value, unit, f.Typical)
}

// Plural is a member word's plural: nodes, processes.
func Plural(word string) string {
	if strings.HasSuffix(word, "s") {
		return word + "es"
	}
	return word + "s"
}
