package beff

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// RingSizes returns the sizes of the rings of the ring pattern with standard
// ring size s on n processes, in the order the processes fill them
// (consecutively by rank). See docs/beff.md "Patterns".
func RingSizes(n, s int) []int {
	low, high, lowCount, highCount := ringShape(n, s)
	out := make([]int, 0, lowCount+highCount)
	add := func(size, count int) {
		for i := 0; i < count; i++ {
			out = append(out, size)
		}
	}
	if low%2 == 1 && highCount > 0 {
		add(high, highCount)
		add(low, lowCount)
	} else {
		add(low, lowCount)
		add(high, highCount)
	}
	return out
}

// StandardRingSizes are the standard ring sizes of the 6 ring patterns on n
// processes: 2, 4, 8, max(16, n/4), max(32, n/2), n, each capped at n.
func StandardRingSizes(n int) [6]int {
	s := [6]int{2, 4, 8, max(16, n/4), max(32, n/2), n}
	for i := range s {
		s[i] = min(s[i], n)
	}
	return s
}

// RingNames are the names of the 6 ring patterns.
var RingNames = [6]string{"ring2", "ring4", "ring8", "ringquarter", "ringhalf", "ringall"}

// ExtraNames are the names of the 13 additional patterns, in measurement order.
var ExtraNames = []string{
	"worstcycle", "bestbisect", "worstbisect", "pingpong",
	"cyclic-2dim-x", "cyclic-2dim-y", "cyclic-2dim-all",
	"cyclic-3dim-x", "cyclic-3dim-y", "cyclic-3dim-z", "cyclic-3dim-all",
	"acyclic-2dim-all", "acyclic-3dim-all",
}

// RandomName is the name of random pattern i (0-based).
func RandomName(i int) string { return fmt.Sprintf("random%02d", i+1) }

// IsRandomName reports whether name is a random pattern's (RandomName):
// a pattern the run's seed draws.
func IsRandomName(name string) bool {
	digits, ok := strings.CutPrefix(name, "random")
	if !ok || len(digits) < 2 {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ringStep is the steps of a process in a ring between left and right:
// ping to the right neighbour and receive from the left, then pong back;
// a ring of one or two processes drops the pong (it would go to the same
// partner).
func ringStep(left, right int) []Step {
	st := []Step{{Dest: right, Src: left}}
	if left != right {
		st = append(st, Step{Dest: left, Src: right})
	}
	return st
}

// ringAt is the ring of ring pattern s on n processes that rank r is in:
// its first process and size. The rings fill the processes consecutively
// by rank with the sizes of RingSizes, found in O(1).
func ringAt(n, s, r int) (first, size int) {
	low, high, lowCount, highCount := ringShape(n, s)
	a, na, b := low, lowCount, high // the first run of rings: na of size a
	if low%2 == 1 && highCount > 0 {
		a, na, b = high, highCount, low
	}
	if r < a*na {
		return r / a * a, a
	}
	r -= a * na
	return a*na + r/b*b, b
}

// ringShape is the rings of ring pattern s on n processes: lowCount rings
// of low processes and highCount of low+1 (docs/beff.md "Patterns").
func ringShape(n, s int) (low, high, lowCount, highCount int) {
	if s > n {
		s = n
	}
	rings := int(float64(n)/float64(s) + 0.4)
	if rings > n/2 {
		rings = n / 2
	}
	if rings < 1 {
		rings = 1
	}
	low = n / rings
	high = low + 1
	highCount = n - low*rings
	return low, high, rings - highCount, highCount
}

// orderRing is the steps of a ring through all n processes in an order:
// at(i) is the process at position i, pos(r) the position of process r.
func orderRing(n int, at, pos func(int) int) func(int) []Step {
	return func(r int) []Step {
		i := pos(r)
		return ringStep(at((i-1+n)%n), at((i+1)%n))
	}
}

// ringMessages is the messages of a ring of m processes per iteration.
func ringMessages(m int) int {
	if m <= 2 {
		return m
	}
	return 2 * m
}

// RingPattern returns ring pattern i (0..5) on n processes.
func RingPattern(n, i int) *Pattern {
	s := StandardRingSizes(n)[i]
	p := everyone(Pattern{Name: RingNames[i], Kind: KindRing, CommSize: n,
		stepsOf: func(r int) []Step {
			first, m := ringAt(n, s, r)
			return ringStep(first+(r-first-1+m)%m, first+(r-first+1)%m)
		}})
	low, high, lowCount, highCount := ringShape(n, s)
	p.messages = lowCount*ringMessages(low) + highCount*ringMessages(high)
	return p
}

// RandomPermutations returns count random permutations of 0..n-1 drawn from
// seed (the first count of PermStream). The function is pure so that a run
// can be repeated from its printed seed.
func RandomPermutations(n, count int, seed uint64) [][]int {
	next := PermStream(n, seed)
	out := make([][]int, count)
	for i := range out {
		out[i] = next()
	}
	return out
}

// PermStream returns the random permutations of 0..n-1 drawn from seed, one
// per call: every process draws them itself, one at a time, and keeps only
// its own neighbours (RandomPatternFor).
func PermStream(n int, seed uint64) func() []int {
	rng := rand.New(rand.NewPCG(seed, 0x62656666)) // "beff"
	return func() []int { return rng.Perm(n) }
}

// RandomPattern returns the random ring through the processes in order perm
// (it keeps perm and its inverse: for the fold and tests, on one process).
func RandomPattern(i int, perm []int) *Pattern {
	n := len(perm)
	pos := make([]int, n)
	for k, r := range perm {
		pos[r] = k
	}
	return everyone(Pattern{Name: RandomName(i), Kind: KindRandom, CommSize: n,
		stepsOf: orderRing(n, func(k int) int { return perm[k] }, func(r int) int { return pos[r] })})
}

// RandomPatternFor is random pattern i as process me runs it: its own
// steps in the ring through perm, and the counts; nothing that grows with
// the processes is kept. Steps of another rank are nil.
func RandomPatternFor(i int, perm []int, me int) *Pattern {
	n := len(perm)
	k := slices.Index(perm, me)
	own := ringStep(perm[(k-1+n)%n], perm[(k+1)%n])
	return &Pattern{Name: RandomName(i), Kind: KindRandom, CommSize: n, messages: ringMessages(n), participants: n,
		stepsOf: func(r int) []Step {
			if r != me {
				return nil
			}
			return own
		}}
}
