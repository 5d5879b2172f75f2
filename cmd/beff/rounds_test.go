package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/launch"
	"github.com/beff-suite/beff/internal/results"
)

// fakeRounds records the jobs and compilations of rounds instead of
// running them.
type fakeRounds struct {
	jobs     [][]string // each job's argv, its stdout file last
	compiled [][]string
}

func (f *fakeRounds) opts(t *testing.T, refs map[string]string) *roundOpts {
	var log bytes.Buffer
	return &roundOpts{refs: refs, rounds: 2, bin: "/x/beff.test", out: t.TempDir(), mpicc: "mpicc", limit: time.Minute, stderr: &log,
		set: results.RoundSettings{Procs: 2, MemMiB: 64, T: 10, Dir: "/scratch", Files: "tools/skampi5"},
		job: func(c launch.Cmd, stdout, stderr string, limit time.Duration) error {
			f.jobs = append(f.jobs, append(slices.Clone(c.Argv), stdout))
			return nil
		},
		compile: func(cc string, args []string, log string) error {
			f.compiled = append(f.compiled, append([]string{cc}, args...))
			return nil
		}}
}

// TestRounds: b_eff's reference code is compiled with the memory per
// process as its constant; each round runs it and beff's two variants on
// the same processes, starting with a different one each round, into
// <dir>/beff/round-<k>/; SKaMPI 5 is run as it is.
func TestRounds(t *testing.T) {
	src := filepath.Join(t.TempDir(), "b_eff.c")
	require.NoError(t, os.WriteFile(src, []byte("int main(){}"), 0o644))
	f := &fakeRounds{}
	o := f.opts(t, map[string]string{"beff": src, "skampi": "/opt/skampi/skampi"})
	l := &launch.Launcher{Path: "/usr/bin/mpiexec", Family: launch.Hydra}
	require.NoError(t, o.runAll(l, launch.Spec{NP: 2}, suites()))

	require.Len(t, f.compiled, 1, "SKaMPI 5 is not compiled")
	cc := strings.Join(f.compiled[0], " ")
	assert.Contains(t, cc, "mpicc -O2 ")
	assert.Contains(t, cc, "-D MEMORY_PER_PROCESSOR=64 -o "+filepath.Join(o.out, "bin", "b_eff")+" "+src+" -lm")

	require.Len(t, f.jobs, 2*2*3, "2 rounds of 2 suites, 3 runs each")
	out := func(i int) string { j := f.jobs[i]; return strings.TrimPrefix(j[len(j)-1], o.out+"/") }
	var order []string
	for i := range 6 {
		order = append(order, out(i))
	}
	assert.Equal(t, []string{"beff/round-1/ref.out", "beff/round-1/default.txt", "beff/round-1/reference.txt",
		"skampi/round-1/ref.out", "skampi/round-1/default.txt", "skampi/round-1/reference.txt"}, order)
	assert.Equal(t, "beff/round-2/default.txt", out(6), "round 2 starts with the next")
	assert.Equal(t, "beff/round-2/ref.out", out(8))

	ref := strings.Join(f.jobs[0], " ")
	assert.Contains(t, ref, filepath.Join(o.out, "bin", "b_eff")+" -f "+filepath.Join(o.out, "beff", "round-1", "ref"))
	def := strings.Join(f.jobs[1], " ")
	assert.Contains(t, def, "/x/beff.test -test.run ^$ -test.bench ^BenchmarkBeff$ -beff.mem=64")
	assert.Contains(t, strings.Join(f.jobs[2], " "), "-beff.mem=64 -beff.reference")
	assert.Contains(t, strings.Join(f.jobs[3], " "), "/opt/skampi/skampi -i tools/skampi5/skampi5.ski -o "+filepath.Join(o.out, "skampi", "round-1", "ref.sko"))
	assert.Contains(t, strings.Join(f.jobs[5], " "), "-skampi.suites=tools/skampi5/beff-skampi5.yaml")
}

// TestRoundsBeffIO: b_eff_io's reference code gets the memory per
// process, the total and T, as beff's variants do.
func TestRoundsBeffIO(t *testing.T) {
	src := filepath.Join(t.TempDir(), "b_eff_io.c")
	require.NoError(t, os.WriteFile(src, nil, 0o644))
	f := &fakeRounds{}
	o := f.opts(t, map[string]string{"beff_io": src})
	o.rounds = 1
	require.NoError(t, o.runAll(&launch.Launcher{Path: "mpirun", Family: launch.OpenMPI4}, launch.Spec{NP: 2}, suites()))
	require.Len(t, f.jobs, 3)
	assert.Contains(t, strings.Join(f.jobs[0], " "), "b_eff_io -MB 64 -MT 128 -T 10 -p /scratch -f ")
	assert.Contains(t, strings.Join(f.jobs[1], " "), "-beffio.mem=64 -beffio.totalmem=128 -beffio.T=10 -beffio.dir=/scratch")
	assert.Contains(t, strings.Join(f.jobs[2], " "), "-beffio.dir=/scratch -beffio.reference")
}

// TestRoundsRefused: a bad setting is one line and exit 2, before
// anything is built or launched.
func TestRoundsRefused(t *testing.T) {
	src := filepath.Join(t.TempDir(), "b_eff.c")
	require.NoError(t, os.WriteFile(src, nil, 0o644))
	dir := filepath.Join(t.TempDir(), "rounds")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-ref", "nosuch=" + src}, "nosuch: no suite of that name has a reference code"},
		{[]string{"-ref", "congestion=" + src}, "congestion: no suite of that name has a reference code"},
		{[]string{"-ref", "b_eff"}, "want suite=path"},
		{[]string{"-ref", "b_eff=/nonexistent/b_eff.c"}, "beff conformance: -ref beff=/nonexistent/b_eff.c: no such file or directory\n"},
		{[]string{"-ref", "b_eff=" + src, "-np", "0"}, "beff conformance: -np=0: want 1 to 1048576 processes\n"},
		{[]string{"-ref", "b_eff=" + src, "-rounds", "0"}, "beff conformance: -rounds=0: want 1 to 1000\n"},
		{[]string{"-ref", "b_eff=" + src, "-mem", "-1"}, "beff conformance: -mem=-1: want 1 to 1073741824 MiB\n"},
		{[]string{"-ref", "b_eff=" + src, "-T", "0"}, "beff conformance: -T=0: want 1 to 86400 s\n"},
	} {
		code, _, stderr := run(append(append([]string{"conformance"}, c.args...), dir)...)
		assert.Equal(t, exitBadInput, code, c.args)
		assert.Contains(t, stderr, c.want, c.args)
		assert.NoDirExists(t, dir, "nothing made: %v", c.args)
	}
}

// TestRoundsBuildRefusesProgram: a reference code that must be compiled
// is given as its C source.
func TestRoundsBuildRefusesProgram(t *testing.T) {
	f := &fakeRounds{}
	o := f.opts(t, map[string]string{"beff": "/opt/b_eff"})
	err := o.runAll(&launch.Launcher{Path: "mpirun", Family: launch.OpenMPI4}, launch.Spec{NP: 2}, suites())
	assert.ErrorContains(t, err, "/opt/b_eff: want the C source of b_eff 3.6.0.1 (a .c file)")
	assert.Empty(t, f.jobs)
}
