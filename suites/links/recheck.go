package links

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// A link a verdict would name is measured a second time before it is
// named: the suspects of a full matrix (the links Verdicts names by
// latency or by bandwidth), each once, one pair at a time, the other
// members waiting asleep. A link then counts with the better of its two
// values, so that a link is named only when it was slow both times: a
// moment of noise (another job's burst, the operating system) names
// nothing, a bad cable stays bad.

// MaxRecheck is the most suspect links a run measures again.
const MaxRecheck = 64

// RecheckSeconds is the most the second measurements take under s.
func RecheckSeconds(s Settings) float64 { return MaxRecheck * (PerPair*s.Cap + PairSync) }

// Suspects are the links of n members that Verdicts names slow by
// latency (lat) or by bandwidth (bw), each once, ordered by their
// members, at most MaxRecheck (the first ones in that order).
func Suspects(n int, lat, bw []Link) [][2]int {
	var out [][2]int
	for _, f := range []struct {
		links  []Link
		higher bool
	}{{lat, false}, {bw, true}} {
		_, slow := Verdicts(n, f.links, f.higher)
		for _, s := range slow {
			out = append(out, [2]int{min(s.Member, s.Other), max(s.Member, s.Other)})
		}
	}
	slices.SortFunc(out, func(x, y [2]int) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
	out = slices.Compact(out)
	return out[:min(len(out), MaxRecheck)]
}

// Better is the better of a link's two values (higher: the larger); a
// value that is not a positive finite number does not count.
func Better(first, again float64, higher bool) float64 {
	ok := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	switch {
	case !ok(again):
		return first
	case !ok(first):
		return again
	case higher:
		return max(first, again)
	}
	return min(first, again)
}

// RecheckName is the sub-benchmark name of the second measurement of the
// pair a < b: pass=2/a=<a>/b=<b>.
func RecheckName(a, b int) string { return fmt.Sprintf("pass=2/%s", PairName(a, b)) }
