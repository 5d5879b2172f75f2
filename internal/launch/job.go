package launch

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A Job is one run of a program under a launcher.
type Job struct {
	Launcher *Launcher
	Spec     Spec
	Prog     string
	Args     []string
	// Stderr gets the job's stderr as it comes, and the lines of the
	// launcher's stdout that are not a copy of the results (the
	// launcher's own messages).
	Stderr io.Writer
	// Signals are passed on to the launcher, whose processes then mark
	// what they measured and end; the job goes on until it ends.
	Signals <-chan os.Signal
	// Line, when set, sees every line of the job's stderr.
	Line func(string)
}

// Run runs the job to its end and tells its outcome. An error means it
// could not start.
func (j *Job) Run() (Outcome, error) {
	c := j.Launcher.Command(j.Spec, j.Prog, j.Args...)
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	cmd.Env = append(os.Environ(), c.Env...)
	outR, outW, err := os.Pipe()
	if err != nil {
		return Outcome{}, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return Outcome{}, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return Outcome{}, fmt.Errorf("starting %s: %v", c.Argv[0], err)
	}
	w := &watcher{}
	dst := &lockedWriter{w: j.Stderr} // both streams are passed on to it
	var out sync.WaitGroup
	out.Add(2)
	go func() { defer out.Done(); readStdout(outR, dst, w) }()
	go func() { defer out.Done(); j.readStderr(errR, dst, w) }()
	sig := j.passSignals(cmd.Process)
	guard := guard(cmd.Process, c.Guard, dst)
	err = cmd.Wait()
	guard.Stop()
	drained(&out, 5*time.Second, outR, errR)
	rc := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		rc = exit.ExitCode()
		if rc < 0 { // killed by a signal
			rc = 128 + int(exit.Sys().(syscall.WaitStatus).Signal())
		}
	case err != nil:
		return Outcome{}, err
	}
	return w.outcome(rc, sig()), nil
}

// drained waits for the readers of pipes to reach their ends, for at most
// d (a process the launcher left behind may hold them open), then closes
// them.
func drained(readers *sync.WaitGroup, d time.Duration, pipes ...*os.File) {
	done := make(chan struct{})
	go func() { readers.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
	for _, p := range pipes {
		p.Close()
	}
}

// readStdout passes the launcher's own messages on to dst and counts the
// result lines, which the results file holds.
func readStdout(r io.Reader, dst io.Writer, w *watcher) {
	lines(r, func(l string) {
		if isOutputLine(l) {
			if name, figures, ok := strings.Cut(l, "\t"); ok && strings.HasPrefix(name, "Benchmark") && strings.TrimSpace(figures) != "" {
				w.result()
			}
			return
		}
		fmt.Fprintln(dst, l)
		w.line(l)
	})
}

// readStderr passes stderr on to dst, line by line.
func (j *Job) readStderr(r io.Reader, dst io.Writer, w *watcher) {
	lines(r, func(l string) {
		fmt.Fprintln(dst, l)
		w.line(l)
		if j.Line != nil {
			j.Line(l)
		}
	})
}

// lines calls f with each line of r, without its end; a line longer than
// 1 MiB comes in pieces.
func lines(r io.Reader, f func(string)) {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		l, err := br.ReadSlice('\n')
		if len(l) > 0 {
			f(strings.TrimSuffix(string(l), "\n"))
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			io.Copy(io.Discard, r)
			return
		}
	}
}

// isOutputLine reports whether a line of stdout is one of the job's
// output (a copy of the results file), not a message of the launcher.
func isOutputLine(l string) bool {
	switch {
	case l == "", strings.HasPrefix(l, "Benchmark"), strings.HasPrefix(l, "Unit "),
		l == "PASS", l == "FAIL", strings.HasPrefix(l, "ok "), strings.HasPrefix(l, "--- "):
		return true
	}
	k, _, ok := strings.Cut(l, ": ")
	if !ok {
		return false
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return k != "" && k[0] >= 'a' && k[0] <= 'z'
}

// passSignals passes the signals of j.Signals on to p until the job
// ends; the returned function says the first one (0: none).
func (j *Job) passSignals(p *os.Process) func() syscall.Signal {
	var mu sync.Mutex
	var first syscall.Signal
	done := make(chan struct{})
	if j.Signals != nil {
		go func() {
			for {
				select {
				case s := <-j.Signals:
					mu.Lock()
					if ss, ok := s.(syscall.Signal); ok && first == 0 {
						first = ss
					}
					mu.Unlock()
					p.Signal(s)
				case <-done:
					return
				}
			}
		}()
	}
	return func() syscall.Signal {
		close(done)
		mu.Lock()
		defer mu.Unlock()
		return first
	}
}

// guard kills the launcher when it is still running after d (0: never),
// and says so to dst.
func guard(p *os.Process, d time.Duration, dst io.Writer) *time.Timer {
	if d <= 0 {
		return time.NewTimer(time.Duration(1<<63 - 1))
	}
	return time.AfterFunc(d, func() {
		fmt.Fprintf(dst, "launch: the launcher is still running %v after the job's limit; killing it\n", d)
		p.Kill()
	})
}

// lockedWriter writes to w from several goroutines, a write at a time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
