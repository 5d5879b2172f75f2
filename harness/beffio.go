package harness

import (
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
	"testing"
	"time"

	"github.com/beff-suite/beff/internal/beffio"
	"github.com/beff-suite/beff/internal/mpi"
)

// Flags of b_eff_io.
var (
	ioT          = flag.Float64("beffio.T", 150, "b_eff_io: scheduled time of the whole run in seconds (official results need at least 15 minutes per partition; 6 with -test.short unless given)")
	ioDir        = flag.String("beffio.dir", "", "b_eff_io: directory on the file system under test (default: a fresh directory under the system temp dir, removed afterwards)")
	ioPartitions = flag.String("beffio.partitions", "", "b_eff_io: comma-separated partition sizes (default: the SPEC rule for the job size)")
	ioMem        = flag.Int64("beffio.mem", 0, "b_eff_io: memory per process in MiB; MPART = max(2 MiB, mem/128) (default as for b_eff)")
	ioTotalMem   = flag.Int64("beffio.totalmem", 0, "b_eff_io: total memory of the system in MiB (default: the sum over the nodes of the job)")
	ioKeep       = flag.Bool("beffio.keep", false, "b_eff_io: keep the files")
	ioRewrite    = flag.String("beffio.rewrite", "all", "b_eff_io: rewrite all pattern types (all, the paper) or only the scatter type (scatter, release 2)")
	ioStop       = flag.String("beffio.stop", "geometric", "b_eff_io: stop rule of the time-driven initial write: geometric (batches, few decisions) or barrier (barrier and broadcast after every call, the reference code)")
	ioDropCaches = flag.Bool("beffio.dropcaches", false, "b_eff_io: drop the page cache between the write and the read phase where permitted, else advise the kernel to drop the files' pages")
	ioHints      = flag.String("beffio.hints", "", "b_eff_io: MPI-IO hints file: lines of [partition=N] [access=A] [type=T] [l=BYTES] key=value …; rules without l apply at open, with l before each pattern of that chunk size")
	ioMaxData    = flag.Int64("beffio.maxdata", 0, "b_eff_io: most data in MiB the run may put on the file system (default: half of its free space at the start); time-driven patterns that reach their share stop early and the run is NOT VALID")
	ioTestFault  = flag.Bool("beffio.testfault", false, "b_eff_io, for tests only: overwrite the first 8 bytes of the first partition's scatter file before the read phase")
	ioSharedFP   = flag.String("beffio.sharedfp", "auto", "b_eff_io: shared file pointer of type 1: auto (use it; where MPI_File_seek_shared fails, e.g. without file locking, substitute explicit offsets) or off (always explicit offsets); a substitution makes the run NOT VALID")
	ioCache      = flag.Int64("beffio.cache", 0, "b_eff_io: file-system cache size in MiB for the 20x rule (default: the memory of rank 0's node)")
)

// ExitIO is the exit code of a run stopped by an I/O error.
const ExitIO = 5

// minPatternTime is the least scheduled time a U=1 pattern may get.
const minPatternTime = 5e-3

// IOSettings are the b_eff_io settings rank 0 decides and broadcasts.
type IOSettings struct {
	T          float64
	Dir        string // "" until the run creates the default directory
	OwnDir     bool   // the directory is created and removed by the run
	Partitions []int
	MemMiB     int64
	MPART      int64
	TotalMiB   int64
	CacheMiB   int64
	Keep       bool
	Rewrite    beffio.RewriteMode
	Stop       beffio.StopRule
	DropCaches string // off, drop_caches or fadvise
	HintsFile  string
	Hints      []HintRule
	TestFault  bool
	SharedFP   string // auto or off
	MaxData    int64  // bytes the run may write (all partitions' files coexist)
	MaxDataWhy string // how MaxData was chosen
}

var ioUnits = []string{
	"MB better=higher",
	"s better=lower",
	"errors better=lower",
	"decisions better=lower",
	"stop-ms better=lower",
	"sharedfp better=higher",
	"capped better=lower",
}

func init() {
	Register(&Suite{Name: "beffio", Setup: ioSetup, Config: ioConfig, Units: ioUnits})
}

func ioSetup(info *RunInfo) (any, error) {
	n := len(info.Hosts)
	st := IOSettings{TestFault: *ioTestFault, SharedFP: *ioSharedFP, T: *ioT, Dir: *ioDir, MemMiB: *ioMem, TotalMiB: *ioTotalMem, CacheMiB: *ioCache, Keep: *ioKeep,
		Rewrite: beffio.RewriteMode(*ioRewrite), Stop: beffio.StopRule(*ioStop), DropCaches: "off"}
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if info.Short && !set["beffio.T"] {
		st.T = 6
	}
	if st.Rewrite != beffio.RewriteAll && st.Rewrite != beffio.RewriteScatter {
		return nil, fmt.Errorf("-beffio.rewrite=%s: want all or scatter", *ioRewrite)
	}
	if st.SharedFP != "auto" && st.SharedFP != "off" {
		return nil, fmt.Errorf("-beffio.sharedfp=%s: want auto or off", st.SharedFP)
	}
	if st.Stop != beffio.StopGeometric && st.Stop != beffio.StopBarrier {
		return nil, fmt.Errorf("-beffio.stop=%s: want geometric or barrier", *ioStop)
	}
	st.Partitions = beffio.Partitions(n)
	if *ioPartitions != "" {
		st.Partitions = nil
		for _, f := range strings.Split(*ioPartitions, ",") {
			p, err := strconv.Atoi(strings.TrimSpace(f))
			switch {
			case err != nil || p < 1:
				return nil, fmt.Errorf("-beffio.partitions=%s: %q is not a positive number of processes", *ioPartitions, f)
			case p > n:
				return nil, fmt.Errorf("-beffio.partitions=%s: partition %d is larger than the job (%d processes)", *ioPartitions, p, n)
			case slices.Contains(st.Partitions, p):
				return nil, fmt.Errorf("-beffio.partitions=%s: partition %d given twice", *ioPartitions, p)
			}
			st.Partitions = append(st.Partitions, p)
		}
		slices.Sort(st.Partitions)
	}
	switch {
	case st.MemMiB < 0:
		return nil, fmt.Errorf("-beffio.mem=%d: the memory per process must be positive (MiB)", st.MemMiB)
	case st.MemMiB == 0 && info.Short:
		st.MemMiB = 8
	case st.MemMiB == 0:
		st.MemMiB = info.MemMiB
	}
	if info.MemMiB > 0 && st.MemMiB > info.MemMiB {
		return nil, fmt.Errorf("-beffio.mem=%d MiB: more than the %d MiB of memory per process of the smallest node", st.MemMiB, info.MemMiB)
	}
	st.MPART = beffio.MPART(st.MemMiB)
	if st.TotalMiB < 0 || st.CacheMiB < 0 {
		return nil, fmt.Errorf("-beffio.totalmem and -beffio.cache must be positive (MiB)")
	}
	if st.TotalMiB == 0 {
		st.TotalMiB = info.TotalMiB
	}
	if st.CacheMiB == 0 {
		st.CacheMiB = nodeMemMiB()
	}
	table := beffio.Table(st.MPART)
	sumU := beffio.ScheduleSumU(table, st.Rewrite)
	minT := minPatternTime * float64(sumU) * float64(len(st.Partitions))
	if math.IsNaN(st.T) || st.T < minT {
		return nil, fmt.Errorf("-beffio.T=%g s: too small for the pattern set: with %d partitions and ΣU = %d a pattern of one time unit would get less than %g ms; use at least %.1f s", st.T, len(st.Partitions), sumU, minPatternTime*1e3, math.Ceil(minT*10)/10)
	}
	if st.Dir != "" {
		if err := checkDir(st.Dir, minDiskBytes(table, st.Partitions)); err != nil {
			return nil, err
		}
		st.Dir, _ = filepath.Abs(st.Dir)
	} else {
		st.OwnDir = true
	}
	switch {
	case *ioMaxData < 0:
		return nil, fmt.Errorf("-beffio.maxdata=%d: want a positive number of MiB", *ioMaxData)
	case *ioMaxData > 0:
		st.MaxData, st.MaxDataWhy = *ioMaxData*beffio.MiB, "-beffio.maxdata"
	default:
		dir := st.Dir
		if dir == "" {
			dir = os.TempDir()
		}
		var fs syscall.Statfs_t
		if err := syscall.Statfs(dir, &fs); err == nil {
			st.MaxData, st.MaxDataWhy = int64(fs.Bavail)*int64(fs.Bsize)/2, "half of the free space at the start"
		}
	}
	if *ioHints != "" {
		f, err := os.Open(*ioHints)
		if err != nil {
			return nil, fmt.Errorf("-beffio.hints: %v", err)
		}
		st.Hints, err = ParseHints(f, *ioHints)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("-beffio.hints: %v", err)
		}
		st.HintsFile = *ioHints
	}
	if *ioDropCaches {
		st.DropCaches = "fadvise"
		if f, err := os.OpenFile("/proc/sys/vm/drop_caches", os.O_WRONLY, 0); err == nil {
			f.Close()
			st.DropCaches = "drop_caches"
		}
	}
	return st, nil
}

// minDiskBytes is what one call of every pattern of the largest partition
// writes: less free space than this cannot hold even a minimal run.
func minDiskBytes(table []beffio.Pattern, parts []int) int64 {
	n := int64(slices.Max(parts))
	var s int64
	for _, p := range table {
		s += p.Mem * n
	}
	return s
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

func ioConfig(info *RunInfo) []string {
	var st IOSettings
	if err := info.State("beffio", &st); err != nil {
		return nil
	}
	parts := make([]string, len(st.Partitions))
	for i, p := range st.Partitions {
		parts[i] = strconv.Itoa(p)
	}
	dir := st.Dir
	if st.OwnDir {
		dir = "(a fresh directory under " + os.TempDir() + ")"
	}
	return []string{
		fmt.Sprintf("beffio-t-s: %g", st.T),
		"beffio-partitions: " + strings.Join(parts, ","),
		fmt.Sprintf("beffio-mem-per-proc-mib: %d", st.MemMiB),
		fmt.Sprintf("beffio-mpart: %d", st.MPART),
		fmt.Sprintf("beffio-totalmem-mib: %d", st.TotalMiB),
		fmt.Sprintf("beffio-cache-mib: %d", st.CacheMiB),
		"beffio-dir: " + dir,
		"beffio-rewrite: " + string(st.Rewrite),
		"beffio-stop: " + string(st.Stop),
		"beffio-sharedfp: " + st.SharedFP,
		"beffio-dropcaches: " + st.DropCaches,
		fmt.Sprintf("beffio-hints: %s", hintsDesc(st)),
		fmt.Sprintf("beffio-maxdata-mib: %d (%s)", st.MaxData/beffio.MiB, st.MaxDataWhy),
	}
}

// capCalls is the most calls a time-driven write pattern may make within
// the data budget: the partition's share of MaxData times the pattern's
// share U/ΣU of the write (0: no budget).
func (r *ioRun) capCalls(p *ioPart, pat beffio.Pattern) int64 {
	if r.st.MaxData <= 0 || pat.U == 0 {
		return 0
	}
	budget := float64(r.st.MaxData) / float64(len(r.parts)) * float64(pat.U) / float64(beffio.SumU(r.table))
	return max(1, int64(budget/float64(pat.Bytes(1, p.n))))
}

func hintsDesc(st IOSettings) string {
	if st.HintsFile == "" {
		return "none"
	}
	return fmt.Sprintf("%s (%d rules)", st.HintsFile, len(st.Hints))
}

// info builds the MPI_Info of the selected hints (InfoNull for none).
func (r *ioRun) info(n int, acc beffio.Access, t beffio.Type, l int64) mpi.Info {
	h := SelectHints(r.st.Hints, n, acc, t, l)
	if h == nil {
		return mpi.InfoNull()
	}
	i, err := mpi.NewInfo(h)
	r.s.must("creating the MPI_Info of the hints", err)
	return i
}

// reportHints opens a probe file on every process with the hints given for
// opening (no partition, access or type selected) and prints, as a
// configuration line, the hints the MPI library reports in effect. It runs
// before any sub-benchmark, so the line precedes every b_eff_io result.
func (r *ioRun) reportHints() {
	s := r.s
	path := filepath.Join(r.st.Dir, "beffio_hints_probe.dat")
	h := map[string]string{}
	for _, rule := range r.st.Hints {
		if rule.Partition == 0 && rule.Access == "" && rule.Type == "" && rule.L == 0 {
			for _, kv := range rule.Hints {
				h[kv[0]] = kv[1]
			}
		}
	}
	info, err := mpi.NewInfo(h)
	s.must("creating the MPI_Info of the hints", err)
	defer info.Free()
	fh, err := mpi.OpenFile(s.Comm, path, mpi.OpenCreate, info)
	if err != nil {
		s.Logf("b_eff_io: probing the hints: %v", err)
		return
	}
	used, err := fh.Hints()
	fh.Close()
	if s.IsRoot() {
		os.Remove(path)
		if err == nil {
			desc := formatHints(used)
			if desc == "" {
				desc = "none reported by the MPI library"
			}
			fmt.Fprintf(s.Out, "beffio-hints-used: %s\n", desc)
		}
	}
}

// ioPart is what the run knows about one partition.
type ioPart struct {
	n      int
	comm   mpi.Comm // ranks 0..n-1 of the job; CommNull elsewhere
	counts map[int]int64
	bases  map[int]int64 // pattern number → start of its region
	lseg   int64
	fill   int64 // the fill pattern's chunk (0: nothing left to fill)
	// explicit is set when the shared type uses explicit offsets instead
	// of the shared file pointer (-beffio.sharedfp=off, or it failed).
	explicit bool
}

// ioRun is one execution of BenchmarkBeffIO on this rank.
type ioRun struct {
	s     *Session
	st    IOSettings
	table []beffio.Pattern
	sumU  int
	parts []*ioPart
	buf   *mpi.Buffer
	files []string // every file the run may have created (for removal)
}

// RunBeffIO is the body of BenchmarkBeffIO: for each access method (write,
// rewrite, read), for each partition, for each pattern type, its patterns
// as sub-benchmarks n=<n>/acc=<acc>/type=<type>/pat=<No>/l=<l>/L=<L>, then
// the type's total (pat=total) and the partition's phase time (pat=phase).
func RunBeffIO(b *testing.B) {
	s := Current(b)
	r := &ioRun{s: s}
	if err := s.State("beffio", &r.st); err != nil {
		b.Fatal(err)
	}
	r.table = beffio.Table(r.st.MPART)
	r.sumU = beffio.ScheduleSumU(r.table, r.st.Rewrite)
	r.prepareDir()
	defer r.cleanup()
	r.reportHints()
	var err error
	maxMem := int64(0)
	for _, p := range r.table {
		maxMem = max(maxMem, p.Mem)
	}
	r.buf, err = mpi.NewBuffer(maxMem)
	s.must("allocating the I/O buffer", err)
	defer r.buf.Free()
	for _, n := range r.st.Partitions {
		color := -1
		if s.Rank < n {
			color = 0
		}
		c, err := s.Comm.Split(color, s.Rank)
		s.must("MPI_Comm_split", err)
		r.parts = append(r.parts, &ioPart{n: n, comm: c, counts: map[int]int64{}, bases: map[int]int64{}})
	}
	defer func() {
		for _, p := range r.parts {
			p.comm.Free()
		}
	}()
	tn := r.st.T / float64(len(r.parts))
	s.Logf("b_eff_io on %d processes: partitions %v, T = %g s (%.1f s per partition), MPART = %d bytes, dir %s",
		s.Size, r.st.Partitions, r.st.T, tn, r.st.MPART, r.st.Dir)
	for _, acc := range beffio.Accesses {
		if acc == beffio.Read && r.st.DropCaches != "off" {
			r.dropCaches()
		}
		if acc == beffio.Read && r.st.TestFault {
			r.corrupt()
		}
		for _, p := range r.parts {
			r.phase(b, p, acc, tn)
			s.must("barrier", s.Comm.Barrier())
			s.Logf("b_eff_io: %s on %d processes done, %s elapsed", acc, p.n, s.Elapsed().Round(time.Second))
		}
	}
}

// prepareDir creates the default directory on rank 0 and checks on every
// rank that the directory is there and writable (one message, before
// anything is measured).
func (r *ioRun) prepareDir() {
	s := r.s
	dir := Decide(s, func() string {
		if !r.st.OwnDir {
			return r.st.Dir
		}
		d, err := os.MkdirTemp("", "beffio-")
		if err != nil {
			return ""
		}
		return d
	})
	if dir == "" {
		s.Stop(ExitBadInput, "cannot create a directory under "+os.TempDir()+": give -beffio.dir")
	}
	r.st.Dir = dir
	bad := []int64{0}
	if err := checkDir(dir, 0); err != nil {
		bad[0] = int64(s.Rank) + 1
		fmt.Fprintf(s.Log, "beff: rank %d: %v\n", s.Rank, err)
	}
	out := []int64{0}
	s.must("checking the directory", s.Comm.AllreduceInt64(bad, out, mpi.Max))
	if out[0] != 0 {
		r.cleanup()
		s.Stop(ExitBadInput, fmt.Sprintf("-beffio.dir=%s: not usable on every process (see above): on several nodes give a directory of a shared file system", dir))
	}
}

// cleanup removes the files (and the directory the run created) unless kept.
func (r *ioRun) cleanup() {
	if r.st.Keep || r.st.Dir == "" {
		return
	}
	for _, f := range r.files {
		os.Remove(f)
	}
	r.s.Comm.Barrier()
	if r.st.OwnDir && r.s.IsRoot() {
		os.RemoveAll(r.st.Dir)
	}
}

func (r *ioRun) path(n int, t beffio.Type, rank int) string {
	if t == beffio.Separated {
		return filepath.Join(r.st.Dir, fmt.Sprintf("beffio_n%d_%s_r%d.dat", n, t, rank))
	}
	return filepath.Join(r.st.Dir, fmt.Sprintf("beffio_n%d_%s.dat", n, t))
}

// phase runs one access method on one partition.
func (r *ioRun) phase(b *testing.B, p *ioPart, acc beffio.Access, tn float64) {
	s := r.s
	if p.comm == mpi.CommNull {
		return
	}
	prefix := fmt.Sprintf("n=%d/acc=%s", p.n, acc)
	s.must("barrier", p.comm.Barrier())
	start := mpi.Wtime()
	for _, t := range beffio.Types {
		if !r.st.Rewrite.Scheduled(acc, t) {
			continue
		}
		if acc == beffio.Write && (t == beffio.Segmented) {
			r.decideSegments(p)
		}
		r.typeRun(b, p, acc, t, tn, prefix+"/type="+t.String())
	}
	s.must("barrier", p.comm.Barrier())
	el := r.maxTime(p, mpi.Wtime()-start)
	b.Run(prefix+"/type=all/pat=phase", func(b *testing.B) {
		b.ReportMetric(0, "ns/op") // a report of times measured outside this sub-benchmark
		b.ReportMetric(el, "s")
	})
}

// decideSegments fixes the repetition counts of the segmented types and the
// segment size from the write counts of types 0–2 (rank 0 of the partition
// decides; the counts it uses were broadcast).
func (r *ioRun) decideSegments(p *ioPart) {
	reps, lseg, err := beffio.SegmentReps(r.table, p.counts)
	if err != nil {
		r.s.Fail("b_eff_io segment size", err)
	}
	for no, c := range reps {
		p.counts[no] = c
	}
	var sum int64
	for _, pat := range r.table {
		if pat.Type == beffio.Segmented && !pat.Fill {
			sum += reps[pat.No] * pat.L
		}
	}
	p.lseg, p.fill = lseg, lseg-sum
	for _, pat := range r.table {
		if pat.Fill {
			p.counts[pat.No] = 0
			if p.fill > 0 {
				p.counts[pat.No] = 1
			}
		}
	}
}

// maxTime reduces a time with MAX to rank 0 of the partition.
func (r *ioRun) maxTime(p *ioPart, t float64) float64 {
	out := []float64{0}
	r.s.must("reducing times", p.comm.ReduceFloat64([]float64{t}, out, mpi.Max, 0))
	return out[0]
}

// agreeIO stops the whole job after an MPI-IO error on any process of the
// partition: rank 0 names the pattern, the files are removed, every rank
// exits with ExitIO. All ranks of the job must reach it: the verdict is
// agreed on the partition and then on the world.
func (r *ioRun) agreeIO(p *ioPart, where string, err error) {
	s := r.s
	flagIn := []int64{0}
	if err != nil {
		flagIn[0] = 1
		fmt.Fprintf(s.Log, "beff: rank %d: b_eff_io %s: %v\n", s.Rank, where, err)
	}
	out := []int64{0}
	s.must("agreeing on I/O errors", p.comm.AllreduceInt64(flagIn, out, mpi.Max))
	if out[0] == 0 {
		return
	}
	// Other partitions' ranks wait in the world barrier at the end of the
	// phase: reach it with the verdict so that they stop too.
	r.stopIO(p, fmt.Sprintf("b_eff_io stopped by an I/O error at %s (see above); the run is NOT VALID; scratch files removed", where))
}

// stopIO ends the job after an I/O error that the partition agreed on:
// every rank of the partition removes its files, then rank 0 prints the
// message and aborts the job (ranks of other partitions may be waiting in a
// barrier: MPI_Abort takes them down instead of leaving them hanging).
func (r *ioRun) stopIO(p *ioPart, msg string) {
	r.cleanupLocal()
	p.comm.Barrier()
	if r.s.IsRoot() {
		fmt.Fprintln(r.s.Log, "beff: "+msg)
	}
	time.Sleep(100 * time.Millisecond) // let stderr drain before the abort
	mpi.Abort(r.s.Comm, ExitIO)
	os.Exit(ExitIO)
}

// cleanupLocal removes this rank's files without collectives (the job is
// stopping).
func (r *ioRun) cleanupLocal() {
	if r.st.Keep {
		return
	}
	for _, f := range r.files {
		os.Remove(f)
	}
	if r.st.OwnDir && r.s.IsRoot() {
		os.RemoveAll(r.st.Dir)
	}
}

// typeRun opens the type's file, runs its patterns, closes it and reports the
// type's total (bytes over open-to-close time).
func (r *ioRun) typeRun(b *testing.B, p *ioPart, acc beffio.Access, t beffio.Type, tn float64, prefix string) {
	s := r.s
	rank, _ := p.comm.Rank()
	comm := p.comm
	path := r.path(p.n, t, rank)
	if t == beffio.Separated {
		self, err := p.comm.Split(rank, 0)
		s.must("MPI_Comm_split", err)
		defer self.Free()
		comm = self
	}
	if acc == beffio.Write {
		r.files = append(r.files, path)
		if t == beffio.Separated || rank == 0 {
			os.Remove(path) // an existing file of the same name is removed first
		}
	}
	mode := map[beffio.Access]mpi.OpenMode{beffio.Write: mpi.OpenCreate, beffio.Rewrite: mpi.OpenWrite, beffio.Read: mpi.OpenRead}[acc]
	s.must("barrier", p.comm.Barrier())
	t0 := mpi.Wtime()
	info := r.info(p.n, acc, t, 0)
	fh, err := mpi.OpenFile(comm, path, mode, info)
	info.Free()
	r.agreeIO(p, fmt.Sprintf("opening %s (partition %d, %s)", path, p.n, acc), err)
	if used, err := fh.Hints(); err == nil && rank == 0 && len(r.st.Hints) > 0 {
		s.Logf("b_eff_io: hints in effect for partition %d, %s, %s: %s", p.n, acc, t, formatHints(used))
	}
	var bytes int64
	var base int64
	for _, pat := range r.table {
		if pat.Type != t {
			continue
		}
		if pat.Fill {
			pat.L, pat.Mem = p.fill, p.fill
		}
		if acc == beffio.Write {
			p.bases[pat.No] = base
		} else {
			base = p.bases[pat.No]
		}
		var moved int64
		b.Run(prefix+"/"+pat.Name(), func(b *testing.B) { moved = r.pattern(b, p, fh, path, acc, pat, base, tn, rank) })
		bytes += moved
		base += pat.Region(p.counts[pat.No], p.n)
	}
	err = fh.Close()
	r.agreeIO(p, fmt.Sprintf("closing %s (partition %d, %s)", path, p.n, acc), err)
	s.must("barrier", p.comm.Barrier())
	el := r.maxTime(p, mpi.Wtime()-t0)
	b.Run(prefix+"/pat=total", func(b *testing.B) {
		b.ReportMetric(0, "ns/op") // a report of times measured outside this sub-benchmark
		b.ReportMetric(float64(bytes)/el/1e6, "MB/s")
		b.ReportMetric(float64(bytes)/1e6, "MB")
		b.ReportMetric(el, "s")
	})
}

// pattern measures one pattern and returns the bytes it moved (all ranks).
func (r *ioRun) pattern(b *testing.B, p *ioPart, fh mpi.File, path string, acc beffio.Access, pat beffio.Pattern, base int64, tn float64, rank int) int64 {
	s := r.s
	where := fmt.Sprintf("partition %d, %s, type %s, pattern %d", p.n, acc, pat.Type, pat.No)
	calls := &mpi.IOCalls{File: fh, Read: acc == beffio.Read, Type: int(pat.Type), Len: pat.Mem, L: pat.L,
		N: p.n, Rank: rank, Base: base, Lseg: p.lseg, Pattern: pat.No, Access: int(acc)}
	if acc == beffio.Read {
		calls.Access = int(beffio.LastWriter(r.st.Rewrite, pat.Type))
	}
	// Pattern-specific hints, then position the file for the pattern.
	var err error
	if h := SelectHints(r.st.Hints, p.n, acc, pat.Type, pat.L); h != nil {
		info := r.info(p.n, acc, pat.Type, pat.L)
		err = fh.SetInfo(info)
		info.Free()
		r.agreeIO(p, where+": MPI_File_set_info", err)
	}
	switch pat.Type {
	case beffio.Scatter:
		err = fh.SetViewScatter(base+int64(rank)*pat.L, pat.L, p.n, mpi.InfoNull())
	case beffio.Shared:
		if r.st.SharedFP == "off" {
			p.explicit = true
		}
		if !p.explicit {
			err = r.sharedPointer(p, fh, base, where)
		}
		calls.ExplicitOffsets = p.explicit
	case beffio.Separated:
		err = fh.SeekSet(base)
	default:
		err = fh.SeekSet(int64(rank)*p.lseg + base)
	}
	r.agreeIO(p, where+": positioning", err)

	timeDriven := acc == beffio.Write && pat.Type <= beffio.Separated
	limit := r.capCalls(p, pat)
	capped := false // rank 0: the data budget stopped the pattern before its time
	var done, decisions int64
	var stopTime float64
	var errs int64
	var fault mpi.IOFault
	run := func(k int64) error {
		if k <= 0 || pat.L == 0 {
			return nil
		}
		e, f, err := mpi.RunIOCalls(calls, done, k, r.buf)
		if e > 0 && errs == 0 {
			fault = f
		}
		errs += e
		done += k
		return err
	}
	s.must("barrier", p.comm.Barrier())
	t0 := mpi.Wtime()
	switch {
	case !timeDriven:
		err = run(p.counts[pat.No])
		r.agreeIO(p, where, err)
	case r.st.Stop == beffio.StopBarrier:
		target := beffio.PatternTime(tn, pat.U, r.sumU)
		for {
			err = run(1)
			r.agreeIO(p, where, err)
			ts := mpi.Wtime()
			s.must("barrier", p.comm.Barrier())
			dec := []int64{0}
			if rank == 0 && mpi.Wtime()-t0 < target {
				dec[0] = 1
				if limit > 0 && done >= limit {
					dec[0], capped = 0, true
				}
			}
			s.must("broadcasting the stop decision", bcastInt64(p.comm, dec))
			stopTime += mpi.Wtime() - ts
			decisions++
			if dec[0] == 0 {
				break
			}
		}
	default:
		target := beffio.PatternTime(tn, pat.U, r.sumU)
		next := beffio.NextBatch(0, 0, 0, target)
		for next > 0 {
			err = run(next)
			ts := mpi.Wtime()
			// one reduction per decision: the elapsed time and whether a call failed
			in, out := []float64{ts - t0, 0}, []float64{0, 0}
			if err != nil {
				in[1] = 1
			}
			s.must("reducing the stop decision", p.comm.ReduceFloat64(in, out, mpi.Max, 0))
			dec := []int64{0, int64(out[1])}
			if rank == 0 && dec[1] == 0 {
				dec[0] = beffio.NextBatch(done, next, out[0], target)
				if limit > 0 && dec[0] > 0 {
					if done >= limit {
						dec[0], capped = 0, true
					} else {
						dec[0] = min(dec[0], limit-done)
					}
				}
			}
			s.must("broadcasting the stop decision", bcastInt64(p.comm, dec))
			stopTime += mpi.Wtime() - ts
			decisions++
			if dec[1] != 0 {
				r.agreeIO(p, where, err) // stops the job
			}
			next = dec[0]
		}
	}
	if acc != beffio.Read {
		err = fh.Sync()
		r.agreeIO(p, where+": MPI_File_sync", err)
	}
	s.must("barrier", p.comm.Barrier())
	el := r.maxTime(p, mpi.Wtime()-t0)
	if acc != beffio.Read && done > 0 && pat.L > 0 {
		// Some MPI-IO layers report a full disk only on stderr (Open MPI
		// 4.1's OMPIO does) and return success: check that the data is
		// there (outside the timed region).
		end := pat.Offset(base, p.n, rank, done-1, pat.Chunks()-1, p.lseg) + pat.L
		r.agreeIO(p, where+": checking the file after MPI_File_sync", checkSize(path, end))
	}
	if acc == beffio.Write && timeDriven {
		c := []int64{done}
		s.must("broadcasting the write count", bcastInt64(p.comm, c))
		p.counts[pat.No] = c[0]
	}
	nerr := r.reportErrors(p, where, errs, fault)
	bytes := pat.Bytes(done, p.n)
	if rank == 0 {
		b.ReportMetric(float64(bytes)/el/1e6, "MB/s")
		b.ReportMetric(float64(done), "reps")
		b.ReportMetric(float64(bytes)/1e6, "MB")
		b.ReportMetric(el, "s")
		b.ReportMetric(float64(nerr), "errors")
		if timeDriven {
			b.ReportMetric(float64(decisions), "decisions")
			b.ReportMetric(r.maxTime(p, stopTime)*1e3, "stop-ms")
		}
		if pat.Type == beffio.Shared {
			fp := 1.0
			if p.explicit {
				fp = 0
			}
			b.ReportMetric(fp, "sharedfp")
		}
		if timeDriven && capped {
			b.ReportMetric(1, "capped")
		}
	} else if timeDriven {
		r.maxTime(p, stopTime)
	}
	return bytes
}

// reportErrors sums the validation errors of a pattern on rank 0 of the
// partition and prints the first failure of every rank that had one.
func (r *ioRun) reportErrors(p *ioPart, where string, errs int64, f mpi.IOFault) int64 {
	s := r.s
	in := []int64{errs, f.Rep, f.Offset, int64(f.ExpectFirst), int64(f.GotFirst), int64(f.ExpectLast), int64(f.GotLast)}
	total := []int64{0}
	s.must("reducing validation errors", p.comm.AllreduceInt64(in[:1], total, mpi.Sum))
	if total[0] == 0 {
		return 0
	}
	all, err := gatherInt64(p.comm, in)
	s.must("gathering validation errors", err)
	for rk, rec := range all {
		if rec[0] == 0 {
			continue
		}
		fmt.Fprintf(s.Log, "beff: b_eff_io validation error: %s, rank %d: %d bad chunk(s); first in call %d at file offset %d: first element %#x (expected %#x), last element %#x (expected %#x)\n",
			where, rk, rec[0], rec[1], rec[2], uint64(rec[4]), uint64(rec[3]), uint64(rec[6]), uint64(rec[5]))
	}
	return total[0]
}

// dropCaches empties the page cache between the write and the read phase:
// drop_caches where permitted (rank 0 of each node), else
// POSIX_FADV_DONTNEED on every file this rank knows.
func (r *ioRun) dropCaches() {
	s := r.s
	syscall.Sync()
	s.must("barrier", s.Comm.Barrier())
	if r.st.DropCaches == "drop_caches" {
		node, err := s.Comm.SplitShared()
		s.must("MPI_Comm_split_type", err)
		if nr, _ := node.Rank(); nr == 0 {
			if err := os.WriteFile("/proc/sys/vm/drop_caches", []byte("3\n"), 0); err != nil {
				fmt.Fprintf(s.Log, "beff: rank %d: dropping the page cache: %v\n", s.Rank, err)
			}
		}
		node.Free()
	} else {
		for _, f := range r.files {
			fadviseDontNeed(f)
		}
	}
	s.must("barrier", s.Comm.Barrier())
	s.Logf("b_eff_io: page cache dropped (%s) before the read phase", r.st.DropCaches)
}

// checkSize reports an error when the file is shorter than end: the data
// written up to end is not in it.
func checkSize(path string, end int64) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.Size() < end {
		msg := fmt.Sprintf("%s is %d bytes after the writes, the data written reaches byte %d: the MPI library lost data", path, fi.Size(), end)
		var fs syscall.Statfs_t
		if syscall.Statfs(filepath.Dir(path), &fs) == nil && fs.Bavail == 0 {
			msg += " (the file system is full)"
		}
		return errors.New(msg)
	}
	return nil
}

// corrupt overwrites the first 8 bytes of the first partition's scatter
// file (tests only: the read phase must report one bad chunk).
func (r *ioRun) corrupt() {
	if r.s.IsRoot() {
		f, err := os.OpenFile(r.path(r.parts[0].n, beffio.Scatter, 0), os.O_WRONLY, 0)
		if err == nil {
			f.WriteAt([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 0)
			f.Sync()
			f.Close()
		}
	}
	r.s.must("barrier", r.s.Comm.Barrier())
}

// sharedPointer positions the shared file pointer at base. Where the MPI-IO
// layer cannot (no file locking, for one), every rank of the partition
// learns it and the partition's shared type switches to explicit offsets
// (write_at_all at the offsets write_ordered would use): the run goes on
// and the lines say sharedfp 0, which makes it NOT VALID.
func (r *ioRun) sharedPointer(p *ioPart, fh mpi.File, base int64, where string) error {
	err := fh.SeekShared(base)
	in, out := []int64{0}, []int64{0}
	if err != nil {
		in[0] = 1
		fmt.Fprintf(r.s.Log, "beff: rank %d: b_eff_io %s: MPI_File_seek_shared: %v\n", r.s.Rank, where, err)
	}
	r.s.must("agreeing on the shared file pointer", p.comm.AllreduceInt64(in, out, mpi.Max))
	if out[0] != 0 {
		p.explicit = true
		r.s.Logf("b_eff_io: partition %d: the shared file pointer does not work here; type shared uses explicit offsets (the run is NOT VALID)", p.n)
	}
	return nil
}
