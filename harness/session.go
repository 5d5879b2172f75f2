package harness

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/beff-suite/beff/internal/machine"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/results"
)

// A Session is one MPI job as the benchmarks see it.
type Session struct {
	Rank int // in MPI_COMM_WORLD
	Size int
	Job  Job
	Out  io.Writer // stdout on rank 0 (its record, record.go), io.Discard elsewhere
	Log  io.Writer // stderr

	world *Group
	start time.Time
	// flags are the harness's own flags, drivers the suites of the
	// binary (Main).
	flags   *flags
	drivers []*Driver
	// outFile is the -out file on rank 0, once setupOutcome created it;
	// rec rank 0's record of the output, once started (record.go).
	outFile *os.File
	rec     *record
	// What the process keeps outside MPI: its watchdog, its lifelines,
	// rank 0's notices, and whether it is ending (set once it ends
	// outside the measurement: endNow).
	dog       watch
	lines     lifelines
	clocks    map[bool]*Clock // the models of the clocks (Clock), by kind
	clockIO   ClockIO         // what they measure with (SetClockIO; MPI's by default)
	gathering gathering
	ending    atomic.Bool
	// ended, in a fake session (NewFakeSession), is called where a real
	// one ends its process; the calling goroutine then ends.
	ended func(code int, msg string)
}

// NewFakeSession is rank of a job of size processes that a test runs in
// its own process (package harnesstest): its world group meets the other
// ranks through world, and where a real session would end the process
// (Stop, Fail, Abort) it calls ended with the exit code and the message
// and ends the calling goroutine instead.
func NewFakeSession(rank, size int, job Job, world Collectives, ended func(code int, msg string)) *Session {
	s := &Session{Rank: rank, Size: size, Job: job, Out: io.Discard, Log: io.Discard, start: time.Now(), ended: ended}
	s.world = NewGroup(s, world, rank, size)
	return s
}

// end ends a fake session's goroutine with code and msg.
func (s *Session) end(code int, msg string) {
	s.ended(code, msg)
	runtime.Goexit()
}

// A Job is what rank 0 found out about the job at start-up and decided
// for the selected suites, broadcast to every rank.
type Job struct {
	Library  string   // first line of MPI_Get_library_version
	Thread   string   // thread level provided
	Hosts    []string // processor name of each rank
	PIDs     []int    // process id of each rank
	Topology string   // the ranks' topology addresses under Slurm, summed up as mpi-hosts is ("" elsewhere)
	// TopoAddrs is each rank's topology address under Slurm ("" elsewhere):
	// rank 0 only, it is not broadcast.
	TopoAddrs []string  `json:"-"`
	Slurm     *SlurmJob // the Slurm job, when Slurm started the processes
	Oversub   string    // "" or how the job oversubscribes a node's CPUs
	Preload   string    // LD_PRELOAD of rank 0: libraries that change the MPI library's behaviour
	MPIEnv    string    // rank 0's environment settings of the MPI library (machine.MPISettings)
	// Machines are the kinds of node of the job (the first
	// machine.MaxKinds, rank 0's first), MachineKinds how many there are.
	Machines     []machine.Kind
	MachineKinds int
	MemMiB       int64 // smallest node memory / processes on that node, MiB
	TotalMiB     int64 // memory of all nodes of the job, MiB
	RootMiB      int64 // memory of rank 0's node, MiB (0: unknown)
	ProcsNode    int   // most processes on one node
	// Share is how many processes share a CPU on the most crowded node,
	// rounded up (1: none share; 0: unknown).
	Share      int
	Short      bool // -test.short
	GoVersion  string
	Version    string
	Commit     string
	Date       string
	SuiteState map[string]json.RawMessage // each selected suite's decided settings
	// saved are, on rank 0 only (not broadcast), the lines of the partial
	// outputs ReadResume read: per benchmark, per sub-benchmark name.
	saved map[string]map[string][]results.Saved
}

// Procs is the number of processes of the job.
func (j *Job) Procs() int { return len(j.Hosts) }

// newSession makes the session of MPI_COMM_WORLD; stdout is silenced on
// every rank but 0.
func newSession() *Session {
	s := &Session{Out: os.Stdout}
	s.Log = quietWhenEnding{os.Stderr, &s.ending}
	s.world = &Group{s: s, c: mpi.World, Comm: mpi.World}
	var err error
	s.Rank, err = mpi.World.Rank()
	s.Must("MPI_Comm_rank", err)
	s.Size, err = mpi.World.Size()
	s.Must("MPI_Comm_size", err)
	s.world.Rank, s.world.Size = s.Rank, s.Size
	if !s.IsRoot() {
		silenceStdout()
		s.Out = io.Discard
	}
	return s
}

// Current returns the session that Main set up. A benchmark calls it first;
// without Main (a test binary whose TestMain does not call harness.Main) it
// fails the benchmark.
func Current(b testing.TB) *Session {
	if session == nil {
		b.Fatal("beff: the benchmarks need the MPI harness: TestMain must call harness.Main")
	}
	return session
}

// IsRoot reports whether this is rank 0 of MPI_COMM_WORLD.
func (s *Session) IsRoot() bool { return s.Rank == 0 }

// World is the group of every process of the job.
func (s *Session) World() *Group { return s.world }

// Logf writes a progress or diagnostic line to stderr on rank 0. The
// "[beff]" prefix keeps the line from parsing as a benchfmt configuration
// line where stderr is merged into stdout (go test does that). It may be
// called while a sub-benchmark runs: stdout passes on whole lines only
// (record.go), so no progress line lands inside a result line.
func (s *Session) Logf(format string, args ...any) {
	if s.IsRoot() {
		fmt.Fprintf(s.Log, "[beff] "+format+"\n", args...)
	}
}

// Elapsed is the time since Main started measuring.
func (s *Session) Elapsed() time.Duration { return time.Since(s.start) }

// Stop ends the job from every rank: rank 0 prints msg to stderr, every rank
// finalises MPI and exits with code. All ranks must call it (the decision to
// stop is itself taken on rank 0 and followed).
func (s *Session) Stop(code int, msg string) {
	if s.ended != nil {
		s.end(code, msg)
	}
	s.Checkpoint()
	if s.IsRoot() && msg != "" {
		fmt.Fprintln(s.Log, "beff: "+strings.TrimRight(msg, "\n"))
	}
	if code != 0 && code != ExitBadInput {
		s.markPartial(firstLine(msg))
	}
	if err := s.finishRecord(); err != nil {
		fmt.Fprintln(s.Log, "beff: "+err.Error())
	}
	if code == ExitBadInput {
		s.rec.drop()
	}
	s.sayGoodbye()
	mpi.Finalize()
	mpi.Exit(code)
}

// startRecord starts rank 0's record (record.go) into the -out file, if
// any; a record that cannot start stops the job before anything is
// measured.
func (s *Session) startRecord() {
	r, err := startRecord(s.outFile)
	if err != nil {
		if s.outFile != nil {
			s.outFile.Close()
			os.Remove(s.outFile.Name())
		}
		fmt.Fprintln(s.Log, "beff: "+err.Error())
		s.Abort(ExitRecord)
	}
	s.rec = r
}

// markPartial ends rank 0's output, when the job ends before its end,
// with the line that says why (results.KeyPartial): what was measured so
// far stays, and every reader knows the output for a partial one. The
// line starts on a line of its own.
func (s *Session) markPartial(why string) {
	if !s.IsRoot() || s.Out == nil {
		return
	}
	fmt.Fprintf(s.Out, "\n%s: %s\n", results.KeyPartial, strings.Join(strings.Fields(why), " "))
}

// firstLine is the first line of msg.
func firstLine(msg string) string {
	l, _, _ := strings.Cut(msg, "\n")
	return l
}

// Fail stops the whole job from the one rank that hit an MPI error: it
// prints the error with its rank and aborts MPI_COMM_WORLD, which takes
// every process down (no hang).
func (s *Session) Fail(context string, err error) {
	if s.ended != nil {
		s.end(ExitMPI, fmt.Sprintf("rank %d: %s: %v", s.Rank, context, err))
	}
	s.Checkpoint()
	// a call fails when its peer died: let the lifeline name the lost
	// rank first (it ends the process), rather than this symptom
	time.Sleep(300 * time.Millisecond)
	s.Checkpoint()
	fmt.Fprintf(s.Log, "beff: rank %d: %s: %v\n", s.Rank, context, err)
	s.markPartial(fmt.Sprintf("rank %d: %s: %v", s.Rank, context, err))
	s.Abort(ExitMPI)
}

// Abort takes the whole job down from this rank with code, without
// waiting for the others (MPI_Abort).
func (s *Session) Abort(code int) {
	if s.ended != nil {
		s.end(code, "aborted")
	}
	s.Checkpoint()
	s.finishRecord()
	s.sayGoodbye()
	mpi.Abort(mpi.World, code)
	os.Exit(code)
}

// Must stops the job with Fail when err (of an MPI call in the control
// plane) is not nil.
func (s *Session) Must(context string, err error) {
	if err != nil {
		s.Fail(context, err)
	}
}

// progressFlag is -progress ("auto" in a fake session, which has no
// flags).
func (s *Session) progressFlag() string {
	if s.flags == nil {
		return progressAuto
	}
	return *s.flags.progress
}
