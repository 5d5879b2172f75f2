// Package driver runs the SKaMPI suite under the harness: its flags and
// settings (Setup on rank 0), the measurements that prepare a run (pairs,
// clock offsets: Prepare on every rank), its configuration lines and the
// body of BenchmarkSkampi, which measures every point of the plan with the
// timed loop of internal/mpi.
package driver

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// Flags of the SKaMPI suite.
var (
	flagOps       = flag.String("skampi.ops", "all", "skampi: operations to measure, comma-separated: names, patterns (ping-pong, collective, master-worker, simple) or all")
	flagLengths   = flag.String("skampi.L", "1:4Mi", "skampi: message lengths from:to in bytes (suffixes k, Ki, M, Mi); 1:4Ki with -test.short")
	flagStep      = flag.Float64("skampi.step", 2, "skampi: factor between message lengths (above 1; 8 with -test.short)")
	flagProcs     = flag.String("skampi.procs", "N", "skampi: process counts of collectives and master-worker: a list of counts and ranges a:b, N for all")
	flagChunks    = flag.String("skampi.chunks", "16", "skampi: work items of a master-worker repetition: a list of counts and ranges a:b")
	flagEps       = flag.Float64("skampi.eps", 0.03, "skampi: the relative standard error σ/(√n·x̄) a point repeats until (0 < ε < 1)")
	flagMin       = flag.Int("skampi.min", 8, "skampi: fewest repetitions of a point")
	flagMax       = flag.Int("skampi.max", 1000, "skampi: most repetitions of a point (100 with -test.short)")
	flagBudget    = flag.Duration("skampi.budget", time.Second, "skampi: time budget of one point (50ms with -test.short)")
	flagSync      = flag.String("skampi.sync", skampi.SyncWindow, "skampi: how repetitions start together: window (clock offsets, a schedule of windows) or barrier (MPI_Barrier before each, as OSU and IMB)")
	flagWarmup    = flag.Int("skampi.warmup", 2, "skampi: untimed calls before each point")
	flagCache     = flag.String("skampi.cache", skampi.CacheAuto, "skampi: cold (every call uses the next part of 32 MiB buffers), warm (the same buffer every call) or auto (warm for ping-pong, cold for the rest)")
	flagTestFault = flag.Bool("skampi.testfault", false, "skampi, for tests only: corrupt one received message to exercise validation")
)

// name keys the settings of the suite in the job.
const name = "skampi"

// BufferBytes is the size of each cycled buffer with a cold cache: well
// above the last-level caches of current processors.
const BufferBytes = 32 << 20

func init() {
	harness.Register(&harness.Suite{Name: name, Benchmark: "Benchmark" + skampi.Bench,
		Setup: setup, Prepare: prepareRun, Config: config, Units: skampi.Units})
}

// Settings are what rank 0 decides (Setup) and the run measures before
// its first point (Prepare), the same on every rank.
type Settings struct {
	Plan      skampi.Plan
	Rule      skampi.Rule
	Sync      string
	Warmup    int
	Cache     string
	Dropped   []string // operations of "all" that need more processes than the job has
	TestFault bool
	Yield     bool // the job oversubscribes a node: wait for windows with sched_yield
	Prep      Prepared
}

// setup checks the flags on rank 0 and decides the settings.
func setup(job *harness.Job) (any, error) {
	st := Settings{Sync: *flagSync, Warmup: *flagWarmup, Cache: *flagCache, TestFault: *flagTestFault, Yield: job.Oversub != "",
		Rule: skampi.Rule{Eps: *flagEps, Min: *flagMin, Max: *flagMax, Budget: flagBudget.Seconds()}}
	lengths, step := *flagLengths, *flagStep
	if job.Short {
		lengths, step = short("skampi.L", lengths, "1:4Ki"), short("skampi.step", step, 8)
		st.Rule.Max = short("skampi.max", st.Rule.Max, 100)
		st.Rule.Budget = short("skampi.budget", st.Rule.Budget, 0.05)
	}
	var err error
	if st.Plan.Lengths, err = skampi.ParseRange(lengths, step); err != nil {
		return nil, fmt.Errorf("-skampi.L=%s -skampi.step=%v: %v", lengths, step, err)
	}
	if err := st.checkRule(); err != nil {
		return nil, err
	}
	if err := st.checkChoices(); err != nil {
		return nil, err
	}
	if err := st.decideOps(job.Procs()); err != nil {
		return nil, err
	}
	return st, st.decideCounts(job.Procs())
}

// short is the -test.short value of a flag the command line did not set.
func short[T any](flagName string, v, short T) T {
	if harness.IsSet(flagName) {
		return v
	}
	return short
}

func (st *Settings) checkRule() error {
	r := st.Rule
	switch {
	case !(r.Eps > 0 && r.Eps < 1):
		return fmt.Errorf("-skampi.eps=%v: want a relative error between 0 and 1 (e.g. 0.03)", r.Eps)
	case r.Min < 1:
		return fmt.Errorf("-skampi.min=%d: want at least 1 repetition", r.Min)
	case r.Min > r.Max:
		return fmt.Errorf("-skampi.min=%d is above -skampi.max=%d", r.Min, r.Max)
	case r.Budget <= 0:
		return fmt.Errorf("-skampi.budget=%v: want a positive duration (e.g. 1s)", *flagBudget)
	case st.Warmup < 0:
		return fmt.Errorf("-skampi.warmup=%d: want 0 or more calls", st.Warmup)
	}
	return nil
}

func (st *Settings) checkChoices() error {
	if st.Sync != skampi.SyncWindow && st.Sync != skampi.SyncBarrier {
		return fmt.Errorf("-skampi.sync=%s: want %s or %s", st.Sync, skampi.SyncWindow, skampi.SyncBarrier)
	}
	if st.Cache != skampi.CacheAuto && st.Cache != skampi.CacheCold && st.Cache != skampi.CacheWarm {
		return fmt.Errorf("-skampi.cache=%s: want %s, %s or %s", st.Cache, skampi.CacheAuto, skampi.CacheCold, skampi.CacheWarm)
	}
	return nil
}

// decideOps reads -skampi.ops. Operations asked for by name or pattern
// that need more processes than the job has are refused; from "all" they
// are dropped and named.
func (st *Settings) decideOps(n int) error {
	ops, err := skampi.ParseOps(*flagOps)
	if err != nil {
		return fmt.Errorf("-skampi.ops=%s: %v", *flagOps, err)
	}
	all := *flagOps == "all"
	for _, i := range ops {
		o := skampi.Ops[i]
		switch {
		case o.MinProcs() <= n:
			st.Plan.Ops = append(st.Plan.Ops, i)
		case all:
			st.Dropped = append(st.Dropped, o.Name)
		default:
			return fmt.Errorf("-skampi.ops: %s is a %s operation and needs %d processes; the job has %d", o.Name, o.Pattern, o.MinProcs(), n)
		}
	}
	if len(st.Plan.Ops) == 0 {
		return errors.New("-skampi.ops: nothing to measure")
	}
	return nil
}

func (st *Settings) decideCounts(n int) error {
	var err error
	if st.Plan.Procs, err = skampi.ParseCounts(*flagProcs, 1, n); err != nil {
		return fmt.Errorf("-skampi.procs=%s: %v (the job has %d processes)", *flagProcs, err, n)
	}
	if st.Plan.Chunks, err = skampi.ParseCounts(*flagChunks, 1, mpi.MaxChunks); err != nil {
		return fmt.Errorf("-skampi.chunks=%s: %v", *flagChunks, err)
	}
	return nil
}

// config returns the configuration lines of the suite.
func config(job *harness.Job) []string {
	var st Settings
	job.State(name, &st)
	var ops []string
	for _, i := range st.Plan.Ops {
		ops = append(ops, skampi.Ops[i].Name)
	}
	p := st.Prep
	lines := []string{
		kv(skampi.KeyOps, strings.Join(ops, ",")),
		kv(skampi.KeySync, st.Sync),
		kv(skampi.KeyEps, fmt.Sprint(st.Rule.Eps)),
		kv(skampi.KeyReps, fmt.Sprintf("%d-%d", st.Rule.Min, st.Rule.Max)),
		kv(skampi.KeyBudget, fmt.Sprint(st.Rule.Budget)),
		kv(skampi.KeyLengths, results.JoinInts(st.Plan.Lengths.Lengths(1))),
		kv(skampi.KeyProcs, results.JoinInts(st.Plan.Procs)),
		kv(skampi.KeyChunks, results.JoinInts(st.Plan.Chunks)),
		kv(skampi.KeyWarmup, fmt.Sprint(st.Warmup)),
		kv(skampi.KeyCache, st.Cache),
		kv(skampi.KeyWtick, fmt.Sprint(p.Wtick)),
		kv(skampi.KeyTimer, fmt.Sprintf("%.3g", p.Timer)),
		kv(skampi.KeyClock, p.clock()),
	}
	if !p.Global && len(p.Offsets) > 1 {
		lines = append(lines, kv(skampi.KeyOffsets, p.offsetStats()), kv(skampi.KeyOffsetEr, fmt.Sprintf("%.3f", p.OffsetErr*1e6)))
	}
	if len(job.Hosts) > 1 {
		lines = append(lines, kv(skampi.KeyPairMax, p.pairLine(p.Max, p.MaxRTT, job.Hosts)),
			kv(skampi.KeyPairMin, p.pairLine(p.Min, p.MinRTT, job.Hosts)))
	}
	return lines
}

func kv(k, v string) string { return k + ": " + v }
