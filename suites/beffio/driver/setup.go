// Package driver runs b_eff_io under the harness: its flags and settings
// (Setup, decided on rank 0), its configuration lines and the body of
// BenchmarkBeffIO, which writes, rewrites and reads every pattern of the
// definition in package beffio through MPI-IO on a real file system.
package driver

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beffio"
)

// flags are the suite's flags, on the flag set the binary's main owns
// (New puts them there).
type flags struct {
	fs         *flag.FlagSet
	T          *float64
	dir        *string
	partitions *string
	mem        *int64
	totalMem   *int64
	keep       *bool
	rewrite    *string
	stop       *string
	dropCaches *bool
	hints      *string
	maxData    *int64
	testFault  *bool
	sharedFP   *string
	watchdog   *time.Duration
	reference  *bool
	resume     *string
	cache      *int64
}

func newFlags(fs *flag.FlagSet) *flags {
	return &flags{fs: fs,
		T:          fs.Float64("beffio.T", 150, "b_eff_io: scheduled time of the whole run in seconds (official results need at least 15 minutes per partition; 6 with -test.short unless given)"),
		dir:        fs.String("beffio.dir", "", "b_eff_io: directory on the file system under test (default: a fresh directory under the system temp dir, $TMPDIR or /tmp, removed afterwards, with at most 8 GiB written there)"),
		partitions: fs.String("beffio.partitions", "", "b_eff_io: comma-separated partition sizes (default: the rule of docs/beffio.md for the job size)"),
		mem:        fs.Int64("beffio.mem", 0, "b_eff_io: memory per process in MiB; MPART = max(2 MiB, mem/128) (default as for b_eff)"),
		totalMem:   fs.Int64("beffio.totalmem", 0, "b_eff_io: total memory of the system in MiB (default: the sum over the nodes of the job)"),
		keep:       fs.Bool("beffio.keep", false, "b_eff_io: keep the files"),
		rewrite:    fs.String("beffio.rewrite", "all", "b_eff_io: rewrite all pattern types (all, the paper) or only the scatter type (scatter, release 2)"),
		stop:       fs.String("beffio.stop", "geometric", "b_eff_io: stop rule of the time-driven initial write: geometric (batches, few decisions) or barrier (barrier and broadcast after every call, the reference code)"),
		dropCaches: fs.Bool("beffio.dropcaches", false, "b_eff_io: drop the page cache between the write and the read phase where permitted, else advise the kernel to drop the files' pages"),
		hints:      fs.String("beffio.hints", "", "b_eff_io: MPI-IO hints file: lines of [partition=N] [access=A] [type=T] [l=BYTES] key=value …; rules without l apply at open, with l before each pattern of that chunk size"),
		maxData:    fs.Int64("beffio.maxdata", 0, "b_eff_io: most data in MiB the run may put on the file system (default: half of its free space at the start, at most 8 GiB in the temporary directory, the default -beffio.dir; of a quick run at most 400 MiB); time-driven patterns that reach their share stop early and the run is NOT VALID"),
		testFault:  fs.Bool("beffio.testfault", false, "b_eff_io, for tests only: overwrite the first 8 bytes of the first partition's scatter file before the read phase"),
		sharedFP:   fs.String("beffio.sharedfp", "auto", "b_eff_io: shared file pointer of type 1: auto (use it; where MPI_File_seek_shared fails, e.g. without file locking, substitute explicit offsets) or off (always explicit offsets); a substitution makes the run NOT VALID"),
		watchdog:   harness.WatchdogFlag(fs, "beffio", "b_eff_io"),
		reference:  fs.Bool("beffio.reference", false, "b_eff_io: the reference code 2.1's rules instead of the paper's (docs/reference.md): rewrite of the scatter type only, a barrier and broadcast after every call of the timed write, unique open, the read's close removes the file and counts in its time, b_eff_io by the reference's formula, valid from 30 min per partition"),
		resume:     fs.String("beffio.resume", "", "b_eff_io: the output of an earlier job of the same configuration that did not finish (results/partial/…): the partitions whose three access phases it holds are copied, the others measured"),
		cache:      fs.Int64("beffio.cache", 0, "b_eff_io: file-system cache size in MiB for the 20x rule (default: the memory of rank 0's node)"),
	}
}

// ExitIO is the exit code of a run stopped by an I/O error.
const ExitIO = harness.ExitIO

// name keys the suite's settings in the job.
var name = beffio.ID.Key

// A Driver is b_eff_io under the harness: its flags, on the flag set the
// binary's main owns, and the handle of the settings rank 0 decides
// (setup), which the benchmark body reads.
type Driver struct {
	*harness.Driver
	f        *flags
	settings harness.Settings[Settings]
}

// New puts b_eff_io's flags on fs and returns its driver, for harness.Main.
func New(fs *flag.FlagSet) *Driver {
	d := &Driver{f: newFlags(fs)}
	d.Driver, d.settings = harness.NewDriver(harness.Suite[Settings]{ID: beffio.ID, Setup: d.f.setup, CheckFlags: d.f.checkFlags, Config: config})
	return d
}

// Settings are the b_eff_io settings rank 0 decides and broadcasts.
type Settings struct {
	T float64
	// Parent is where the run makes its own directory (mode 0700, a
	// fresh name), Dir that directory: -beffio.dir, or the temporary
	// directory; no two jobs share their files.
	Parent     string
	Dir        string // made by the run on rank 0
	FS         string // the file system of Parent (beffio.FSLine), "" when unknown
	Partitions []int
	MemMiB     int64
	MPART      int64
	TotalMiB   int64
	CacheMiB   int64
	Keep       bool
	Rules      beffio.Rules // paper or reference
	Rewrite    beffio.RewriteMode
	Stop       beffio.StopRule
	DropCaches string // off, drop_caches or fadvise
	HintsFile  string
	Hints      []beffio.HintRule
	TestFault  bool
	SharedFP   string // auto or off
	MaxData    int64  // bytes the run may write (all partitions' files coexist)
	MaxDataWhy string // how MaxData was chosen
	// Resume holds the lines -beffio.resume copies: those of the
	// partitions Copied, whose three access phases all finished.
	Resume *harness.Resume
	Copied []int
}

// setup checks the flags of b_eff_io on rank 0 and decides the settings.
func (f *flags) setup(job *harness.Job) (Settings, error) {
	st := Settings{TestFault: *f.testFault, SharedFP: *f.sharedFP, T: *f.T, Parent: *f.dir,
		MemMiB: *f.mem, TotalMiB: *f.totalMem, CacheMiB: *f.cache, Keep: *f.keep,
		Rewrite: beffio.RewriteMode(*f.rewrite), Stop: beffio.StopRule(*f.stop), DropCaches: "off"}
	if job.Short && !harness.IsSet(f.fs, "beffio.T") {
		st.T = 6
	}
	if err := f.checkFlags(); err != nil {
		return Settings{}, err
	}
	for _, check := range []func(*flags, *harness.Job) error{st.decideRules, st.checkModes, st.decidePartitions, st.decideMemory, st.checkT, st.decideDir, st.decideFS, st.decideMaxData, st.readHints, st.readResume} {
		if err := check(f, job); err != nil {
			return Settings{}, err
		}
	}
	if *f.dropCaches {
		st.DropCaches = "fadvise"
		if f, err := os.OpenFile("/proc/sys/vm/drop_caches", os.O_WRONLY, 0); err == nil {
			f.Close()
			st.DropCaches = "drop_caches"
		}
	}
	return st, nil
}

// checkFlags checks what of b_eff_io's flags needs no job: the numbers'
// ranges and the names of the modes.
func (f *flags) checkFlags() error {
	if err := harness.CheckRanges(f.fs, flagRanges...); err != nil {
		return err
	}
	st := Settings{SharedFP: *f.sharedFP, Rewrite: beffio.RewriteMode(*f.rewrite), Stop: beffio.StopRule(*f.stop)}
	return st.checkModes(f, nil)
}

// flagRanges are what b_eff_io's numeric flags accept.
var flagRanges = []harness.FlagRange{
	harness.WatchdogRange("beffio.watchdog"),
	{Flag: "beffio.T", Min: 1e-3, Max: 1e7, Unit: "s"},
	{Flag: "beffio.mem", Min: 1, Max: 1 << 30, Unit: "MiB", Zero: "the memory per process of the smallest node"},
	{Flag: "beffio.totalmem", Min: 1, Max: 1 << 40, Unit: "MiB", Zero: "the job's memory"},
	{Flag: "beffio.cache", Min: 1, Max: 1 << 40, Unit: "MiB", Zero: "the job's memory"},
	{Flag: "beffio.maxdata", Min: 1, Max: 1 << 40, Unit: "MiB", Zero: "half of the free space, in the temporary directory at most 8 GiB"},
}

// decideRules takes the paper's rules, or with -beffio.reference the
// reference code's, which rewrite only the scatter type (unless
// -beffio.rewrite says otherwise, as the reference's -rewrite does) and stop
// the timed write by its barrier rule.
func (st *Settings) decideRules(f *flags, _ *harness.Job) error {
	st.Rules = beffio.RulesPaper
	if !*f.reference {
		return nil
	}
	st.Rules = beffio.RulesReference
	if !harness.IsSet(f.fs, "beffio.rewrite") {
		st.Rewrite = beffio.RewriteScatter
	}
	if harness.IsSet(f.fs, "beffio.stop") && st.Stop != beffio.StopBarrier {
		return fmt.Errorf("-beffio.stop=%s: -beffio.reference stops the timed write by the reference code's rule (barrier); leave -beffio.stop out", *f.stop)
	}
	st.Stop = beffio.StopBarrier
	return nil
}

func (st *Settings) checkModes(f *flags, _ *harness.Job) error {
	if st.Rewrite != beffio.RewriteAll && st.Rewrite != beffio.RewriteScatter {
		return fmt.Errorf("-beffio.rewrite=%s: want all or scatter", *f.rewrite)
	}
	if st.SharedFP != "auto" && st.SharedFP != "off" {
		return fmt.Errorf("-beffio.sharedfp=%s: want auto or off", st.SharedFP)
	}
	if st.Stop != beffio.StopGeometric && st.Stop != beffio.StopBarrier {
		return fmt.Errorf("-beffio.stop=%s: want geometric or barrier", *f.stop)
	}
	return nil
}

// decidePartitions takes -beffio.partitions or the default partitions.
func (st *Settings) decidePartitions(f *flags, job *harness.Job) error {
	n := job.Procs()
	st.Partitions = beffio.Partitions(n)
	given := *f.partitions
	if given == "" {
		return nil
	}
	st.Partitions = nil
	for _, f := range strings.Split(given, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(f))
		switch {
		case err != nil || p < 1:
			return fmt.Errorf("-beffio.partitions=%s: %q is not a positive number of processes", given, f)
		case p > n:
			return fmt.Errorf("-beffio.partitions=%s: partition %d is larger than the job (%d processes)", given, p, n)
		case slices.Contains(st.Partitions, p):
			return fmt.Errorf("-beffio.partitions=%s: partition %d given twice", given, p)
		}
		st.Partitions = append(st.Partitions, p)
	}
	slices.Sort(st.Partitions)
	return nil
}

// decideMemory decides M, MPART, the total memory and the cache size.
func (st *Settings) decideMemory(_ *flags, job *harness.Job) error {
	var err error
	if st.MemMiB, err = job.MemPerProc("beffio.mem", st.MemMiB, 8); err != nil { // -beffio.mem is in its range (flagRanges)
		return err
	}
	st.MPART = beffio.MPART(st.MemMiB)
	// MPI-IO's own memory on its aggregators depends on how many the
	// library picks for the job: only b_eff_io's own is checked
	per, _ := beffio.Memory(beffio.Table(st.MPART), job.Procs())
	if err := job.CheckMemory("b_eff_io", harness.BaseBytes+per+beffio.RootBytes*int64(job.Procs()), "lower -beffio.mem"); err != nil {
		return err
	}
	if st.TotalMiB < 0 || st.CacheMiB < 0 {
		return fmt.Errorf("-beffio.totalmem and -beffio.cache must be positive (MiB)")
	}
	if st.TotalMiB == 0 {
		st.TotalMiB = job.TotalMiB
	}
	if st.CacheMiB == 0 {
		st.CacheMiB = job.RootMiB
	}
	return nil
}

// checkT refuses a T too small for the pattern set (beffio.MinT).
func (st *Settings) checkT(_ *flags, _ *harness.Job) error {
	sumU := beffio.ScheduleSumU(beffio.Table(st.MPART), st.Rewrite)
	minT := beffio.MinT(sumU, len(st.Partitions))
	if math.IsNaN(st.T) || st.T < minT {
		return fmt.Errorf("-beffio.T=%g s: too small for the pattern set: with %d partitions and ΣU = %d a pattern of one time unit would get less than %g ms; use at least %.1f s", st.T, len(st.Partitions), sumU, beffio.MinPatternTime*1e3, math.Ceil(minT*10)/10)
	}
	return nil
}

// decideDir checks -beffio.dir, under which the run makes its own
// directory (by default under the temporary directory).
func (st *Settings) decideDir(_ *flags, _ *harness.Job) error {
	if st.Parent == "" {
		st.Parent = os.TempDir()
		return nil
	}
	if err := checkDir(st.Parent, beffio.MinDiskBytes(beffio.Table(st.MPART), st.Partitions)); err != nil {
		return err
	}
	st.Parent, _ = filepath.Abs(st.Parent)
	return nil
}

// decideFS describes the file system of the directory: the mount that
// holds it and, for GlusterFS, the servers of its bricks.
func (st *Settings) decideFS(_ *flags, _ *harness.Job) error {
	info, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil // not Linux: no line
	}
	dir, err := filepath.EvalSymlinks(st.Parent)
	if err != nil {
		dir = st.Parent
	}
	m, ok := beffio.MountOf(info, dir)
	if !ok {
		return nil
	}
	var servers []string
	if m.Type == "fuse.glusterfs" {
		buf := make([]byte, 64<<10)
		if n, err := syscall.Getxattr(dir, "trusted.glusterfs.pathinfo", buf); err == nil {
			servers = beffio.GlusterServers(string(buf[:n]))
		}
	}
	st.FS = beffio.FSLine(m, servers)
	return nil
}

// QuickMaxData is the data budget of a quick run (-test.short) unless
// -beffio.maxdata says otherwise: its files hold at most this much, so
// that the write and the rewrite put at most 1 GiB on the file system.
const QuickMaxData int64 = 400 * beffio.MiB

// TempMaxData is the data budget in the system's temporary directory,
// where b_eff_io writes unless -beffio.dir names the file system under
// test: a first run on a shared node must not fill the node's /tmp.
const TempMaxData int64 = 8 << 10 * beffio.MiB

// decideMaxData takes -beffio.maxdata, or half of the free space: at most
// TempMaxData in the temporary directory, of a quick run at most
// QuickMaxData.
func (st *Settings) decideMaxData(f *flags, job *harness.Job) error {
	if *f.maxData > 0 { // in its range (flagRanges)
		st.MaxData, st.MaxDataWhy = *f.maxData*beffio.MiB, "-beffio.maxdata"
		return nil
	}
	var fs syscall.Statfs_t
	if err := syscall.Statfs(st.Parent, &fs); err == nil {
		st.MaxData, st.MaxDataWhy = int64(fs.Bavail)*int64(fs.Bsize)/2, "half of the free space at the start"
	}
	if *f.dir == "" && (st.MaxData == 0 || st.MaxData > TempMaxData) {
		st.MaxData, st.MaxDataWhy = TempMaxData, fmt.Sprintf("%d GiB in the temporary directory (-beffio.dir names the file system to measure)", TempMaxData>>30)
	}
	if job.Short && (st.MaxData == 0 || st.MaxData > QuickMaxData) {
		st.MaxData, st.MaxDataWhy = QuickMaxData, "a quick run's budget: 1 GiB written with the rewrite"
	}
	return nil
}

// readHints reads the hints file of -beffio.hints.
func (st *Settings) readHints(f *flags, _ *harness.Job) error {
	if *f.hints == "" {
		return nil
	}
	data, err := results.ReadInput(*f.hints)
	if err != nil {
		return fmt.Errorf("-beffio.hints: %v", err)
	}
	if st.Hints, err = beffio.ParseHints(bytes.NewReader(data), *f.hints); err != nil {
		return fmt.Errorf("-beffio.hints: %v", err)
	}
	maxKey, maxVal := mpi.InfoLimits()
	if err := beffio.CheckHintLimits(st.Hints, *f.hints, maxKey, maxVal); err != nil {
		return fmt.Errorf("-beffio.hints: %v", err)
	}
	st.HintsFile = *f.hints
	return nil
}

// checkDir tells whether dir exists, is a writable directory, and its file
// system has at least need bytes free.
func checkDir(dir string, need int64) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("-beffio.dir=%s: %v", dir, errors.Unwrap(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("-beffio.dir=%s: not a directory", dir)
	}
	probe, err := os.CreateTemp(dir, ".beffio-probe-")
	if err != nil {
		return fmt.Errorf("-beffio.dir=%s: not writable: %v", dir, errors.Unwrap(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err == nil {
		if free := int64(fs.Bavail) * int64(fs.Bsize); free < need {
			return fmt.Errorf("-beffio.dir=%s: the file system has %d MiB free, a run needs at least %d MiB", dir, free/beffio.MiB, (need+beffio.MiB-1)/beffio.MiB)
		}
	}
	return nil
}

// readResume reads -beffio.resume and keeps the partitions of the
// earlier job whose write, rewrite and read phases all finished: they
// are copied, the others measured (a phase reads what the partition
// wrote).
func (st *Settings) readResume(f *flags, job *harness.Job) error {
	if *f.resume == "" {
		return nil
	}
	if st.TestFault {
		return fmt.Errorf("-beffio.resume: not with -beffio.testfault")
	}
	want := func(file map[string]string) (map[string]string, error) {
		w := job.ResumeWantLines(st.lines())
		// what the free space and the MPI library gave the earlier job
		for _, k := range []string{beffio.KeyMaxData, beffio.KeyHintsUsed} {
			if v, ok := file[k]; ok {
				w[k] = v
			}
		}
		return w, nil
	}
	r, err := job.ReadResume("beffio.resume", *f.resume, beffio.Bench, want, nil, "beffio-")
	if err != nil || r == nil {
		return err
	}
	table := beffio.Table(st.MPART)
	for _, n := range st.Partitions {
		done := true
		for _, k := range beffio.PartitionKeys(n, st.Rewrite, table) {
			done = done && r.Counts[k.String()] > 0
		}
		if done {
			st.Copied = append(st.Copied, n)
		}
	}
	st.Resume = r.Keep(func(name string) bool {
		for _, n := range st.Copied {
			if strings.HasPrefix(name, fmt.Sprintf("n=%d/", n)) {
				return true
			}
		}
		return false
	})
	return nil
}

// config returns the configuration lines of b_eff_io.
func config(job *harness.Job, st Settings) []string {
	lines := st.lines()
	if st.Resume != nil {
		lines = append(lines, beffio.KeyResumed+": "+st.Resume.Describe(fmt.Sprintf("lines of partitions %s", joinInts(st.Copied))))
	}
	return lines
}

// joinInts writes numbers joined by commas.
func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// lines are the configuration lines of the settings.
func (st *Settings) lines() []string {
	dir := "(a fresh directory under " + st.Parent + ")"
	line := func(key string, format string, args ...any) string {
		return key + ": " + fmt.Sprintf(format, args...)
	}
	lines := []string{
		line(beffio.KeyT, "%g", st.T),
		line(beffio.KeyPartitions, "%s", joinInts(st.Partitions)),
		line(beffio.KeyMem, "%d", st.MemMiB),
		line(beffio.KeyMPART, "%d", st.MPART),
		line(beffio.KeyTotalMem, "%d", st.TotalMiB),
		line(beffio.KeyCache, "%d", st.CacheMiB),
		line(beffio.KeyDir, "%s", dir),
		line(beffio.KeyRules, "%s", st.Rules),
		line(beffio.KeyRewrite, "%s", st.Rewrite),
		line(beffio.KeyStop, "%s", st.Stop),
		line(beffio.KeySharedFP, "%s", st.SharedFP),
		line(beffio.KeyDropCaches, "%s", st.DropCaches),
		line(beffio.KeyHints, "%s", hintsDesc(*st)),
		line(beffio.KeyMaxData, "%d (%s)", st.MaxData/beffio.MiB, st.MaxDataWhy),
	}
	if st.FS != "" {
		lines = append(lines, line(beffio.KeyFS, "%s", st.FS))
	}
	return lines
}

func hintsDesc(st Settings) string {
	if st.HintsFile == "" {
		return "none"
	}
	return fmt.Sprintf("%s (%d rules)", st.HintsFile, len(st.Hints))
}
