package beffio

import "slices"

// Limits of a run and of its validity.
const (
	// MinPatternTime is the least scheduled time, in seconds, that a
	// pattern of one time unit may get: a shorter T is refused.
	MinPatternTime = 5e-3
	// MinPartitionTime is the least scheduled time per partition of a
	// valid result, seconds (15 minutes, docs/beffio.md "Validity").
	MinPartitionTime = 15 * 60
	// MinCacheRatio is the least ratio of the data per access method to
	// the file-system cache for which the data cannot all have stayed in
	// the cache (docs/beffio.md "Validity").
	MinCacheRatio = 20
)

// MinT is the least scheduled time T of a run with the given number of
// partitions and ΣU over the schedule: every time unit gets at least
// MinPatternTime.
func MinT(sumU, partitions int) float64 {
	return MinPatternTime * float64(sumU) * float64(partitions)
}

// MinDiskBytes is what one call of every pattern of the largest partition
// writes: a file system with less free space cannot hold even a minimal
// run.
func MinDiskBytes(table []AccessPattern, partitions []int) int64 {
	n := int64(slices.Max(partitions))
	var s int64
	for _, p := range table {
		s += p.Mem * n
	}
	return s
}

// CallCap is the most calls a time-driven write pattern p of partition n
// may make within the data budget maxData (bytes, shared by the
// partitions, whose files coexist): the partition's share times the
// pattern's share U/ΣU of the write, at least one call. It is 0 (no cap)
// without a budget and for patterns without time units.
func CallCap(maxData int64, partitions int, table []AccessPattern, p AccessPattern, n int) int64 {
	if maxData <= 0 || p.U == 0 {
		return 0
	}
	budget := float64(maxData) / float64(partitions) * float64(p.U) / float64(SumU(table))
	return max(1, int64(budget/float64(p.Bytes(1, n))))
}
