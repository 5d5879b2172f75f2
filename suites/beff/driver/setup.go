// Package driver runs b_eff under the harness: its flags and settings
// (Setup, decided on rank 0), its configuration lines and the body of
// BenchmarkBeff, which measures every pattern, size and method of the
// definition in package beff through the timed loop of its package loops.
package driver

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beff"
)

// flags are the suite's flags, on the flag set the binary's main owns
// (New puts them there).
type flags struct {
	fs        *flag.FlagSet
	mem       *int64
	lmax      *int64
	seed      *string
	rmax      *float64
	patterns  *string
	shortcut  *float64
	reference *bool
	testFault *bool
	testPause *time.Duration
	watchdog  *time.Duration
	resume    *string
}

func newFlags(fs *flag.FlagSet) *flags {
	return &flags{fs: fs,
		mem:       fs.Int64("beff.mem", 0, "b_eff: memory per process in MiB; Lmax = mem/128 (0: the node's memory divided by the processes on the node; 8 MiB with -test.short)"),
		lmax:      fs.Int64("beff.lmax", 0, "b_eff: the largest message length in bytes, instead of -beff.mem (Lmax = mem/128)"),
		seed:      fs.String("beff.seed", "", "b_eff: seed of the 30 random patterns (unsigned integer; default: drawn on rank 0 and printed)"),
		rmax:      fs.Float64("beff.rmax", 0, "b_eff: Linpack Rmax of the system in GFlop/s, for the balance factor b_eff/Rmax (0: none)"),
		patterns:  fs.String("beff.patterns", "", "b_eff: comma-separated pattern names to measure (default all; a restricted run gives no b_eff)"),
		shortcut:  fs.Float64("beff.shortcut-limit", beff.ShortcutLimit, "b_eff: seconds the two largest sizes may be predicted to take before only the best method is measured there (the definition: 60)"),
		reference: fs.Bool("beff.reference", false, "b_eff: the reference code 3.6.0.1's rules instead of beff's (docs/reference.md): sweeps of all patterns per repetition and size, one loop length per size, repetition and method for all patterns (0.5 s together), its shortcut prediction and its buffer offsets"),
		testFault: fs.Bool("beff.testfault", false, "b_eff, for tests only: corrupt one received message to exercise validation"),
		testPause: fs.Duration("beff.testpause", 0, "b_eff, for tests only: pause this long after each measurement (outside it), so that a test can interrupt a job in its middle"),
		watchdog:  harness.WatchdogFlag(fs, "beff", "b_eff"),
		resume:    fs.String("beff.resume", "", "b_eff: the output of an earlier job of the same configuration that did not finish (results/partial/…): its measurements are copied, the rest measured (its seed is taken)"),
	}
}

// name keys the suite's settings in the job.
var name = beff.ID.Key

// A Driver is b_eff under the harness: its flags, on the flag set the
// binary's main owns, and the handle of the settings rank 0 decides
// (setup), which the benchmark body reads.
type Driver struct {
	*harness.Driver
	f        *flags
	settings harness.Settings[Settings]
}

// New puts b_eff's flags on fs and returns its driver, for harness.Main.
func New(fs *flag.FlagSet) *Driver {
	d := &Driver{f: newFlags(fs)}
	d.Driver, d.settings = harness.NewDriver(harness.Suite[Settings]{ID: beff.ID, Setup: d.f.setup, CheckFlags: d.f.checkFlags, Config: config})
	return d
}

// Settings are the b_eff settings rank 0 decides and broadcasts.
type Settings struct {
	MemMiB    int64
	Lmax      int64
	Sizes     []int64 // the 21 sizes
	Measured  []int   // indexes into Sizes that are measured
	Seed      uint64
	Random    int     // number of random patterns
	Target    float64 // loop time target, seconds
	Rmax      float64 // GFlop/s, 0 if not given
	Patterns  []string
	TestFault bool
	Shortcut  float64 // seconds, see -beff.shortcut-limit
	Reference bool    // the reference code's rules (-beff.reference)
	// Resume holds what -beff.resume copies, nil without it.
	Resume *harness.Resume
}

// setup checks the flags of b_eff on rank 0 and decides the settings.
func (f *flags) setup(job *harness.Job) (Settings, error) {
	st := Settings{Random: fullRandom, Target: beff.TargetLoopTime, Rmax: *f.rmax,
		TestFault: *f.testFault, Shortcut: *f.shortcut, Reference: *f.reference}
	if job.Short {
		st.Random, st.Target = 3, beff.ShortTargetLoopTime
	}
	if err := f.checkFlags(); err != nil {
		return Settings{}, err
	}
	if err := st.decideLmax(f, job); err != nil {
		return Settings{}, err
	}
	if job.Procs() < 2 {
		return Settings{}, fmt.Errorf("b_eff on 1 process: every message would stay inside the process, nothing crosses a network; start it with at least 2 (mpirun -np 2 …)")
	}
	st.Sizes = beff.Sizes(st.Lmax)
	st.Measured = make([]int, len(st.Sizes))
	for i := range st.Measured {
		st.Measured[i] = i
	}
	if job.Short {
		st.Measured = beff.ShortSizeIndexes
	}
	var err error
	if st.Seed, err = harness.DecideSeed("beff.seed", *f.seed); err != nil {
		return Settings{}, err
	}
	if st.Patterns, err = parsePatterns(*f.patterns, st.Random); err != nil {
		return Settings{}, err
	}
	if err := st.readResume(f, job); err != nil {
		return Settings{}, err
	}
	return st, nil
}

// readResume reads -beff.resume: the earlier job must have this run's
// configuration, its seed (taken from it unless -beff.seed is given)
// included.
func (st *Settings) readResume(f *flags, job *harness.Job) error {
	if *f.resume == "" {
		return nil
	}
	if st.Reference {
		return fmt.Errorf("-beff.resume: not with -beff.reference (its sweeps measure all patterns of a size together)")
	}
	want := func(file map[string]string) (map[string]string, error) {
		seed, ok, err := harness.ResumeSeed(file, beff.KeySeed, *f.seed)
		if err != nil {
			return nil, err
		}
		if ok {
			st.Seed = seed
		}
		return job.ResumeWantLines(st.lines()), nil
	}
	r, err := job.ReadResume("beff.resume", *f.resume, beff.Bench, want, checkSaved, "beff-")
	if err != nil {
		return err
	}
	planned := st.plannedNames(job.Procs())
	st.Resume = r.Keep(func(name string) bool { return planned[name] })
	return nil
}

// plannedNames are the names of the measurements the run may make: every
// pattern (of -beff.patterns) at every measured size with every method.
// A resume copies only these, and counts what it copies exactly.
func (st *Settings) plannedNames(procs int) map[string]bool {
	out := map[string]bool{}
	for _, p := range beff.CountSet(procs, st.Random).Patterns {
		if len(st.Patterns) > 0 && !slices.Contains(st.Patterns, p.Name) {
			continue
		}
		for _, si := range st.Measured {
			for _, m := range p.Methods() {
				out[beff.Name(p.Name, st.Sizes[si], m)] = true
			}
		}
	}
	return out
}

// checkSaved checks a line to copy: its loop length and time decide the
// next measurements' loops.
func checkSaved(_ string, m map[string]float64) error {
	ll, t, bw := m[beff.MetricLoopLen], m[beff.MetricLoop], m[beff.MetricMBps]
	if !(ll >= 1 && ll <= 1<<31-1 && ll == math.Trunc(ll)) || !(t > 0) || !(bw >= 0) {
		return fmt.Errorf("not a measurement of b_eff (looplen %v, ms/loop %v, MB/s %v)", ll, t, bw)
	}
	return nil
}

// fullRandom is the number of random patterns of a full run.
const fullRandom = 30

// checkFlags checks what of b_eff's flags needs no job: the numbers'
// ranges and the pattern names (of a full run, whose random patterns are
// the most).
func (f *flags) checkFlags() error {
	if err := harness.CheckRanges(f.fs, flagRanges...); err != nil {
		return err
	}
	_, err := parsePatterns(*f.patterns, fullRandom)
	return err
}

// flagRanges are what b_eff's numeric flags accept.
var flagRanges = []harness.FlagRange{
	harness.WatchdogRange("beff.watchdog"),
	{Flag: "beff.mem", Min: 1, Max: 1 << 30, Unit: "MiB", Zero: "the memory per process of the smallest node"},
	{Flag: "beff.lmax", Min: 1, Max: 1 << 40, Unit: "bytes", Zero: "from the memory"},
	{Flag: "beff.rmax", Min: 1e-3, Max: 1e12, Unit: "GFlop/s", Zero: "not given"},
	{Flag: "beff.shortcut-limit", Min: 0, Max: 86400, Unit: "s"},
	{Flag: "beff.testpause", Min: 0, Max: 60, Unit: "s"},
}

// decideLmax decides the memory per process and Lmax from -beff.mem or
// -beff.lmax and the job's memory.
func (st *Settings) decideLmax(f *flags, job *harness.Job) error {
	var err error
	if st.MemMiB, err = job.MemPerProc("beff.mem", *f.mem, 8); err != nil { // -beff.mem is in its range (flagRanges)
		return err
	}
	st.Lmax = beff.LmaxFromMem(st.MemMiB)
	if err := beff.CheckLmax(st.Lmax); err != nil {
		return fmt.Errorf("-beff.mem=%d MiB: %v", st.MemMiB, err)
	}
	if *f.lmax == 0 {
		return st.checkMemory(job)
	}
	if *f.mem != 0 {
		return fmt.Errorf("-beff.lmax and -beff.mem both set: give one (Lmax = mem/128)")
	}
	if err := beff.CheckLmax(*f.lmax); err != nil {
		return fmt.Errorf("-beff.lmax=%d: %v", *f.lmax, err)
	}
	if need := 12 * *f.lmax / beff.MiB; job.MemMiB > 0 && need > job.MemMiB {
		return fmt.Errorf("-beff.lmax=%d: the two message buffers need %d MiB per process, more than the %d MiB available", *f.lmax, need, job.MemMiB)
	}
	st.Lmax = *f.lmax
	st.MemMiB = (st.Lmax*128 + beff.MiB - 1) / beff.MiB
	return st.checkMemory(job)
}

// checkMemory checks b_eff's memory model against the node's memory.
func (st *Settings) checkMemory(job *harness.Job) error {
	per, root := beff.Memory(st.Lmax, job.Procs())
	return job.CheckMemory("b_eff", harness.BaseBytes+per+root, "lower -beff.mem or -beff.lmax")
}

// parsePatterns checks -beff.patterns against the patterns of a run with
// random random patterns.
func parsePatterns(list string, random int) ([]string, error) {
	if list == "" {
		return nil, nil
	}
	known := beff.PatternNames(random)
	var out []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(known, name) {
			return nil, fmt.Errorf("-beff.patterns: unknown pattern %q; the patterns are %s", name, strings.Join(known, ", "))
		}
		out = append(out, name)
	}
	return out, nil
}

// config returns the configuration lines of b_eff.
func config(job *harness.Job, st Settings) []string {
	lines := st.lines()
	if st.Resume != nil {
		lines = append(lines, beff.KeyResumed+": "+st.Resume.Describe("measurements"))
	}
	if multiHost(job.Hosts) {
		lines = append(lines, beff.KeyRingPaths+": "+beff.FormatPaths(beff.RingPaths(job.Procs(), jobPath(job))))
	}
	return lines
}

// multiHost says whether the ranks run on more than one host.
func multiHost(hosts []string) bool {
	for _, h := range hosts {
		if h != hosts[0] {
			return true
		}
	}
	return false
}

// jobPath says where the path between two ranks of the job goes, from
// their hosts and (on rank 0, under Slurm) their switches.
func jobPath(job *harness.Job) func(a, b int) string {
	sw := func(r int) string {
		if r < len(job.TopoAddrs) {
			return results.SwitchOf(job.TopoAddrs[r])
		}
		return ""
	}
	return func(a, b int) string { return results.Path(job.Hosts[a], sw(a), job.Hosts[b], sw(b)) }
}

// lines are the configuration lines of the settings.
func (st *Settings) lines() []string {
	sizes := make([]string, len(st.Measured))
	for i, k := range st.Measured {
		sizes[i] = strconv.FormatInt(st.Sizes[k], 10)
	}
	line := func(key string, format string, args ...any) string {
		return key + ": " + fmt.Sprintf(format, args...)
	}
	lines := []string{
		line(beff.KeyMem, "%d", st.MemMiB),
		line(beff.KeyLmax, "%d", st.Lmax),
		line(beff.KeySizes, "%s", strings.Join(sizes, ",")),
		line(beff.KeyRandom, "%d", st.Random),
		line(beff.KeySeed, "%d", st.Seed),
		line(beff.KeyTarget, "%g", st.Target*1e3),
	}
	if st.Reference {
		lines[len(lines)-1] = line(beff.KeyTarget, "%g (the loops of all patterns of a size, repetition and method together)", beff.RefTimePerSweep*1e3)
		lines = append(lines, line(beff.KeyRules, "reference"))
	}
	if st.Rmax > 0 {
		lines = append(lines, line(beff.KeyRmax, "%g", st.Rmax))
	}
	if len(st.Patterns) > 0 {
		lines = append(lines, line(beff.KeyPatterns, "%s", strings.Join(st.Patterns, ",")))
	}
	if st.Shortcut != beff.ShortcutLimit {
		lines = append(lines, line(beff.KeyShortcut, "%g", st.Shortcut))
	}
	if st.TestFault {
		lines = append(lines, line(beff.KeyTestFault, "on (a message is corrupted on purpose)"))
	}
	return lines
}
