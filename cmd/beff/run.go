package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/beff-suite/beff/internal/compare"
	"github.com/beff-suite/beff/internal/launch"
	"github.com/beff-suite/beff/internal/results"
)

const runUsage = `usage: beff run [flags] [-- flags of the test binary]

Run runs the suites' test binary as an MPI job the way this machine
launches one, and stores what it measured: inside a Slurm allocation with
srun; else with MPIEXEC, the mpiexec beside the MPI compiler wrapper
(MPICC, default mpicc) or an mpiexec on PATH, with the flags of its
family (Open MPI 4 and 5, Hydra: MPICH, Intel MPI, MVAPICH).

Rank 0 writes the results to a new file under DIR/partial/ (the test
binary's -out). A job that succeeds is folded (beff fold -append) and
stored as DIR/<host>-<date>-np<N>[-<library>].txt, never overwriting a
file; one that fails stays in DIR/partial/, headed by a line
"beff-partial: <why>", to resume from (-resume), and run exits with a code
that says why: 2 bad input, 3 validation, 4 an MPI call, 5 the file
system under test, 10 the watchdog, 11 a lost process, 12 the results
file, 128+N a signal (every code: beff help). A job that succeeds ends
with its headline figures, their validity and the commands that show
them as pages and compare them.

One launch is one sample: its placement, the protocols its library chose
and the machine's state then hold for all its -test.count runs. -runs N
makes N launches, each stored in its own file, all with one b_eff seed
(drawn here unless -beff.seed is among the test binary's flags), and ends
with every figure across the launches: median, 95% confidence interval,
range, and whether the launches fall into two modes. -against BASE.test
launches BASE.test and the -bin binary in turn, N times each, in the order
base, new, new, base, base, new, … (the machine's drift hits both, and so
does what one launch leaves to the next: on a 2-core VM the second launch
of a pair measured the ping-pong bandwidth lower in 4 of 5 pairs of one
binary), into DIR/ab-<time>/base and DIR/ab-<time>/new, the two sides of
beff gate.

Flags:
`

// runOpts are the flags of beff run.
type runOpts struct {
	np                   int
	bench, bin, dir      string
	resume, launcherArgs string
	resumed              []results.Suite // the suites with lines in the resume file
	timeout              time.Duration
	hint                 string
	args                 []string
	runs                 int    // launches (of each binary with -against)
	against              string // the base binary, launched in turn with bin
	quiet                bool   // no protocol per launch (several launches)
	check                bool   // check the flags and the MPI only, launch nothing
	checked              bool   // the binaries were checked (preflight) before the first launch
}

// runMain is the run command.
func runMain(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("beff run", runUsage, stderr)
	var o runOpts
	fs.IntVar(&o.np, "np", 0, "processes (default: inside a Slurm allocation its tasks, or its CPUs; else this node's CPUs, at least 2)")
	fs.StringVar(&o.bench, "bench", "b_eff,b_eff_io", "the suites to run, by name: b_eff, b_eff_io, skampi, congestion, links (any case; several separated by commas; all)")
	fs.StringVar(&o.bin, "bin", "./beff.test", "the test binary, built with -tags mpi")
	fs.StringVar(&o.dir, "results", "results", "the folder of results")
	fs.StringVar(&o.resume, "resume", "", "the partial output of an earlier job of this configuration: what it measured is copied, the rest measured")
	fs.StringVar(&o.launcherArgs, "launcher-args", "", "flags of the launcher, e.g. '--hostfile hosts' (srun's inside an allocation)")
	fs.DurationVar(&o.timeout, "timeout", time.Hour, "the launcher ends the job after this long")
	fs.StringVar(&o.hint, "hint", "", "the command that resumes a failed job, told when one fails, %s standing for its partial file (default: beff run … -resume %s)")
	fs.IntVar(&o.runs, "runs", 1, "launches of the job (of each binary with -against), each one sample, one b_eff seed for all")
	fs.BoolVar(&o.check, "check", false, "check the test binary's flags and that it and the launcher are of one MPI, then exit (0: good, 2: not) without launching; every run does so first")
	fs.StringVar(&o.against, "against", "", "a base test binary to launch in turn with -bin, -runs times each, into DIR/ab-<time>/base and …/new")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	o.args = fs.Args()
	if o.np < 0 || o.timeout <= 0 {
		fmt.Fprintf(stderr, "beff run: -np=%d -timeout=%v: want a positive number of processes and time\n", o.np, o.timeout)
		return exitBadInput
	}
	if o.runs < 1 || o.runs > maxLaunches {
		fmt.Fprintf(stderr, "beff run: -runs=%d: want 1 to %d launches\n", o.runs, maxLaunches)
		return exitBadInput
	}
	var err error
	if o.bench, err = benchPattern(o.bench, suites()); err != nil {
		fmt.Fprintf(stderr, "beff run: %v\n", err)
		return exitBadInput
	}
	if msg := ownedFlag(o.args); msg != "" {
		fmt.Fprintf(stderr, "beff run: %s\n", msg)
		return exitBadInput
	}
	if o.resume != "" && (o.runs > 1 || o.against != "") {
		fmt.Fprintln(stderr, "beff run: -resume resumes one launch: not with -runs or -against")
		return exitBadInput
	}
	if o.resume != "" {
		if o.resumed, err = resumedSuites(o.resume); err != nil {
			fmt.Fprintf(stderr, "beff run: -resume=%s: %v (give the partial output of an earlier job, %s/partial/…)\n", o.resume, err, o.dir)
			return exitBadInput
		}
	}
	if o.check {
		_, code := o.preflight(stderr)
		if code == exitOK {
			fmt.Fprintf(stderr, "beff run: %s: its flags and its MPI are good for this launcher\n", o.bin)
		}
		return code
	}
	if o.runs == 1 && o.against == "" {
		code, _ := o.run(stdout, stderr)
		return code
	}
	return o.launches(stdout, stderr)
}

// maxLaunches bounds -runs.
const maxLaunches = 1000

// launches makes o.runs launches of the binary, or with -against of the
// base binary and the binary in turn, each stored on its own, with one
// b_eff seed; then it writes the figures across the launches of each side.
func (o *runOpts) launches(stdout, stderr io.Writer) int {
	if !hasFlag(o.args, "beff.seed") {
		var b [8]byte
		rand.Read(b[:])
		o.args = append(o.args, "-beff.seed="+strconv.FormatUint(binary.LittleEndian.Uint64(b[:]), 10))
	}
	type side struct{ label, bin, dir string }
	sides := []side{{"", o.bin, o.dir}}
	if o.against != "" {
		ab := filepath.Join(o.dir, "ab-"+time.Now().UTC().Format("2006-01-02T150405"))
		sides = []side{{"base", o.against, filepath.Join(ab, "base")}, {"new", o.bin, filepath.Join(ab, "new")}}
	}
	for _, s := range sides {
		one := *o
		one.bin = s.bin
		if _, code := one.preflight(stderr); code != exitOK {
			return code
		}
	}
	o.checked = true // once, not before every launch
	stored := make([][]string, len(sides))
	o.quiet = true
	for k := 1; k <= o.runs; k++ {
		for j := range sides {
			i := j
			if k%2 == 0 {
				i = len(sides) - 1 - j // base, new, new, base, …: the second place of a pair is no side's alone
			}
			s := sides[i]
			one := *o
			one.bin, one.dir = s.bin, s.dir
			of := ""
			if s.label != "" {
				of = " of " + s.label + " (" + s.bin + ")"
			}
			fmt.Fprintf(stderr, "beff run: launch %d of %d%s\n", k, o.runs, of)
			code, out := one.run(stdout, stderr)
			if code != exitOK {
				return code
			}
			if out == "" {
				return exitOK // a plan: nothing measured
			}
			stored[i] = append(stored[i], out)
		}
	}
	for i, s := range sides {
		if err := writeLaunches(stdout, s.label, stored[i]); err != nil {
			fmt.Fprintf(stderr, "beff run: %v\n", err)
			return exitFail
		}
	}
	var dirs []string
	for _, s := range sides {
		dirs = append(dirs, s.dir)
	}
	writeLaunchesEnding(stdout, dirs, o.against != "")
	return exitOK
}

// writeLaunches writes the figures across the launches stored in files.
func writeLaunches(w io.Writer, label string, files []string) error {
	side, err := compare.Load("launches", files, suites())
	if err != nil {
		return err
	}
	if label != "" {
		fmt.Fprintf(w, "\n%s: %s\n", label, strings.Join(files, ", "))
	}
	return compare.WriteSpreads(w, compare.Spreads(side))
}

// ownedFlag says why a flag of the test binary among args is beff run's
// to give ("" when none is): the results file, which benchmarks run and
// what is resumed are its own flags' business.
func ownedFlag(args []string) string {
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case !strings.HasPrefix(a, "-"):
		case name == "out":
			return "-out after --: beff run names the results file itself and stores it under -results DIR (default results); give -results"
		case name == "test.bench" || name == "test.run":
			return "-" + name + " after --: beff run chooses the benchmarks with -bench"
		case strings.HasSuffix(name, ".resume"):
			return "-" + name + " after --: beff run resumes with -resume FILE, which gives each suite with lines in FILE its flag"
		}
	}
	return ""
}

// hasFlag reports whether args set the flag name (-name, --name, with or
// without =value).
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		a = strings.TrimLeft(a, "-")
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// run launches the job, then stores or keeps what it measured; it returns
// the exit code and the stored file.
func (o *runOpts) run(stdout, stderr io.Writer) (int, string) {
	l, code := o.preflight(stderr)
	if code != exitOK {
		return code, ""
	}
	np, err := o.procs(l)
	if err != nil {
		fmt.Fprintf(stderr, "beff run: %v\n", err)
		return exitBadInput, ""
	}
	spec := o.spec(l, np, stderr)
	part, err := o.partName(np)
	if err != nil {
		fmt.Fprintf(stderr, "beff run: %v\n", err)
		return exitFail, ""
	}
	args := append([]string{"-test.run", "^$", "-test.bench", o.bench, "-out", part}, o.resumeFlags()...)
	if isTerminal(stderr) && !hasFlag(o.args, "progress") {
		args = append(args, "-progress=terminal") // the job's own stderr is the launcher's pipe
	}
	args = append(args, o.args...)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer signal.Stop(sigs)
	left := &leftovers{}
	job := &launch.Job{Launcher: l, Spec: spec, Prog: o.bin, Args: args, Stderr: stderr, Signals: sigs, Line: left.line}
	c := l.Command(spec, o.bin)
	fmt.Fprintf(stderr, "beff run: %s: %s …; the output goes to %s\n", l.Version, strings.Join(c.Argv, " "), part)
	start := time.Now()
	oc, err := job.Run()
	if err != nil {
		fmt.Fprintf(stderr, "beff run: %v\n", err)
		os.Remove(part)
		return exitFail, ""
	}
	if oc.Code != 0 {
		return o.failed(part, oc, left, stderr), ""
	}
	fmt.Fprintf(stderr, "beff run: %s took %v\n", results.Processes(np), time.Since(start).Round(time.Second))
	if n, ok := countResults(part); ok && oc.StdoutResults < n {
		fmt.Fprintf(stderr, "beff run: the launcher's stdout lost %d of %d result lines; %s has them all\n", n-oc.StdoutResults, n, part)
	}
	return o.store(part, np, stdout, stderr)
}

// preflight finds the launcher and checks, before anything is launched,
// the test binary's flags and that the binary and the launcher are of one
// MPI: one line and exit 2 when not.
func (o *runOpts) preflight(stderr io.Writer) (*launch.Launcher, int) {
	l, err := launch.Host.Find()
	if err != nil {
		fmt.Fprintf(stderr, "beff run: %v\n", err)
		return nil, exitBadInput
	}
	if o.checked {
		return l, exitOK
	}
	args := append([]string{"-test.run", "^$", "-test.bench", o.bench}, o.resumeFlags()...)
	c, err := launch.CheckBinary(o.bin, append(args, o.args...))
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "beff run: %v; nothing was launched\n", err)
		return nil, exitBadInput
	case c.Err != "":
		fmt.Fprintf(stderr, "beff run: %s: %s; nothing was launched\n", o.bin, c.Err)
		return nil, exitBadInput
	}
	if why := l.Mismatch(c.Built, c.Loaded); why != "" {
		fmt.Fprintf(stderr, "beff run: %s: rebuild it with the MPI you launch with (make build; MPICC=… names another compiler wrapper) or launch with its own (MPIEXEC=…); nothing was launched\n", why)
		return nil, exitBadInput
	}
	return l, exitOK
}

// procs is the number of processes of the job.
func (o *runOpts) procs(l *launch.Launcher) (int, error) {
	if o.np > 0 {
		return o.np, nil
	}
	if l.Family == launch.Srun {
		return slurmProcs(os.Getenv)
	}
	return max(2, onlineCPUs()), nil
}

// spec is what the job asks of its launcher.
func (o *runOpts) spec(l *launch.Launcher, np int, stderr io.Writer) launch.Spec {
	s := launch.Spec{NP: np, Timeout: o.timeout, Root: os.Geteuid() == 0, KeepAlive: true, Flags: strings.Fields(o.launcherArgs)}
	s.FromEnv(os.Getenv)
	if l.Family != launch.Srun && o.launcherArgs == "" && np > onlineCPUs() {
		s.Oversubscribe = true
		fmt.Fprintf(stderr, "beff run: %d processes on %d cores: oversubscribed, the figures check correctness, not speed\n", np, onlineCPUs())
	}
	if l.Polls() && (s.Oversubscribe || s.Yield) {
		s.Preload = yieldLib(stderr)
	}
	return s
}

// yieldLib is the library that makes a polling library's waiting
// processes give up their core (launch.YieldLib), which an oversubscribed
// node needs; "" and a line on stderr when there is none.
func yieldLib(stderr io.Writer) string {
	lib, err := launch.YieldLib()
	if err != nil {
		fmt.Fprintf(stderr, "beff: %v\n", err)
	}
	return lib
}

// resumeFlags are the resume flags (-<key>.resume) of the suites with
// lines in the -resume file: a suite refuses a file without its lines,
// and a job that ended in its first suite left none of the others'.
func (o *runOpts) resumeFlags() []string {
	var out []string
	for _, s := range o.resumed {
		out = append(out, "-"+s.ID().Key+".resume", o.resume)
	}
	return out
}

// resumedSuites are the suites with result lines in the file name, in
// the suite list's order; an error when it cannot be read (or is not a
// regular file) or has none.
func resumedSuites(name string) ([]results.Suite, error) {
	has := map[string]bool{}
	list := suites()
	err := results.ScanFile(name, func(line string, _ int) error {
		for _, s := range list {
			if strings.HasPrefix(line, "Benchmark"+s.ID().Bench+"/") && isResult(line) {
				has[s.ID().Bench] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []results.Suite
	for _, s := range list {
		if has[s.ID().Bench] {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no result line of any suite to resume from")
	}
	return out, nil
}

// base is the name of the job's results without its library:
// <host>-<date>-np<N>.
func base(np int) string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "host"
	}
	host, _, _ = strings.Cut(host, ".")
	return fmt.Sprintf("%s-%s-np%d", host, time.Now().UTC().Format("2006-01-02"), np)
}

// partName is a new name under DIR/partial/ for the job's output, which
// rank 0 creates (it refuses a name that exists).
func (o *runOpts) partName(np int) (string, error) {
	dir := filepath.Join(o.dir, "partial")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	b := make([]byte, 4)
	rand.Read(b)
	return filepath.Join(dir, base(np)+"-"+hex.EncodeToString(b)+".txt"), nil
}

// countResults counts the result lines of a file (false when it cannot
// be read).
func countResults(name string) (int, bool) {
	f, err := os.Open(name)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if isResult(sc.Text()) {
			n++
		}
	}
	return n, sc.Err() == nil
}

// isResult reports whether a line is a benchmark's result: its name and,
// after a tab, its figures (testing writes the name alone first).
func isResult(l string) bool {
	name, figures, ok := strings.Cut(l, "\t")
	return ok && strings.HasPrefix(name, "Benchmark") && strings.TrimSpace(figures) != ""
}

// failed keeps the output of a failed job as partial, says why and how to
// resume, and returns the job's code.
func (o *runOpts) failed(part string, oc launch.Outcome, left *leftovers, stderr io.Writer) int {
	if oc.Culprit != "" {
		fmt.Fprintf(stderr, "beff run: the launcher reports a bad end of %s (not always the first process lost: it may have ended the others itself)\n", oc.Culprit)
	}
	for _, msg := range left.remove() {
		fmt.Fprintf(stderr, "beff run: %s\n", msg)
	}
	fmt.Fprintf(stderr, "beff run: %s\n", oc.Why)
	o.keep(part, oc.Why, stderr)
	return oc.Code
}

// keep marks part as partial (why, first) and says how to resume; an
// output without a measurement is removed.
func (o *runOpts) keep(part, why string, stderr io.Writer) {
	n, _ := countResults(part)
	if n == 0 {
		os.Remove(part)
		os.Remove(filepath.Dir(part)) // when empty
		fmt.Fprintf(stderr, "beff run: nothing was measured; nothing kept\n")
		return
	}
	if err := prepend(part, results.KeyPartial+": "+strings.Join(strings.Fields(why), " ")+"\n"); err != nil {
		fmt.Fprintf(stderr, "beff run: marking %s as partial: %v\n", part, err)
	}
	fmt.Fprintf(stderr, "beff run: kept %d measured lines in %s\n", n, part)
	hint := o.hint
	if !strings.Contains(hint, "%s") {
		hint = "beff run -bench '" + o.bench + "' … -resume %s"
	}
	fmt.Fprintf(stderr, "beff run: resume with: %s\n", strings.Replace(hint, "%s", part, 1))
}

// prepend writes line before the content of name (through a new file
// renamed over it).
func prepend(name, line string) error {
	in, err := os.Open(name)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := name + ".tmp"
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = io.WriteString(out, line)
	if err == nil {
		_, err = io.Copy(out, in)
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// store folds a finished job's output into it and stores it under its
// results name; a dry run's output (a plan) is printed, not stored.
func (o *runOpts) store(part string, np int, stdout, stderr io.Writer) (int, string) {
	if o.isPlan() {
		defer os.Remove(part)
		f, err := os.Open(part)
		if err != nil {
			fmt.Fprintf(stderr, "beff run: %v\n", err)
			return exitFail, ""
		}
		defer f.Close()
		io.Copy(stdout, f)
		return exitOK, ""
	}
	var ferr bytes.Buffer
	if foldMain(io.Discard, &ferr, []string{"-append", part}) != exitOK {
		msg := strings.TrimSpace(ferr.String())
		fmt.Fprintln(stderr, msg)
		first, _, _ := strings.Cut(msg, "\n")
		o.keep(part, "the fold refused it: "+first, stderr)
		return exitFail, ""
	}
	out, err := reserve(o.dir, base(np)+librarySuffix(part))
	if err != nil {
		fmt.Fprintf(stderr, "beff run: %v\n", err)
		return exitFail, ""
	}
	if err := os.Rename(part, out); err != nil {
		os.Remove(out)
		fmt.Fprintf(stderr, "beff run: %v\n", err)
		return exitFail, ""
	}
	os.Remove(filepath.Dir(part)) // when empty
	if filepath.Dir(o.resume) == filepath.Join(o.dir, "partial") {
		if os.Remove(o.resume) == nil {
			fmt.Fprintf(stdout, "beff run: removed %s (resumed into %s)\n", o.resume, out)
		}
	}
	if o.quiet {
		fmt.Fprintf(stdout, "beff run: stored %s\n", out)
		return exitOK, out
	}
	folded, err := protocols(stdout, []string{out})
	if err != nil {
		fmt.Fprintf(stderr, "beff run: %v\n", err)
		return exitFail, out
	}
	writeEnding(stdout, out, o.dir, folded)
	return exitOK, out
}

// isPlan reports whether the job only printed a plan (-skampi.plan).
func (o *runOpts) isPlan() bool {
	for i, a := range o.args {
		a = strings.TrimLeft(a, "-")
		if strings.HasSuffix(a, ".plan") && (i+1 >= len(o.args) || strings.HasPrefix(o.args[i+1], "-")) ||
			strings.HasSuffix(a, ".plan=true") {
			return true
		}
	}
	return false
}

// reserve creates DIR/NAME.txt, else DIR/NAME-runK.txt for the first K
// from 2 that is free: a name no other job takes (O_EXCL).
func reserve(dir, name string) (string, error) {
	for i := 1; i <= 10000; i++ {
		out := filepath.Join(dir, name+".txt")
		if i > 1 {
			out = filepath.Join(dir, name+"-run"+strconv.Itoa(i)+".txt")
		}
		f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.Close()
			return out, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", err
		}
	}
	return "", fmt.Errorf("no free name for %s/%s-runK.txt", dir, name)
}

// librarySuffix names the MPI library of a results file in its stored
// name: "" for Open MPI, "-mpich", "-intelmpi", … from its mpi-library
// line.
func librarySuffix(name string) string {
	f, err := os.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), results.KeyLibrary+": "); ok {
			return libraryTag(v)
		}
	}
	return ""
}

// libraryTag is the name a library's results carry.
func libraryTag(lib string) string {
	l := strings.ToLower(lib)
	for _, t := range []struct{ in, tag string }{
		{"open mpi", ""}, {"mvapich", "-mvapich"}, {"intel", "-intelmpi"}, {"cray", "-craympich"}, {"mpich", "-mpich"},
	} {
		if strings.Contains(l, t.in) {
			return t.tag
		}
	}
	var b strings.Builder
	for _, c := range l {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		} else if b.Len() > 0 {
			break
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "-" + b.String()
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f := fileOf(w)
	if f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// onlineCPUs counts this node's CPUs.
func onlineCPUs() int { return runtime.NumCPU() }
