package driver

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/ring"
	"github.com/beff-suite/beff/suites/congestion"
	"github.com/beff-suite/beff/suites/congestion/loops"
)

// run is one execution of BenchmarkCongestion on this rank.
type run struct {
	f           *flags // the suite's flags (the watchdog)
	s           *harness.Session
	world       *harness.Group
	st          Settings
	clock       *harness.Clock // the model of the clocks, measured again at the end
	role        int            // 0: a canary, 1+i: a process of congestor set i
	mine        mpi.Comm       // the processes of the same role
	left, right int            // neighbors in mine: a canary's in its random ring, a congestor's in its set's worst-case cycle
	send, recv  *mpi.Buffer
	progress    *harness.Progress
	// phases are the phases done or copied so far, measured those
	// measured, of all in the plan, perRep in each repetition: the
	// progress's time model (timeLeft).
	phases, measured, all, perRep int
	// The loops (package loops) and the split (fakes in the tests of the
	// driver's decisions).
	canary    func(r *loops.CanaryRun) (loops.Samples, error)
	congestor func(r *loops.CongestorRun) (loops.Load, error)
	split     func(color, key int) (mpi.Comm, error)
}

// Benchmark is the body of BenchmarkCongestion: every step of the plan,
// each a phase of every process (congestion.Plan.Steps), its lines named
// canary=<canary>/load=<load>/rep=<k> and
// congestor=<congestor>/load=<load>/rep=<k>.
func (d *Driver) Benchmark(b *testing.B) {
	r := d.newRun(b, harness.Current(b))
	defer r.close()
	r.measure(b)
}

func (d *Driver) newRun(b *testing.B, s *harness.Session) *run {
	r := &run{f: d.f, s: s, world: s.World(), canary: loops.RunCanary, congestor: loops.RunCongestor, split: s.World().Comm.Split}
	var err error
	if r.st, err = d.settings.Of(s); err != nil {
		b.Fatal(err)
	}
	r.prepare()
	r.clock = s.Clock(true)
	return r
}

// prepare gives every rank its role, its communicator, its ring
// neighbors and its buffers.
func (r *run) prepare() {
	r.prepareRoles()
	n := loops.CongestorBuffer(r.st.Len)
	if r.role == 0 {
		n = canaryBuffer(r.st.BwLen)
	}
	var err error
	if r.send, err = mpi.NewBuffer(n); err == nil {
		r.recv, err = mpi.NewBuffer(n)
	}
	r.s.Must("allocating the message buffers", err)
	r.logPlan()
}

// prepareRoles gives every rank its role (decided on rank 0), its
// communicator and its neighbors in mine.
func (r *run) prepareRoles() {
	var roles, orders []int64
	if r.world.IsRoot() {
		sp, err := congestion.DecideSplit(r.s.Job.Hosts, r.st.Split)
		r.s.Must("splitting the processes", err)
		roles, orders = toInt64(sp.Role), toInt64(sp.Order)
	}
	r.role = int(r.world.Scatter(roles))
	order := int(r.world.Scatter(orders))
	var err error
	r.mine, err = r.split(r.role, order)
	r.s.Must("MPI_Comm_split by role", err)
	if r.role == 0 {
		r.left, r.right = randomRing(r.st.Described.CanaryProcs, order, r.st.Split.Seed)
	} else {
		r.left, r.right = ring.WorstNeighbors(r.st.Described.SetProcs[r.role-1], order)
	}
}

// logPlan logs the plan and the memory model.
func (r *run) logPlan() {
	p := r.st.Plan
	r.progress = r.s.NewProgress("congestion", len(p.Names()))
	r.countPhases()
	r.progress.ModelSeconds(r.timeLeft)
	if r.s.Job.Share > 1 {
		r.progress.Rough("first repetition") // until every phase of a repetition was measured
	}
	r.s.Logf("congestion on %d processes: %s split, %d canary processes, congestor sets of %s processes (%s), %d measurements of %g s: about %.0f s",
		r.s.Size, r.st.Described.By, r.st.Described.CanaryProcs, congestion.Ints(r.st.Described.SetProcs), p.Mix, p.Measurements(), p.Time, p.Seconds())
	per, root := memory(r.st.Len, r.st.BwLen, r.s.Size)
	r.s.LogMemory("congestion", harness.BaseBytes+per, harness.BaseBytes+per+root,
		fmt.Sprintf("base %d MiB, a canary's and a congestor's buffers, 2 histograms of %d bins, rank 0's split of %d bytes per process", harness.BaseBytes>>20, loops.HistBins, rootBytesPerProc))
}

// randomRing is a canary's left and right neighbor in the random ring of n
// canaries drawn from seed (every canary draws the same).
func randomRing(n, me int, seed uint64) (left, right int) {
	perm := rand.New(rand.NewPCG(seed, ^seed)).Perm(n)
	pos := slices.Index(perm, me)
	return perm[(pos+n-1)%n], perm[(pos+1)%n]
}

func toInt64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

func (r *run) close() {
	r.send.Free()
	r.recv.Free()
	if r.mine != mpi.CommNull && r.mine != 0 {
		r.mine.Free()
	}
}

// measure runs the plan's steps.
func (r *run) measure(b *testing.B) {
	defer r.s.Watch("congestion", 0, "congestion.watchdog", *r.f.watchdog)()
	p := r.st.Plan
	for _, st := range p.Steps() {
		switch {
		case st.Canary == "" && st.Load == congestion.LoadIsolated && p.Only: // each set alone in turn
			for i, k := range p.Congestors {
				r.phase(b, phase{sets: map[int]string{i: k}, congLoad: congestion.LoadIsolated, rep: st.Rep})
			}
		case st.Canary == "" && st.Load == congestion.LoadIsolated: // together, without canaries
			r.phase(b, phase{sets: r.allSets(), congLoad: congestion.LoadIsolated, rep: st.Rep})
		case st.Canary == "" && st.Load == congestion.LoadTogether:
			r.phase(b, phase{sets: r.allSets(), congLoad: congestion.LoadTogether, rep: st.Rep})
		case st.Canary == "": // each: the one set runs one congestor alone
			r.phase(b, phase{sets: map[int]string{0: st.Load}, congLoad: congestion.LoadIsolated, rep: st.Rep})
		case st.Load == congestion.LoadIsolated:
			r.phase(b, phase{canary: st.Canary, load: st.Load, rep: st.Rep})
		case st.Load == congestion.LoadCongested:
			r.phase(b, phase{canary: st.Canary, load: st.Load, sets: r.allSets(), congLoad: st.Canary, rep: st.Rep})
		default: // each: the canary beside one congestor
			r.phase(b, phase{canary: st.Canary, load: st.Load, sets: map[int]string{0: st.Load}, congLoad: st.Canary, rep: st.Rep})
		}
	}
	r.clock.Report(b, "congestion")
	r.progress.Finish()
}

// allSets gives every set its congestor (together).
func (r *run) allSets() map[int]string {
	out := map[int]string{}
	for i, k := range r.st.Plan.Congestors {
		out[i] = k
	}
	return out
}

// A phase is one timed measurement of every process: a canary (or none)
// and the congestor sets that run (set → congestor), under the congestor
// lines' load name congLoad.
type phase struct {
	canary, load string
	sets         map[int]string
	congLoad     string
	rep          int
}

// loaded reports whether the canary runs beside congestors: then the
// congestors run until the canary is done.
func (ph phase) loaded() bool { return ph.canary != "" && len(ph.sets) > 0 }

// phase measures ph and writes its lines: the canary's, then the
// congestors' in the plan's order. The measurement is made in the first
// line's sub-benchmark; the others report it (when -test.bench skips the
// first, none is written).
func (r *run) phase(b *testing.B, ph phase) {
	sets, names := r.congestorLines(ph)
	var lines [][]metric // rank 0: each congestor line's metrics
	first := congestion.CanaryName(ph.canary, ph.load, ph.rep)
	if ph.canary == "" {
		first, names = names[0], names[1:]
	}
	if r.st.Resume.Next(first) {
		r.copySaved(b, first, names)
		return
	}
	r.clock.Keep(r.phaseTime())
	r.clock.Use()
	ran := false
	b.Run(first, func(b *testing.B) {
		ran = true
		smp, ld := r.run(ph)
		if ph.canary != "" {
			report(b, r.canaryLine(ph.canary, smp))
		}
		if lines = r.gatherCongestors(sets, ld); lines != nil && ph.canary == "" {
			report(b, lines[0])
			lines = lines[1:]
		}
	})
	r.progress.DoneOf(r.kind(r.phases), r.phaseTime())
	r.phases++
	if r.measured++; r.measured == r.perRep {
		r.progress.Rough("")
	}
	for i, n := range names {
		if ran {
			b.Run(n, func(b *testing.B) {
				if lines != nil {
					report(b, lines[i])
				}
			})
		}
	}
	r.progress.Add(len(names), 0) // the lines that report the phase took no time of their own
	r.progress.Log()
}

// countPhases counts the plan's phases, all and per repetition.
func (r *run) countPhases() {
	r.all = r.st.Plan.Measurements()
	r.perRep = r.all / r.st.Plan.Reps
}

// kind is the phase's kind for the progress: its place in its repetition
// (a canary under congestors runs until its last burst ends, and on
// processes that share CPUs its bursts last long: on 256 processes on 2
// cores a phase took from 1 s, a canary isolated, to 5 s, the allreduce
// under load, for phases of 0.25 s).
func (r *run) kind(phase int) int { return phase % r.perRep }

// timeLeft is the progress's model of seconds: the phases left, each its
// time, and how many are left of each kind (as many as the whole
// repetitions left, one more for the kinds from the next phase's on in
// the repetition under way).
func (r *run) timeLeft() (float64, []int) {
	left := r.all - r.phases
	kinds := make([]int, r.perRep)
	for k := range kinds {
		kinds[k] = left / r.perRep
		if k >= r.kind(r.phases) && left%r.perRep > 0 {
			kinds[k]++
		}
	}
	return float64(left) * r.phaseTime(), kinds
}

// phaseTime is the plan's time of one phase, seconds.
func (r *run) phaseTime() float64 { return r.st.Plan.Time + congestion.PhaseSlack }

// copySaved writes the lines of a phase that an earlier job measured
// (-congestion.resume copies whole repetitions: all of them are saved).
func (r *run) copySaved(b *testing.B, first string, rest []string) {
	b.Run(first, func(b *testing.B) { r.st.Resume.Write(b, r.s, first) })
	r.phases++
	for _, n := range rest {
		if r.st.Resume.Next(n) {
			b.Run(n, func(b *testing.B) { r.st.Resume.Write(b, r.s, n) })
		}
	}
	r.progress.Add(1+len(rest), 0)
}

// congestorLines are the sets that run in ph and the names of their
// lines, in the plan's order of congestors.
func (r *run) congestorLines(ph phase) (sets []int, names []string) {
	for _, k := range r.st.Plan.Congestors {
		for i, kk := range ph.sets {
			if kk == k {
				sets = append(sets, i)
				names = append(names, congestion.CongestorName(k, ph.congLoad, ph.rep))
			}
		}
	}
	return sets, names
}

// run measures one phase on this rank; every process leaves it together.
func (r *run) run(ph phase) (smp loops.Samples, ld loops.Load) {
	r.world.Barrier()
	done := r.s.Watch("congestion "+ph.canary+" "+ph.load, time.Duration((r.st.Plan.Time+congestion.PhaseSlack)*float64(time.Second)), "congestion.watchdog", *r.f.watchdog)
	var err error
	switch k, runs := ph.sets[r.role-1]; {
	case r.role == 0 && ph.canary != "":
		smp, err = r.canary(&loops.CanaryRun{Canary: canaries[ph.canary], Comm: r.mine, World: r.world.Comm, Loaded: ph.loaded(),
			Left: r.left, Right: r.right, Len: r.canaryLen(ph.canary), Duration: r.st.Plan.Time, Send: r.send, Recv: r.recv})
		r.s.Must("the "+ph.canary+" canary", err)
	case r.role > 0 && runs:
		ld, err = r.congestor(&loops.CongestorRun{Congestor: congestors[k], Comm: r.mine, World: r.world.Comm, Loaded: ph.loaded(),
			Left: r.left, Right: r.right, Len: r.st.Len, Duration: r.st.Plan.Time, Send: r.send, Recv: r.recv})
		r.s.Must("the "+k+" congestor", err)
	}
	done()
	r.world.QuietBarrier()
	return smp, ld
}

// canaryLen is the length of a canary's messages.
func (r *run) canaryLen(c string) int64 {
	if congestion.Bandwidth(c) {
		return r.st.BwLen
	}
	return congestion.SmallLen
}
