package beff_test

// The MPI library the integration tests build against and launch with:
// BEFF_MPI=openmpi (the default) or mpich; `make test MPI=mpich` sets it.

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const mpirunTimeout = 300 // seconds a test job may take before its launcher ends it

// An mpiLib is one MPI library as the tests use it.
type mpiLib struct {
	name      string   // as BEFF_MPI and make's MPI name it
	tags      string   // go build tags of a binary linked against it
	launchers []string // its launcher, the first found on PATH
	rankEnv   string   // the environment variable that holds a process's rank
}

var mpiLibs = map[string]mpiLib{
	"openmpi": {"openmpi", "mpi,openmpi", []string{"mpirun.openmpi", "mpirun"}, "OMPI_COMM_WORLD_RANK"},
	"mpich":   {"mpich", "mpi,mpich", []string{"mpiexec.hydra", "mpiexec.mpich"}, "PMI_RANK"},
}

// testLib is the library named by BEFF_MPI; a name it does not know fails
// the test.
func testLib(t testing.TB) mpiLib {
	t.Helper()
	name := os.Getenv("BEFF_MPI")
	if name == "" {
		name = "openmpi"
	}
	l, ok := mpiLibs[name]
	if !ok {
		t.Fatalf("BEFF_MPI=%s: the tests know openmpi and mpich", name)
	}
	return l
}

// launcher is the path of the library's launcher, or an error saying how to
// install it.
func (l mpiLib) launcher() (string, error) {
	for _, n := range l.launchers {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: no %v on PATH: run `make deps MPI=%s` or set BEFF_SKIP_MPI=1", l.name, l.launchers, l.name)
}

// command is a job of np processes of bin with args, under the launcher's
// own timeout; Open MPI may place more processes than cores.
func (l mpiLib) command(t testing.TB, np int, bin string, args ...string) *exec.Cmd {
	t.Helper()
	path, err := l.launcher()
	if err != nil {
		t.Fatal(err)
	}
	n := strconv.Itoa(np)
	var cmd *exec.Cmd
	switch l.name {
	case "mpich":
		cmd = exec.Command(path, append([]string{"-n", n, bin}, args...)...)
		cmd.Env = append(os.Environ(), "MPIEXEC_TIMEOUT="+strconv.Itoa(mpirunTimeout))
	default:
		cmd = exec.Command(path, append([]string{"--oversubscribe", "--timeout", strconv.Itoa(mpirunTimeout), "-np", n, bin}, args...)...)
		cmd.Env = append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
			"OMPI_MCA_rmaps_base_oversubscribe=1")
	}
	return cmd
}

// procs is the largest process count a test that loops over counts up to
// upTo runs: all of them under Open MPI, which yields the core while it waits
// when oversubscribed; under MPICH, which spins (a job of more processes than
// cores takes 10 to 30 times as long), no more than the cores, but 2.
func (l mpiLib) procs(upTo int) int {
	if l.name == "mpich" {
		return min(upTo, max(2, runtime.NumCPU()))
	}
	return upTo
}

// needCores skips a job of np processes under MPICH on a machine with fewer
// cores: MPICH 4.0 (ch4:ucx) spins while it waits, such a job runs 10 to 30
// times as long, and its 1-byte bandwidths fall below what the MB/s column
// prints (0.005 MB/s), which the fold refuses.
func (l mpiLib) needCores(t *testing.T, np int) {
	t.Helper()
	if l.name == "mpich" && np > runtime.NumCPU() {
		t.Skipf("MPICH spins while it waits: %d processes on %d cores would take 10-30 times as long", np, runtime.NumCPU())
	}
}

// rankOf reports whether the environment of a process (NUL-separated, as
// /proc/<pid>/environ) says it is rank of a job of this library.
func (l mpiLib) rankOf(environ string, rank int) bool {
	return slices.Contains(strings.Split(environ, "\x00"), l.rankEnv+"="+strconv.Itoa(rank))
}
