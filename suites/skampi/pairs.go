package skampi

import "math"

// Rounds schedules every pair of p processes in rounds of disjoint pairs
// (the circle method): p−1 rounds for even p, p for odd p, each pair
// exactly once. In a round, partner[r] is the process r meets, or −1 when
// r sits out. The full matrix of round trips is measured round by round,
// all pairs of a round at once.
func Rounds(p int) [][]int {
	n := p
	if n%2 == 1 {
		n++ // a ghost process p: who meets it sits out
	}
	var out [][]int
	for r := 0; r < n-1; r++ {
		partner := make([]int, p)
		for i := range partner {
			partner[i] = -1
		}
		for i := 0; i < n/2; i++ {
			a, b := circle(r, i, n), circle(r, n-1-i, n)
			if a < p && b < p {
				partner[a], partner[b] = b, a
			}
		}
		out = append(out, partner)
	}
	return out
}

// circle is the process at seat i in round r: seat 0 stays, the others
// rotate.
func circle(r, i, n int) int {
	if i == 0 {
		return 0
	}
	return 1 + (i-1+r)%(n-1)
}

// A Pair is two processes, A < B.
type Pair struct{ A, B int }

// Pairs picks, from the matrix of minimum round-trip times (rtt[i][j],
// symmetric; the diagonal is ignored), the pair with the largest and the
// one with the smallest round trip; ties go to the first pair in (A, B)
// order. Fewer than two processes give the zero pairs.
func Pairs(rtt [][]float64) (slowest, fastest Pair) {
	hi, lo := math.Inf(-1), math.Inf(1)
	for i := range rtt {
		for j := i + 1; j < len(rtt); j++ {
			v := math.Min(rtt[i][j], rtt[j][i])
			if v > hi {
				hi, slowest = v, Pair{i, j}
			}
			if v < lo {
				lo, fastest = v, Pair{i, j}
			}
		}
	}
	return slowest, fastest
}
