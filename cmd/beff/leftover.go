package main

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// A leftoverSuite is a suite whose processes may leave files behind when
// a launcher kills them before they could remove them (b_eff_io's scratch
// directory): Leftover names them from a line of the job's stderr,
// RemoveLeftover removes them and reports whether they are gone.
type leftoverSuite interface {
	Leftover(line string) (string, bool)
	RemoveLeftover(path string) bool
}

// leftovers collects, from a job's stderr, what its suites may leave.
type leftovers struct {
	mu    sync.Mutex
	found []leftover
}

type leftover struct {
	s    leftoverSuite
	path string
}

// line reads one line of the job's stderr.
func (l *leftovers) line(s string) {
	for _, su := range suites() {
		ls, ok := su.(leftoverSuite)
		if !ok {
			continue
		}
		if p, ok := ls.Leftover(s); ok {
			l.mu.Lock()
			if len(l.found) < 64 {
				l.found = append(l.found, leftover{ls, p})
			}
			l.mu.Unlock()
		}
	}
}

// remove removes what the job left and says what it removed.
func (l *leftovers) remove() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var msgs []string
	for _, f := range l.found {
		if f.s.RemoveLeftover(f.path) {
			msgs = append(msgs, "removed what the job left of its scratch files in "+f.path)
		}
	}
	return msgs
}

// slurmProcs is the number of processes of a job in a Slurm allocation:
// its tasks (SLURM_NTASKS) or, when no task count was asked for, its CPUs
// (SLURM_JOB_CPUS_PER_NODE, "2(x3),1": three nodes of 2 and one of 1).
func slurmProcs(getenv func(string) string) (int, error) {
	if n, err := strconv.Atoi(getenv("SLURM_NTASKS")); err == nil && n > 0 {
		return n, nil
	}
	cpus := getenv("SLURM_JOB_CPUS_PER_NODE")
	n := 0
	for _, part := range strings.Split(cpus, ",") {
		c, reps := part, "1"
		if i := strings.Index(part, "(x"); i >= 0 && strings.HasSuffix(part, ")") {
			c, reps = part[:i], part[i+2:len(part)-1]
		}
		a, err1 := strconv.Atoi(c)
		b, err2 := strconv.Atoi(reps)
		if err1 != nil || err2 != nil || a <= 0 || b <= 0 || a > 1<<20 || b > 1<<20 {
			return 0, fmt.Errorf("in Slurm job %s, SLURM_JOB_CPUS_PER_NODE=%q does not say the CPUs: give -np", getenv("SLURM_JOB_ID"), cpus)
		}
		n += a * b
		if n > 1<<30 {
			return 0, fmt.Errorf("SLURM_JOB_CPUS_PER_NODE=%q: more CPUs than beff launches: give -np", cpus)
		}
	}
	return n, nil
}
