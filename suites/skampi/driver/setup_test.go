package driver

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/suites/skampi"
)

// fourProcs is a job of 4 processes on one node of 8 GiB.
func fourProcs() *harness.Job {
	return &harness.Job{Hosts: []string{"n0", "n0", "n0", "n0"}, MemMiB: 2048, ProcsNode: 4, Library: "Open MPI v4.1.4, package: Debian"}
}

// TestSetupDefault: the standard run's suites for the job, the matrix kept
// per rank up to 1,024 processes, the file named and summed.
func TestSetupDefault(t *testing.T) {
	v, err := td.f.setup(fourProcs())
	require.NoError(t, err)
	st := v
	assert.Equal(t, skampi.DefaultSuitesName, st.File)
	assert.Len(t, st.FileSum, 16)
	assert.NotEmpty(t, st.Suites)
	assert.Equal(t, skampi.FullPairs, st.MatrixLimit)
	assert.Positive(t, st.Buffer)
}

// TestSetupOps: -skampi.ops keeps the operations it names and the suites
// that have them; an operation in no suite, or that needs more processes
// than the job has, is refused with why.
func TestSetupOps(t *testing.T) {
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.ops": "bcast,barrier"})
	v, err := td.f.setup(fourProcs())
	require.NoError(t, err)
	for _, su := range v.Suites {
		for _, op := range su.Ops {
			assert.Contains(t, []string{"bcast", "barrier"}, skampi.Ops[op].Name, "suite %s", su.Name)
		}
	}
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.ops": "no-such-op"})
	_, err = td.f.setup(fourProcs())
	assert.ErrorContains(t, err, "-skampi.ops=no-such-op")

	job := fourProcs()
	job.Hosts = job.Hosts[:1]
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.ops": "send-recv"})
	_, err = td.f.setup(job)
	assert.ErrorContains(t, err, "-skampi.ops: send-recv is a ping-pong operation and needs 2 processes; the job has 1")
}

// TestSetupPlan: -skampi.plan ends the job at once with the plan: every
// point's predicted time, the total, the memory; -skampi.plan-procs plans
// for another size only with it.
func TestSetupPlan(t *testing.T) {
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.plan": "true", "skampi.plan-procs": "64"})
	_, err := td.f.setup(fourProcs())
	var done *harness.Done
	require.True(t, errors.As(err, &done), "%v", err)
	assert.True(t, strings.HasPrefix(done.Text, "SKaMPI plan for 64 processes: default, nothing measured\n"), done.Text[:80])
	assert.Contains(t, done.Text, "\nbefore the first point: 63 rounds of the pair search, at most 8 pairs re-timed; and over the run at most 32 estimations of the clocks' model, 6 rounds each: predicted at most 0.347 s\n")
	assert.Regexp(t, `(?m)^total: \d+ points and up to \d+ refined lengths, predicted at most `, done.Text)
	assert.Regexp(t, `(?m)^memory: `, done.Text)

	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.plan": "false"})
	_, err = td.f.setup(fourProcs())
	assert.EqualError(t, err, "-skampi.plan-procs=64 plans for another job size: give it with -skampi.plan (a dry run)")
}

// TestSetupRefusals: a suite file that is not there, a memory per
// process below the plan's need, a test limit of the matrix out of its
// range; and Open MPI 4's crash of compare-and-swap on an allocated
// window, refused unless the job chose another one-sided component.
func TestSetupRefusals(t *testing.T) {
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.suites": filepath.Join(t.TempDir(), "none.yaml")})
	_, err := td.f.setup(fourProcs())
	assert.ErrorContains(t, err, "-skampi.suites: ")

	file := filepath.Join(t.TempDir(), "cas.yaml")
	require.NoError(t, os.WriteFile(file, []byte("suites:\n  - name: cas\n    ops: compare-and-swap\n    vary: none\n    rma-window: allocate\n"), 0o644))
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.suites": file})
	_, err = td.f.setup(fourProcs())
	assert.ErrorContains(t, err, "compare-and-swap on an MPI_Win_allocate window crashes Open MPI v4.1.4 (osc/rdma")
	v, err := td.f.setup(&harness.Job{Hosts: []string{"a", "b"}, Library: "MPICH Version: 4.0.2", MemMiB: 2048, ProcsNode: 1})
	require.NoError(t, err, "MPICH has no such crash")
	assert.Len(t, v.Suites, 1)

	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.suites": "", "skampi.mem": "1"})
	_, err = td.f.setup(fourProcs())
	assert.ErrorContains(t, err, "more than the 1 MiB per process it may use (-skampi.mem)")

	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.mem": "0", "skampi.testmatrix-ranks": "4"})
	v, err = td.f.setup(fourProcs())
	require.NoError(t, err)
	assert.Equal(t, 4, v.MatrixLimit)
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.testmatrix-ranks": "2000"})
	_, err = td.f.setup(fourProcs())
	assert.ErrorContains(t, err, "-skampi.testmatrix-ranks=2000: out of range")
}

// TestMemoryLimit: the memory a run may use is -skampi.mem when given,
// else the node's share, and the plan's need above it is refused with
// what to lower.
func TestMemoryLimit(t *testing.T) {
	job := fourProcs()
	limit, from := td.f.memLimit(job)
	assert.Equal(t, int64(2048), limit)
	assert.Equal(t, "the node's memory divided by its 4 processes", from)
	need := skampi.Memory{Buffer: 512 << 20}
	assert.NoError(t, td.f.checkMemory(need, job))
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"skampi.mem": "100"})
	limit, from = td.f.memLimit(job)
	assert.Equal(t, int64(100), limit)
	assert.Equal(t, "-skampi.mem", from)
	assert.ErrorContains(t, td.f.checkMemory(need, job), "more than the 100 MiB per process it may use (-skampi.mem): lower max-buffer or the lengths, or give -skampi.mem")
}

// TestCurveNames: a note names a curve by its operation, a typed one with
// its method; a typed suite describes its types at 2 processes unless
// they depend on the process count.
func TestCurveNames(t *testing.T) {
	su := testSuite(t, "suites:\n  - name: v\n    ops: send-recv\n    vary: none\n    send-type: vector(4,1,2,double)\n", 4)
	curves := su.Curves()
	require.NotEmpty(t, curves)
	assert.Equal(t, "send-recv ("+curves[0].Method+")", curveText(curves[0]))
	assert.Equal(t, 2, typeProcs(su, 4), "the vector does not depend on the processes")
	plain := testSuite(t, "suites:\n  - name: b\n    ops: bcast\n    vary: none\n", 4)
	assert.Equal(t, "bcast", curveText(plain.Curves()[0]))
}

// suitesOf parses a suite file for 4 processes into Settings.
func suitesOf(t *testing.T, text string) *Settings {
	t.Helper()
	l := skampi.Layers{Procs: 4, Base: map[string]skampi.Given{}}
	for _, f := range fieldFlags {
		l.Base[f.field] = skampi.Given{Value: f.def, At: "-" + f.flag}
	}
	suites, _, err := skampi.ParseSuites("f.yaml", []byte(text), l)
	require.NoError(t, err)
	return &Settings{File: "f.yaml", Suites: suites}
}

func opNames(st *Settings) map[string][]string {
	out := map[string][]string{}
	for _, s := range st.Suites {
		for _, i := range s.Ops {
			out[s.Name] = append(out[s.Name], skampi.Ops[i].Name)
		}
	}
	return out
}

// TestKeepProvided: an operation whose MPI 4 call the library lacks is
// left out, with one note naming the library, the calls and what each
// suite lost; a suite left empty goes; a run left empty is refused.
func TestKeepProvided(t *testing.T) {
	const file = `
suites:
  - name: pp
    ops: [send-recv, isendrecv, isendrecv-replace]
  - name: pers
    ops: [bcast-persistent, allreduce-persistent]
`
	st := suitesOf(t, file)
	require.NoError(t, st.keepProvided("Open MPI v4.1.4, package: Debian OpenMPI", map[string]bool{}))
	assert.Equal(t, map[string][]string{"pp": {"send-recv"}}, opNames(st))
	require.Len(t, st.Notes, 1)
	assert.Equal(t, "Open MPI v4.1.4 lacks the MPI 4 calls MPI_Isendrecv, MPI_Isendrecv_replace, MPI_Bcast_init, MPI_Allreduce_init: "+
		"suite pp: isendrecv, isendrecv-replace; suite pers: bcast-persistent, allreduce-persistent", st.Notes[0])

	st = suitesOf(t, file)
	all := map[string]bool{"MPI_Isendrecv": true, "MPI_Isendrecv_replace": true, "MPI_Bcast_init": true, "MPI_Allreduce_init": true}
	require.NoError(t, st.keepProvided("MPICH Version: 4.0.2", all))
	assert.Empty(t, st.Notes)
	assert.Len(t, opNames(st)["pers"], 2)

	st = suitesOf(t, file)
	st.Suites = st.Suites[1:]
	err := st.keepProvided("", map[string]bool{})
	assert.EqualError(t, err, "f.yaml: nothing to measure: this MPI library lacks the MPI 4 calls MPI_Bcast_init, MPI_Allreduce_init, which every operation left needs")
}

// TestKeepWorking: MPICH before 4.3 loses the persistent gather, scatter
// and allgather (pmodels/mpich#7078), with a note; later versions and
// other libraries keep them.
func TestKeepWorking(t *testing.T) {
	const file = `
suites:
  - name: pers
    ops: persistent
    vary: none
`
	st := suitesOf(t, file)
	require.NoError(t, st.keepWorking("MPICH Version: 4.0.2"))
	names := opNames(st)["pers"]
	for _, op := range []string{"gather-persistent", "scatter-persistent", "allgather-persistent"} {
		assert.NotContains(t, names, op)
	}
	assert.Contains(t, names, "gatherv-persistent")
	require.Len(t, st.Notes, 3)
	assert.Contains(t, st.Notes[0], "MPICH Version: 4.0.2: gather-persistent delivers stale blocks")
	assert.Contains(t, st.Notes[0], "left out of suite pers: gather-persistent")
	for lib, want := range map[string][]string{
		"MPICH Version: 4.2.1": {"gather-persistent", "scatter-persistent"},
		"MPICH Version: 4.3.0": {"scatter-persistent"},
		"MPICH Version: 5.0":   nil,
		"MPI VERSION : CRAY MPICH version 9.0.0.1 (ANL base 4.1.2)": {"gather-persistent", "scatter-persistent", "allgather-persistent"},
		"Open MPI v5.0.7, package: Debian":                          nil,
		"Open MPI v4.1.4, package: Debian":                          nil,
	} {
		st = suitesOf(t, file)
		require.NoError(t, st.keepWorking(lib))
		assert.Len(t, st.Notes, len(want), lib)
		for _, op := range []string{"gather-persistent", "scatter-persistent", "allgather-persistent"} {
			assert.Equal(t, !slices.Contains(want, op), slices.Contains(opNames(st)["pers"], op), "%s in %s", op, lib)
		}
	}
}

// TestKeepWorkingPartitioned: Open MPI 5.0's partitioned requests hang on
// 3 processes; the partitioned ping-pong is left out there, not in MPICH.
func TestKeepWorkingPartitioned(t *testing.T) {
	const file = "suites:\n  - name: p\n    ops: [psend-precv, send-recv]\n"
	for lib, left := range map[string]bool{"Open MPI v5.0.7, package: Debian OpenMPI": true, "Open MPI v5.1.0, package: x": false,
		"MPICH Version: 4.0.2": false} {
		st := suitesOf(t, file)
		require.NoError(t, st.keepWorking(lib))
		assert.Equal(t, !left, slices.Contains(opNames(st)["p"], "psend-precv"), lib)
		assert.Contains(t, opNames(st)["p"], "send-recv", lib)
	}
}
