package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/beff-suite/beff/internal/launch"
)

const launchUsage = `usage: beff launch -np N [flags] -- PROGRAM [ARGS]

Launch starts PROGRAM as an MPI job of N processes with the launcher beff
run would use and the flags of its family, and becomes that launcher:
its output, signals and exit code are the job's. It stores nothing (beff
run does). The settings of emulated nodes come from BEFF_LAUNCH_AGENT,
BEFF_LAUNCH_IFACE, BEFF_LAUNCH_YIELD and BEFF_LAUNCH_KEEPALIVE
(tools/cluster.sh sets them).

Flags:
`

// launchMain is the launch command.
func launchMain(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("beff launch", launchUsage, stderr)
	np := fs.Int("np", 0, "processes")
	timeout := fs.Duration("timeout", 0, "the launcher ends the job after this long (0: never)")
	launcherArgs := fs.String("launcher-args", "", "flags of the launcher, e.g. '--host n0:2,n1:2'")
	oversub := fs.Bool("oversubscribe", false, "place more processes than a node has cores (default: when N exceeds this node's cores and no launcher flags place them)")
	dry := fs.Bool("n", false, "print the command line instead of running it")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *np <= 0 || len(fs.Args()) == 0 || *timeout < 0 {
		fmt.Fprintf(stderr, "beff launch: give -np N (positive), a program after --, and a timeout of 0 or more\n")
		return exitBadInput
	}
	l, err := launch.Host.Find()
	if err != nil {
		fmt.Fprintf(stderr, "beff launch: %v\n", err)
		return exitBadInput
	}
	spec := launch.Spec{NP: *np, Timeout: *timeout, Root: os.Geteuid() == 0, KeepAlive: true, Flags: strings.Fields(*launcherArgs),
		Oversubscribe: *oversub || l.Family != launch.Srun && *launcherArgs == "" && *np > onlineCPUs()}
	spec.FromEnv(os.Getenv)
	if l.Polls() && (spec.Yield || spec.Oversubscribe) {
		spec.Preload = yieldLib(stderr)
	}
	c := l.Command(spec, fs.Arg(0), fs.Args()[1:]...)
	if *dry {
		fmt.Fprintln(stdout, strings.Join(append(c.Env, c.Argv...), " "))
		return exitOK
	}
	return execLauncher(c, stderr)
}

// execLauncher becomes the launcher of c: its environment, then its
// program; a guard (c.Guard) ends a launcher that outlives its limit,
// which only a process of our own can do, so then it runs as a child.
func execLauncher(c launch.Cmd, stderr io.Writer) int {
	path, err := exec.LookPath(c.Argv[0])
	if err != nil {
		fmt.Fprintf(stderr, "beff launch: %v\n", err)
		return exitBadInput
	}
	env := append(os.Environ(), c.Env...)
	if c.Guard == 0 {
		err = syscall.Exec(path, c.Argv, env)
		fmt.Fprintf(stderr, "beff launch: %s: %v\n", path, err)
		return exitFail
	}
	cmd := exec.Command(path, c.Argv[1:]...)
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "beff launch: %v\n", err)
		return exitFail
	}
	t := time.AfterFunc(c.Guard, func() {
		fmt.Fprintf(stderr, "beff launch: the launcher is still running %v after the job's limit; killing it\n", c.Guard)
		cmd.Process.Kill()
	})
	defer t.Stop()
	forwardSignals(cmd.Process)
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	if err != nil {
		return exitFail
	}
	return exitOK
}

// forwardSignals passes SIGTERM, SIGINT and SIGHUP on to p.
func forwardSignals(p *os.Process) {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		for s := range ch {
			p.Signal(s)
		}
	}()
}

const buildIDUsage = `usage: beff build-id

Build-id prints, in 16 hex digits, what identifies the MPI the test
binary's build compiles and links against: the compiler wrapper MPICC
(default mpicc) resolved, what it adds to a compile, and the mpi.h it
finds (or pkg-config's flags where MPI_PC names a package). make build
hands it to cgo in CGO_CPPFLAGS, so that Go's build cache, which knows a
compiler by its name only, rebuilds after a module swap.
`

// buildIDMain is the build-id command.
func buildIDMain(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("beff build-id", buildIDUsage, stderr)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	env, err := launch.CompilerEnv()
	if err != nil {
		fmt.Fprintf(stderr, "beff build-id: %v\n", err)
		return exitBadInput
	}
	fmt.Fprintln(stdout, launch.BuildID(env))
	return exitOK
}

const mpiUsage = `usage: beff mpi

Mpi says which MPI beff builds with and launches with here: the compiler
wrapper (MPICC, default mpicc; or the pkg-config package MPI_PC) and the
launcher (srun inside a Slurm allocation, else MPIEXEC, else the one
beside the wrapper, else mpiexec or mpirun on PATH), with the launcher's
family and version. Exit 2, with what to load, when either is missing
(make's deps-mpi asks it).
`

// mpiMain is the mpi command.
func mpiMain(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("beff mpi", mpiUsage, stderr)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	env, err := launch.CompilerEnv()
	if err != nil {
		fmt.Fprintf(stderr, "beff mpi: %v\n", err)
		return exitBadInput
	}
	l, err := launch.Host.Find()
	if err != nil {
		fmt.Fprintf(stderr, "beff mpi: %v\n", err)
		return exitBadInput
	}
	fmt.Fprintf(stdout, "beff mpi: %s; launcher %s: %s\n", strings.Join(env, " "), l.Path, l.Version)
	return exitOK
}
