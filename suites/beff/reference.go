package beff

import "math"

// The rules of the reference code b_eff 3.6.0.1 that beff's reference mode
// (-beff.reference) follows where they differ from beff's default
// (docs/reference.md, "b_eff"). The reference code measures in sweeps:
// for each of 3 repetitions, for each size, every pattern with every
// method. One loop length serves all patterns of a size, repetition and
// method; rank 0 derives it from its own loop times, summed over the
// patterns, so that the loops of all patterns together take
// RefTimePerSweep.
const (
	// RefTimePerSweep is the time the loops of all patterns of one size,
	// repetition and method should take together, seconds.
	RefTimePerSweep = 0.5
	// RefPreLoops is the loop length of the sweep at 1 byte that opens each
	// repetition and of the bound derived from it.
	RefPreLoops = 10
	// RefPatternFactor is the reference code's allowance for slower patterns in the
	// prediction of the two largest sizes.
	RefPatternFactor = 4
	// RefShortcutReps is the number of repetitions at Lmax under the
	// shortcut.
	RefShortcutReps = 2
	// Reps is the number of repetitions of every other measurement.
	Reps = 3
)

// RefBound is the largest loop length of a repetition and method: the
// count that fills RefTimePerSweep at 1 byte, from the opening sweep of
// RefPreLoops iterations that took preTime seconds (rank 0's sum over the
// patterns), at least RefPreLoops.
func RefBound(preTime float64) int {
	if !(preTime > 0) {
		return 1 << 20
	}
	return int(math.Max(RefPreLoops, math.Min(RefPreLoops*RefTimePerSweep/preTime, 1<<20)))
}

// RefFirstLoopLength is the loop length at 1 byte after the opening sweep:
// half the bound.
func RefFirstLoopLength(bound int) int { return bound / 2 }

// RefLoopLength is the loop length of the next size from the previous one
// of the same repetition and method: prev/ratio · max(1, RefTimePerSweep /
// prevTime), truncated, at least 1 and at most bound; prevTime is rank 0's
// sum of the loop times of all patterns at the previous size. A sum of 0
// keeps prev.
func RefLoopLength(prev int, prevTime, ratio float64, bound int) int {
	if !(prevTime > 0) {
		return prev
	}
	x := float64(prev) / ratio * math.Max(1, RefTimePerSweep/prevTime)
	return int(math.Max(1, math.Min(x, float64(bound))))
}

// RefShortcutTime is the reference code's prediction of the time the two
// largest sizes take with one method: from the fastest loop at the size
// before them (minLoop seconds for loopLen iterations, rank 0's), for
// every pattern, RefPatternFactor times slower, at sizes a and a² times
// larger, 3 repetitions of every one of the methods. Above the shortcut
// limit only the best method is measured there.
func RefShortcutTime(minLoop float64, loopLen, patterns, methods int, a float64) float64 {
	return minLoop * float64(patterns) * RefPatternFactor * (a + a*a) * 3 * float64(methods) / float64(loopLen)
}

// RefRatio is the growth of the message size into index i of the sizes a
// run measures, as the reference code computes it: 2 up to 4 KiB (index
// 12), then the geometric factor a of the 8 largest sizes. For sizes that
// are not the 21 of b_eff (a quick run) it is the ratio of the sizes.
func RefRatio(sizes []int64, i int) float64 {
	if len(sizes) != NumSizes {
		return float64(sizes[i]) / float64(sizes[i-1])
	}
	if i <= 12 {
		return 2
	}
	return RefFactor(sizes)
}

// RefFactor is the growth of the largest sizes: a for the 21 sizes of
// b_eff, else the ratio of the two largest.
func RefFactor(sizes []int64) float64 {
	n := len(sizes)
	if n == NumSizes {
		return GeometricFactor(sizes[n-1])
	}
	return float64(sizes[n-1]) / float64(sizes[n-2])
}
