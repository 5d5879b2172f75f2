package e2e

// The MPI library the end-to-end tests build against and launch with:
// the one on PATH, found as beff run finds it (package launch: MPICC,
// MPIEXEC, srun in an allocation); make test MPI=mpich picks Debian's
// MPICH by setting MPICC.

import (
	"context"
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
	"time"

	"github.com/beff-suite/beff/internal/launch"
)

const mpirunTimeout = 300 // seconds a test job may take before its launcher ends it

// An mpiLib is the MPI library as the tests use it: its launcher.
type mpiLib struct {
	name string // "openmpi" or "mpich": the family of its launcher (Hydra's libraries are MPICH's)
	l    *launch.Launcher
}

var findLib = sync.OnceValues(func() (mpiLib, error) {
	l, err := launch.Host.Find()
	if err != nil {
		return mpiLib{}, err
	}
	// the tests launch with the library's own launcher, also in an allocation
	if l.Family == launch.Srun {
		os.Setenv("BEFF_NO_SRUN", "1")
		if l, err = launch.Host.Find(); err != nil {
			return mpiLib{}, err
		}
	}
	name := "openmpi"
	if l.Family == launch.Hydra {
		name = "mpich"
	}
	return mpiLib{name, l}, nil
})

// testLib is the MPI library on PATH; without one the test fails.
func testLib(t testing.TB) mpiLib {
	t.Helper()
	l, err := findLib()
	if err != nil {
		t.Fatalf("%v (or set BEFF_SKIP_MPI=1)", err)
	}
	return l
}

// command is a job of np processes of bin with args, under the
// launcher's own timeout and a guard after it. Every job may place more
// processes than cores; with more than this machine has, waiting
// processes yield the core (MPICH through tools/mpich-yield.c).
func (l mpiLib) command(t testing.TB, np int, bin string, args ...string) *exec.Cmd {
	t.Helper()
	spec := launch.Spec{NP: np, Oversubscribe: true, Timeout: mpirunTimeout * time.Second, Root: os.Geteuid() == 0}
	if l.l.Polls() && np > runtime.NumCPU() {
		lib, err := yieldLib()
		if err != nil {
			t.Fatal(err)
		}
		spec.Preload = lib
	}
	c := l.l.Command(spec, bin, args...)
	ctx, cancel := context.WithTimeout(context.Background(), c.Guard)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Env = append(os.Environ(), c.Env...)
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
// /proc/<pid>/environ) says it is rank of a job.
func (l mpiLib) rankOf(environ string, rank int) bool {
	env := strings.Split(environ, "\x00")
	for _, k := range launch.RankEnvs {
		if slices.Contains(env, k+"="+strconv.Itoa(rank)) {
			return true
		}
	}
	return false
}
