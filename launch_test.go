package beff_test

// The MPI library the integration tests build against and launch with:
// BEFF_MPI=openmpi (the default) or mpich; `make test MPI=mpich` sets it.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
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
// own timeout. Either library may place more processes than cores, and
// then yields the core while it waits.
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
		var flags []string
		if np > runtime.NumCPU() {
			// MPICH polls without yielding the core (tools/mpich-yield.c)
			lib, err := yieldLib()
			if err != nil {
				t.Fatal(err)
			}
			flags = []string{"-genv", "LD_PRELOAD", lib}
		}
		cmd = exec.Command(path, append(append(flags, "-n", n, bin), args...)...)
		cmd.Env = append(os.Environ(), "MPIEXEC_TIMEOUT="+strconv.Itoa(mpirunTimeout))
	default:
		cmd = exec.Command(path, append([]string{"--oversubscribe", "--timeout", strconv.Itoa(mpirunTimeout), "-np", n, bin}, args...)...)
		cmd.Env = append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
			"OMPI_MCA_rmaps_base_oversubscribe=1")
	}
	return cmd
}

// yieldLib is the path of mpich-yield.so, built once per test binary by
// tools/mpich-yield.sh.
var yieldLib = sync.OnceValues(func() (string, error) {
	out, err := output(exec.Command("tools/mpich-yield.sh"))
	if err != nil {
		return "", fmt.Errorf("tools/mpich-yield.sh: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
})

// output runs cmd and returns its stdout; the error of a failed command
// carries what it wrote to stderr.
func output(cmd *exec.Cmd) ([]byte, error) {
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		err = fmt.Errorf("%w: %s", err, exit.Stderr)
	}
	return out, err
}

// rankOf reports whether the environment of a process (NUL-separated, as
// /proc/<pid>/environ) says it is rank of a job of this library.
func (l mpiLib) rankOf(environ string, rank int) bool {
	return slices.Contains(strings.Split(environ, "\x00"), l.rankEnv+"="+strconv.Itoa(rank))
}
