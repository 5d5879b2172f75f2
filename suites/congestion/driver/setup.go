// Package driver runs the congestion suite under the harness: its flags
// and settings (Setup, decided on rank 0), its configuration lines and
// the body of BenchmarkCongestion, which measures the canaries isolated
// and under the congestors' load through its package loops.
package driver

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/congestion"
	"github.com/beff-suite/beff/suites/congestion/loops"
)

// flags are the suite's flags, on the flag set the binary's main owns
// (New puts them there).
type flags struct {
	fs          *flag.FlagSet
	time        *float64
	reps        *int
	canaries    *string
	congestors  *string
	split       *string
	share       *float64
	canaryNodes *string
	mix         *string
	len         *int64
	bwLen       *int64
	minLoad     *float64
	seed        *string
	only        *bool
	watchdog    *time.Duration
	resume      *string
}

func newFlags(fs *flag.FlagSet) *flags {
	return &flags{fs: fs,
		time:        fs.Float64("congestion.time", 1, "congestion: seconds of each measurement (0.25 with -test.short)"),
		reps:        fs.Int("congestion.reps", 3, "congestion: repetitions of the whole sequence, for the spread of every figure (2 with -test.short)"),
		canaries:    fs.String("congestion.canaries", strings.Join(congestion.CanaryNames, ","), "congestion: the canaries to measure, comma-separated"),
		congestors:  fs.String("congestion.congestors", strings.Join(congestion.DefaultCongestors, ","), "congestion: the congestors that load the network, comma-separated: incast, rma-incast, bcast, alltoall (GPCNeT's, the default) and worst-cycle (b_eff's worst-case cycle)"),
		split:       fs.String("congestion.split", "auto", "congestion: how the processes are split: nodes (whole nodes run canaries, GPCNeT's way), procs (every node gives some of its processes to the canaries) or auto (nodes from 4 nodes up)"),
		share:       fs.Float64("congestion.canary-share", 0.2, "congestion: the share of the nodes (split nodes) or of each node's processes (split procs) that runs canaries"),
		canaryNodes: fs.String("congestion.canary-nodes", "", "congestion: the hosts whose processes run the canaries, comma-separated (instead of -congestion.split)"),
		mix:         fs.String("congestion.mix", "auto", "congestion: together (every congestor at once, each on its own processes, GPCNeT's way), each (one at a time on all congestor processes) or auto (together when every congestor gets 2 processes)"),
		len:         fs.Int64("congestion.len", 4096, "congestion: bytes of a congestor's message"),
		bwLen:       fs.Int64("congestion.bw-len", 131072, "congestion: bytes of a message of the ring bandwidth canary"),
		minLoad:     fs.Float64("congestion.min-load", 0.5, "congestion: the share of what it delivers without canaries that every congestor must deliver beside each canary of time (rr-lat, allreduce), or the run is NOT VALID"),
		seed:        fs.String("congestion.seed", "", "congestion: seed of the node shuffle and the random rings (unsigned integer; default: drawn on rank 0 and printed)"),
		only:        fs.Bool("congestion.congestors-only", false, "congestion: no canaries: the congestors, each alone and all together, -congestion.time seconds each — a load for other jobs that says what it delivered"),
		watchdog:    harness.WatchdogFlag(fs, "congestion", "congestion"),
		resume:      fs.String("congestion.resume", "", "congestion: the output of an earlier job of the same configuration that did not finish (results/partial/…): its whole repetitions are copied, the rest measured (its seed is taken)"),
	}
}

// name keys the suite's settings in the job.
var name = congestion.ID.Key

// A Driver is the congestion suite under the harness: its flags, on the
// flag set the binary's main owns, and the handle of the settings rank 0
// decides (setup), which the benchmark body reads.
type Driver struct {
	*harness.Driver
	f        *flags
	settings harness.Settings[Settings]
}

// New puts the suite's flags on fs and returns its driver, for
// harness.Main.
func New(fs *flag.FlagSet) *Driver {
	d := &Driver{f: newFlags(fs)}
	d.Driver, d.settings = harness.NewDriver(harness.Suite[Settings]{ID: congestion.ID, Setup: d.f.setup, CheckFlags: d.f.checkFlags, Prepare: prepareJob, Config: config})
	return d
}

// Settings are what rank 0 decides and broadcasts.
type Settings struct {
	Plan       congestion.Plan
	Split      congestion.SplitOptions
	Len, BwLen int64
	MinLoad    float64
	// Described is the split rank 0 made, for the configuration lines
	// (its tables left out: every rank gets its own role in the run).
	Described congestion.Split
	Details   string // which nodes run canaries (Split.Details)
	// Resume holds what -congestion.resume copies, nil without it.
	Resume *harness.Resume
	// NoRMA says why the one-sided incast was left out ("": it was not).
	NoRMA string
}

// checkFlags checks what of the flags needs no job: the numbers' ranges
// and the names of canaries and congestors.
func (f *flags) checkFlags() error {
	if err := harness.CheckRanges(f.fs, flagRanges...); err != nil {
		return err
	}
	if _, err := congestion.ParseList("-congestion.canaries", *f.canaries, congestion.CanaryNames); err != nil {
		return err
	}
	_, err := congestion.ParseList("-congestion.congestors", *f.congestors, congestion.CongestorNames)
	return err
}

// flagRanges are what the numeric flags accept.
var flagRanges = []harness.FlagRange{
	harness.WatchdogRange("congestion.watchdog"),
	{Flag: "congestion.time", Min: 0.01, Max: 86400, Unit: "s"},
	{Flag: "congestion.reps", Min: 1, Max: congestion.MaxReps},
	{Flag: "congestion.canary-share", Min: 0.01, Max: 0.99},
	{Flag: "congestion.len", Min: 1, Max: 1 << 26, Unit: "bytes"},
	{Flag: "congestion.bw-len", Min: 1, Max: 1 << 26, Unit: "bytes"},
	{Flag: "congestion.min-load", Min: 0, Max: 1},
}

// setup checks the flags on rank 0 and decides the settings.
func (f *flags) setup(job *harness.Job) (Settings, error) {
	if err := f.checkFlags(); err != nil {
		return Settings{}, err
	}
	st := Settings{Len: *f.len, BwLen: *f.bwLen, MinLoad: *f.minLoad,
		Plan: congestion.Plan{Time: *f.time, Reps: *f.reps, Only: *f.only}}
	if job.Short && !harness.IsSet(f.fs, "congestion.time") {
		st.Plan.Time = 0.25
	}
	if job.Short && !harness.IsSet(f.fs, "congestion.reps") {
		st.Plan.Reps = 2
	}
	var err error
	if !st.Plan.Only {
		if st.Plan.Canaries, err = congestion.ParseList("-congestion.canaries", *f.canaries, congestion.CanaryNames); err != nil {
			return Settings{}, err
		}
	}
	if st.Plan.Congestors, err = congestion.ParseList("-congestion.congestors", *f.congestors, congestion.CongestorNames); err != nil {
		return Settings{}, err
	}
	seed, err := harness.DecideSeed("congestion.seed", *f.seed)
	if err != nil {
		return Settings{}, err
	}
	st.Split = congestion.SplitOptions{By: *f.split, Share: *f.share, Congestors: len(st.Plan.Congestors),
		Mix: *f.mix, Only: st.Plan.Only, Seed: seed}
	if *f.canaryNodes != "" {
		if st.Plan.Only {
			return Settings{}, fmt.Errorf("-congestion.canary-nodes with -congestion.congestors-only: there are no canaries")
		}
		for _, h := range strings.Split(*f.canaryNodes, ",") {
			st.Split.CanaryNodes = append(st.Split.CanaryNodes, strings.TrimSpace(h))
		}
	}
	if err := st.split(job); err != nil {
		return Settings{}, err
	}
	if err := st.readResume(f, job); err != nil {
		return Settings{}, err
	}
	per, root := memory(st.Len, st.BwLen, job.Procs())
	return st, job.CheckMemory("congestion", harness.BaseBytes+per+root, "lower -congestion.bw-len or -congestion.len")
}

// rmaIncast is the congestor that needs one-sided windows.
const rmaIncast = "rma-incast"

// rmaProbe makes and frees a window on every rank (mpi.RMAProbe); tests
// put a fake in its place.
var rmaProbe = func(s *harness.Session) (ok bool, why, err error) { return mpi.RMAProbe(s.World().Comm, false) }

// prepareJob runs on every rank: where a run has the one-sided incast,
// a window is made and freed on all processes first; where that fails
// (Open MPI 4 over TCP makes none across nodes), rank 0 leaves the
// congestor out, splits the processes again and says why.
func prepareJob(s *harness.Session, st Settings) Settings {
	if !slices.Contains(st.Plan.Congestors, rmaIncast) {
		return st
	}
	ok, why, err := rmaProbe(s)
	s.Must("probing one-sided windows", err)
	if ok {
		return st
	}
	type outcome struct {
		St   Settings
		Stop string
	}
	out := harness.Decide(s.World(), func() outcome {
		st.NoRMA = s.Job.WindowFailure(why)
		st.Plan.Congestors = slices.DeleteFunc(st.Plan.Congestors, func(k string) bool { return k == rmaIncast })
		st.Split.Congestors = len(st.Plan.Congestors)
		if len(st.Plan.Congestors) == 0 {
			return outcome{Stop: "-congestion.congestors=rma-incast: MPI_Win_create failed (" + st.NoRMA + ")"}
		}
		if err := st.split(&s.Job); err != nil {
			return outcome{Stop: err.Error()}
		}
		return outcome{St: st}
	})
	if out.Stop != "" {
		s.Stop(harness.ExitBadInput, out.Stop)
	}
	return out.St
}

// split decides the split of the job's processes and keeps its
// description (every rank gets its own role when the run starts).
func (st *Settings) split(job *harness.Job) error {
	sp, err := congestion.DecideSplit(job.Hosts, st.Split)
	if err != nil {
		return fmt.Errorf("congestion on %d processes: %v", job.Procs(), err)
	}
	st.Described = *sp
	st.Described.Role, st.Described.Order = nil, nil
	st.Details = sp.Details()
	st.Plan.Mix = sp.Mix
	return nil
}

// readResume reads -congestion.resume: the earlier job must have this
// run's configuration, its seed (taken from it unless -congestion.seed
// is given) and so its split included; only its whole repetitions are
// copied, so that every CIF pairs measurements of one job.
func (st *Settings) readResume(f *flags, job *harness.Job) error {
	if *f.resume == "" {
		return nil
	}
	want := func(file map[string]string) (map[string]string, error) {
		seed, ok, err := harness.ResumeSeed(file, congestion.KeySeed, *f.seed)
		if err != nil {
			return nil, err
		}
		if ok {
			st.Split.Seed = seed
			if err := st.split(job); err != nil {
				return nil, err
			}
		}
		return job.ResumeWantLines(st.lines()), nil
	}
	r, err := job.ReadResume("congestion.resume", *f.resume, congestion.Bench, want, checkSaved, "congestion-")
	if err != nil {
		return err
	}
	whole := congestion.WholeReps(st.Plan, r.Counts)
	st.Resume = r.Keep(func(name string) bool { return whole[congestion.RepOf(name)] })
	return nil
}

// checkSaved checks a line to copy: it holds a measurement.
func checkSaved(_ string, m map[string]float64) error {
	if s := m[congestion.MetricSeconds]; !(s > 0 && s < 1e9) {
		return fmt.Errorf("not a measurement of the congestion suite (%s %v)", congestion.MetricSeconds, s)
	}
	return nil
}

// memory is the suite's memory model beyond the base: every process
// holds a canary's and a congestor's two buffers and two histograms;
// rank 0 the split's tables.
func memory(n, bwLen int64, procs int) (per, root int64) {
	per = 2*canaryBuffer(bwLen) + 2*loops.CongestorBuffer(n) + 2*8*loops.HistBins
	return per, rootBytesPerProc * int64(procs)
}

// canaryBuffer is the bytes of each of a canary's buffers: the ring
// bandwidth's messages, or the 8-byte ones where those are longer.
func canaryBuffer(bwLen int64) int64 { return loops.CanaryBuffer(max(bwLen, congestion.SmallLen)) }

// rootBytesPerProc is what rank 0 holds per process to split them: the
// role, the order, the canary mark and the node tables.
const rootBytesPerProc = 96

// config returns the configuration lines.
func config(job *harness.Job, st Settings) []string {
	lines := st.lines()
	if st.NoRMA != "" {
		lines = append(lines, congestion.KeyNoRMA+": rma-incast left out: MPI_Win_create failed ("+st.NoRMA+")")
	}
	if st.Resume != nil {
		lines = append(lines, congestion.KeyResumed+": "+st.Resume.Describe("lines"))
	}
	return lines
}

// lines are the configuration lines of the settings.
func (st *Settings) lines() []string {
	line := func(key, format string, args ...any) string { return key + ": " + fmt.Sprintf(format, args...) }
	p, sp := st.Plan, st.Described
	mode := congestion.ModeCanaries
	if p.Only {
		mode = congestion.ModeCongestorsOnly
	}
	out := []string{
		line(congestion.KeyMode, "%s", mode),
		line(congestion.KeyTime, "%g", p.Time),
		line(congestion.KeyReps, "%d", p.Reps),
	}
	if !p.Only {
		out = append(out, line(congestion.KeyCanaries, "%s", strings.Join(p.Canaries, ",")))
	}
	out = append(out,
		line(congestion.KeyCongestors, "%s", strings.Join(p.Congestors, ",")),
		line(congestion.KeyMix, "%s", p.Mix),
		line(congestion.KeyNodes, "%d", sp.Nodes))
	if !p.Only {
		out = append(out,
			line(congestion.KeySplit, "%s", sp.By),
			line(congestion.KeyCanaryProcs, "%d", sp.CanaryProcs),
			line(congestion.KeyCanaryNodes, "%d", sp.CanaryNodes))
	}
	out = append(out,
		line(congestion.KeySetProcs, "%s", congestion.Ints(sp.SetProcs)),
		line(congestion.KeySetNodes, "%s", congestion.Ints(sp.SetNodes)),
		line(congestion.KeyLen, "%d", st.Len))
	if !p.Only {
		out = append(out, line(congestion.KeyBwLen, "%d", st.BwLen))
	}
	out = append(out,
		line(congestion.KeyMinLoad, "%g", st.MinLoad),
		line(congestion.KeySeed, "%d", st.Split.Seed),
		line(congestion.KeyPlan, "%.0f", p.Seconds()),
		line(congestion.KeySplitDetails, "%s", st.Details))
	return out
}
