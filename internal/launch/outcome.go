package launch

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"syscall"

	"github.com/beff-suite/beff/internal/exitcode"
)

// An Outcome is how a job ended.
type Outcome struct {
	Code int    // 0, or the exit code that says why it failed
	Why  string // why it failed, one line ("" when it succeeded)
	// Culprit names the rank of the process the launcher reports as
	// ended badly, where it named it only by its process id ("" when
	// unknown). MPICH's Hydra names the first of a node's processes that
	// ended badly, which may be one it killed itself after another was
	// lost.
	Culprit string
	// StdoutResults counts the result lines that reached the launcher's
	// stdout (the results file holds them all).
	StdoutResults int
}

// The messages an outcome is told from: the harness's (on stderr) and
// the launchers' own (Open MPI's mpirun and prterun on stderr, Hydra's
// on stdout).
var (
	watchdogMsg   = regexp.MustCompile(`beff: (rank \d+: watchdog: .*)`)
	lostMsg       = regexp.MustCompile(`beff: (rank \d+: .*(?:lost rank \d+|no longer answers).*)`)
	launcherLost  = regexp.MustCompile(`(process rank \d+ with PID \d+ on node \S+ exited on signal \d+.*|KILLED BY SIGNAL: \d+.*|EXIT CODE: 9$)`)
	validationMsg = regexp.MustCompile(`(validation FAILED.*)`)
	terminatedMsg = regexp.MustCompile(`beff: (rank \d+: terminated .*)`)
	hydraPID      = regexp.MustCompile(`PID (\d+) RUNNING AT (\S+)`)
	processesMsg  = regexp.MustCompile(`^\[beff\] processes: `)
)

// maxProcsLine bounds what is kept of the harness's list of processes
// (one entry per rank): enough to name a rank by its process id in jobs
// of tens of thousands of processes.
const maxProcsLine = 4 << 20

// A watcher reads a job's stderr and its launcher's stdout, line by
// line, for what tells its outcome; it keeps the first line of each kind.
type watcher struct {
	mu                                    sync.Mutex
	watchdog, lost, launcher, valid, term string
	pids                                  [][2]string // pid, host: processes the launcher says ended the job
	procs                                 string      // the harness's list of processes
	results                               int         // result lines on stdout
}

// line reads one line of either stream.
func (w *watcher) line(l string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	first := func(dst *string, re *regexp.Regexp) {
		if *dst == "" {
			if m := re.FindStringSubmatch(l); m != nil {
				*dst = m[1]
			}
		}
	}
	first(&w.watchdog, watchdogMsg)
	first(&w.lost, lostMsg)
	first(&w.launcher, launcherLost)
	first(&w.valid, validationMsg)
	first(&w.term, terminatedMsg)
	if m := hydraPID.FindStringSubmatch(l); m != nil && len(w.pids) < 16 {
		w.pids = append(w.pids, [2]string{m[1], m[2]})
	}
	if w.procs == "" && processesMsg.MatchString(l) {
		w.procs = l[:min(len(l), maxProcsLine)]
	}
}

// result counts a result line of stdout.
func (w *watcher) result() {
	w.mu.Lock()
	w.results++
	w.mu.Unlock()
}

// outcome tells the outcome of a launcher that exited with rc, after sig
// (0: none) was passed on to it.
func (w *watcher) outcome(rc int, sig syscall.Signal) Outcome {
	w.mu.Lock()
	defer w.mu.Unlock()
	o := Outcome{StdoutResults: w.results}
	if w.lost == "" { // the lifeline's naming is first hand
		o.Culprit = w.culprit()
	}
	// A job whose processes said that the watchdog or a lost process
	// ended it did not succeed, whatever the launcher's code: MPICH 4.2's
	// Hydra now and then exits 0 after it saw rank 0 killed.
	if rc == 0 && sig == 0 && w.watchdog == "" && w.lost == "" {
		return o
	}
	switch {
	case w.watchdog != "":
		o.Why, o.Code = "ended by the watchdog: "+w.watchdog, exitcode.Watchdog
	case w.lost != "":
		o.Why, o.Code = "a process was lost: "+w.lost, exitcode.Lost
	case w.launcher != "":
		o.Why, o.Code = "a process was lost: the launcher says: "+w.launcher, exitcode.Lost
	case w.valid != "":
		o.Why, o.Code = w.valid, exitcode.Validation
	case sig != 0:
		o.Why, o.Code = "terminated by "+signalName(sig), 128+int(sig)
	case w.term != "":
		o.Why, o.Code = w.term, rc
	default:
		o.Why, o.Code = fmt.Sprintf("the job failed (exit %d)", rc), rc
	}
	if !exitcode.Known(o.Code) || o.Code == exitcode.OK {
		o.Code = exitcode.Failed // the launcher's own code: its message says it
	}
	return o
}

// culprit names the rank of a process the launcher named by its id and
// host, from the harness's list of processes.
func (w *watcher) culprit() string {
	for _, p := range w.pids {
		if i := strings.Index(w.procs, " on "+p[1]+" (pid "+p[0]+")"); i >= 0 {
			head := w.procs[:i]
			if j := strings.LastIndex(head, "rank "); j >= 0 {
				return head[j:] + " on " + p[1] + " (pid " + p[0] + ")"
			}
		}
	}
	return ""
}

// signalName is "SIGTERM" for syscall.SIGTERM.
func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return "signal " + fmt.Sprint(int(s))
}
