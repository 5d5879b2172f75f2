package harness

import "fmt"

// BaseBytes is what a process of beff holds before any suite's buffers and
// tables: Go's runtime, the MPI library and its shared-memory transport
// (measured 17–30 MiB from 2 to 64 processes on one node; docs/scale.md).
const BaseBytes = 40 << 20

// LogMemory logs a suite's memory model on stderr: the bytes every process
// and rank 0 hold at most, the base included, and what they are made of.
// The peak resident memory the job logs at its end is checked against it
// (make scale-test).
func (s *Session) LogMemory(suite string, perProcess, root int64, parts string) {
	s.Logf("%s memory model: %.1f MiB per process, rank 0 %.1f MiB (%s)", suite, mib(perProcess), mib(root), parts)
}

// CheckMemory refuses a run whose model needs more than the memory per
// process of the job's smallest node (its memory divided by the processes
// on it), before anything is allocated: need is the bytes of rank 0 (the
// base included); an unknown node memory passes.
func (j *Job) CheckMemory(suite string, need int64, lower string) error {
	if j.MemMiB > 0 && need > j.MemMiB<<20 {
		return fmt.Errorf("%s needs %.1f MiB per process, more than the %d MiB per process of the smallest node (its memory divided by its %d processes): %s",
			suite, mib(need), j.MemMiB, j.ProcsNode, lower)
	}
	return nil
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// MemPerProc decides the memory per process, MiB, that a suite sizes its
// buffers from: given (its flag -flagName; 0 when not given), else
// shortMiB in a -test.short run, else the smallest node's memory divided
// by the processes on it (Slurm's limit where the job has one). A value
// above the smallest node's share is refused, and so is deciding it when
// the job's memory is unknown.
func (j *Job) MemPerProc(flagName string, given, shortMiB int64) (int64, error) {
	m := given
	switch {
	case m == 0 && j.Short:
		m = shortMiB
	case m == 0 && j.MemMiB <= 0:
		return 0, fmt.Errorf("cannot tell the node's memory (no /proc/meminfo): give -%s in MiB", flagName)
	case m == 0:
		m = j.MemMiB
	}
	if j.MemMiB > 0 && m > j.MemMiB {
		return 0, fmt.Errorf("-%s=%d MiB: more than the %d MiB of memory per process of the smallest node (its memory divided by the %d processes on it)",
			flagName, m, j.MemMiB, j.ProcsNode)
	}
	return m, nil
}
