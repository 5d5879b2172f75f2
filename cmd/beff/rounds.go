package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/beff-suite/beff/internal/launch"
	"github.com/beff-suite/beff/internal/results"
)

// roundOpts are the settings of the rounds beff conformance runs.
type roundOpts struct {
	refs    map[string]string // a suite's JSON key → its reference code (C source, or a program)
	set     results.RoundSettings
	rounds  int
	bin     string // beff's test binary
	out     string // where the rounds go: out/<suite>/round-<k>/
	mpicc   string
	limit   time.Duration // of one job
	stderr  io.Writer
	job     func(c launch.Cmd, stdout, stderr string, limit time.Duration) error
	compile func(cc string, args []string, log string) error
}

// refFlag is -ref: suite=path, repeated; the suite by any of its names.
type refFlag struct {
	list []results.Suite
	refs map[string]string
}

func (f *refFlag) String() string { return "" }

func (f *refFlag) Set(v string) error {
	name, path, ok := strings.Cut(v, "=")
	if !ok || path == "" {
		return fmt.Errorf("want suite=path, e.g. b_eff=path/to/b_eff.c")
	}
	for _, s := range f.list {
		if _, ok := s.(results.Conformer); ok && namesSuite(name, s.ID()) {
			f.refs[s.ID().JSONKey] = path
			return nil
		}
	}
	return fmt.Errorf("%s: no suite of that name has a reference code", name)
}

// start checks the settings and runs the rounds into dir: one line and
// exit 2 for a bad setting, exit 1 for a job that failed.
func (o *roundOpts) start(dir string, list []results.Suite) int {
	if err := o.check(); err != nil {
		fmt.Fprintf(o.stderr, "beff conformance: %v\n", err)
		return exitBadInput
	}
	o.out = dir
	if o.set.Dir == "" {
		o.set.Dir = filepath.Join(dir, "scratch")
	}
	for _, d := range []string{dir, o.set.Dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			fmt.Fprintf(o.stderr, "beff conformance: %v\n", err)
			return exitBadInput
		}
	}
	o.mpicc = cmp.Or(os.Getenv("MPICC"), "mpicc")
	o.limit = time.Duration(3*o.set.T+900) * time.Second
	if err := o.runRounds(list); err != nil {
		fmt.Fprintf(o.stderr, "beff conformance: %v\n", err)
		return exitFail
	}
	return exitOK
}

// check refuses settings that cannot make rounds.
func (o *roundOpts) check() error {
	switch {
	case o.set.Procs < 1 || o.set.Procs > 1<<20:
		return fmt.Errorf("-np=%d: want 1 to %d processes", o.set.Procs, 1<<20)
	case o.rounds < 1 || o.rounds > 1000:
		return fmt.Errorf("-rounds=%d: want 1 to 1000", o.rounds)
	case o.set.MemMiB < 1 || o.set.MemMiB > 1<<30:
		return fmt.Errorf("-mem=%d: want 1 to %d MiB", o.set.MemMiB, 1<<30)
	case o.set.T < 1 || o.set.T > 86400:
		return fmt.Errorf("-T=%d: want 1 to 86400 s", o.set.T)
	}
	for suite, path := range o.refs {
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("-ref %s=%s: %v", suite, path, errors.Unwrap(err))
		}
	}
	return nil
}

// runRounds runs o.rounds rounds: in each, for each suite given a
// reference code, the reference code and beff's variants one after the
// other on the same processes, starting with a different one each round.
func (o *roundOpts) runRounds(list []results.Suite) error {
	l, err := launch.Host.Find()
	if err != nil {
		return err
	}
	if err := o.checkBinary(l); err != nil {
		return err
	}
	spec := launch.Spec{NP: o.set.Procs, Root: os.Geteuid() == 0, KeepAlive: true}
	spec.FromEnv(os.Getenv)
	if l.Family != launch.Srun && o.set.Procs > onlineCPUs() {
		spec.Oversubscribe = true
		fmt.Fprintf(o.stderr, "beff conformance: %d processes on %d cores: oversubscribed, the figures check the rules, not speed\n", o.set.Procs, onlineCPUs())
	}
	if l.Polls() && spec.Oversubscribe {
		spec.Preload = yieldLib(o.stderr)
	}
	return o.runAll(l, spec, list)
}

// runAll builds the reference codes, then runs the rounds with l.
func (o *roundOpts) runAll(l *launch.Launcher, spec launch.Spec, list []results.Suite) error {
	var err error
	progs := map[string]string{}
	for _, s := range list {
		c, ok := s.(results.Conformer)
		if path := o.refs[s.ID().JSONKey]; ok && path != "" {
			if progs[s.ID().JSONKey], err = o.build(c, path); err != nil {
				return err
			}
		}
	}
	for k := 1; k <= o.rounds; k++ {
		for _, s := range list {
			prog, ok := progs[s.ID().JSONKey]
			if !ok {
				continue
			}
			if err := o.round(l, spec, s.(results.Conformer), prog, k); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkBinary checks beff's test binary as beff run does before a launch.
func (o *roundOpts) checkBinary(l *launch.Launcher) error {
	c, err := launch.CheckBinary(o.bin, []string{"-test.run", "^$", "-test.bench", "."})
	switch {
	case err != nil:
		return err
	case c.Err != "":
		return fmt.Errorf("%s: %s", o.bin, c.Err)
	}
	if why := l.Mismatch(c.Built, c.Loaded); why != "" {
		return fmt.Errorf("%s: rebuild it with the MPI you launch with (make build)", why)
	}
	return nil
}

// oldC lets a compiler take the reference codes, C of the 1990s (functions
// used without their headers), which GCC 14 and clang 16 refuse unless
// told otherwise.
var oldC = []string{"-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int", "-Wno-error=int-conversion", "-Wno-error=incompatible-pointer-types"}

// build compiles a reference code given as C source into out/bin, with
// the flags its suite asks for; a program already built is taken as it
// is.
func (o *roundOpts) build(c results.Conformer, path string) (string, error) {
	plan := c.Round(o.set)
	if plan.CFlags == nil {
		return path, nil
	}
	if !strings.HasSuffix(path, ".c") {
		return "", fmt.Errorf("%s: want the C source of %s (a .c file)", path, c.Reference())
	}
	dir := filepath.Join(o.out, "bin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	prog := filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), ".c"))
	args := append(append(append([]string{"-O2"}, oldC...), plan.CFlags...), "-o", prog, path, "-lm")
	if err := o.compile(o.mpicc, args, prog+".cc.log"); err != nil {
		return "", fmt.Errorf("compiling %s: %v (see %s.cc.log)", path, err, prog)
	}
	return prog, nil
}

// round runs round k of a suite into out/<suite>/round-<k>/: the
// reference code and the variants, the first of them the k-th.
func (o *roundOpts) round(l *launch.Launcher, spec launch.Spec, c results.Conformer, prog string, k int) error {
	dir := filepath.Join(o.out, c.ID().JSONKey, fmt.Sprintf("round-%d", k))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	set := o.set
	set.Prefix = filepath.Join(dir, "ref")
	plan := c.Round(set)
	type run struct {
		label, out string
		cmd        launch.Cmd
	}
	runs := []run{{c.Reference(), set.Prefix + ".out", l.Command(spec, prog, plan.Ref...)}}
	for _, v := range plan.Variants {
		args := append([]string{"-test.run", "^$", "-test.bench", "^" + c.ID().Benchmark() + "$"}, v.Flags...)
		runs = append(runs, run{c.ID().Name + ", " + v.Label, filepath.Join(dir, v.Name+".txt"), l.Command(spec, o.bin, args...)})
	}
	for i := range runs {
		r := runs[(k-1+i)%len(runs)]
		fmt.Fprintf(o.stderr, "beff conformance: %s round %d: %s\n", time.Now().UTC().Format("15:04:05"), k, r.label)
		if err := o.job(r.cmd, r.out, r.out+".err", o.limit); err != nil {
			return fmt.Errorf("%s, round %d: %v (see %s.err)", r.label, k, err, r.out)
		}
	}
	return nil
}

// runJob runs a launcher's command to its end within limit, its stdout
// and stderr into files.
func runJob(c launch.Cmd, stdout, stderr string, limit time.Duration) error {
	out, err := os.Create(stdout)
	if err != nil {
		return err
	}
	defer out.Close()
	errf, err := os.Create(stderr)
	if err != nil {
		return err
	}
	defer errf.Close()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Stdout, cmd.Stderr = out, errf
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("not done after %v", limit)
		}
		return err
	}
	return nil
}

// compileRef runs the compiler wrapper, its words into log.
func compileRef(cc string, args []string, log string) error {
	f, err := os.Create(log)
	if err != nil {
		return err
	}
	defer f.Close()
	cmd := exec.Command(cc, args...)
	cmd.Stdout, cmd.Stderr = f, f
	return cmd.Run()
}
