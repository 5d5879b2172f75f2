package harness

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// peakKiB is this process's peak resident memory (VmHWM of
// /proc/self/status) in KiB, 0 when unknown.
func peakKiB() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

// A Peak is the job's peak resident memory per process, MiB.
type Peak struct {
	Min, Median, Max float64
	MaxRank          int
	Root             float64 // rank 0's
}

// String is the line the job logs.
func (p Peak) String() string {
	return fmt.Sprintf("peak resident memory per process (VmHWM): min %.1f MiB, median %.1f MiB, max %.1f MiB (rank %d); rank 0 %.1f MiB",
		p.Min, p.Median, p.Max, p.MaxRank, p.Root)
}

// peakOf summarises the per-rank peaks (KiB, indexed by rank).
func peakOf(kib []int64) Peak {
	mib := func(k int64) float64 { return float64(k) / 1024 }
	sorted := slices.Clone(kib)
	slices.Sort(sorted)
	p := Peak{Min: mib(sorted[0]), Median: mib(sorted[len(sorted)/2]), Max: mib(sorted[len(sorted)-1]), Root: mib(kib[0])}
	p.MaxRank = slices.Index(kib, sorted[len(sorted)-1])
	return p
}

// logPeak gathers every rank's peak resident memory to rank 0, which
// logs its summary (stderr): what the memory model of each suite is
// checked against (docs/scale.md).
func (s *Session) logPeak() {
	all := s.World().Gather([]int64{peakKiB()})
	if all == nil {
		return
	}
	kib := make([]int64, len(all))
	for i, rec := range all {
		kib[i] = rec[0]
	}
	s.Logf("%s", peakOf(kib))
}
