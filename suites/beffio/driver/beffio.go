package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beffio"
	"github.com/beff-suite/beff/suites/beffio/loops"
)

// run is one execution of BenchmarkBeffIO on this rank.
type run struct {
	f     *flags // the suite's flags (the watchdog)
	s     *harness.Session
	world *harness.Group
	st    Settings
	table []beffio.AccessPattern
	sumU  int // ΣU over the schedule
	parts []*partition
	buf   *mpi.Buffer
	files []string // every file the run may have created (for removal)
	// saidLate is set once the run said that a file's size showed late
	saidLate bool
	progress *harness.Progress
	model    timeModel // the progress's time model (rank 0)
	// clock and ioCalls are MPI_Wtime and the C loop of the calls
	// (loops.RunCalls); the tests of the driver's decisions give fakes.
	clock   func() float64
	ioCalls func(p *loops.PatternCalls, c0, k int64, buf *mpi.Buffer) (int64, loops.ChunkFault, error)
}

// partition is what the run knows about one partition.
type partition struct {
	n      int
	comm   mpi.Comm       // ranks 0..n-1 of the job; CommNull elsewhere
	g      *harness.Group // comm as a group; nil where comm is CommNull
	counts map[int]int64  // pattern number → calls per process
	bases  map[int]int64  // pattern number → start of its region
	seg    beffio.Segments
	// explicit is set when the shared type uses explicit offsets instead
	// of the shared file pointer (-beffio.sharedfp=off, or it failed).
	explicit bool
}

// maxTime reduces a time with MAX to rank 0 of the partition (0 on the
// other ranks).
func (p *partition) maxTime(t float64) float64 {
	if m := p.g.MaxTo0([]float64{t}); m != nil {
		return m[0]
	}
	return 0
}

// Benchmark is the body of BenchmarkBeffIO: for each access method (write,
// rewrite, read), for each partition, for each pattern type, its patterns
// as sub-benchmarks n=<n>/acc=<acc>/type=<type>/pat=<No>/l=<l>/L=<L>, then
// the type's total (pat=total) and the partition's phase time (pat=phase).
func (d *Driver) Benchmark(b *testing.B) {
	s := harness.Current(b)
	r := &run{f: d.f, s: s, world: s.World(), clock: mpi.Wtime, ioCalls: loops.RunCalls}
	var err error
	if r.st, err = d.settings.Of(s); err != nil {
		b.Fatal(err)
	}
	r.table = beffio.Table(r.st.MPART)
	r.sumU = beffio.ScheduleSumU(r.table, r.st.Rewrite)
	// every rank, also one that waits while smaller partitions run
	defer s.Watch("b_eff_io", seconds(r.st.T), "beffio.watchdog", *r.f.watchdog)()
	r.prepareDir()
	s.OnAbort(r.cleanupLocal)
	defer r.cleanup()
	r.reportHints()
	maxMem := int64(0)
	for _, p := range r.table {
		maxMem = max(maxMem, p.Mem)
	}
	r.buf, err = mpi.NewBuffer(maxMem)
	s.Must("allocating the I/O buffer", err)
	defer r.buf.Free()
	r.splitPartitions()
	defer r.freePartitions()
	tPart := r.st.T / float64(len(r.parts))
	s.Logf(beffio.ScratchLog, results.Processes(s.Size), r.st.Partitions, r.st.T, tPart, r.st.MPART, r.st.Dir)
	r.startProgress()
	defer r.progress.Finish()
	per, root := beffio.Memory(r.table, s.Size)
	s.LogMemory("b_eff_io", harness.BaseBytes+per, harness.BaseBytes+per+root,
		fmt.Sprintf("base %d MiB, an I/O buffer of %.1f MiB, tables of %d bytes per process; rank 0 also MPI-IO's as an aggregator (%d MiB and %d KiB per process)", harness.BaseBytes>>20, float64(maxMem)/(1<<20), beffio.TableBytes, beffio.AggregatorBytes>>20, beffio.AggregatorPerProc>>10))
	for ai, acc := range beffio.Accesses {
		if acc == beffio.Read && r.st.DropCaches != "off" {
			r.dropCaches()
		}
		if acc == beffio.Read && r.st.TestFault {
			r.corrupt()
		}
		for pi, p := range r.parts {
			r.model.at = position{ai, pi, 0}
			start := time.Now()
			r.phase(b, p, acc, tPart)
			r.waitPartition(p, acc, tPart)
			r.model.walls[[2]int{ai, pi}] = time.Since(start).Seconds()
			s.Logf("b_eff_io: %s on %s done, %s elapsed", acc, results.Processes(p.n), s.Elapsed().Round(time.Second))
		}
		if acc == beffio.Write {
			r.progress.Rough("")
		}
	}
}

// startProgress counts the patterns of every access and partition for
// the progress, with the time model of timeLeft.
func (r *run) startProgress() {
	n := 0
	for _, acc := range beffio.Accesses {
		n += len(r.parts) * len(r.scheduled(acc))
	}
	r.model = newTimeModel()
	r.progress = r.s.NewProgress("b_eff_io", n)
	r.progress.ModelSeconds(r.timeLeft)
	if r.s.Job.Share > 1 {
		r.progress.Rough("partitions to write") // until every partition wrote
	}
}

// scheduled are the patterns of access acc that the schedule runs.
func (r *run) scheduled(acc beffio.Access) []beffio.AccessPattern {
	var out []beffio.AccessPattern
	for _, pat := range r.table {
		if r.st.Rewrite.Scheduled(acc, pat.Type) {
			out = append(out, pat)
		}
	}
	return out
}

// share is pattern pat's share of the scheduled time, seconds.
func (r *run) share(pat beffio.AccessPattern, tPart float64) float64 {
	return beffio.PatternTime(tPart, pat.U, r.sumU)
}

// timeLeft predicts the time of the patterns from the next one on,
// seconds (rank 0), pattern by pattern (predict), and counts them by
// partition (the kind of measurement: what a pattern costs beside its
// calls grows with the partition's processes where they share CPUs);
// where processes share CPUs, once every partition wrote, the wall time
// left partition by partition (sharedLeft).
func (r *run) timeLeft() (float64, []int) {
	if r.s.Job.Share > 1 && r.model.at.acc > 0 {
		return r.sharedLeft(), nil // wall times: nothing beside them
	}
	t, n := 0.0, make([]int, len(r.parts))
	tPart := r.st.T / float64(len(r.parts))
	for ai, acc := range beffio.Accesses {
		for pi, p := range r.parts {
			for k, pat := range r.scheduled(acc) {
				if !(position{ai, pi, k}).before(r.model.at) {
					t += r.predict(acc, p, pat, tPart)
					n[pi]++
				}
			}
		}
	}
	return t, n
}

// predict is the time model's prediction of one pattern, seconds. A
// write of types 0–2 takes its share of T (it is time-driven), or as much
// longer as such writes of the partition (before, of the last partition)
// outlasted theirs (overrun). A write of
// types 3 and 4 moves the bytes its counts give, once the partition's
// types 0–2 decided them, at the bandwidth those showed; before, the
// counts are at most type 2's, so it is predicted as long as type 2's
// write (its share of type 2's share), scaled as such writes of earlier
// partitions compared with that. A
// rewrite or read repeats its write's counts: the time of its write (or
// the write's prediction), scaled as the access's patterns so far
// compared with their writes; before any, by repeatPrior.
func (r *run) predict(acc beffio.Access, p *partition, pat beffio.AccessPattern, tPart float64) float64 {
	m := &r.model
	if acc == beffio.Write {
		switch {
		case pat.Type <= beffio.Separated:
			return r.share(pat, tPart) * m.overrun(p.n)
		case p.seg.Lseg > 0 && m.timeDriven[p.n].time > 0 && !pat.Fill:
			return float64(pat.Bytes(p.counts[pat.No], p.n)) / m.timeDriven[p.n].rate()
		}
		return r.sizeDrivenShare(pat, tPart) * m.sizeDriven.or(1)
	}
	w, ok := m.wrote(p.n, pat.No)
	if !ok {
		w = r.predict(beffio.Write, p, pat, tPart)
	}
	return w * m.repeat[acc].or(r.repeatPrior(acc, p))
}

// repeatPrior is how long a rewrite or read takes in parts of its
// write's time before the run showed it: as long, or where the
// partition's data fit the file-system cache (and the read is not made
// to miss it) a third for the rewrite (whose sync still writes to the
// disk) and a tenth for the read.
func (r *run) repeatPrior(acc beffio.Access, p *partition) float64 {
	if r.model.written[p.n] <= r.st.CacheMiB<<20 && (acc != beffio.Read || r.st.DropCaches == "off") {
		return cachedPrior[acc]
	}
	return 1
}

// cachedPrior is how long a rewrite or read of data the file-system cache
// holds takes before the run showed it, in parts of its write's time.
var cachedPrior = map[beffio.Access]float64{beffio.Rewrite: 1.0 / 3, beffio.Read: 0.1}

// sizeDrivenShare is the prediction of a write of the size-driven type
// of pattern pat before its counts are known: type 2's share of the
// time, spread over the type's patterns by their own shares.
func (r *run) sizeDrivenShare(pat beffio.AccessPattern, tPart float64) float64 {
	var own, sep int
	for _, q := range r.table {
		switch q.Type {
		case pat.Type:
			own += q.U
		case beffio.Separated:
			sep += q.U
		}
	}
	if own == 0 {
		return 0
	}
	return beffio.PatternTime(tPart, sep, r.sumU) * float64(pat.U) / float64(own)
}

// tookPattern records a pattern for the progress's time model (rank 0)
// and writes the progress when due.
func (r *run) tookPattern(acc beffio.Access, p *partition, pat beffio.AccessPattern, moved int64, el, tPart float64) {
	m := &r.model
	switch {
	case acc != beffio.Write:
		if w, ok := m.wrote(p.n, pat.No); ok {
			m.repeat[acc] = m.repeat[acc].add(el, w)
		}
	case pat.Type <= beffio.Separated:
		m.timeDriven[p.n] = m.timeDriven[p.n].add(el, float64(moved))
		m.overran[p.n] = m.overran[p.n].add(el, r.share(pat, tPart))
		m.lastPart = p.n
	default:
		m.sizeDriven = m.sizeDriven.add(el, r.sizeDrivenShare(pat, tPart))
	}
	if acc == beffio.Write {
		m.written[p.n] += moved
	}
	m.took[[3]int{int(acc), p.n, pat.No}] = el
	m.at.pat++
	r.progress.Log()
}

// A timeModel is what the time model of b_eff_io's progress learns as
// the run goes (rank 0): the pattern next to run; per partition the bytes
// its write moved, each write pattern's time and the time and bytes of
// its time-driven writes; how the size-driven writes and each access's
// repetitions compare with their predictions.
type timeModel struct {
	at         position
	written    map[int]int64
	timeDriven map[int]ratio
	sizeDriven ratio
	repeat     map[beffio.Access]ratio
	// overran is, per partition, the time of its time-driven writes
	// against their shares of the time (a write's call outlasts its share
	// where processes share a core), lastPart the last partition that
	// wrote them.
	overran  map[int]ratio
	lastPart int
	// took is each pattern's time by access, partition size and pattern
	// number; walls the wall time of each access on each partition
	// (index) done: the model where processes share CPUs (sharedLeft).
	took  map[[3]int]float64
	walls map[[2]int]float64
}

// wrote is the time the write of pattern no took on the partition of n
// processes, if it ran.
func (m *timeModel) wrote(n, no int) (float64, bool) {
	w, ok := m.took[[3]int{int(beffio.Write), n, no}]
	return w, ok
}

func newTimeModel() timeModel {
	return timeModel{written: map[int]int64{}, timeDriven: map[int]ratio{}, repeat: map[beffio.Access]ratio{}, overran: map[int]ratio{}, walls: map[[2]int]float64{}, took: map[[3]int]float64{}}
}

// overrun is how much longer than their shares of the time the
// time-driven writes of partition n take: as measured on it, or before,
// on the last partition that wrote them (1 before any: they keep to
// their shares).
func (m *timeModel) overrun(n int) float64 {
	if q, ok := m.overran[n]; ok {
		return max(1, q.or(1))
	}
	return max(1, m.overran[m.lastPart].or(1))
}

// A ratio sums a time and what it is compared with.
type ratio struct{ time, of float64 }

func (q ratio) add(t, of float64) ratio { return ratio{q.time + t, q.of + of} }

// or is time over what it compares with, or def before either is known.
func (q ratio) or(def float64) float64 {
	if q.time <= 0 || q.of <= 0 {
		return def
	}
	return q.time / q.of
}

// rate is bytes per second of a ratio of time and bytes.
func (q ratio) rate() float64 { return q.of / q.time }

// A position is a pattern of the run: the indexes of its access, its
// partition and the pattern among the access's scheduled ones.
type position struct{ acc, part, pat int }

// before reports whether position a comes before b.
func (a position) before(b position) bool {
	return a.acc < b.acc || a.acc == b.acc && (a.part < b.part || a.part == b.part && a.pat < b.pat)
}

// waitPartition ends a partition's phase on every process: those outside
// the partition wait for it asleep (they would otherwise poll beside the
// processes measuring for the whole phase), watched as the whole phase:
// the partition's time tPart for each of its types, each of which its
// processes are watched for on its own.
func (r *run) waitPartition(p *partition, acc beffio.Access, tPart float64) {
	if p.g == nil {
		types := 0
		for _, t := range beffio.Types {
			if r.st.Rewrite.Scheduled(acc, t) {
				types++
			}
		}
		defer r.s.Watch(fmt.Sprintf("b_eff_io partition %d, %s (waiting outside it)", p.n, acc), seconds(tPart*float64(max(1, types))), "beffio.watchdog", *r.f.watchdog)()
	}
	r.world.QuietBarrier()
}

// splitPartitions makes the communicator of every partition: ranks
// 0..n-1 of the job.
func (r *run) splitPartitions() {
	for _, n := range r.st.Partitions {
		color := -1
		if r.s.Rank < n {
			color = 0
		}
		c, err := r.world.Comm.Split(color, r.s.Rank)
		r.s.Must("MPI_Comm_split", err)
		p := &partition{n: n, comm: c, counts: map[int]int64{}, bases: map[int]int64{}}
		if c != mpi.CommNull {
			p.g = r.s.Group(c)
		}
		r.parts = append(r.parts, p)
	}
}

func (r *run) freePartitions() {
	for _, p := range r.parts {
		p.comm.Free()
	}
}

// prepareDir creates the run's own directory on rank 0 (under
// -beffio.dir or the temporary directory, with a fresh name and mode
// 0700, so that no other job's files meet its files and no one else can
// plant a link among them) and checks on every rank that it is there and
// writable (one message, before anything is measured).
func (r *run) prepareDir() {
	s := r.s
	dir := harness.Decide(r.world, func() string {
		d, err := os.MkdirTemp(r.st.Parent, beffio.ScratchPrefix) // mode 0700, a name no one had
		if err != nil {
			return ""
		}
		return d
	})
	if dir == "" {
		s.Stop(harness.ExitBadInput, "cannot create a directory under "+r.st.Parent+": give -beffio.dir")
	}
	r.st.Dir = dir
	bad := []int64{0}
	if err := checkDir(dir, 0); err != nil {
		bad[0] = int64(s.Rank) + 1
		fmt.Fprintf(s.Log, "beff: rank %d: %v\n", s.Rank, err)
	}
	if r.world.MaxAll(bad)[0] != 0 {
		r.cleanup()
		s.Stop(harness.ExitBadInput, fmt.Sprintf("-beffio.dir=%s: not usable on every process (see above): on several nodes give a directory of a shared file system", dir))
	}
}

// cleanup removes the files (and the directory the run created) unless kept.
func (r *run) cleanup() {
	if r.st.Keep || r.st.Dir == "" {
		return
	}
	for _, f := range r.files {
		os.Remove(f)
	}
	r.world.Comm.Barrier()
	if r.s.IsRoot() {
		os.RemoveAll(r.st.Dir)
	}
}

// seconds is a time in seconds as a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func (r *run) path(n int, t beffio.PatternType, rank int) string {
	if t == beffio.Separated {
		return filepath.Join(r.st.Dir, fmt.Sprintf("beffio_n%d_%s_r%d.dat", n, t, rank))
	}
	return filepath.Join(r.st.Dir, fmt.Sprintf("beffio_n%d_%s.dat", n, t))
}

// phase runs one access method on one partition, or copies its lines
// from an earlier job (-beffio.resume).
func (r *run) phase(b *testing.B, p *partition, acc beffio.Access, tPart float64) {
	if slices.Contains(r.st.Copied, p.n) {
		r.copySaved(b, beffio.PhaseKey(p.n, acc))
		for _, pat := range r.scheduled(acc) {
			r.progress.Add(1, r.share(pat, tPart))
		}
		return
	}
	if p.g == nil {
		return
	}
	p.g.Barrier()
	start := r.clock()
	for _, t := range beffio.Types {
		if !r.st.Rewrite.Scheduled(acc, t) {
			continue
		}
		if acc == beffio.Write && t == beffio.Segmented {
			r.decideSegments(p)
		}
		r.typeRun(b, p, acc, t, tPart)
	}
	p.g.Barrier()
	el := p.maxTime(r.clock() - start)
	b.Run(beffio.PhaseKey(p.n, acc).String(), func(b *testing.B) {
		b.ReportMetric(0, "ns/op") // a report of times measured outside this sub-benchmark
		b.ReportMetric(el, beffio.MetricSeconds)
	})
}

// copySaved writes the earlier job's lines of the phase of key, in the
// order it wrote them (every rank goes through the same names).
func (r *run) copySaved(b *testing.B, key beffio.Key) {
	prefix := fmt.Sprintf("n=%d/acc=%s/", key.N, key.Access)
	for _, name := range r.st.Resume.Order {
		if strings.HasPrefix(name, prefix) && r.st.Resume.Next(name) {
			b.Run(name, func(b *testing.B) { r.st.Resume.Write(b, r.s, name) })
		}
	}
}

// decideSegments fixes the layout of the segmented types from the write
// counts of types 0–2 (every rank of the partition computes it from the
// same broadcast counts).
func (r *run) decideSegments(p *partition) {
	seg, err := beffio.SegmentLayout(r.table, p.counts)
	if err != nil {
		r.s.Fail("b_eff_io segment size", err)
	}
	for no, c := range seg.Reps {
		p.counts[no] = c
	}
	p.seg = seg
}

// typeRun opens the type's file, runs its patterns, closes it and reports the
// type's total: its bytes over its time, which is, under the paper's rules,
// the span from opening to closing the file (the read's removal of the file
// is timed after it, apart) and, under the reference's, the sum of the open,
// the patterns and the close (which on the read removes the file).
func (r *run) typeRun(b *testing.B, p *partition, acc beffio.Access, t beffio.PatternType, tPart float64) {
	rank := p.g.Rank
	path := r.path(p.n, t, rank)
	comm := fileComm(p, t)
	if acc == beffio.Write {
		r.files = append(r.files, path)
		if t == beffio.Separated || rank == 0 {
			os.Remove(path) // an existing file of the same name is removed first
		}
	}
	defer r.s.Watch(fmt.Sprintf("b_eff_io partition %d, %s, type %s", p.n, acc, t), seconds(tPart), "beffio.watchdog", *r.f.watchdog)()
	ref := r.st.Rules == beffio.RulesReference
	p.g.Barrier()
	t0 := r.clock()
	fh := r.open(p, comm, path, acc, t)
	if ref {
		p.g.Barrier()
	}
	open := p.maxTime(r.clock() - t0)
	var bytes, base int64
	patterns := 0.0
	for _, pat := range r.table {
		if pat.Type != t {
			continue
		}
		if pat.Fill {
			pat.L, pat.Mem = p.seg.Fill, p.seg.Fill
		}
		if acc == beffio.Write {
			p.bases[pat.No] = base
		} else {
			base = p.bases[pat.No]
		}
		var moved int64
		var el float64
		b.Run(beffio.PatternKey(p.n, acc, pat).String(), func(b *testing.B) {
			moved, el = r.pattern(b, p, fh, path, acc, pat, base, tPart)
			r.progress.DoneOf(r.model.at.part, el)
		})
		r.tookPattern(acc, p, pat, moved, el, tPart)
		bytes += moved
		patterns += el
		base += pat.Region(p.counts[pat.No], p.n)
	}
	tc := r.clock()
	err := fh.Close()
	r.agreeIO(p, fmt.Sprintf("closing %s (partition %d, %s)", path, p.n, acc), err)
	p.g.Barrier()
	now := r.clock()
	closed, el := p.maxTime(now-tc), p.maxTime(now-t0)
	if ref {
		el = open + patterns + closed
	}
	del := r.timeRemoval(p, acc, t, path)
	b.Run(beffio.TotalKey(p.n, acc, t).String(), func(b *testing.B) {
		b.ReportMetric(0, "ns/op") // a report of times measured outside this sub-benchmark
		b.ReportMetric(float64(bytes)/el/1e6, beffio.MetricMBps)
		b.ReportMetric(float64(bytes)/1e6, beffio.MetricMB)
		b.ReportMetric(el, beffio.MetricSeconds)
		b.ReportMetric(open, beffio.MetricOpenS)
		b.ReportMetric(closed, beffio.MetricCloseS)
		if del >= 0 {
			b.ReportMetric(del, beffio.MetricDeleteS)
		}
	})
}

// timeRemoval removes the file of type t after its read under the paper's
// rules (unless the files are kept) and returns the time that took, the
// maximum over the partition on its rank 0: what the reference code's read
// counts in its close. It returns -1 where it removes nothing.
func (r *run) timeRemoval(p *partition, acc beffio.Access, t beffio.PatternType, path string) float64 {
	if acc != beffio.Read || r.st.Keep || r.st.Rules == beffio.RulesReference {
		return -1
	}
	p.g.Barrier()
	t0 := r.clock()
	var err error
	if t == beffio.Separated || p.g.IsRoot() {
		err = mpi.DeleteFile(path)
	}
	r.agreeIO(p, fmt.Sprintf("removing %s (partition %d)", path, p.n), err)
	return p.maxTime(r.clock() - t0)
}

// fileComm is the communicator the file of type t is opened on: the
// partition, or for the separated type each process alone (MPI_COMM_SELF,
// which costs nothing to make, where a split would cost every process of
// the partition a collective over all of them).
func fileComm(p *partition, t beffio.PatternType) mpi.Comm {
	if t != beffio.Separated {
		return p.comm
	}
	return mpi.Self
}

// open opens the file of type t for access method acc with the hints
// given for it.
func (r *run) open(p *partition, comm mpi.Comm, path string, acc beffio.Access, t beffio.PatternType) mpi.File {
	r.s.Checkpoint() // no file is created after the cleanup hook ran
	mode := map[beffio.Access]mpi.OpenMode{beffio.Write: mpi.OpenCreate, beffio.Rewrite: mpi.OpenWrite, beffio.Read: mpi.OpenRead}[acc]
	info := r.info(p.n, acc, t, 0)
	fh, err := mpi.OpenFile(comm, path, mode, openFlags(r.st.Rules.Open(acc, r.st.Keep)), info)
	info.Free()
	r.agreeIO(p, fmt.Sprintf("opening %s (partition %d, %s)", path, p.n, acc), err)
	if used, err := fh.Hints(); err == nil && p.g.IsRoot() && len(r.st.Hints) > 0 {
		r.s.Logf("b_eff_io: hints in effect for partition %d, %s, %s: %s", p.n, acc, t, beffio.FormatHints(used))
	}
	return fh
}

// openFlags are the MPI open flags of the rules' modes.
func openFlags(m beffio.OpenModes) mpi.OpenFlags {
	var f mpi.OpenFlags
	if m.Unique {
		f |= mpi.Unique
	}
	if m.DeleteOnClose {
		f |= mpi.DeleteOnClose
	}
	if m.ReadWrite {
		f |= mpi.ReadWrite
	}
	return f
}

// info builds the MPI_Info of the selected hints (InfoNull for none).
func (r *run) info(n int, acc beffio.Access, t beffio.PatternType, l int64) mpi.Info {
	h := beffio.SelectHints(r.st.Hints, n, acc, t, l)
	if h == nil {
		return mpi.InfoNull()
	}
	i, err := mpi.NewInfo(h)
	r.s.Must("creating the MPI_Info of the hints", err)
	return i
}

// reportHints opens a probe file on every process with the hints given for
// opening (no partition, access or type selected) and prints, as a
// configuration line, the hints the MPI library reports in effect. It runs
// before any sub-benchmark, so the line precedes every b_eff_io result.
func (r *run) reportHints() {
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
	s.Must("creating the MPI_Info of the hints", err)
	defer info.Free()
	fh, err := mpi.OpenFile(r.world.Comm, path, mpi.OpenCreate, openFlags(r.st.Rules.Open(beffio.Write, true)), info)
	if err != nil {
		s.Logf("b_eff_io: probing the hints: %v", err)
		return
	}
	used, err := fh.Hints()
	fh.Close()
	if s.IsRoot() {
		os.Remove(path)
		if err == nil {
			desc := beffio.FormatHints(used)
			if desc == "" {
				desc = "none reported by the MPI library"
			}
			fmt.Fprintf(s.Out, "%s: %s\n", beffio.KeyHintsUsed, desc)
		}
	}
}
