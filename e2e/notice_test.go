package e2e

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A noticeJob is a job of np processes whose rank gets sig.
type noticeJob struct {
	np, rank int
	sig      syscall.Signal
}

// noticeJobs are the jobs of TestNoticeOnce: a leaf of the lifeline tree
// stopped and killed on 4 processes, and a parent (rank 1, whose
// children are ranks 16–19) stopped on 20; with BEFF_NOTICE_NP all three
// on that many processes (make big-test: 256).
func noticeJobs(t *testing.T) []noticeJob {
	type job = noticeJob
	if v := os.Getenv("BEFF_NOTICE_NP"); v != "" {
		np, err := strconv.Atoi(v)
		require.NoError(t, err, "BEFF_NOTICE_NP")
		require.Greater(t, np, 16, "BEFF_NOTICE_NP: a rank with children in the lifeline tree needs 17 processes")
		return []job{{np, np - 1, syscall.SIGSTOP}, {np, np - 1, syscall.SIGKILL}, {np, 1, syscall.SIGSTOP}}
	}
	return []job{{4, 3, syscall.SIGSTOP}, {4, 3, syscall.SIGKILL}, {20, 1, syscall.SIGSTOP}}
}

var beffLine = regexp.MustCompile(`(?m)^beff: rank \d+: .*$`)

// TestNoticeOnce: what ends a job outside MPI is said once, whatever the
// job's size. A process stopped with SIGSTOP (its watchdog cannot fire,
// the others' do as they wait for it; where it is a parent in the
// lifeline tree, its children's notices go nowhere) ends the job with
// one line of the watchdog, by rank 0, with how many ranks said so; a
// process killed ends it with at most one line of beff, naming it (the
// launcher may end the job before rank 0 speaks, and names a process
// itself).
func TestNoticeOnce(t *testing.T) {
	bin := mpiBinary(t, true)
	for _, c := range noticeJobs(t) {
		how := map[syscall.Signal]string{syscall.SIGSTOP: "stopped", syscall.SIGKILL: "killed"}[c.sig]
		t.Run(fmt.Sprintf("np=%d/rank=%d/%s", c.np, c.rank, how), func(t *testing.T) {
			cmd := testLib(t).command(t, c.np, bin, "-test.run", "^$", "-test.bench", "^BenchmarkBeff$", "-test.short",
				"-progress", "terminal", "-beff.watchdog", "5s")
			j := startJob(t, cmd)
			j.waitFor(t, " measurements, ") // the first progress line: the watchdogs watch
			pid := rankPid(t, bin, c.rank)
			require.NoError(t, syscall.Kill(pid, c.sig))
			defer syscall.Kill(pid, syscall.SIGKILL)
			took := j.wait(t, time.Now(), 4*time.Minute)
			lines := beffLine.FindAllString(j.stderr(), -1)
			t.Logf("ended after %.1f s, exit %d, %d lines on stderr; beff's: %q", took.Seconds(), j.code,
				strings.Count(j.stderr(), "\n"), lines)
			// the job fails; MPICH 4.2's Hydra reports some jobs whose rank 0
			// it saw killed as a success: then beff's line is what says so
			assert.True(t, j.code != 0 || len(lines) == 1, "the job fails (exit %d)", j.code)
			if c.sig == syscall.SIGSTOP {
				require.Len(t, lines, 1, "one line:\n%s", j.stderr())
				assert.Regexp(t, `^beff: rank \d+: watchdog: b_eff .* has made no progress`, lines[0])
				return
			}
			require.LessOrEqual(t, len(lines), 1, "at most one line:\n%s", j.stderr())
			if len(lines) == 1 {
				assert.Regexp(t, fmt.Sprintf(`^beff: rank \d+: lost rank %d \(on `, c.rank), lines[0])
				return
			}
			// MPICH's Hydra kills every process at once, rank 0 first, and
			// names one process id, the first that ended badly (beff run
			// reads it as a rank)
			assert.Regexp(t, `process rank \d+ with PID|PID \d+ RUNNING AT`, j.stderr()+j.out.String(), "the launcher names a lost process")
		})
	}
}
