// Package harness runs beff's suites as testing.B benchmarks under mpirun.
// Every rank runs the same test binary; the harness makes them agree:
//
//   - Main initialises MPI, refuses a build without MPI that was started by
//     a launcher, sets up the suites whose benchmarks -test.bench selects
//     (their Setup decides their settings on rank 0, broadcast to every
//     rank), prints the run's benchfmt configuration lines once, silences
//     stdout on every rank but 0, forces a fixed iteration count
//     (-test.benchtime=1x) and GOMAXPROCS=1 (benchmark names without a -N
//     suffix), runs the tests and agrees on one exit code (driver.go,
//     job.go).
//   - A benchmark finds its Session with Current. Every control decision
//     (loop lengths, stop conditions, random patterns, the best method) is
//     taken on rank 0 of a Group and followed by every rank: Round for one
//     decision, Until for a loop that runs until rank 0 says stop, Decide
//     for a decision with structure (group.go).
//   - The time of a measurement is the maximum over ranks (Group.Max).
//   - Progress with elapsed time and ETA goes to stderr of rank 0
//     (progress.go).
//
// The harness names no suite: a suite's driver registers a *Driver
// (driver.go) from an init function, and the test binary's Benchmark
// functions call the drivers.
package harness

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/exitcode"
	"github.com/beff-suite/beff/internal/launch"
	"github.com/beff-suite/beff/internal/mpi"
)

// Version is the version of the beff suite.
const Version = "0.1.0"

// Commit is set with -ldflags "-X github.com/beff-suite/beff/harness.Commit=…"
// by the Makefile; otherwise the VCS stamp of the build, if any, is used.
var Commit = ""

// Exit codes of a run that the harness stops (the table of every code is
// package exitcode's).
const (
	ExitBadInput   = exitcode.BadInput   // flags, paths or rank counts rejected before measuring
	ExitValidation = exitcode.Validation // a received message failed validation
	ExitMPI        = exitcode.MPI        // an MPI call failed
	ExitIO         = exitcode.IO         // a read or write on the file system under test failed
	ExitRecord     = exitcode.Record     // the results file (-out) could not be written
)

// session is the job's session, once Main has set it up.
var session *Session

// Main is called by TestMain with the flag set the binary owns (testing's
// own flags are on flag.CommandLine, so that is the one) and the drivers
// of its suites, whose flags are on it already: it puts the harness's
// flags there too, sets up MPI and the session, runs the tests and
// benchmarks with m.Run, and exits with a code all ranks agree on.
func Main(m *testing.M, fs *flag.FlagSet, drivers ...*Driver) {
	mpi.Exit(run(m, newFlags(fs), drivers))
}

func run(m *testing.M, f *flags, drivers []*Driver) int {
	runtime.LockOSThread() // MPI is initialised and finalised on this thread
	err := parseFlags(f.fs, os.Args[1:])
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		f.err = err.Error()
	}
	if os.Getenv(launch.CheckEnv) == "1" && !errors.Is(err, flag.ErrHelp) {
		return checkOnly(os.Stdout, f, drivers)
	}
	if errors.Is(err, flag.ErrHelp) {
		if launch.Rank() == 0 {
			f.fs.SetOutput(os.Stderr)
			f.fs.Usage()
		}
		return 0
	}
	provided, err := mpi.Init(*f.thread)
	if errors.Is(err, mpi.ErrNoMPI) {
		return noMPI(m, f.err)
	}
	if err != nil {
		return initFailed(err, *f.thread)
	}
	s := newSession()
	s.flags, s.drivers = f, drivers
	here := localMachine()
	local := probeLocal(s, here)              // collective: every rank describes its node
	kinds := describeMachines(s, here, local) // collective: one rank of each kind of node
	oc := Decide(s.World(), func() outcome { return setupOutcome(s, provided, local, kinds) })
	if oc.Err != "" {
		s.Stop(ExitBadInput, oc.Err)
	}
	if s.IsRoot() {
		s.startRecord()
	}
	if oc.Done != "" {
		if s.IsRoot() {
			fmt.Fprint(s.Out, oc.Done)
		}
		s.Stop(0, "")
	}
	s.Job = oc.Job
	s.handleTermination()
	s.startLifeline()
	s.logProcesses()
	if w := pollWarning(&s.Job); w != "" {
		s.Logf("%s", w)
	}
	forceFlags()
	prepare(s)
	if s.IsRoot() {
		writeConfig(s.Out, &s.Job, s.drivers)
	}
	session = s
	s.start = time.Now()
	code := mpi.Serve(m.Run) // every MPI call on this thread
	s.logPeak()
	// Agree on one exit code (a failed test on any rank fails the job).
	code = int(s.World().MaxAll([]int64{int64(code)})[0])
	if err := s.finishRecord(); err != nil {
		fmt.Fprintf(os.Stderr, "beff: %v\n", err)
		code = max(code, ExitRecord)
	}
	s.sayGoodbye()
	if err := mpi.Finalize(); err != nil {
		fmt.Fprintf(os.Stderr, "beff: %v\n", err)
		return ExitMPI
	}
	return code
}

// initFailed reports a failed MPI initialisation. Before (or instead of)
// MPI no broadcast is possible: the launcher's rank 0 speaks for all, and
// the others wait a moment before they exit, since mpirun ends the job
// (and may drop rank 0's message) when the first process exits non-zero.
func initFailed(err error, thread string) int {
	if launch.Rank() == 0 {
		fmt.Fprintf(os.Stderr, "beff: -mpi.thread=%s: %v\n", thread, err)
	} else {
		time.Sleep(time.Second)
	}
	var me *mpi.Error
	if errors.As(err, &me) {
		return ExitMPI
	}
	return ExitBadInput
}

// noMPI handles a build without the mpi tag: a launcher with several
// processes is refused (every process would think it is rank 0 of 1);
// requested benchmarks are refused; plain tests run.
func noMPI(m *testing.M, flagErr string) int {
	if flagErr != "" {
		if launch.Rank() == 0 {
			fmt.Fprintf(os.Stderr, "beff: %s\n", flagErr)
		} else {
			time.Sleep(time.Second)
		}
		return ExitBadInput
	}
	if n, ok := launch.JobSize(); ok && n > 1 {
		if launch.Rank() == 0 {
			fmt.Fprintf(os.Stderr, "beff: started as one of %d MPI processes, but %v\n", n, mpi.ErrNoMPI)
		} else {
			time.Sleep(time.Second) // the launcher ends the job at the first exit: rank 0 speaks first
		}
		return ExitBadInput
	}
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		fmt.Fprintf(os.Stderr, "beff: cannot run benchmarks: %v\n", mpi.ErrNoMPI)
		return ExitBadInput
	}
	code := m.Run()
	after.Lock()
	defer after.Unlock()
	for _, f := range after.funcs {
		f()
	}
	return code
}

// after holds what runs when the tests of a binary started without MPI
// (go test) have ended.
var after struct {
	sync.Mutex
	funcs []func()
}

// AfterTests adds f to what runs, in order, when the tests of a binary
// started without MPI have ended: a test package's cleanup that outlives
// one test (the binaries its integration tests built once).
func AfterTests(f func()) {
	after.Lock()
	defer after.Unlock()
	after.funcs = append(after.funcs, f)
}

// silenceStdout points file descriptor 1 at /dev/null, so that nothing a
// rank other than 0 prints (testing's benchmark lines included) reaches
// the output.
func silenceStdout() {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	syscall.Dup3(int(f.Fd()), 1, 0)
	f.Close()
}

// forceFlags sets, on every rank, a fixed iteration count (the time-driven
// loop lengths are the suites' own, decided on rank 0) and GOMAXPROCS=1 (so
// that benchmark names carry no -N suffix that depends on the rank
// binding).
func forceFlags() {
	set := setFlags(flag.CommandLine) // testing's flags
	if !set["test.benchtime"] {
		flag.Set("test.benchtime", "1x")
	}
	if !set["test.cpu"] {
		flag.Set("test.cpu", "1")
	}
}

// setFlags returns the names of the flags of fs given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// IsSet reports whether the flag name of fs was given on the command line.
func IsSet(fs *flag.FlagSet, name string) bool { return setFlags(fs)[name] }

// checkTestFlags refuses the testing flags the harness cannot honour.
func checkTestFlags(f *flags) error {
	if f.err != "" {
		return errors.New(f.err)
	}
	if err := checkProgressFlag(*f.progress); err != nil {
		return err
	}
	if _, err := clocks.ParseSkew(*f.skew); err != nil {
		return fmt.Errorf("-clock.skew: %w", err)
	}
	set := setFlags(flag.CommandLine) // testing's flags
	if set["test.benchtime"] {
		if v := flag.Lookup("test.benchtime").Value.String(); v != "1x" {
			return fmt.Errorf("-test.benchtime=%s: beff measures with its own time-driven loop lengths and needs -test.benchtime=1x (the default here); use -test.count=N for N samples", v)
		}
	}
	if set["test.cpu"] {
		if v := flag.Lookup("test.cpu").Value.String(); v != "1" {
			return fmt.Errorf("-test.cpu=%s: beff runs every benchmark with GOMAXPROCS=1 (the MPI processes are the parallelism); leave -test.cpu unset", v)
		}
	}
	return nil
}

func commit() string {
	if Commit != "" {
		return Commit
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, kv := range bi.Settings {
			if kv.Key == "vcs.revision" && len(kv.Value) >= 12 {
				return kv.Value[:12]
			}
		}
	}
	return "unknown"
}
