// Package harness runs beff's benchmarks as testing.B sub-benchmarks under
// mpirun. Every rank runs the same test binary; the harness makes them agree:
//
//   - Main initialises MPI (at least MPI_THREAD_SERIALIZED), refuses a build
//     without MPI that was started by a launcher, checks the flags on rank 0
//     and broadcasts the outcome, prints the run's benchfmt configuration
//     lines once, silences stdout on every rank but 0, forces a fixed
//     iteration count (-test.benchtime=1x) and GOMAXPROCS=1 (benchmark names
//     without a -N suffix), runs the tests and agrees on one exit code.
//   - Every control decision (loop lengths, stop conditions, random patterns,
//     the best method) is taken on rank 0 and broadcast (Decide, BcastInt64).
//   - The time of a measurement is the maximum over ranks (MaxFloat64).
//   - Progress with elapsed time and ETA goes to stderr of rank 0.
//
// A benchmark family (b_eff now, b_eff_io and SKaMPI suites later) registers
// a Suite: its flags' checks and its configuration lines.
package harness

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/beff-suite/beff/internal/mpi"
)

// Version is the version of the beff suite.
const Version = "0.1.0"

// Commit is set with -ldflags "-X github.com/beff-suite/beff/harness.Commit=…"
// by the Makefile; otherwise the VCS stamp of the build, if any, is used.
var Commit = ""

// Exit codes of a run that the harness stops.
const (
	ExitBadInput   = 2 // flags, paths or rank counts rejected before measuring
	ExitValidation = 3 // a received message failed validation
	ExitMPI        = 4 // an MPI call failed
)

// A Session is one MPI job as the benchmarks see it.
type Session struct {
	Comm  mpi.Comm // MPI_COMM_WORLD
	Rank  int
	Size  int
	Run   RunInfo
	Out   io.Writer // stdout on rank 0, io.Discard elsewhere
	Log   io.Writer // stderr
	start time.Time
}

// RunInfo is what rank 0 found out about the job at start-up, broadcast to
// every rank.
type RunInfo struct {
	Library    string   // first line of MPI_Get_library_version
	Thread     string   // thread level provided
	Hosts      []string // processor name of each rank
	Oversub    string   // "" or how the job oversubscribes a node's CPUs
	MemMiB     int64    // smallest node memory / processes on that node, MiB
	TotalMiB   int64    // memory of all nodes of the job, MiB
	ProcsNode  int      // most processes on one node
	Short      bool     // -test.short
	GoVersion  string
	Version    string
	Commit     string
	Date       string
	SuiteState map[string]json.RawMessage // each suite's decided settings
}

// A Suite is a benchmark family's hook into Main.
type Suite struct {
	Name string
	// Setup runs on rank 0 only, after the job is known; it checks the
	// suite's flags and returns its decided settings (broadcast to every
	// rank as JSON, see Session.State) or an error, which stops the job.
	Setup func(info *RunInfo) (any, error)
	// Config returns the suite's configuration lines ("key: value").
	Config func(info *RunInfo) []string
	// Units are the suite's unit declarations ("MB/s better=higher").
	Units []string
}

var suites []*Suite

// Register adds a suite; call it from an init function.
func Register(s *Suite) { suites = append(suites, s) }

var mpiThread = flag.String("mpi.thread", "serialized", "MPI thread level to ask for: serialized (default; MPI calls come from several OS threads, one at a time), single (what a plain C program gets from MPI_Init: for comparisons with C benchmarks; beff serialises its MPI calls), funneled or multiple")

var session *Session

// Current returns the session that Main set up. A benchmark calls it first;
// without Main (a test binary whose TestMain does not call harness.Main) it
// fails the benchmark.
func Current(b testing.TB) *Session {
	if session == nil {
		b.Fatal("beff: the benchmarks need the MPI harness: TestMain must call harness.Main")
	}
	return session
}

// IsRoot reports whether this is rank 0.
func (s *Session) IsRoot() bool { return s.Rank == 0 }

// State decodes the decided settings of the named suite into v.
func (info *RunInfo) State(name string, v any) error {
	raw, ok := info.SuiteState[name]
	if !ok {
		return fmt.Errorf("no settings for suite %q", name)
	}
	return json.Unmarshal(raw, v)
}

// State decodes the decided settings of the named suite into v.
func (s *Session) State(name string, v any) error { return s.Run.State(name, v) }

// Logf writes a progress or diagnostic line to stderr on rank 0. The
// "[beff]" prefix keeps the line from parsing as a benchfmt configuration
// line where stderr is merged into stdout (go test does that). Call it only
// between sub-benchmarks: testing may already have printed the name of a
// running one.
func (s *Session) Logf(format string, args ...any) {
	if s.IsRoot() {
		fmt.Fprintf(s.Log, "[beff] "+format+"\n", args...)
	}
}

// Elapsed is the time since Main started measuring.
func (s *Session) Elapsed() time.Duration { return time.Since(s.start) }

// Stop ends the job from every rank: rank 0 prints msg to stderr, every rank
// finalises MPI and exits with code. All ranks must call it (the decision to
// stop is itself broadcast).
func (s *Session) Stop(code int, msg string) {
	if s.IsRoot() && msg != "" {
		fmt.Fprintln(s.Log, "beff: "+strings.TrimRight(msg, "\n"))
	}
	if f, ok := s.Out.(*os.File); ok {
		f.Sync()
	}
	mpi.Finalize()
	os.Exit(code)
}

// Fail stops the whole job from the one rank that hit an MPI error: it
// prints the error with its rank and aborts MPI_COMM_WORLD, which takes
// every process down (no hang).
func (s *Session) Fail(context string, err error) {
	fmt.Fprintf(s.Log, "beff: rank %d: %s: %v\n", s.Rank, context, err)
	mpi.Abort(s.Comm, ExitMPI)
	os.Exit(ExitMPI)
}

// must aborts on an MPI error in the control plane.
func (s *Session) must(context string, err error) {
	if err != nil {
		s.Fail(context, err)
	}
}

// BcastInt64 broadcasts v from rank 0 in place.
func (s *Session) BcastInt64(v []int64) {
	s.must("broadcasting a decision", bcastInt64(s.Comm, v))
}

// bcastInt64 broadcasts v from rank 0 of c in place.
func bcastInt64(c mpi.Comm, v []int64) error {
	buf := make([]byte, 8*len(v))
	for i, x := range v {
		putInt64(buf[8*i:], x)
	}
	if err := c.BcastBytes(buf, 0); err != nil {
		return err
	}
	for i := range v {
		v[i] = getInt64(buf[8*i:])
	}
	return nil
}

// gatherInt64 gathers one record of int64 values from every rank of c to
// rank 0, which gets them indexed by rank (nil elsewhere).
func gatherInt64(c mpi.Comm, rec []int64) ([][]int64, error) {
	n, err := c.Size()
	if err != nil {
		return nil, err
	}
	in := make([]byte, 8*len(rec))
	for i, v := range rec {
		putInt64(in[8*i:], v)
	}
	all := make([]byte, len(in)*n)
	if err := c.GatherBytes(in, all, 0); err != nil {
		return nil, err
	}
	if r, _ := c.Rank(); r != 0 {
		return nil, nil
	}
	out := make([][]int64, n)
	for rk := range out {
		out[rk] = make([]int64, len(rec))
		for i := range rec {
			out[rk][i] = getInt64(all[rk*len(in)+8*i:])
		}
	}
	return out, nil
}

func putInt64(b []byte, x int64) { binary.LittleEndian.PutUint64(b, uint64(x)) }
func getInt64(b []byte) int64    { return int64(binary.LittleEndian.Uint64(b)) }

// Decide runs f on rank 0 and gives its result to every rank (JSON over
// MPI_Bcast). Use it for decisions with structure (patterns, settings); the
// per-measurement decisions use BcastInt64.
func Decide[T any](s *Session, f func() T) T {
	var v T
	var buf []byte
	n := []int64{0}
	if s.IsRoot() {
		v = f()
		var err error
		if buf, err = json.Marshal(v); err != nil {
			s.Fail("encoding a decision", err)
		}
		n[0] = int64(len(buf))
	}
	s.BcastInt64(n)
	if !s.IsRoot() {
		buf = make([]byte, n[0])
	}
	s.must("broadcasting a decision", s.Comm.BcastBytes(buf, 0))
	if !s.IsRoot() {
		if err := json.Unmarshal(buf, &v); err != nil {
			s.Fail("decoding a decision", err)
		}
	}
	return v
}

// MaxFloat64 reduces v with MAX to rank 0; the result is valid on rank 0
// only (nil elsewhere).
func (s *Session) MaxFloat64(v []float64) []float64 {
	out := make([]float64, len(v))
	s.must("reducing times", s.Comm.ReduceFloat64(v, out, mpi.Max, 0))
	if !s.IsRoot() {
		return nil
	}
	return out
}

// Main is called by TestMain: it sets up MPI and the session, runs the tests
// and benchmarks with m.Run, and exits with a code all ranks agree on.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	runtime.LockOSThread() // MPI is initialised and finalised on this thread
	flag.Parse()
	provided, err := mpi.Init(*mpiThread)
	if errors.Is(err, mpi.ErrNoMPI) {
		return noMPI(m)
	}
	if err != nil {
		// Before (or instead of) MPI: no broadcast possible; the launcher's
		// rank 0 speaks for all.
		if mpi.LauncherRank() == 0 {
			fmt.Fprintf(os.Stderr, "beff: -mpi.thread=%s: %v\n", *mpiThread, err)
		}
		var me *mpi.Error
		if errors.As(err, &me) {
			return ExitMPI
		}
		return ExitBadInput
	}
	s := &Session{Comm: mpi.World, Log: os.Stderr, Out: os.Stdout}
	s.Rank, err = s.Comm.Rank()
	s.must("MPI_Comm_rank", err)
	s.Size, err = s.Comm.Size()
	s.must("MPI_Comm_size", err)
	if !s.IsRoot() {
		silenceStdout()
		s.Out = io.Discard
	}
	local := probeLocal(s)
	type outcome struct {
		Info RunInfo
		Err  string
	}
	oc := Decide(s, func() outcome {
		info, err := setup(s, provided, local)
		if err != nil {
			return outcome{Err: err.Error()}
		}
		return outcome{Info: *info}
	})
	if oc.Err != "" {
		s.Stop(ExitBadInput, oc.Err)
	}
	s.Run = oc.Info
	forceFlags()
	if s.IsRoot() {
		writeConfig(s.Out, &s.Run)
	}
	session = s
	s.start = time.Now()
	code := m.Run()
	// Agree on one exit code (a failed test on any rank fails the job).
	in, out := []int64{int64(code)}, []int64{0}
	s.must("agreeing on the exit code", s.Comm.AllreduceInt64(in, out, mpi.Max))
	if err := mpi.Finalize(); err != nil {
		fmt.Fprintf(os.Stderr, "beff: %v\n", err)
		return ExitMPI
	}
	return int(out[0])
}

// noMPI handles a build without the mpi tag: a launcher with several
// processes is refused (every process would think it is rank 0 of 1);
// requested benchmarks are refused; plain tests run.
func noMPI(m *testing.M) int {
	if n, ok := mpi.LauncherSize(); ok && n > 1 {
		if mpi.LauncherRank() == 0 {
			fmt.Fprintf(os.Stderr, "beff: started as one of %d MPI processes, but %v\n", n, mpi.ErrNoMPI)
		}
		return ExitBadInput
	}
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		fmt.Fprintf(os.Stderr, "beff: cannot run benchmarks: %v\n", mpi.ErrNoMPI)
		return ExitBadInput
	}
	return m.Run()
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

// localFacts are what each rank knows about its own node.
type localFacts struct {
	host      string
	memMiB    int64 // node memory / processes on the node
	procsNode int
	cpus      int // CPUs online on the node
}

func probeLocal(s *Session) []localFacts {
	shared, err := s.Comm.SplitShared()
	s.must("MPI_Comm_split_type", err)
	nloc, err := shared.Size()
	s.must("MPI_Comm_size", err)
	shared.Free()
	mem := nodeMemMiB() / int64(nloc)
	const hostLen = 256
	host := []byte(mpi.ProcessorName())
	if len(host) > hostLen {
		host = host[:hostLen]
	}
	in := make([]byte, hostLen+24)
	copy(in, host)
	putInt64(in[hostLen:], mem)
	putInt64(in[hostLen+8:], int64(nloc))
	putInt64(in[hostLen+16:], int64(onlineCPUs()))
	all := make([]byte, len(in)*s.Size)
	s.must("gathering host names", s.Comm.GatherBytes(in, all, 0))
	if !s.IsRoot() {
		return nil
	}
	out := make([]localFacts, s.Size)
	for r := range out {
		rec := all[r*len(in) : (r+1)*len(in)]
		out[r] = localFacts{host: string(bytes.TrimRight(rec[:hostLen], "\x00")),
			memMiB: getInt64(rec[hostLen:]), procsNode: int(getInt64(rec[hostLen+8:])), cpus: int(getInt64(rec[hostLen+16:]))}
	}
	return out
}

// onlineCPUs counts the node's online CPUs from sysfs (runtime.NumCPU sees
// only the affinity mask, which mpirun's binding narrows to one core).
func onlineCPUs() int {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return runtime.NumCPU()
	}
	n := 0
	for _, r := range strings.Split(strings.TrimSpace(string(b)), ",") {
		lo, hi, found := strings.Cut(r, "-")
		a, err1 := strconv.Atoi(lo)
		z := a
		var err2 error
		if found {
			z, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil {
			return runtime.NumCPU()
		}
		n += z - a + 1
	}
	return n
}

// nodeMemMiB reads MemTotal from /proc/meminfo (0 if unknown).
func nodeMemMiB() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb / 1024
		}
	}
	return 0
}

// forceFlags sets, on every rank, a fixed iteration count (the time-driven
// loop lengths are beff's own, decided on rank 0) and GOMAXPROCS=1 (so that
// benchmark names carry no -N suffix that depends on the rank binding).
func forceFlags() {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["test.benchtime"] {
		flag.Set("test.benchtime", "1x")
	}
	if !set["test.cpu"] {
		flag.Set("test.cpu", "1")
	}
}

// setup runs on rank 0: it checks the testing flags the harness depends on,
// then every suite's flags.
func setup(s *Session, provided string, local []localFacts) (*RunInfo, error) {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["test.benchtime"] {
		if v := flag.Lookup("test.benchtime").Value.String(); v != "1x" {
			return nil, fmt.Errorf("-test.benchtime=%s: beff measures with its own time-driven loop lengths and needs -test.benchtime=1x (the default here); use -test.count=N for N samples", v)
		}
	}
	if set["test.cpu"] {
		if v := flag.Lookup("test.cpu").Value.String(); v != "1" {
			return nil, fmt.Errorf("-test.cpu=%s: beff runs every benchmark with GOMAXPROCS=1 (the MPI processes are the parallelism); leave -test.cpu unset", v)
		}
	}
	if n, ok := mpi.LauncherSize(); ok && n != s.Size {
		return nil, fmt.Errorf("the launcher started %d processes but MPI_COMM_WORLD has %d: the binary and mpirun come from different MPI installations", n, s.Size)
	}
	info := &RunInfo{
		Library:   strings.TrimSpace(strings.SplitN(mpi.LibraryVersion(), "\n", 2)[0]),
		Thread:    provided,
		Short:     testing.Short(),
		GoVersion: runtime.Version(),
		Version:   Version,
		Commit:    commit(),
		Date:      time.Now().UTC().Format(time.RFC3339),
	}
	info.MemMiB = -1
	for _, l := range local {
		info.Hosts = append(info.Hosts, l.host)
		if info.MemMiB < 0 || l.memMiB < info.MemMiB {
			info.MemMiB = l.memMiB
		}
		info.ProcsNode = max(info.ProcsNode, l.procsNode)
		info.TotalMiB += l.memMiB // node memory / processes on the node, summed over the processes
		if l.cpus > 0 && l.procsNode > l.cpus && info.Oversub == "" {
			info.Oversub = fmt.Sprintf("yes: %d processes on %s, which has %d CPUs (figures check correctness, not speed)", l.procsNode, l.host, l.cpus)
		}
	}
	info.SuiteState = map[string]json.RawMessage{}
	for _, su := range suites {
		st, err := su.Setup(info)
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(st)
		if err != nil {
			return nil, err
		}
		info.SuiteState[su.Name] = raw
	}
	return info, nil
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

// HostSummary condenses per-rank host names into "a (2), b (2)".
func HostSummary(hosts []string) string {
	count := map[string]int{}
	var order []string
	for _, h := range hosts {
		if count[h] == 0 {
			order = append(order, h)
		}
		count[h]++
	}
	sort.Strings(order)
	parts := make([]string, len(order))
	for i, h := range order {
		parts[i] = fmt.Sprintf("%s (%d)", h, count[h])
	}
	return strings.Join(parts, ", ")
}

// writeConfig prints the benchfmt configuration and unit lines of the run.
func writeConfig(w io.Writer, info *RunInfo) {
	line := func(k, v string) { fmt.Fprintf(w, "%s: %s\n", k, v) }
	line("beff-version", info.Version)
	line("beff-commit", info.Commit)
	line("go-version", info.GoVersion)
	line("date", info.Date)
	line("mpi-library", info.Library)
	line("mpi-thread", info.Thread)
	line("mpi-procs", strconv.Itoa(len(info.Hosts)))
	line("mpi-hosts", HostSummary(info.Hosts))
	line("mpi-procs-per-node", strconv.Itoa(info.ProcsNode))
	oversub := info.Oversub
	if oversub == "" {
		oversub = "no"
	}
	line("mpi-oversubscribed", oversub)
	mode := "full"
	if info.Short {
		mode = "short (quick check, not a valid result)"
	}
	line("beff-mode", mode)
	for _, su := range suites {
		for _, l := range su.Config(info) {
			fmt.Fprintln(w, l)
		}
	}
	for _, su := range suites {
		for _, u := range su.Units {
			fmt.Fprintln(w, "Unit "+u)
		}
	}
}
