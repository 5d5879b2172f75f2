package e2e

// End-to-end tests: real MPI jobs on a test binary built with -tags mpi,
// under the MPI on PATH (launch_test.go). Every job runs under its
// launcher's own timeout, so a rank that fails makes the job fail instead of
// hanging it. Set BEFF_SKIP_MPI=1 to skip them on a machine without MPI
// (make test installs the library and runs them).

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/launch"
	"github.com/beff-suite/beff/suites/beff"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// mpiBinary builds the test binary with (or without) -tags mpi, against
// the MPI on PATH, once per test process.
func mpiBinary(t *testing.T, tags bool) string {
	t.Helper()
	if os.Getenv("BEFF_SKIP_MPI") == "1" {
		t.Skip("BEFF_SKIP_MPI=1")
	}
	if n, ok := launch.JobSize(); ok && n > 1 {
		t.Skip("inside an MPI job: the end-to-end tests launch their own")
	}
	testLib(t)
	buildOnce.Do(func() {
		env, err := launch.BuildEnv()
		if err != nil {
			buildErr = err
			return
		}
		buildDir, buildErr = os.MkdirTemp("", "beff-it-")
		if buildErr != nil {
			return
		}
		if out, err := exec.Command("go", "build", "-o", filepath.Join(buildDir, "beff"), "./cmd/beff").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/beff: %v\n%s", err, out)
			return
		}
		for _, b := range []struct{ out, tag string }{{"beff.test", "mpi"}, {"nompi.test", ""}} {
			args := []string{"test", "-c", "-o", filepath.Join(buildDir, b.out)}
			cmd := exec.Command("go")
			if b.tag != "" {
				args = append(args, "-tags", b.tag)
				cmd.Env = append(os.Environ(), env...)
			}
			cmd.Args = append(cmd.Args, append(args, ".")...)
			if out, err := cmd.CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("%s go %s: %v\n%s", strings.Join(env, " "), strings.Join(args, " "), err, out)
				return
			}
		}
	})
	require.NoError(t, buildErr)
	if tags {
		return filepath.Join(buildDir, "beff.test")
	}
	return filepath.Join(buildDir, "nompi.test")
}

// foldStdout writes a job's output to a file and folds it with the beff
// command; a fold that fails fails the test.
func foldStdout(t *testing.T, stdout string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "run.txt")
	require.NoError(t, os.WriteFile(file, []byte(stdout), 0o644))
	out, err := exec.Command(beffCommand(t), "fold", file).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return string(out)
}

// beffCommand is the beff command, built with the test binaries.
func beffCommand(t *testing.T) string {
	mpiBinary(t, true)
	return filepath.Join(buildDir, "beff")
}

// A jobResult is what a job wrote and its exit code. stdout is its
// results file (-out) where it wrote one, else what reached the
// launcher's stdout; launcherOut is always the latter. (Open MPI 5's
// launcher may mix a long stdout line with stderr: the file is the
// record.)
type jobResult struct {
	stdout, stderr string
	code           int
	launcherOut    string
}

// mpirun runs bin on np processes (oversubscribed) with args and -out,
// under the test library's launcher.
func mpirun(t *testing.T, np int, bin string, args ...string) jobResult {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.txt")
	res := runJob(t, testLib(t).command(t, np, bin, append(args, "-out", out)...))
	if data, err := os.ReadFile(out); err == nil {
		res.stdout = string(data)
	}
	return res
}

// runJob runs a launcher's command and returns what it wrote and its exit
// code.
func runJob(t *testing.T, cmd *exec.Cmd) jobResult {
	t.Helper()
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", cmd.Path, err)
	}
	return jobResult{so.String(), se.String(), code, so.String()}
}

// checkStdout checks that the launcher's stdout holds the results file's
// lines whole and in order. Open MPI 5's launcher (PRRTE, PMIx's output
// forwarding) holds back what it read of a line without its end and
// passes it on with the process's next stderr text, which its reads of
// 1 KiB can do to any line: there the file is the record, and stdout's
// lines are counted only.
func checkStdout(t *testing.T, res jobResult) {
	t.Helper()
	if testLib(t).l.Family != launch.OpenMPI5 {
		assert.Equal(t, res.stdout, res.launcherOut, "the results file (-out) and stdout hold the same lines")
		return
	}
	file, got := resultLines(res.stdout), resultLines(res.launcherOut)
	if file != got {
		t.Logf("%s: stdout has %d of the file's %d result lines whole", testLib(t).l.Version, wholeLines(file, got), strings.Count(file, "\n"))
	}
}

// wholeLines counts the lines of want that got holds.
func wholeLines(want, got string) int {
	have := map[string]bool{}
	for _, l := range strings.Split(got, "\n") {
		have[l] = true
	}
	n := 0
	for _, l := range strings.Split(strings.TrimSuffix(want, "\n"), "\n") {
		if have[l] {
			n++
		}
	}
	return n
}

// resultLines are the result lines of an output, one per line.
func resultLines(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Benchmark") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

var quick = []string{"-test.run", "^$", "-test.bench", "^BenchmarkBeff$", "-test.short"}

// A benchOut is the output of a run read with benchfmt: the configuration,
// and per sub-benchmark (name without "Benchmark<bench>/") its metrics by
// unit as written and how often it occurred.
type benchOut struct {
	config  map[string]string
	metrics map[string]map[string]float64 // the measurements' lines
	count   map[string]int
	clock   map[string]float64 // the line of the run's clocks (clocks.ReportName), nil without
}

func readBench(t *testing.T, out, bench string) benchOut {
	t.Helper()
	p := benchOut{config: map[string]string{}, metrics: map[string]map[string]float64{}, count: map[string]int{}}
	r := benchfmt.NewReader(strings.NewReader(out), "stdout")
	for r.Scan() {
		switch rec := r.Result(); rec := rec.(type) {
		case *benchfmt.Result:
			for _, c := range rec.Config {
				p.config[c.Key] = string(c.Value)
			}
			name := strings.TrimPrefix(string(rec.Name.Full()), bench+"/")
			p.count[name]++
			m := map[string]float64{}
			for _, v := range rec.Values { // as written, also where the reader tidied the unit (MB/s into B/s)
				if v.OrigUnit != "" {
					m[v.OrigUnit] = v.OrigValue
				} else {
					m[v.Unit] = v.Value
				}
			}
			if name == clocks.ReportName {
				p.clock = m
				continue
			}
			p.metrics[name] = m
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", rec)
		}
	}
	require.NoError(t, r.Err())
	return p
}

// parsed is the output of a b_eff run: its configuration, MB/s per line
// and the count of each line.
type parsed struct {
	config map[string]string
	mbs    map[string]float64 // name without "BenchmarkBeff/" → MB/s
	count  map[string]int
}

func parse(t *testing.T, out string) parsed {
	t.Helper()
	b := readBench(t, out, "Beff")
	p := parsed{config: b.config, mbs: map[string]float64{}, count: b.count}
	for name, m := range b.metrics {
		if v, ok := m["MB/s"]; ok {
			if v == 0 { // testing prints MB/s with two decimals: a 1-byte step of an oversubscribed node may take longer
				v = m["avg-MB/s"]
			}
			p.mbs[name] = v
		}
	}
	return p
}

// TestQuickBeff runs the quick b_eff on 2 to 5 processes and checks that
// every pattern, size and method of the run's pattern table is reported once
// with a positive bandwidth in the results file (-out) and on stdout alike,
// that nothing but rank 0 wrote, and that the fold gives a positive b_eff;
// on 1 process b_eff refuses to start (nothing is communicated).
func TestQuickBeff(t *testing.T) {
	bin := mpiBinary(t, true)
	one := mpirun(t, 1, bin, quick...)
	assert.Equal(t, 2, one.code, "stderr:\n%s", one.stderr)
	assert.Equal(t, 1, strings.Count(one.stderr, "beff: b_eff on 1 process: every message would stay inside the process, nothing crosses a network"), one.stderr)
	assert.NotContains(t, one.stdout, "BenchmarkBeff/", "nothing measured")
	for np := 2; np <= 5; np++ {
		t.Run(fmt.Sprintf("np=%d", np), func(t *testing.T) {
			res := mpirun(t, np, bin, append(quick, "-beff.seed=42")...)
			require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
			checkStdout(t, res)
			p := parse(t, res.stdout)
			assert.Equal(t, strconv.Itoa(np), p.config["mpi-procs"])
			assert.Equal(t, "42", p.config["beff-seed"])
			if testLib(t).name == "mpich" && np > runtime.NumCPU() {
				assert.True(t, strings.HasSuffix(p.config["mpi-preload"], "/mpich-yield.so"), "mpi-preload: %q", p.config["mpi-preload"])
			} else {
				assert.NotContains(t, p.config, "mpi-preload")
			}
			sizes := strings.Split(p.config["beff-sizes"], ",")
			require.Len(t, sizes, len(beff.ShortSizeIndexes))
			set := beff.PureSet(np, 3, 42)
			want := 0
			for _, pat := range set.Patterns {
				for _, l := range sizes {
					for _, m := range pat.Methods() {
						name := fmt.Sprintf("pat=%s/L=%s/mthd=%s", pat.Name, l, m)
						want++
						assert.Equal(t, 1, p.count[name], "%s reported once", name)
						assert.Greater(t, p.mbs[name], 0.0, "%s has a positive bandwidth", name)
					}
				}
			}
			assert.Len(t, p.count, want, "no unexpected benchmark lines")
			assert.LessOrEqual(t, strings.Count(res.launcherOut, "goos: "), 1, "only rank 0 writes stdout")
			assert.NotContains(t, res.stderr, "FAIL")

			folded := foldStdout(t, res.stdout)
			m := regexp.MustCompile(`(?m)^b_eff = ([0-9.e+]+) MB/s`).FindStringSubmatch(folded)
			require.NotNil(t, m, "fold prints b_eff:\n%s", folded)
			v, err := strconv.ParseFloat(m[1], 64)
			require.NoError(t, err)
			assert.Greater(t, v, 0.0)
		})
	}
}

// TestValidationStopsJob corrupts one received message (test-only flag): the
// whole job must stop non-zero with a report naming the pattern and rank.
func TestValidationStopsJob(t *testing.T) {
	bin := mpiBinary(t, true)
	for _, np := range []int{2, 3} {
		res := mpirun(t, np, bin, append(quick, "-beff.testfault")...)
		assert.Equal(t, 3, res.code, "exit code of a validation failure; stderr:\n%s", res.stderr)
		assert.Contains(t, res.stderr, "validation FAILED: pattern ring2")
		assert.Regexp(t, fmt.Sprintf(`rank %d: 1 bad message\(s\); first in repetition 1, iteration \d+, step \d+, from rank \d+, receive-buffer offset \d+: first byte \d+ \(expected \d+\)`, np-1), res.stderr)
	}
}

// TestBadInput: each bad flag gives one clear message from rank 0 and a
// non-zero exit from every rank, before anything is measured.
func TestBadInput(t *testing.T) {
	bin := mpiBinary(t, true)
	cases := []struct{ flag, msg string }{
		{"-beff.mem=-5", "-beff.mem=-5: out of range; want a number of MiB"},
		{"-beff.mem=1000000000", "more than the"},
		{"-beff.patterns=ring2,nosuch", `unknown pattern "nosuch"`},
		{"-beff.seed=x", "unsigned integer"},
		{"-beff.rmax=-3", "-beff.rmax=-3: out of range; want a number of GFlop/s"},
		{"-test.benchtime=1s", "-test.benchtime=1x"},
		{"-test.cpu=2", "GOMAXPROCS=1"},
		{"-beff.lmax=100", "too small"},
		{"-beff.shortcut-limit=-1", "-beff.shortcut-limit=-1: out of range; want a number of s from 0 to 86400"},
		{"-mpi.thread=threaded", "want single, funneled, serialized or multiple"},
		{"-beff.lmax=3000000000", "too large"},
		{"-beff.mem=abc", `invalid value "abc" for flag -beff.mem: parse error (-beff.mem: b_eff: memory per process in MiB`},
		{"-beff.mme=5", "flag provided but not defined: -beff.mme (did you mean -beff.mem?)"},
		{"-beff.resume=e2e/testdata/skampi-short-np2.txt", "e2e/testdata/skampi-short-np2.txt: no line of BenchmarkBeff to resume from"},
	}
	for _, c := range cases {
		t.Run(c.flag, func(t *testing.T) {
			res := mpirun(t, 3, bin, append(quick, c.flag)...)
			assert.Equal(t, 2, res.code, "stderr:\n%s", res.stderr)
			assert.Equal(t, 1, strings.Count(res.stderr, "beff: "), "one message, from rank 0:\n%s", res.stderr)
			assert.Contains(t, res.stderr, c.msg)
			assert.Empty(t, res.stdout, "nothing is measured or printed")
		})
	}
}

// TestFileFlagsRefuseFIFO: a flag that names a file to read refuses a
// named pipe at once (one message from rank 0, exit 2) instead of waiting
// for a writer that never comes.
func TestFileFlagsRefuseFIFO(t *testing.T) {
	bin := mpiBinary(t, true)
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	for _, args := range [][]string{
		append(slices.Clone(quick), "-beff.resume", fifo),
		append(slices.Clone(quickIO), "-beffio.resume", fifo),
		append(slices.Clone(quickIO), "-beffio.hints", fifo),
		append(slices.Clone(quickSkampi), "-skampi.suites", fifo),
		append(slices.Clone(quickSkampi), "-skampi.resume", fifo),
	} {
		t.Run(args[len(args)-2], func(t *testing.T) {
			res := mpirun(t, 2, bin, args...)
			assert.Equal(t, 2, res.code, "stderr:\n%s", res.stderr)
			assert.Equal(t, 1, strings.Count(res.stderr, "beff: "), "one message, from rank 0:\n%s", res.stderr)
			assert.Contains(t, res.stderr, fifo+": not a regular file but a named pipe (FIFO)")
			assert.Empty(t, res.stdout)
		})
	}
}

// TestWithoutMPIBuild: a binary built without -tags mpi but launched on
// several processes must notice and stop with a message saying how to build.
func TestWithoutMPIBuild(t *testing.T) {
	bin := mpiBinary(t, false)
	res := mpirun(t, 2, bin, quick...)
	assert.NotEqual(t, 0, res.code)
	assert.Contains(t, res.stderr, "started as one of 2 MPI processes")
	assert.Contains(t, res.stderr, "-tags mpi")
	assert.Empty(t, res.stdout)
}

// TestShortcut forces the shortcut of the two largest sizes (a limit of 0 s):
// there only the best method is measured, with loop length 1, and the
// largest size with 2 repetitions; the fold says so.
func TestShortcut(t *testing.T) {
	bin := mpiBinary(t, true)
	np := 3
	res := mpirun(t, np, bin, append(quick, "-beff.shortcut-limit=0")...)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	assert.Contains(t, res.stderr, "best method only")
	p := parse(t, res.stdout)
	sizes := strings.Split(p.config["beff-sizes"], ",")
	big := sizes[len(sizes)-2:]
	for _, pat := range beff.PureSet(np, 3, 0).Patterns {
		for i, l := range big {
			n := 0
			for _, m := range beff.Methods {
				name := fmt.Sprintf("pat=%s/L=%s/mthd=%s", pat.Name, l, m)
				if p.count[name] == 1 {
					n++
					line := regexp.MustCompile(`(?m)^BenchmarkBeff/` + regexp.QuoteMeta(name) + `\s.*$`).FindString(res.stdout)
					assert.Contains(t, line, " 1.000 looplen", name)
					assert.Contains(t, line, []string{" 3.000 reps", " 2.000 reps"}[i], name)
				}
			}
			assert.Equal(t, 1, n, "pattern %s at L=%s: one method", pat.Name, l)
		}
	}
	out := foldStdout(t, res.stdout)
	assert.Contains(t, string(out), "shortcut: the two largest sizes measured with the best method only")
}

// TestBeffReferenceRules: -beff.reference measures every pattern, size and
// method in three sweeps (every line with 3 repetitions), says so in its
// configuration and folds with a note; a corrupted message stops the job
// as in the default rules.
func TestBeffReferenceRules(t *testing.T) {
	bin := mpiBinary(t, true)
	res := mpirun(t, 2, bin, append(quick, "-beff.seed=42", "-beff.reference")...)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	assert.Contains(t, res.stderr, "b_eff (reference rules): repetition 3 of 3")
	p := parse(t, res.stdout)
	assert.Equal(t, "reference", p.config["beff-rules"])
	sizes := strings.Split(p.config["beff-sizes"], ",")
	want := 0
	for _, pat := range beff.PureSet(2, 3, 42).Reference().Patterns {
		for _, l := range sizes {
			for _, m := range pat.Methods() {
				name := fmt.Sprintf("pat=%s/L=%s/mthd=%s", pat.Name, l, m)
				want++
				if assert.Equal(t, 1, p.count[name], name) {
					line := regexp.MustCompile(`(?m)^BenchmarkBeff/` + regexp.QuoteMeta(name) + `\s.*$`).FindString(res.stdout)
					assert.Contains(t, line, " 3.000 reps", name)
				}
			}
		}
	}
	assert.Len(t, p.count, want, "no unexpected benchmark lines")
	out := foldStdout(t, res.stdout)
	assert.Contains(t, string(out), "beff-rules: reference: measured by the rules of the reference code b_eff 3.6.0.1")

	res = mpirun(t, 2, bin, append(quick, "-beff.reference", "-beff.testfault")...)
	assert.Equal(t, 3, res.code, "exit code of a validation failure; stderr:\n%s", res.stderr)
	assert.Contains(t, res.stderr, "validation FAILED")
}

// TestBeffReferenceShortcut: with a limit of 0 s every repetition takes the
// shortcut, each with its own best method: at the two largest sizes each
// pattern has one to three methods, 3 repetitions in all at the second
// largest (loop length 1) and 2 at the largest (whose loop length the
// reference code computes anew from the loop of length 1); the fold
// accepts it and says so.
func TestBeffReferenceShortcut(t *testing.T) {
	bin := mpiBinary(t, true)
	np := 3
	res := mpirun(t, np, bin, append(quick, "-beff.reference", "-beff.shortcut-limit=0")...)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	p := parse(t, res.stdout)
	sizes := strings.Split(p.config["beff-sizes"], ",")
	big := sizes[len(sizes)-2:]
	repsRe := regexp.MustCompile(` ([0-9.]+) reps`)
	for _, pat := range beff.PureSet(np, 3, 0).Reference().Patterns {
		for i, l := range big {
			reps := 0.0
			for _, m := range pat.Methods() {
				name := fmt.Sprintf("pat=%s/L=%s/mthd=%s", pat.Name, l, m)
				if p.count[name] == 0 {
					continue
				}
				line := regexp.MustCompile(`(?m)^BenchmarkBeff/` + regexp.QuoteMeta(name) + `\s.*$`).FindString(res.stdout)
				if i == 0 {
					assert.Contains(t, line, " 1.000 looplen", name)
				}
				if m := repsRe.FindStringSubmatch(line); assert.NotNil(t, m, line) {
					v, _ := strconv.ParseFloat(m[1], 64)
					reps += v
				}
			}
			assert.Equal(t, []float64{3, 2}[i], reps, "pattern %s at L=%s: repetitions over its methods", pat.Name, l)
		}
	}
	out := foldStdout(t, res.stdout)
	assert.Contains(t, string(out), "shortcut: the two largest sizes measured with the best method only")
}

// TestGoTestUnderMpirun is the design card's way to run: mpirun starts `go
// test` on every rank; the benchmark lines must appear once, from rank 0.
func TestGoTestUnderMpirun(t *testing.T) {
	mpiBinary(t, true) // skips and checks like the others
	goBin, err := exec.LookPath("go")
	require.NoError(t, err)
	env, err := launch.BuildEnv()
	require.NoError(t, err)
	cmd := testLib(t).command(t, 2, goBin, "test", "-tags", "mpi", "-run", "^$", "-bench", "^BenchmarkBeff$", "-short", ".")
	cmd.Env = append(cmd.Env, env...) // every rank builds with the MPI's compiler wrapper
	res := runJob(t, cmd)
	require.Equal(t, 0, res.code, "stderr:\n%s\nstdout:\n%s", res.stderr, res.stdout)
	p := parse(t, res.stdout)
	require.NotEmpty(t, p.count)
	for name, c := range p.count {
		assert.Equal(t, 1, c, "%s appears once", name)
	}
	assert.Equal(t, 1, strings.Count(res.stdout, "goos: "))
	assert.NotContains(t, p.config, "beff", "progress lines must not parse as configuration")
}
