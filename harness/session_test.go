package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/machine"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/results"
)

// soloComm is the collectives of a job of one process: everything is
// this process's own (the in-package tests cannot import harnesstest).
type soloComm struct{}

func (soloComm) Barrier() error                        { return nil }
func (soloComm) QuietBarrier(poll time.Duration) error { return nil }
func (soloComm) BcastBytes(buf []byte, root int) error { return nil }
func (soloComm) ReduceFloat64(in, out []float64, op mpi.ReduceOp, root int) error {
	copy(out, in)
	return nil
}
func (soloComm) ReduceInt64(in, out []int64, op mpi.ReduceOp, root int) error {
	copy(out, in)
	return nil
}
func (soloComm) AllreduceInt64(in, out []int64, op mpi.ReduceOp) error { copy(out, in); return nil }
func (soloComm) GatherBytes(in, out []byte, root int) error            { copy(out, in); return nil }
func (soloComm) ScatterBytes(in, out []byte, root int) error           { copy(out, in); return nil }

// soloSession is a session of one process whose stderr is log.
func soloSession(job Job, log *bytes.Buffer) *Session {
	s := NewFakeSession(0, 1, job, soloComm{}, func(int, string) {})
	s.Log = log
	return s
}

// testFlags are the harness's flags on a flag set of their own, at their
// defaults.
func testFlags() *flags { return newFlags(flag.NewFlagSet("test", flag.ContinueOnError)) }

// TestWriteConfig: the job's lines in their order, the Slurm job's, the
// mode, then each suite's lines and unit lines, of the suites set up only.
func TestWriteConfig(t *testing.T) {
	a := &Driver{ID: &results.Identity{Key: "a", Name: "A", Units: []string{"MB/s better=higher"}},
		Config: func(job *Job) []string { return []string{"a-size: 3"} }}
	b := &Driver{ID: &results.Identity{Key: "b", Name: "B", Units: []string{"us better=lower"}},
		Config: func(job *Job) []string { return []string{"b-never: 1"} }}
	job := Job{Version: "0.1.0", Commit: "abc", GoVersion: "go1.26", Date: "2026-11-26T00:00:00Z", Library: "Open MPI v4.1.4",
		Thread: "single", Hosts: []string{"n0", "n0", "n1", "n1"}, ProcsNode: 2, Preload: "/x/yield.so", Short: true,
		SuiteState: map[string]json.RawMessage{"a": json.RawMessage(`{}`)}, MPIEnv: "UCX_TLS=rc",
		Machines: []machine.Kind{{Machine: machine.Machine{CPU: "X", Sockets: 2, Cores: 64, Threads: 128, MemMiB: 256000, Kernel: "Linux 6.1 x86_64", OS: "Debian 12",
			NICs: []machine.NIC{{Name: "ib0", Kind: "infiniband", Speed: "100 Gb/s", Device: "mlx5_core mlx5_0:1"}}}, Hosts: "n0"},
			{Machine: machine.Machine{CPU: "X", Sockets: 2, Cores: 64, Threads: 128, MemMiB: 512000, Kernel: "Linux 6.1 x86_64", OS: "Debian 12",
				NICs: []machine.NIC{{Name: "ib0", Kind: "infiniband", Speed: "100 Gb/s", Device: "mlx5_core mlx5_0:1"}}}, Hosts: "n1"}},
		MachineKinds: 2}
	var w bytes.Buffer
	writeConfig(&w, &job, []*Driver{a, b})
	assert.Equal(t, `beff-version: 0.1.0
beff-commit: abc
go-version: go1.26
date: 2026-11-26T00:00:00Z
mpi-library: Open MPI v4.1.4
mpi-thread: single
mpi-procs: 4
mpi-hosts: n0 (2), n1 (2)
mpi-procs-per-node: 2
mpi-oversubscribed: no
mpi-rank-order: block (consecutive ranks share a node)
mpi-preload: /x/yield.so
mpi-env: UCX_TLS=rc
machine-cpu: X, 2 sockets, 64 cores, 128 threads
machine-memory: 256000 MiB (n0); 512000 MiB (n1)
machine-net: ib0 infiniband 100 Gb/s mlx5_core mlx5_0:1
machine-kernel: Linux 6.1 x86_64
machine-os: Debian 12
machine-kinds: 2: the nodes differ
beff-mode: short (quick check, not a valid result)
a-size: 3
Unit MB/s better=higher
`, w.String())
}

// TestSetupOutcome: the suites selected are set up on rank 0 with their
// settings kept under their keys; a suite's error stops the job with its
// message, a suite's Done ends it at once with its text; a panic in a
// Setup is one line.
func TestSetupOutcome(t *testing.T) {
	type st struct{ N int }
	a := &Driver{ID: &results.Identity{Key: "a", Name: "A", Bench: "A"}, Setup: func(job *Job) (any, error) { return st{len(job.Hosts)}, nil }}
	t.Setenv("OMPI_COMM_WORLD_SIZE", "")
	t.Setenv("PMIX_SIZE", "")
	t.Setenv("PMI_SIZE", "")
	t.Setenv("MPI_LOCALNRANKS", "")
	t.Setenv("SLURM_NTASKS", "")
	s := soloSession(Job{}, &bytes.Buffer{})
	s.flags, s.drivers = testFlags(), []*Driver{a}
	nodes := []node{{host: "n0", pid: 10, memMiB: 1000, procsNode: 1, cpus: 2}}
	job := Job{}
	require.NoError(t, setupSuites(&job, []*Driver{a}))
	assert.JSONEq(t, `{"N":0}`, string(job.SuiteState["a"]), "a job without hosts yet")

	b := &Driver{ID: &results.Identity{Key: "b", Name: "B"}, Setup: func(*Job) (any, error) { return nil, errors.New("-b.x=3: out of range") }}
	c := &Driver{ID: &results.Identity{Key: "c", Name: "C"}, Setup: func(*Job) (any, error) { return nil, &Done{Text: "the plan"} }}
	d := &Driver{ID: &results.Identity{Key: "d", Name: "D"}, Setup: func(*Job) (any, error) { panic("index out of range") }}
	job = describeJob("single", nodes)
	assert.EqualError(t, setupSuites(&job, []*Driver{a, b}), "-b.x=3: out of range")
	var done *Done
	assert.ErrorAs(t, setupSuites(&job, []*Driver{c}), &done)
	err := setupSuites(&job, []*Driver{d})
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "internal error setting up D: index out of range ("), err.Error())
	assert.Equal(t, 1, strings.Count(err.Error(), "\n")+1, "one line")

	out := setupOutcome(s, "single", nodes, machineKinds{})
	assert.Empty(t, out.Err)
	assert.Equal(t, []string{"n0"}, out.Job.Hosts)
}

// TestPrepareKeepsWhatEveryRankMeasured: a suite's Prepare runs after its
// Setup and replaces its settings with what it returns.
func TestPrepareKeepsWhatEveryRankMeasured(t *testing.T) {
	type st struct{ Seen, Measured int }
	d, h := NewDriver(Suite[st]{ID: &results.Identity{Key: "a", Name: "A"},
		Prepare: func(s *Session, in st) st { return st{in.Seen, 42} },
		Config:  func(job *Job, in st) []string { return []string{fmt.Sprintf("a-seen: %d", in.Seen)} }})
	s := soloSession(Job{Hosts: []string{"n0"}, SuiteState: map[string]json.RawMessage{"a": json.RawMessage(`{"Seen":7}`)}}, &bytes.Buffer{})
	s.drivers = []*Driver{d}
	prepare(s)
	got, err := h.Of(s)
	require.NoError(t, err)
	assert.Equal(t, st{7, 42}, got)
	assert.Equal(t, []string{"a-seen: 7"}, h.Lines(&s.Job))
	assert.Nil(t, h.Lines(&Job{}), "no settings, no lines")
	_, err = Settings[st]{key: "b"}.Of(s)
	assert.ErrorContains(t, err, `no settings for suite "b"`)
}

// TestProgress: the count of -test.count repetitions, a line at most every
// 2 s, the last line at the end with its ETA, on rank 0 only.
func TestProgress(t *testing.T) {
	var log bytes.Buffer
	s := soloSession(Job{}, &log)
	p := s.NewProgress("b_eff", 4)
	assert.Equal(t, 4, p.Total())
	p.Done()
	p.Log()
	assert.Empty(t, log.String(), "no line within 2 s")
	p.Add(3, 1)
	p.Grow(2, 1) // measurements added while the suite runs
	p.Add(2, 1)
	p.log = time.Now().Add(-time.Minute) // a line due at the last measurement
	p.Log()
	p.Finish()
	assert.Equal(t, "[beff] b_eff 6/6 measurements, 0s elapsed, ETA 0s\n", log.String(), "said once")
	p.Grow(1, 1) // measurements added after all were done are said
	p.Done()
	p.Finish()
	assert.Equal(t, "[beff] b_eff 6/6 measurements, 0s elapsed, ETA 0s\n[beff] b_eff 7/7 measurements, 0s elapsed, ETA 0s\n", log.String())

	log.Reset()
	w := s.NewProgress("b_eff", 4)
	w.Warming()
	w.Done()
	w.Finish()
	assert.Regexp(t, `^\[beff\] b_eff 1/4 measurements, 0s elapsed, ETA ~[0-9.]+[mµn]?s \(rough: first contacts\)\n$`, log.String(), "said rough until Warm")

	other := NewFakeSession(1, 2, Job{}, soloComm{}, func(int, string) {})
	var quiet bytes.Buffer
	other.Log = &quiet
	other.NewProgress("b_eff", 4).Finish()
	assert.Empty(t, quiet.String(), "rank 1 writes no progress")
}

// TestLogPeak: the job's peak resident memory, gathered to rank 0, is one
// line with this process's VmHWM.
func TestLogPeak(t *testing.T) {
	var log bytes.Buffer
	s := soloSession(Job{}, &log)
	s.logPeak()
	assert.Regexp(t, `^\[beff\] peak resident memory per process \(VmHWM\): min [1-9][0-9.]* MiB, median [0-9.]+ MiB, max [0-9.]+ MiB \(rank 0\); rank 0 [0-9.]+ MiB\n$`, log.String())
	assert.Positive(t, peakKiB())
}

// TestMemoryLines: a suite's memory model as logged, and the refusal of a
// model above the node's share.
func TestMemoryLines(t *testing.T) {
	var log bytes.Buffer
	s := soloSession(Job{}, &log)
	s.LogMemory("b_eff", 48<<20, 50<<20, "base 40 MiB, 2 buffers")
	assert.Equal(t, "[beff] b_eff memory model: 48.0 MiB per process, rank 0 50.0 MiB (base 40 MiB, 2 buffers)\n", log.String())
	j := Job{MemMiB: 100, ProcsNode: 4}
	assert.NoError(t, j.CheckMemory("b_eff", 100<<20, "lower -beff.mem"))
	assert.EqualError(t, j.CheckMemory("b_eff", 101<<20, "lower -beff.mem"),
		"b_eff needs 101.0 MiB per process, more than the 100 MiB per process of the smallest node (its memory divided by its 4 processes): lower -beff.mem")
	assert.NoError(t, (&Job{MemMiB: -1}).CheckMemory("b_eff", 1<<40, ""), "an unknown memory passes")
}

// TestCheckTestFlags: testing's own flags that would break beff's
// measurements are refused with why: a benchtime other than 1x, a cpu
// list; set as beff wants them they pass.
func TestCheckTestFlags(t *testing.T) {
	for _, name := range []string{"test.benchtime", "test.cpu"} {
		old := flag.Lookup(name).Value.String()
		t.Cleanup(func() { flag.Set(name, old) })
	}
	require.NoError(t, flag.Set("test.benchtime", "1x")) // what the harness gives a benchmark binary
	require.NoError(t, checkTestFlags(testFlags()))
	for _, c := range []struct{ flag, value, back, want string }{
		{"test.benchtime", "2s", "1x", "-test.benchtime=2s: beff measures with its own time-driven loop lengths and needs -test.benchtime=1x"},
		{"test.cpu", "1,2", "1", "-test.cpu=1,2: beff runs every benchmark with GOMAXPROCS=1"},
	} {
		require.NoError(t, flag.Set(c.flag, c.value))
		assert.True(t, IsSet(flag.CommandLine, c.flag))
		err := checkTestFlags(testFlags())
		require.NoError(t, flag.Set(c.flag, c.back))
		assert.ErrorContains(t, err, c.want)
	}
	assert.NoError(t, checkTestFlags(testFlags()), "1x and one CPU are what beff wants")
}

// TestProgressDue: in a terminal a line every 2 s; in a log one at every
// tenth of the predicted time or once a minute, never within 2 s.
func TestProgressDue(t *testing.T) {
	term := &Progress{mode: progressTerminal}
	assert.False(t, term.due(time.Second, 0.5))
	assert.True(t, term.due(2*time.Second, 0))
	log := &Progress{mode: progressLog, logged: 0.3}
	assert.False(t, log.due(30*time.Second, 0.35), "under a tenth more, under a minute")
	assert.True(t, log.due(3*time.Second, 0.41), "a tenth more")
	assert.False(t, log.due(time.Second, 0.9), "never within 2 s")
	assert.True(t, log.due(time.Minute, 0.31), "a minute")
}

// TestProgressETA: a model scaled by the pace of what is done, a model of
// seconds taken as it is with every measurement's overhead, and the
// fraction done.
func TestProgressETA(t *testing.T) {
	p := &Progress{all: 10, count: 1, planned: 100}
	p.DoneWeighing(10)
	p.DoneWeighing(10)
	eta, frac := p.eta(40 * time.Second) // 20 of the model took 40 s: twice as slow
	assert.Equal(t, 160*time.Second, eta)
	assert.InDelta(t, 0.2, frac, 1e-12)

	s := &Progress{all: 10, count: 2, start: time.Now().Add(-10 * time.Second)}
	s.ModelSeconds(func() (float64, []int) { return 30, []int{4} })
	s.DoneWeighing(4)
	s.DoneWeighing(4) // 8 s of timed work in 10 s: 1 s more each
	eta, _ = s.eta(10 * time.Second)
	assert.InDelta(t, 2*30+8, eta.Seconds(), 0.01, "-test.count 2: the model's time left twice, and 8 measurements' overhead")

	// 4 s of the 10 were a first probe (Aside): 0.5 s more each; of the
	// 8 measurements in the total a decision is expected to drop 5 (6 s + 3 × 1.5 s)
	o := &Progress{all: 10, count: 1, start: time.Now().Add(-10 * time.Second)}
	o.ModelSeconds(func() (float64, []int) { return 6, []int{3} })
	o.Aside(4)
	o.DoneWeighing(1)
	o.DoneWeighing(2)
	eta, _ = o.eta(10 * time.Second)
	assert.InDelta(t, 10.5, eta.Seconds(), 0.01, "the model's count of what is left, the overhead without what was done once")

	// the overhead of the last overWindow measurements: 0.5 s each
	// after 64 of 2 s each
	w := &Progress{all: 200, count: 1}
	w.ModelSeconds(func() (float64, []int) { return 0, []int{10} })
	for i := range 2 * overWindow {
		w.start = time.Now().Add(-time.Duration(2*min(i+1, overWindow)+max(0, i+1-overWindow)/2) * time.Second)
		w.DoneWeighing(0)
	}
	eta, _ = w.eta(0)
	assert.InDelta(t, 10*0.5, eta.Seconds(), 0.01)

	// two kinds: 3 s and 1 s beside the timed work each until Warm,
	// then 1 s and 0.5 s; rough until both were measured since Warm,
	// each kind's own before
	h := &Progress{all: 10, count: 1}
	h.ModelSeconds(func() (float64, []int) { return 0, []int{2, 4} })
	h.Warming()
	done := func(kind int, el float64) {
		h.start = time.Now().Add(-time.Duration(el * float64(time.Second)))
		h.DoneOf(kind, 0)
	}
	done(0, 3)
	done(1, 4)
	assert.Equal(t, "first contacts", h.rough(), "not warm yet")
	eta, _ = h.eta(0)
	assert.InDelta(t, 2*3+4*1, eta.Seconds(), 0.01, "each kind its own")
	h.Warm()
	done(0, 5)
	assert.Equal(t, "first contacts", h.rough(), "kind 1 not measured since Warm")
	eta, _ = h.eta(0)
	assert.InDelta(t, 2*1+4*1, eta.Seconds(), 0.01, "kind 0 since Warm, kind 1 before")
	done(1, 5.5)
	assert.Empty(t, h.rough())
	h.Rough("a guess")
	assert.Equal(t, "a guess", h.rough(), "the suite says why")
	eta, _ = h.eta(0)
	assert.InDelta(t, 2*1+4*0.5, eta.Seconds(), 0.01, "both since Warm")
	u := &Progress{all: 10, count: 1}
	u.ModelSeconds(func() (float64, []int) { return 0, []int{0, 0, 3} })
	u.start = time.Now().Add(-4 * time.Second)
	u.DoneOf(0, 0)
	u.DoneOf(1, 0) // 4 s and 0 s
	eta, _ = u.eta(0)
	assert.InDelta(t, 3*2, eta.Seconds(), 0.01, "a kind not measured yet: the mean of all")

	n := &Progress{all: 4, count: 1, planned: 4}
	eta, frac = n.eta(0)
	assert.Equal(t, 4*time.Second, eta, "nothing done: the model as it is")
	assert.Zero(t, frac)
	f := testFlags()
	assert.NoError(t, checkProgressFlag(*f.progress))
	require.NoError(t, f.fs.Set("progress", "sometimes"))
	assert.EqualError(t, checkTestFlags(f), "-progress=sometimes: want terminal, log, off or auto")
}
