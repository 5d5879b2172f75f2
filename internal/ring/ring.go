// Package ring holds the orders of processes on a ring that more than one
// suite uses: b_eff's worst-case cycle, which b_eff measures as a pattern
// and the congestion suite runs as a congestor. Plain Go, no MPI.
package ring

// WorstAt is the process at position i of the worst-case cycle of n
// processes: i/2 at an even position, n-1-i/2 at an odd one, so that
// neighbours lie about half the processes apart.
func WorstAt(n, i int) int {
	if i%2 == 0 {
		return i / 2
	}
	return n - 1 - i/2
}

// WorstPos is the position of process r in the worst-case cycle of n
// processes: the inverse of WorstAt.
func WorstPos(n, r int) int {
	if r < (n+1)/2 {
		return 2 * r
	}
	return 2*(n-1-r) + 1
}

// WorstOrder is the worst-case cycle of n processes, position by position.
func WorstOrder(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = WorstAt(n, i)
	}
	return o
}

// WorstNeighbors are the processes before (left) and after (right)
// process me in the worst-case cycle of n processes.
func WorstNeighbors(n, me int) (left, right int) {
	pos := WorstPos(n, me)
	return WorstAt(n, (pos+n-1)%n), WorstAt(n, (pos+1)%n)
}
