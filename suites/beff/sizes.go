package beff

import (
	"fmt"
	"math"
)

// MiB is 2^20 bytes; memory sizes are given in MiB.
const MiB = 1 << 20

// MaxInt32 is the largest count an MPI int argument can carry.
const MaxInt32 = math.MaxInt32

// NumSizes is the number of message sizes of a full run.
const NumSizes = 21

// BufferSize is the size of each cyclic send/receive buffer for lmax:
// 6·(Lmax+16) bytes (docs/beff.md "One measurement").
func BufferSize(lmax int64) int64 { return 6 * (lmax + 16) }

// LmaxFromMem returns Lmax = memory per process / 128 for memMiB MiB.
func LmaxFromMem(memMiB int64) int64 { return memMiB * MiB / 128 }

// MinLmax is the smallest Lmax a run accepts: 1 MiB of memory per process
// divided by 128. From there on the 8 geometric sizes above 4096 are
// strictly increasing (a ≥ 2^(1/8), so consecutive sizes differ by more than
// 370 bytes); just above 4096 they would repeat.
const MinLmax = MiB / 128

// CheckLmax reports whether a run with this Lmax can be carried out with
// int counts: the buffers must be addressable with int displacements, since
// MPI_Alltoallv takes displacements as int, and the geometric sizes need
// Lmax of at least MinLmax (8192 bytes) to be 8 distinct sizes above 4096.
func CheckLmax(lmax int64) error {
	if lmax < MinLmax {
		return fmt.Errorf("the largest message Lmax = %d bytes is too small: it must be at least %d bytes (memory per process of at least 1 MiB)", lmax, int64(MinLmax))
	}
	if BufferSize(lmax) > MaxInt32 {
		maxMem := ((MaxInt32/6 - 16) * 128) / MiB
		return fmt.Errorf("the largest message Lmax = %d bytes is too large: the cyclic buffers of 6·(Lmax+16) bytes must stay addressable with an int displacement (MPI_Alltoallv); use a memory per process of at most %d MiB", lmax, maxMem)
	}
	return nil
}

// Sizes returns the 21 message lengths of b_eff for lmax: 1, 2, 4, …, 4096,
// then round(4096·a^k) for k = 1..8 with a = (lmax/4096)^(1/8), so the last
// is lmax. lmax must pass CheckLmax.
func Sizes(lmax int64) []int64 {
	s := make([]int64, 0, NumSizes)
	for i := 0; i <= 12; i++ {
		s = append(s, 1<<i)
	}
	a := GeometricFactor(lmax)
	for k := 1; k <= 8; k++ {
		s = append(s, int64(math.Round(4096*math.Pow(a, float64(k)))))
	}
	s[len(s)-1] = lmax // exact, whatever the rounding
	return s
}

// GeometricFactor is a = (lmax/4096)^(1/8), the ratio between consecutive
// sizes above 4 KiB.
func GeometricFactor(lmax int64) float64 {
	return math.Pow(float64(lmax)/4096, 1.0/8)
}

// ShortSizeIndexes are the indexes into Sizes measured by a quick
// (-test.short) run: 1 B, 64 B, 4 KiB, the middle geometric size and Lmax.
var ShortSizeIndexes = []int{0, 6, 12, 16, 20}

// NextOffset returns the offset of the message after the one at off in a
// cyclic buffer of size bufSize: off advances by l rounded up to 8 bytes and
// wraps to 0 when the next message would not fit. It is the Go statement of
// what the C loop does (next_off in loops/beff.c).
func NextOffset(off, l, bufSize int64) int64 {
	off += (l + 7) &^ 7
	if off+l > bufSize {
		off = 0
	}
	return off
}

// Bytes per process of b_eff's tables that grow with the job's p (the
// alltoallv method's counts and displacements, one permutation while the
// random patterns are drawn, the job's description) and of rank 0's (the
// node records of every process; docs/scale.md).
const (
	TableBytes = 80
	RootBytes  = 320
)

// Memory is what a process of b_eff holds on p processes on top of the
// base, and what rank 0 holds on top of that: the two message buffers and
// the tables.
func Memory(lmax int64, p int) (perProcess, root int64) {
	return 2*BufferSize(lmax) + TableBytes*int64(p), RootBytes * int64(p)
}
