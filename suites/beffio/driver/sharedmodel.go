package driver

import (
	"slices"

	"github.com/beff-suite/beff/suites/beffio"
)

// Where processes share CPUs, a rewrite or read after every partition
// wrote is predicted partition by partition from the wall time of the
// access before it on the same partition, not pattern by pattern from the
// write's calls: each call then waits for the CPUs its partition's
// processes share, so an access on a partition takes about what the
// access before it took there, whether the data come from the cache or
// not. Measured on 64 and 256 processes on 2 cores (19 runs), a rewrite
// took 0.47–0.70 of its write's wall time on the largest partition and
// 0.37–0.79 on the one before, a read 0.71–0.96 and 0.68–1.04 of its
// rewrite's — while single patterns of the smallest partition gave
// 0.3–1.2 of their writes' calls, which carried over to the largest
// predicted it up to 50 % off.

// sharedPrior is the part of the wall time of access prev on a partition
// that access acc is expected to take there before any partition showed
// it, where processes share CPUs.
func sharedPrior(prev, acc beffio.Access) float64 {
	q := 1.0
	for a := prev + 1; a <= acc; a++ {
		q *= sharedStep[a]
	}
	return q
}

// sharedStep is each access's prior part of the access before it.
var sharedStep = map[beffio.Access]float64{beffio.Rewrite: 0.6, beffio.Read: 0.8}

// prevAccess is the access a repetition is predicted from: the one just
// before it if that measured every pattern, else the write.
func (r *run) prevAccess(ai int) int {
	if ai > 1 && len(r.scheduled(beffio.Accesses[ai-1])) < len(r.table) {
		return 0
	}
	return ai - 1
}

// sharedLeft predicts the wall time of the rewrites and reads left, once
// every partition wrote (rank 0): each access's part of the access before
// it, as the partitions done showed it with the prior counting as much
// as the first partition; of the partition under way the part its
// patterns left took in the access before it.
func (r *run) sharedLeft() float64 {
	m := &r.model
	at := m.at
	pred := map[[2]int]float64{} // the wall time of each (access, partition) measured or predicted
	for k, w := range m.walls {
		pred[k] = w
	}
	t := 0.0
	for ai := at.acc; ai < len(beffio.Accesses); ai++ {
		prev := r.prevAccess(ai)
		q := r.sharedRatio(ai, prev)
		for pi, p := range r.parts {
			if ai == at.acc && pi < at.part || slices.Contains(r.st.Copied, p.n) {
				continue
			}
			w := q * pred[[2]int{prev, pi}]
			pred[[2]int{ai, pi}] = w
			if ai == at.acc && pi == at.part {
				w *= r.partLeft(ai, prev, pi, at.pat)
			}
			t += w
		}
	}
	return t
}

// sharedRatio is access ai's wall time over access prev's on the
// partitions done (not copied), the prior counting as the first one.
func (r *run) sharedRatio(ai, prev int) float64 {
	m := &r.model
	prior := sharedPrior(beffio.Accesses[prev], beffio.Accesses[ai])
	weight := m.walls[[2]int{prev, 0}]
	t, of := prior*weight, weight
	for pi, p := range r.parts {
		if !(position{ai, pi, 0}).before(position{m.at.acc, m.at.part, 0}) || slices.Contains(r.st.Copied, p.n) {
			continue
		}
		t += m.walls[[2]int{ai, pi}]
		of += m.walls[[2]int{prev, pi}]
	}
	if of <= 0 {
		return prior
	}
	return t / of
}

// partLeft is the part of access ai on partition pi still to run from its
// k-th scheduled pattern on: what those patterns took in access prev
// over what all of them took there.
func (r *run) partLeft(ai, prev, pi, k int) float64 {
	n := r.parts[pi].n
	var left, all float64
	for j, pat := range r.scheduled(beffio.Accesses[ai]) {
		el := r.model.took[[3]int{prev, n, pat.No}]
		all += el
		if j >= k {
			left += el
		}
	}
	if all <= 0 {
		return 1
	}
	return left / all
}
