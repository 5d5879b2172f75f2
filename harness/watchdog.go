package harness

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/beff-suite/beff/internal/exitcode"
	"github.com/beff-suite/beff/internal/launch"
	"github.com/beff-suite/beff/internal/mpi"
)

// The watchdog ends the job from any rank whose current measurement makes
// no progress for too long (a link that went down leaves MPI waiting in
// TCP retransmissions for a quarter of an hour, with no error); progress
// is the measurement's timed loop advancing (mpi.Progress: an iteration,
// a repetition, a burst done) or the measurement ending. The cleanup hooks (a suite's scratch files) run when it fires and when the
// launcher terminates the process (SIGTERM, SIGINT, SIGHUP). Unlike the
// rest of the harness it acts on one rank alone: the others cannot be
// asked, the network being the thing that failed.

// WatchdogFactor times the predicted time of a measurement, but at least
// WatchdogFloor, times how many processes share a CPU (Job.Share: a step
// of a process that has a k-th of a core takes up to k times as long), is
// how long it may go without progress before the watchdog fires (at most
// the suite's -<suite>.watchdog). The floor lies above the time Open
// MPI's daemons take to notice a node that stopped answering with the
// keepalive settings of package launch (about 16 s): their way of ending
// the job is the cleaner one, and a process that ends before they noticed
// leaves mpirun waiting for the lost node.
const (
	WatchdogFactor  = 10
	WatchdogFloor   = 30 * time.Second
	DefaultWatchdog = 10 * time.Minute
)

// ExitWatchdog is the exit code of a process its watchdog ended;
// ExitLost that of rank 0 when another process was lost (lifeline.go).
const (
	ExitWatchdog = exitcode.Watchdog
	ExitLost     = exitcode.Lost
)

// fmtWatchdog ends the usage of a suite's -<suite>.watchdog.
func fmtWatchdog() string {
	return fmt.Sprintf("(sooner: %d× its predicted time, but at least %v, times the processes per CPU where they share one); 0 turns the watchdog off", WatchdogFactor, WatchdogFloor)
}

// watchLimit is how long a measurement predicted to take predicted may go
// without progress under a watchdog of at most bound (0: off), share
// processes sharing a CPU.
func watchLimit(predicted, bound time.Duration, share int) time.Duration {
	if bound <= 0 {
		return 0
	}
	limit := max(WatchdogFactor*predicted, WatchdogFloor)
	if share > 1 {
		if limit >= bound/time.Duration(share) {
			return bound // and the product cannot overflow
		}
		limit *= time.Duration(share)
	}
	return min(bound, limit)
}

// watched is the measurement in progress.
type watched struct {
	what  string        // what it is, "" for none
	base  string        // its name, as given to Watch
	flag  string        // the flag that bounds it
	bound time.Duration // and its value
	start time.Time     // when it started
	limit time.Duration // how long it may take
}

type watch struct {
	mu      sync.Mutex
	current watched
	hooks   []func()
	started bool
	// seen is the progress counter's value at the last look (mpi.Progress:
	// the timed loops advance it a step at a time).
	seen int64
}

// Checkpoint blocks for good once the process is ending (endNow exits): the
// harness's ways of stopping the job call it, and a suite calls it before
// it creates what its cleanup hook removes.
func (s *Session) Checkpoint() {
	if s.ending.Load() {
		select {}
	}
}

// quietWhenEnding writes to w until the process is ending.
type quietWhenEnding struct {
	w      io.Writer
	ending *atomic.Bool
}

func (q quietWhenEnding) Write(p []byte) (int, error) {
	if q.ending.Load() {
		return len(p), nil
	}
	return q.w.Write(p)
}

// Watch starts the watchdog's clock for the measurement what, predicted to
// take predicted, under the suite's flag (its name, e.g. "beff.watchdog",
// and value). The returned function ends the measurement: where Watch was
// called inside another measurement, the clock of that one starts anew;
// otherwise the clock goes on for what comes next (the barriers and
// decisions between measurements can hang as well), with the same limit.
func (s *Session) Watch(what string, predicted time.Duration, flagName string, bound time.Duration) func() {
	limit := watchLimit(predicted, bound, s.Job.Share)
	if limit == 0 {
		return func() {}
	}
	s.dog.mu.Lock()
	prev := s.dog.current
	s.dog.current = watched{what, what, flagName, bound, time.Now(), limit}
	if !s.dog.started {
		s.dog.started = true
		go s.watchLoop()
	}
	s.dog.mu.Unlock()
	return func() {
		s.dog.mu.Lock()
		next := prev
		switch {
		case prev.what == "":
			next = s.dog.current
			next.what = "the step after " + what
		case prev.base != "":
			next.what = prev.base + " (the step after " + what + ")"
		}
		next.start = time.Now()
		s.dog.current = next
		s.dog.mu.Unlock()
	}
}

// OnAbort adds a hook that the watchdog and the termination handler run
// before the process ends (on this rank).
func (s *Session) OnAbort(f func()) {
	s.dog.mu.Lock()
	s.dog.hooks = append(s.dog.hooks, f)
	s.dog.mu.Unlock()
}

// watchLoop looks at the clock and the progress counter four times a
// second.
func (s *Session) watchLoop() {
	for range time.Tick(250 * time.Millisecond) {
		if msg := s.dog.check(time.Now(), mpi.Progress()); msg != "" {
			s.endWith(ExitWatchdog, msg)
			return
		}
	}
}

// check is one look of the watchdog at time now with the progress
// counter at progress: where a timed loop advanced it since the last
// look, the measurement's clock starts anew (a loop that advances is
// never stuck, however long its measurement takes); it returns what to
// end the job with when the measurement has made no progress for longer
// than its limit, else "".
func (d *watch) check(now time.Time, progress int64) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if progress != d.seen {
		d.seen = progress
		d.current.start = now
	}
	w := d.current
	if el := now.Sub(w.start); w.what != "" && el > w.limit {
		return fmt.Sprintf("watchdog: %s has made no progress for %v (limit %v, -%s=%v); ending the job",
			w.what, el.Round(time.Second), w.limit.Round(time.Second), w.flag, w.bound)
	}
	return ""
}

// inProgress is the measurement in progress, or "".
func (s *Session) inProgress() string {
	s.dog.mu.Lock()
	defer s.dog.mu.Unlock()
	return s.dog.current.what
}

// endNow prints msg with this rank, runs the cleanup hooks and exits with
// code, without MPI: the MPI library may be the part that hangs.
//
// The measurement goes on meanwhile on the main thread and may trip over
// what the hooks remove: from here on its messages are dropped and its
// ways of stopping the job wait for the exit (Checkpoint).
func (s *Session) endNow(code int, msg string) {
	s.endQuoted(code, fmt.Sprintf("rank %d: %s", s.Rank, msg))
}

// endQuoted is endNow with msg as it is printed after "beff: " (""
// prints nothing).
func (s *Session) endQuoted(code int, msg string) {
	s.endAfter(code, msg, 0)
}

// endAfter is endQuoted that waits for wait after the cleanup hooks, for
// the launcher to end this process first.
func (s *Session) endAfter(code int, msg string, wait time.Duration) {
	if s.ending.Swap(true) {
		select {} // another goroutine is ending the process
	}
	if msg != "" {
		fmt.Fprintf(os.Stderr, "beff: %s\n", msg)
		time.Sleep(sayForward) // the lines stay open: the notices still coming are counted, not said again
	}
	s.markPartial(msg)
	s.finishRecord()
	s.sayGoodbye() // this rank named its own end
	s.dog.mu.Lock()
	hooks := s.dog.hooks
	s.dog.hooks = nil
	s.dog.mu.Unlock()
	for _, h := range hooks {
		h()
	}
	time.Sleep(wait)
	if s.ended != nil {
		s.end(code, msg) // a fake session
	}
	launch.Leave(code, code == ExitWatchdog)
}

// handleTermination runs the cleanup hooks when the launcher terminates the
// process (it sends SIGTERM when another process failed, or on ^C); rank
// 0 names the measurement in progress, the others end quietly (the
// launcher terminates them all: one line says it).
func (s *Session) handleTermination() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		sig := <-ch
		code := 128 + int(sig.(syscall.Signal))
		if !s.IsRoot() {
			s.endQuoted(code, "")
		}
		if line, c, ok := s.gathered(s.Size); ok {
			s.endQuoted(c, line) // the launcher was quicker than the gathering: say why it ends
		}
		msg := fmt.Sprintf("terminated (%v)", sig)
		what := s.inProgress()
		if what != "" {
			msg += " during " + what
		}
		s.endNow(code, msg)
	}()
}
