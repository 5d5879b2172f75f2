package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLibraryTag(t *testing.T) {
	for lib, want := range map[string]string{
		"Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022": "",
		"Open MPI v5.0.7, package: Debian OpenMPI":                                               "",
		"MPICH Version: 4.2.1 MPICH Release date: Wed Apr 17 15:30:02 CDT 2024":                  "-mpich",
		"Intel(R) MPI Library 2021.10 for Linux* OS":                                             "-intelmpi",
		"MVAPICH Version: 3.0": "-mvapich",
		"MPI VERSION : CRAY MPICH version 8.1.28.2 (ANL base 3.4a2)": "-craympich",
		"Spectrum MPI 10.4": "-spectrum",
		"":                  "",
		"--- !!!":           "",
	} {
		assert.Equal(t, want, libraryTag(lib), "%q", lib)
	}
}

func TestSlurmProcs(t *testing.T) {
	tests := []struct {
		env     map[string]string
		want    int
		wantErr string
	}{
		{map[string]string{"SLURM_NTASKS": "6", "SLURM_JOB_CPUS_PER_NODE": "2(x3)"}, 6, ""},
		{map[string]string{"SLURM_JOB_CPUS_PER_NODE": "2(x3),1"}, 7, ""},
		{map[string]string{"SLURM_JOB_CPUS_PER_NODE": "128"}, 128, ""},
		{map[string]string{"SLURM_JOB_ID": "9", "SLURM_JOB_CPUS_PER_NODE": ""}, 0, "in Slurm job 9, SLURM_JOB_CPUS_PER_NODE=\"\" does not say the CPUs: give -np"},
		{map[string]string{"SLURM_JOB_CPUS_PER_NODE": "2(x3"}, 0, "does not say the CPUs"},
		{map[string]string{"SLURM_JOB_CPUS_PER_NODE": "0"}, 0, "does not say the CPUs"},
		{map[string]string{"SLURM_JOB_CPUS_PER_NODE": "1048576(x1048576),1048576(x1048576)"}, 0, "more CPUs than beff launches"},
	}
	for _, tc := range tests {
		n, err := slurmProcs(func(k string) string { return tc.env[k] })
		if tc.wantErr != "" {
			assert.ErrorContains(t, err, tc.wantErr, "%v", tc.env)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tc.want, n, "%v", tc.env)
	}
}

func TestIsPlan(t *testing.T) {
	for args, want := range map[string]bool{
		"-skampi.plan":                  true,
		"-skampi.plan=true":             true,
		"--skampi.plan -skampi.ops=all": true,
		"-skampi.plan=false":            false,
		"-skampi.plan-procs 64":         false,
		"-test.short":                   false,
		"":                              false,
	} {
		o := runOpts{args: strings.Fields(args)}
		assert.Equal(t, want, o.isPlan(), "%q", args)
	}
}

// TestReserve: the results name is created where no file is, else with
// -runK from 2 on.
func TestReserve(t *testing.T) {
	dir := t.TempDir()
	var got []string
	for range 3 {
		out, err := reserve(dir, "vm-2026-11-27-np2")
		require.NoError(t, err)
		got = append(got, filepath.Base(out))
	}
	assert.Equal(t, []string{"vm-2026-11-27-np2.txt", "vm-2026-11-27-np2-run2.txt", "vm-2026-11-27-np2-run3.txt"}, got)
	_, err := reserve(filepath.Join(dir, "none"), "x")
	assert.Error(t, err, "a folder that is not there")
}

// TestKeep: a failed job's output is headed by its reason and kept; one
// without a measurement is removed with its partial/ folder.
func TestKeep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "partial")
	require.NoError(t, os.Mkdir(dir, 0o755))
	part := filepath.Join(dir, "vm-np2-1a2b3c4d.txt")
	require.NoError(t, os.WriteFile(part, []byte("beff-seed: 1\nBenchmarkBeff/pat=ring2/L=1/mthd=sendrecv\t1\t2 MB/s\n"), 0o644))
	var log bytes.Buffer
	o := runOpts{bench: "^BenchmarkBeff$", hint: "make bench RESUME=%s"}
	o.keep(part, "terminated by\nSIGTERM", &log)
	data, err := os.ReadFile(part)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(data), "beff-partial: terminated by SIGTERM\nbeff-seed: 1\n"), "%s", data)
	assert.Contains(t, log.String(), "beff run: kept 1 measured lines in "+part)
	assert.Contains(t, log.String(), "beff run: resume with: make bench RESUME="+part)

	require.NoError(t, os.WriteFile(part, []byte("beff-seed: 1\nBenchmarkBeff/pat=ring2/L=1/mthd=sendrecv\t\n"), 0o644))
	log.Reset()
	o.keep(part, "the job failed (exit 4)", &log)
	assert.NoFileExists(t, part, "a name without its figures is no measurement")
	assert.NoDirExists(t, dir, "the emptied partial/ folder goes too")
	assert.Contains(t, log.String(), "nothing was measured; nothing kept")
}

// TestRunRefuses: flags that cannot make a job are refused before
// anything is launched, with one line and exit 2.
func TestRunRefuses(t *testing.T) {
	for _, args := range [][]string{
		{"-np", "-3"},
		{"-timeout", "0s"},
		{"-resume", filepath.Join(t.TempDir(), "none.txt")},
		{"-resume", t.TempDir()},
	} {
		code, stdout, stderr := run(append([]string{"run"}, args...)...)
		assert.Equal(t, exitBadInput, code, "%v", args)
		assert.Empty(t, stdout)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %s", stderr)
		assert.True(t, strings.HasPrefix(stderr, "beff run: "), "%s", stderr)
	}
}

func TestLaunchRefuses(t *testing.T) {
	for _, args := range [][]string{{"-np", "0", "--", "x"}, {"-np", "2"}, {"-np", "2", "-timeout", "-1s", "--", "x"}} {
		code, _, stderr := run(append([]string{"launch"}, args...)...)
		assert.Equal(t, exitBadInput, code, "%v", args)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %s", stderr)
	}
}

// TestEnding: a job's terminal output ends with each run's headline and
// validity, where it is stored and the commands that show it, not with
// the benchfmt lines of its figures.
func TestEnding(t *testing.T) {
	path := writeTemp(t, "run.txt", fixture(t, "short-np2.txt"))
	var out bytes.Buffer
	folded, err := protocols(&out, []string{path})
	require.NoError(t, err)
	require.Len(t, folded, 1)
	assert.NotContains(t, out.String(), "BenchmarkBeffFold", "no benchfmt lines")
	assert.True(t, strings.HasPrefix(out.String(), "b_eff = "), "the protocol")
	writeEnding(&out, path, "results", folded)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	end := lines[len(lines)-4:]
	assert.Equal(t, "beff run: stored "+path, end[0])
	assert.Regexp(t, `^  b_eff = [0-9.]+ MB/s  NOT VALID: short run$`, end[1])
	assert.Equal(t, "  as pages:      beff report -o site results   (then open site/index.html)", end[2])
	assert.Equal(t, "  beside others: beff compare "+path+" OTHER.txt", end[3])

	var launches bytes.Buffer
	writeLaunchesEnding(&launches, []string{"r/ab/base", "r/ab/new"}, true)
	assert.Contains(t, launches.String(), "  to gate:       beff gate -base r/ab/base -new r/ab/new -max-drop P\n")
}

// TestRunOwnsFlags: the flags beff run gives the test binary itself are
// refused after --, each with what to use instead, before anything runs.
func TestRunOwnsFlags(t *testing.T) {
	for args, want := range map[string]string{
		"-out /tmp/x.txt":          "beff run: -out after --: beff run names the results file itself",
		"-test.short --out=x.txt":  "beff run: -out after --",
		"-test.bench ^BenchmarkX$": "beff run: -test.bench after --: beff run chooses the benchmarks with -bench",
		"-beff.resume=p.txt":       "beff run: -beff.resume after --: beff run resumes with -resume FILE",
	} {
		code, stdout, stderr := run(append([]string{"run", "-np", "2", "--"}, strings.Fields(args)...)...)
		assert.Equal(t, exitBadInput, code, args)
		assert.Empty(t, stdout, args)
		assert.True(t, strings.HasPrefix(stderr, want), "%s: %s", args, stderr)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %s", stderr)
	}
	assert.Empty(t, ownedFlag([]string{"-test.short", "-beff.mem=64", "-outdir", "x"}), "flags of its own are the job's")
}

// TestMPICommands: build-id and mpi say what they find, or, without a
// compiler wrapper, why not in one line with exit 2; the build id is 16
// hex digits that follow the wrapper.
func TestMPICommands(t *testing.T) {
	t.Setenv("MPI_PC", "")
	t.Setenv("MPICC", "no-such-mpicc")
	for _, cmd := range []string{"build-id", "mpi"} {
		code, stdout, stderr := run(cmd)
		assert.Equal(t, exitBadInput, code, cmd)
		assert.Empty(t, stdout, cmd)
		assert.Equal(t, "beff "+cmd+": no MPI compiler wrapper no-such-mpicc on PATH: load your MPI (module load …) or set MPICC\n", stderr)
	}
	// a wrapper of our own: what it shows and the mpi.h it finds are the id
	dir := t.TempDir()
	wrapper := func(name, shows string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\ncase \"$1\" in -show) echo '"+shows+"';; -E) echo 'int MPI_Init;';; *) exit 1;; esac\n"), 0o755))
	}
	// one wrapper's name, as a module swap leaves it, wrapping another MPI
	t.Setenv("MPICC", filepath.Join(dir, "mpicc"))
	id := func(shows string) string {
		wrapper("mpicc", shows)
		code, stdout, stderr := run("build-id")
		require.Equal(t, exitOK, code, stderr)
		assert.Regexp(t, `^[0-9a-f]{16}\n$`, stdout)
		return stdout
	}
	a := id("gcc -I/opt/openmpi/include -L/opt/openmpi/lib -lmpi")
	b := id("gcc -I/opt/mpich/include -L/opt/mpich/lib -lmpich")
	assert.NotEqual(t, a, b, "another MPI behind the same name: another id")
	assert.Equal(t, a, id("gcc -I/opt/openmpi/include -L/opt/openmpi/lib -lmpi"), "the same MPI again: the same id")
}
