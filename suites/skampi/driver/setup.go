// Package driver runs the SKaMPI suite under the harness: its flags and
// settings (Setup on rank 0), the measurements that prepare a run (pairs,
// clock offsets: Prepare on every rank), its configuration lines and the
// body of BenchmarkSkampi, which measures every point of the plan with the
// timed loop of package loops.
package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// flags are the suite's flags, on the flag set the binary's main owns
// (New puts them there).
type flags struct {
	fs          *flag.FlagSet
	suites      *string
	resume      *string
	ops         *string
	testFault   *bool
	testLayout  *bool
	testLostPut *bool
	watchdog    *time.Duration
	plan        *bool
	planFor     *int
	mem         *int64
	testRanks   *int
	clock       *string
}

func newFlags(fs *flag.FlagSet) *flags {
	return &flags{fs: fs,
		suites:      fs.String("skampi.suites", "", "skampi: the suite file (YAML, docs/skampi.md) that plans the run; empty for the standard run (suites/skampi/default.yaml)"),
		resume:      fs.String("skampi.resume", "", "skampi: a partial output of the same configuration: its finished curves are copied, the rest measured, the one that was running when it stopped last"),
		ops:         fs.String("skampi.ops", "all", "skampi: measure only these operations of the suites, comma-separated: names, patterns (ping-pong, collective, master-worker, simple, one-sided), families (nonblocking, persistent, neighborhood) or all"),
		testFault:   fs.Bool("skampi.testfault", false, "skampi, for tests only: corrupt one received message to exercise validation"),
		testLayout:  fs.Bool("skampi.testfault-layout", false, "skampi, for tests only: the manual method's unpacking puts the middle run of every message a byte too far"),
		testLostPut: fs.Bool("skampi.testfault-rma", false, "skampi, for tests only: a one-sided origin skips its put in the check at the end of a point (a lost put)"),
		watchdog:    harness.WatchdogFlag(fs, "skampi", "skampi"),
		plan:        fs.Bool("skampi.plan", false, "skampi: print the plan (every point with its predicted time, the total, the memory per process) and exit without measuring"),
		planFor:     fs.Int("skampi.plan-procs", 0, "skampi, with -skampi.plan: plan for this many processes instead of the job's"),
		mem:         fs.Int64("skampi.mem", 0, "skampi: memory per process in MiB the run may use (0: the node's memory divided by the processes on the node)"),
		clock:       fs.String("skampi.clock", skampi.ClockDrift, "skampi: the model of the clocks that windows start on: drift (offset and drift per process, re-estimated as the error needs) or offsets (offsets once before the first point, SKaMPI's scheme; for comparison)"),
		testRanks:   fs.Int("skampi.testmatrix-ranks", 0, "skampi, for tests only: keep the round trips of every pair of ranks up to this many processes, above it per node or per switch (0: 1024)"),
	}
}

// fieldFlags are the flags that stand for a field of a suite: each gives
// the field's value where neither the suite nor the file's defaults do
// (its default) and, set on the command line, replaces it in every suite
// where it applies. Their values are text, checked by the suite file's
// own parsers, so a bad one gets the same message from rank 0 as a bad
// field.
var fieldFlags = []struct{ flag, field, def, usage string }{
	{"skampi.L", "lengths", "1:4Mi", "message lengths from:to in bytes (suffixes k, Ki, M, Mi) of suites that vary the length"},
	{"skampi.step", "step", "2", "factor between message lengths (above 1)"},
	{"skampi.refine", "refine", "false", "refine the lengths where the time leaves a straight line (suites that vary the length)"},
	{"skampi.points", "points", "0", "most lengths of a refined curve; 0 for twice the grid"},
	{"skampi.time", "time", "0s", "a refined curve adds no length after this long; 0s for no limit"},
	{"skampi.length", "length", "256", "message length of suites that do not vary it, bytes"},
	{"skampi.procs", "procs", "N", "process counts of suites that vary them: a list of counts and ranges a:b, N for all"},
	{"skampi.procs-step", "procs-step", "1", "factor between the process counts of a range a:b (1: every count)"},
	{"skampi.chunks", "chunks", "16", "work items of a master-worker repetition: a list of counts and ranges a:b with vary: chunks"},
	{"skampi.pair", "pair", skampi.PairMax, "the ping-pong pair: max (the largest round trip) or min"},
	{"skampi.eps", "eps", "0.03", "the relative standard error σ/(√n·x̄) a point repeats until (0 < ε < 1)"},
	{"skampi.min", "min-reps", "8", "fewest repetitions of a point"},
	{"skampi.max", "max-reps", "1000", "most repetitions of a point (100 with -test.short)"},
	{"skampi.budget", "budget", "1s", "time budget of one point (50ms with -test.short)"},
	{"skampi.sync", "sync", skampi.SyncWindow, "how repetitions start together: window (clock offsets, a schedule of windows) or barrier (MPI_Barrier before each, as OSU and IMB)"},
	{"skampi.warmup", "warmup", "2", "untimed calls before each point"},
	{"skampi.max-buffer", "max-buffer", "64Mi", "most bytes one call may use of each buffer (the length, or one block per process); points above it are left out; none for no cap"},
	{"skampi.cache", "cache", skampi.CacheAuto, "cold (every call uses the next part of 32 MiB buffers), warm (the same buffer every call) or auto (warm for ping-pong, cold for the rest)"},
}

// name keys the suite's settings in the job.
var name = skampi.ID.Key

// A Driver is the SKaMPI suite under the harness: its flags, on the flag
// set the binary's main owns, and the handle of the settings rank 0
// decides (setup), which the benchmark body reads.
type Driver struct {
	*harness.Driver
	f        *flags
	settings harness.Settings[Settings]
}

// New puts the suite's flags on fs (fieldFlags among them) and returns its
// driver, for harness.Main.
func New(fs *flag.FlagSet) *Driver {
	d := &Driver{f: newFlags(fs)}
	for _, ff := range fieldFlags {
		fs.String(ff.flag, ff.def, "skampi: "+ff.usage)
	}
	d.Driver, d.settings = harness.NewDriver(harness.Suite[Settings]{ID: skampi.ID, Setup: d.f.setup, CheckFlags: d.f.checkFlags, Prepare: prepareRun, Config: config})
	return d
}

// Settings are what rank 0 decides (Setup) and the run measures before
// its first point (Prepare), the same on every rank.
type Settings struct {
	File        string // the suite file as given, or skampi.DefaultSuitesName
	FileSum     string // its SHA-256, first 16 hex digits
	Suites      []*skampi.Setup
	Notes       []string // operations left out of suites (too few processes)
	Resume      *Resume  // what a partial run gives, or nil
	TestFault   bool
	TestLayout  bool  // the manual method's unpacking skews a run (tests)
	TestLostPut bool  // a one-sided origin loses its put in the full check (tests)
	MatrixLimit int   // most processes whose round trips are kept per rank (skampi.FullPairs; lower in tests)
	Yield       bool  // the job oversubscribes a node: wait for windows with sched_yield
	Buffer      int64 // bytes of each of the two buffers (skampi.Need)
	// MarkThreads is the most threads that mark a partitioned message's
	// partitions ready: PartitionThreads where the job's thread level is
	// multiple, else 1.
	MarkThreads int
	Clock       string // skampi.ClockDrift or ClockOffsets
	Prep        Prepared
}

// setup reads the suite file and the flags on rank 0 and decides the
// settings.
func (f *flags) setup(job *harness.Job) (Settings, error) {
	st := Settings{TestFault: *f.testFault, TestLayout: *f.testLayout, TestLostPut: *f.testLostPut, Yield: job.Oversub != "",
		MarkThreads: markThreads(job.Thread), Clock: *f.clock}
	if err := f.checkFlags(); err != nil {
		return Settings{}, err
	}
	st.MatrixLimit = skampi.FullPairs
	if *f.testRanks > 0 {
		st.MatrixLimit = *f.testRanks
	}
	data, err := st.readFile(*f.suites)
	if err != nil {
		return Settings{}, err
	}
	n, err := f.planProcs(job)
	if err != nil {
		return Settings{}, err
	}
	l := skampi.Layers{Procs: n, Base: map[string]skampi.Given{}, Over: map[string]skampi.Given{}, Short: job.Short}
	for _, ff := range fieldFlags {
		l.Base[ff.field] = skampi.Given{Value: ff.def, At: "-" + ff.flag}
		if harness.IsSet(f.fs, ff.flag) {
			l.Over[ff.field] = skampi.Given{Value: f.fs.Lookup(ff.flag).Value.String(), At: "-" + ff.flag}
		}
	}
	if st.Suites, st.Notes, err = skampi.ParseSuites(st.File, data, l); err != nil {
		return Settings{}, err
	}
	if err := st.keepOps(*f.ops, n); err != nil {
		return Settings{}, err
	}
	if err := st.keepProvided(job.Library, mpi.Provides()); err != nil {
		return Settings{}, err
	}
	if err := st.keepWorking(job.Library); err != nil {
		return Settings{}, err
	}
	if err := st.checkLibrary(job.Library, os.Getenv("OMPI_MCA_osc")); err != nil {
		return Settings{}, err
	}
	if err := st.checkPoints(); err != nil {
		return Settings{}, err
	}
	need := skampi.Need(st.curves(), n, harness.BaseBytes)
	st.Buffer = need.Buffer
	if *f.plan {
		return Settings{}, &harness.Done{Text: st.planText(f, need, job)}
	}
	if err := f.checkMemory(need, job); err != nil {
		return Settings{}, err
	}
	if *f.resume != "" {
		st.Resume, err = readResume(*f.resume, st.want(job), st.curves())
	}
	return st, err
}

// checkFlags checks what of SKaMPI's flags needs no job: the numbers'
// ranges.
func (f *flags) checkFlags() error {
	if c := *f.clock; c != skampi.ClockDrift && c != skampi.ClockOffsets {
		return fmt.Errorf("-skampi.clock=%s: want %s or %s", c, skampi.ClockDrift, skampi.ClockOffsets)
	}
	return harness.CheckRanges(f.fs, flagRanges...)
}

// flagRanges are what SKaMPI's numeric flags accept (the fields of the
// suite files check their own).
var flagRanges = []harness.FlagRange{
	harness.WatchdogRange("skampi.watchdog"),
	{Flag: "skampi.plan-procs", Min: 1, Max: results.MaxProcs, Unit: "processes", Zero: "the job's"},
	{Flag: "skampi.mem", Min: 1, Max: 1 << 30, Unit: "MiB", Zero: "the memory per process of the smallest node"},
	{Flag: "skampi.testmatrix-ranks", Min: 1, Max: skampi.FullPairs, Unit: "processes", Zero: "1024"},
}

// checkLibrary refuses what the MPI library is known to crash on, before
// anything runs: Open MPI 4's osc/rdma (its default one-sided component
// on one node) ends a 64-bit MPI_Compare_and_swap on an MPI_Win_allocate
// window in a segmentation fault (open-mpi/ompi#11349; a C program of
// ten lines does it here); osc is the component the job was given
// (OMPI_MCA_osc).
func (st *Settings) checkLibrary(library, osc string) error {
	if !strings.HasPrefix(library, "Open MPI v4.") || osc != "" && !strings.Contains(osc, "rdma") {
		return nil
	}
	cas := skampi.OpIndex("compare-and-swap")
	for _, s := range st.Suites {
		if slices.Contains(s.Ops, cas) && s.Window == skampi.WindowAllocate {
			return fmt.Errorf("%s: suite %s: compare-and-swap on an MPI_Win_allocate window crashes %s (osc/rdma, open-mpi/ompi#11349): give the suite rma-window: create, or run with --mca osc pt2pt",
				st.File, s.Name, libraryName(library))
		}
	}
	return nil
}

// readFile reads -skampi.suites, or takes the default file.
func (st *Settings) readFile(file string) ([]byte, error) {
	st.File = file
	data := skampi.DefaultSuites
	if st.File == "" {
		st.File = skampi.DefaultSuitesName
	} else {
		var err error
		if data, err = results.ReadInput(st.File); err != nil {
			return nil, fmt.Errorf("-skampi.suites: %v", err)
		}
	}
	sum := sha256.Sum256(data)
	st.FileSum = hex.EncodeToString(sum[:8])
	return data, nil
}

// keepOps applies -skampi.ops: the suites keep the operations it names
// (suites left without any are dropped); each operation it names on its
// own must be in some suite.
func (st *Settings) keepOps(ops string, n int) error {
	if ops == "all" {
		return nil
	}
	only, err := skampi.ParseOps(ops)
	if err != nil {
		return fmt.Errorf("-skampi.ops=%s: %v", ops, err)
	}
	keep := map[int]bool{}
	for _, i := range only {
		keep[i] = true
	}
	found := map[int]bool{}
	var suites []*skampi.Setup
	for _, s := range st.Suites {
		var ops []int
		for _, i := range s.Ops {
			if keep[i] {
				ops, found[i] = append(ops, i), true
			}
		}
		if s.Ops = ops; len(ops) > 0 {
			suites = append(suites, s)
		}
	}
	st.Suites = suites
	for _, w := range strings.Split(ops, ",") {
		i := skampi.OpIndex(strings.TrimSpace(w))
		switch o := skampi.Ops[max(i, 0)]; {
		case i < 0 || found[i]:
		case o.MinProcs() > n:
			return fmt.Errorf("-skampi.ops: %s is a %s operation and needs %d processes; the job has %d", o.Name, o.Pattern, o.MinProcs(), n)
		default:
			return fmt.Errorf("-skampi.ops: %s is in no suite of %s", o.Name, st.File)
		}
	}
	if len(suites) == 0 {
		return fmt.Errorf("-skampi.ops=%s: nothing to measure in %s", ops, st.File)
	}
	return nil
}

// markThreads is the threads that may mark partitions at the job's
// thread level (as MPI provided it).
func markThreads(level string) int {
	if level == "multiple" {
		return skampi.PartitionThreads
	}
	return 1
}

// keepProvided leaves out the operations whose MPI 4 call the library
// (has: mpi.Provides) lacks, with one note naming the library and what
// each suite loses; a run left with nothing is refused.
func (st *Settings) keepProvided(library string, has map[string]bool) error {
	var calls []string
	lost := st.drop(func(o skampi.Op) bool {
		if o.Needs == "" || has[o.Needs] {
			return true
		}
		if !slices.Contains(calls, o.Needs) {
			calls = append(calls, o.Needs)
		}
		return false
	})
	if len(lost) == 0 {
		return nil
	}
	why := fmt.Sprintf("%s lacks the MPI 4 calls %s", libraryName(library), strings.Join(calls, ", "))
	st.Notes = append(st.Notes, why+": "+strings.Join(lost, "; "))
	if len(st.Suites) == 0 {
		return fmt.Errorf("%s: nothing to measure: %s, which every operation left needs", st.File, why)
	}
	return nil
}

// keepWorking leaves out the operations the library is known to get
// wrong (skampi.Broken), with a note; a run left with nothing is refused.
func (st *Settings) keepWorking(library string) error {
	for _, b := range skampi.Broken {
		if !b.In(library) {
			continue
		}
		lost := st.drop(func(o skampi.Op) bool { return !slices.Contains(b.Ops, o.Name) })
		if len(lost) == 0 {
			continue
		}
		why := fmt.Sprintf("%s: %s %s", libraryName(library), strings.Join(b.Ops, ", "), b.Why)
		st.Notes = append(st.Notes, why+": left out of "+strings.Join(lost, "; "))
		if len(st.Suites) == 0 {
			return fmt.Errorf("%s: nothing to measure: %s", st.File, why)
		}
	}
	return nil
}

// drop keeps in each suite the operations keep accepts and drops the
// suites left empty; it returns what each suite lost ("suite s: a, b").
func (st *Settings) drop(keep func(skampi.Op) bool) []string {
	var suites []*skampi.Setup
	var lost []string
	for _, s := range st.Suites {
		var kept []int
		var gone []string
		for _, i := range s.Ops {
			if keep(skampi.Ops[i]) {
				kept = append(kept, i)
			} else {
				gone = append(gone, skampi.Ops[i].Name)
			}
		}
		if len(gone) > 0 {
			lost = append(lost, "suite "+s.Name+": "+strings.Join(gone, ", "))
		}
		if s.Ops = kept; len(kept) > 0 {
			suites = append(suites, s)
		}
	}
	st.Suites = suites
	return lost
}

// libraryName is the library's name and version from the first line of
// MPI_Get_library_version ("Open MPI v4.1.4, package: …" → "Open MPI
// v4.1.4"), or "this MPI library".
func libraryName(library string) string {
	if name, _, _ := strings.Cut(library, ","); strings.TrimSpace(name) != "" {
		return strings.TrimSpace(name)
	}
	return "this MPI library"
}

// curves are the run's curves in suite file order.
func (st *Settings) curves() []skampi.Curve {
	var out []skampi.Curve
	for _, s := range st.Suites {
		out = append(out, s.Curves()...)
	}
	return out
}

// config returns the configuration lines of the suite.
func config(job *harness.Job, st Settings) []string {
	p := st.Prep
	file := st.File
	if file != skampi.DefaultSuitesName {
		file += " sha256:" + st.FileSum
	}
	lines := []string{kv(skampi.KeySuites, file)}
	for _, s := range st.Suites {
		lines = append(lines, kv(s.ConfigLine()))
		if s.Typed() {
			lines = append(lines, kv(skampi.KeyTypes+s.Name, s.TypeLine(typeProcs(s, job.Procs()))))
		}
		if s.HasNeighborhood() {
			lines = append(lines, kv(skampi.KeyTopology+s.Name, s.TopologyLine(job.Procs())))
		}
	}
	if st.Resume != nil {
		lines = append(lines, kv(skampi.KeyResumed, st.Resume.describe()))
	}
	if len(p.NoWindow) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(p.NoWindow)) {
			parts = append(parts, k+": "+p.NoWindow[k])
		}
		lines = append(lines, kv(skampi.KeyRMA, "not measured: "+strings.Join(parts, "; ")))
	}
	lines = append(lines,
		kv(skampi.KeyWtick, fmt.Sprint(p.Wtick)),
		kv(skampi.KeyTimer, fmt.Sprintf("%.3g", p.Timer)),
		kv(skampi.KeyClock, p.clock()))
	if !p.Global && p.OffsetStats != "" {
		lines = append(lines, kv(skampi.KeyOffsets, p.OffsetStats), kv(skampi.KeyOffsetEr, fmt.Sprintf("%.3f", p.OffsetErr*1e6)))
	}
	if len(job.Hosts) > 1 {
		lines = append(lines, kv(skampi.KeyPairMax, p.pairLine(p.Max, p.MaxRTT, job.Hosts)),
			kv(skampi.KeyPairMin, p.pairLine(p.Min, p.MinRTT, job.Hosts)), kv(skampi.KeyPairs, p.searchLine(job.Procs())))
	}
	if rttMatrix != nil {
		for _, l := range rttMatrix.Lines() {
			lines = append(lines, kv(l[0], l[1]))
		}
	}
	return lines
}

func kv(k, v string) string { return k + ": " + v }

// typeProcs is the process count a typed suite's line describes its
// types at: 2 when they do not depend on it, else its largest count.
func typeProcs(s *skampi.Setup, n int) int {
	if !s.SendType.UsesProcs() && (s.RecvType == nil || !s.RecvType.UsesProcs()) {
		return 2
	}
	return min(n, slices.Max(s.Procs))
}
