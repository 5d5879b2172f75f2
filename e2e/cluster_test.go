package e2e

// Tests on an emulated cluster (tools/cluster.sh): nodes are network
// namespaces joined through a bridge by links shaped to a known rate. They
// need root, iproute2 and iperf3, and run with BEFF_CLUSTER_TESTS=1 (make
// cluster-test).
// Every cluster is removed when its test ends, and by a signal handler when
// the test binary is interrupted; `tools/cluster.sh gc` at the start of each
// removes what a killed run left behind.

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/beff-suite/beff/suites/skampi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The links of the test clusters: tc's rate and the same in MB/s (1e6 B/s).
const (
	linkRate = "1gbit"
	linkMBps = 125.0
)

var clusterScript string // tools/cluster.sh, absolute: set by TestMain in the module root

// A cluster is an emulated cluster of a test.
type cluster struct {
	id    string
	nodes int
}

var (
	clusterSeq  atomic.Int64
	clustersMu  sync.Mutex
	liveCluster = map[string]bool{}
	signalOnce  sync.Once
)

// startCluster brings up a cluster of n nodes whose links run at rate (more:
// the leaf switches and the rate of their uplinks, as cluster.sh up takes
// them), and removes it when t ends.
func startCluster(t *testing.T, n int, rate string, more ...string) *cluster {
	t.Helper()
	requireCluster(t)
	signalOnce.Do(removeOnSignal)
	out, err := exec.Command(clusterScript, "gc").CombinedOutput()
	require.NoError(t, err, "cluster.sh gc: %s", out)
	c := &cluster{id: fmt.Sprintf("t%d%c", os.Getpid(), 'a'+rune(clusterSeq.Add(1)-1)%26), nodes: n}
	cmd := exec.Command(clusterScript, append([]string{"up", c.id, strconv.Itoa(n), rate}, more...)...)
	cmd.Env = append(os.Environ(), "BEFF_CLUSTER_OWNER="+strconv.Itoa(os.Getpid()))
	clustersMu.Lock()
	liveCluster[c.id] = true
	clustersMu.Unlock()
	t.Cleanup(c.down)
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "cluster.sh up: %s", out)
	return c
}

func (c *cluster) down() {
	exec.Command(clusterScript, "down", c.id).Run()
	clustersMu.Lock()
	delete(liveCluster, c.id)
	clustersMu.Unlock()
}

// removeOnSignal removes every live cluster when the test binary is
// interrupted or terminated, then exits.
func removeOnSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-ch
		clustersMu.Lock()
		for id := range liveCluster {
			exec.Command(clusterScript, "down", id).Run()
		}
		clustersMu.Unlock()
		fmt.Fprintf(os.Stderr, "cluster tests: %v: clusters removed\n", sig)
		os.Exit(1)
	}()
}

// requireCluster skips a cluster test unless BEFF_CLUSTER_TESTS=1 (make
// cluster-test sets it), and fails it where clusters cannot be built.
func requireCluster(t *testing.T) {
	t.Helper()
	if os.Getenv("BEFF_CLUSTER_TESTS") != "1" {
		t.Skip("the emulated-cluster tests run with BEFF_CLUSTER_TESTS=1 (make cluster-test)")
	}
	if os.Geteuid() != 0 {
		t.Fatal("the emulated cluster needs root (network namespaces, tc)")
	}
	for _, p := range []string{"ip", "tc", "iperf3", "unshare"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Fatalf("the emulated cluster needs %s: make deps-cluster", p)
		}
	}
}

// A placement is how a job's processes sit on the nodes: ppn per node on
// the first nodes nodes, in blocks (ranks 0..ppn-1 on n0) or round-robin
// (rank i on node i mod nodes).
type placement struct {
	nodes, ppn int
	roundRobin bool
}

func (p placement) np() int { return p.nodes * p.ppn }

func (p placement) String() string {
	s := fmt.Sprintf("%dx%d", p.nodes, p.ppn)
	if p.roundRobin {
		s += "-rr"
	}
	return s
}

// hostArgs are the launcher flags that place the processes as p for lib
// (beff launch and beff run give the process count and the timeout).
func (p placement) hostArgs(lib mpiLib) []string {
	var hosts []string
	for i := 0; i < p.nodes; i++ {
		h := "n" + strconv.Itoa(i)
		if !(lib.name == "mpich" && p.roundRobin) {
			h += ":" + strconv.Itoa(p.ppn)
		}
		hosts = append(hosts, h)
	}
	list := strings.Join(hosts, ",")
	if lib.name == "mpich" {
		return []string{"-hosts", list}
	}
	if p.roundRobin {
		return []string{"--host", list, "--map-by", "node"}
	}
	return []string{"--host", list}
}

// command is a job of bin with args placed as p, launched on node n0
// (tools/cluster.sh mpirun: beff launch with the library's launcher).
func (c *cluster) command(t *testing.T, lib mpiLib, p placement, bin string, args ...string) *exec.Cmd {
	t.Helper()
	full := []string{"mpirun", c.id, "-np", strconv.Itoa(p.np()), "-timeout", strconv.Itoa(mpirunTimeout) + "s",
		"-launcher-args", strings.Join(p.hostArgs(lib), " "), "--", bin}
	cmd := exec.Command(clusterScript, append(full, args...)...)
	cmd.Env = append(os.Environ(), "MPIEXEC="+lib.l.Path, "BEFF_CMD="+beffCommand(t))
	return cmd
}

// run runs a job placed as p and returns its output.
func (c *cluster) run(t *testing.T, lib mpiLib, p placement, bin string, args ...string) jobResult {
	t.Helper()
	return runJob(t, c.command(t, lib, p, bin, args...))
}

// tool runs cluster.sh VERB with the cluster's ID and args (shape, slow,
// link: what changes a node's links).
func (c *cluster) tool(t *testing.T, verb string, args ...string) {
	t.Helper()
	out, err := exec.Command(clusterScript, append([]string{verb, c.id}, args...)...).CombinedOutput()
	require.NoError(t, err, "cluster.sh %s %s: %s", verb, args, out)
}

// exec runs a command on a node and returns its combined output.
func (c *cluster) exec(t *testing.T, node string, args ...string) string {
	t.Helper()
	out, err := exec.Command(clusterScript, append([]string{"exec", c.id, node}, args...)...).CombinedOutput()
	require.NoError(t, err, "%s on %s: %s", args, node, out)
	return string(out)
}

// A folded run, as `beff fold -json` gives it: per benchmark, its
// configuration and figures by name.
type foldedRun struct {
	Benchmark string            `json:"benchmark"`
	Config    map[string]string `json:"config"`
	Figures   []struct {
		Name  string  `json:"name"`
		Value float64 `json:"value"`
	} `json:"figures"`
}

func (r foldedRun) figure(t *testing.T, name string) float64 {
	t.Helper()
	for _, f := range r.Figures {
		if f.Name == name {
			return f.Value
		}
	}
	t.Fatalf("%s: no figure %q", r.Benchmark, name)
	return 0
}

// foldRuns folds a job's output with `beff fold -json`.
func foldRuns(t *testing.T, stdout string) map[string]foldedRun {
	t.Helper()
	file := filepath.Join(t.TempDir(), "run.txt")
	require.NoError(t, os.WriteFile(file, []byte(stdout), 0o644))
	out, err := output(exec.Command(beffCommand(t), "fold", "-json", file))
	require.NoError(t, err, "beff fold -json\nthe output folded:\n%s", stdout)
	var doc struct {
		Files []struct {
			Runs []foldedRun `json:"runs"`
		} `json:"files"`
	}
	require.NoError(t, json.Unmarshal(out, &doc))
	runs := map[string]foldedRun{}
	for _, f := range doc.Files {
		for _, r := range f.Runs {
			runs[r.Benchmark] = r
		}
	}
	return runs
}

// TestClusterSuites runs b_eff, b_eff_io and SKaMPI in one job on 2 and 3
// nodes with 1 process each and on 2 nodes with 2 each, and folds the
// output: the configuration names the nodes, every suite gives its figures.
func TestClusterSuites(t *testing.T) {
	bin := mpiBinary(t, true)
	lib := testLib(t)
	c := startCluster(t, 3, linkRate)
	all := []string{"-test.run", "^$", "-test.bench", "^(BenchmarkBeff|BenchmarkBeffIO|BenchmarkSkampi)$", "-test.short"}
	for _, p := range []placement{{2, 1, false}, {3, 1, false}, {2, 2, false}} {
		t.Run(p.String(), func(t *testing.T) {
			res := c.run(t, lib, p, bin, all...)
			require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
			runs := foldRuns(t, res.stdout)
			var hosts []string
			for i := 0; i < p.nodes; i++ {
				hosts = append(hosts, fmt.Sprintf("n%d (%d)", i, p.ppn))
			}
			for _, b := range []string{"b_eff", "b_eff_io", "SKaMPI"} {
				r, ok := runs[b]
				require.True(t, ok, "%s folded; runs: %v", b, runs)
				require.Equal(t, strings.Join(hosts, ", "), r.Config["mpi-hosts"], b)
				require.NotEmpty(t, r.Figures, b)
			}
			require.Greater(t, runs["b_eff"].figure(t, "beff"), 0.0)
			require.Greater(t, runs["b_eff_io"].figure(t, "beffio"), 0.0)
			if p.ppn > 1 {
				checkPairs(t, lib, runs["SKaMPI"].Config, func() map[string]string {
					res := c.run(t, lib, p, bin, "-test.run", "^$", "-test.bench", "^BenchmarkSkampi$", "-test.short", "-skampi.ops", "wtime")
					require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
					return foldRuns(t, res.stdout)["SKaMPI"].Config
				})
			}
			// A library that cannot make one-sided windows across the
			// nodes leaves those suites out and says why.
			if why, ok := runs["SKaMPI"].Config[skampi.KeyRMA]; ok {
				t.Logf("%s: %s", lib.name, why)
				assert.Contains(t, why, "not measured: ")
			}
		})
	}
}

// checkPairs: SKaMPI's pair with the largest round trip crosses nodes, the
// one with the smallest does not (configuration lines "A B hostA hostB
// round-trip-µs"). The nodes share the machine's 2 cores: a load that
// outlasts the search's re-timing of the slowest pair (a noisy neighbour
// of the CI machine) can make a pair in shared memory the slowest, so a
// job that gets them wrong is followed by up to two short SKaMPI jobs
// (again), and one of them must get them right. Which pair the search
// picks from given round trips is tested without MPI (TestPairSearch*).
func checkPairs(t *testing.T, lib mpiLib, config map[string]string, again func() map[string]string) {
	t.Helper()
	for try := 1; ; try++ {
		max := strings.Fields(config[skampi.KeyPairMax])
		min := strings.Fields(config[skampi.KeyPairMin])
		require.Len(t, max, 5, skampi.KeyPairMax)
		require.Len(t, min, 5, skampi.KeyPairMin)
		t.Logf("%s: SKaMPI pairs (job %d): max %v, min %v; %s", lib.name, try, max, min, config[skampi.KeyPairs])
		right := max[2] != max[3] && min[2] == min[3]
		if right || try == 3 {
			assert.NotEqual(t, max[2], max[3], "the slowest pair crosses nodes")
			assert.Equal(t, min[2], min[3], "the fastest pair shares a node")
			return
		}
		config = again()
	}
}

// iperf3 measures a plain TCP stream from n0 to n1 for 3 s, in MB/s
// received.
func (c *cluster) iperf3(t *testing.T) float64 {
	t.Helper()
	c.exec(t, "n1", "iperf3", "-s", "-1", "-D")
	var out []byte
	var err error
	for try := 0; try < 20; try++ { // until the server listens
		out, err = output(exec.Command(clusterScript, "exec", c.id, "n0", "iperf3", "-c", "n1", "-t", "3", "-J"))
		if err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	require.NoError(t, err, "iperf3: %s", out)
	var r struct {
		End struct {
			SumReceived struct {
				BitsPerSecond float64 `json:"bits_per_second"`
			} `json:"sum_received"`
		} `json:"end"`
	}
	require.NoError(t, json.Unmarshal(out, &r))
	return r.End.SumReceived.BitsPerSecond / 8 / 1e6
}

// TestClusterLink checks b_eff's ping-pong bandwidth at Lmax = 4 MiB across
// one link against iperf3 over the same link, run just before and just
// after: within 10% of their mean, and at least 70% of the link's rate.
// Lmax is large against the token bucket (125 kB, 1 ms at the rate), which
// lets short messages pass faster than the rate.
func TestClusterLink(t *testing.T) {
	bin := mpiBinary(t, true)
	lib := testLib(t)
	c := startCluster(t, 2, linkRate)
	before := c.iperf3(t)
	res := c.run(t, lib, placement{2, 1, false}, bin, "-test.run", "^$", "-test.bench", "^BenchmarkBeff$",
		"-beff.patterns=pingpong", "-beff.lmax=4194304")
	after := c.iperf3(t)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	pp := parse(t, res.stdout).mbs["pat=pingpong/L=4194304/mthd=sendrecv"]
	// the better run is the link's TCP rate: a worse one was disturbed
	// (iperf3 shares the two cores with everything else)
	tcp := max(before, after)
	t.Logf("%s: link %s = %.1f MB/s; iperf3 %.1f and %.1f MB/s; b_eff ping-pong at Lmax %.1f MB/s = %.1f%% of the rate, %.1f%% of iperf3",
		lib.name, linkRate, linkMBps, before, after, pp, 100*pp/linkMBps, 100*pp/tcp)
	assert.GreaterOrEqual(t, pp, 0.7*linkMBps, "ping-pong reaches 70%% of the link's rate")
	assert.InEpsilon(t, tcp, pp, 0.10, "ping-pong within 10%% of iperf3's better run")
}

// TestClusterPlacement runs b_eff on 2 nodes with 2 processes each, ranks
// placed in blocks (0,1 on n0) and round-robin (0,2 on n0), and checks
// that the rings are faster in blocks (placementRatios).
func TestClusterPlacement(t *testing.T) {
	bin := mpiBinary(t, true)
	lib := testLib(t)
	c := startCluster(t, 2, linkRate)
	args := []string{"-test.run", "^$", "-test.bench", "^BenchmarkBeff$", "-test.short", "-beff.lmax=1048576"}
	best := map[string]map[string]float64{"blocks": {}, "round-robin": {}}
	for round := 0; round < 2; round++ {
		for _, order := range []string{"blocks", "round-robin"} {
			p := placement{2, 2, order == "round-robin"}
			res := c.run(t, lib, p, bin, args...)
			require.Equal(t, 0, res.code, "%s: stderr:\n%s", p, res.stderr)
			keepBetter(t, best[order], foldRuns(t, res.stdout)["b_eff"])
		}
	}
	assertPlacement(t, lib.name, best, "blocks", "round-robin")
}

// placementRatios are the least ratios of b_eff's figures with ranks in
// blocks (ranks 0,1 on the first node) to those with ranks round-robin
// (0,2), 2 processes on each of 2 nodes. In blocks half the neighbours of
// the ring patterns share a node, round-robin none do, so the rings at
// Lmax, bound by the links, are about twice as fast in blocks (2.3-3.0
// measured, 1.66 in the worst CI run). b_eff itself is only logged: it
// mixes in the random patterns, which placement does not change on
// average, and its share in memory depends on how busy the two cores are
// (1.39 on a quiet machine, 1.11 and 0.78 in loaded CI runs), so no
// ordering of it holds on a shared runner.
var placementRatios = map[string]float64{"beff-lmax-rings-per-proc": 1.5}

// placementLogged are the figures the placement tests print beside the
// ones they check.
var placementLogged = []string{"beff"}

// keepBetter keeps in best the better of its figure and run's, for each
// figure of placementRatios and placementLogged: the tests take the better
// of two interleaved rounds, as 4 processes share 2 cores.
func keepBetter(t *testing.T, best map[string]float64, run foldedRun) {
	t.Helper()
	for _, f := range append(slices.Collect(maps.Keys(placementRatios)), placementLogged...) {
		best[f] = max(best[f], run.figure(t, f))
	}
}

// assertPlacement logs the better figures of two placements, blocks and
// spread, and checks those of placementRatios.
func assertPlacement(t *testing.T, lib string, best map[string]map[string]float64, blocks, spread string) {
	t.Helper()
	for _, f := range slices.Sorted(maps.Keys(best[blocks])) {
		b, s := best[blocks][f], best[spread][f]
		t.Logf("%s: %s: %s %.1f MB/s, %s %.1f MB/s, ratio %.2f (better of 2 runs each)", lib, f, blocks, b, spread, s, b/s)
		if least, ok := placementRatios[f]; ok {
			assert.Greater(t, b, least*s, "%s: %s above %.1f × %s", f, blocks, least, spread)
		}
	}
}

// A liveJob is a job under way whose stderr the test watches.
type liveJob struct {
	cmd  *exec.Cmd
	errb lockedBuilder
	out  lockedBuilder // stdout, unless the command sends it elsewhere
	done chan struct{}
	code int
}

// lockedBuilder is a strings.Builder that goroutines may write at once.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (j *liveJob) stderr() string { return j.errb.String() }

func startJob(t *testing.T, cmd *exec.Cmd) *liveJob {
	t.Helper()
	j := &liveJob{cmd: cmd, done: make(chan struct{})}
	cmd.Stderr = &j.errb
	if cmd.Stdout == nil {
		cmd.Stdout = &j.out
	}
	require.NoError(t, cmd.Start())
	go func() {
		err := cmd.Wait()
		j.code = 0
		if ee, ok := err.(*exec.ExitError); ok {
			j.code = ee.ExitCode()
		} else if err != nil {
			j.code = -1
		}
		close(j.done)
	}()
	t.Cleanup(func() {
		select {
		case <-j.done:
		default:
			cmd.Process.Kill()
		}
	})
	return j
}

// waitFor waits until stderr holds marker; the job must not end before.
func (j *liveJob) waitFor(t *testing.T, marker string) {
	t.Helper()
	for !strings.Contains(j.stderr(), marker) {
		select {
		case <-j.done:
			t.Fatalf("the job ended (exit %d) before %q; stderr:\n%s", j.code, marker, j.stderr())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// wait waits for the end of the job, at most limit (then it fails the test,
// which kills the job), and returns how long it took from since.
func (j *liveJob) wait(t *testing.T, since time.Time, limit time.Duration) time.Duration {
	t.Helper()
	select {
	case <-j.done:
		return time.Since(since)
	case <-time.After(limit):
		t.Fatalf("the job has not ended %v after the fault; stderr:\n%s", limit, j.stderr())
		return 0
	}
}

// benchCommand is beff run on the cluster, placed as p, storing into
// results.
func (c *cluster) benchCommand(t *testing.T, lib mpiLib, p placement, bin, bench, results string, args ...string) *exec.Cmd {
	t.Helper()
	out, err := exec.Command(clusterScript, "launch-env", c.id, lib.l.Path).Output()
	require.NoError(t, err)
	flags := []string{"run", "-np", strconv.Itoa(p.np()), "-launcher-args", strings.Join(p.hostArgs(lib), " "),
		"-bin", bin, "-bench", bench, "-results", results, "-timeout", "300s", "--"}
	cmd := exec.Command(beffCommand(t), append(flags, args...)...)
	cmd.Env = append(os.Environ(), strings.Split(strings.TrimSpace(string(out)), "\n")...)
	return cmd
}

// kill9 kills the process of rank on node with SIGKILL.
func (c *cluster) kill9(t *testing.T, lib mpiLib, bin, node string, rank int) {
	t.Helper()
	out, err := exec.Command("ip", "netns", "pids", "beff-"+c.id+"-"+node).Output()
	require.NoError(t, err)
	for _, f := range strings.Fields(string(out)) {
		cmdline, _ := os.ReadFile("/proc/" + f + "/cmdline")
		env, _ := os.ReadFile("/proc/" + f + "/environ")
		if strings.HasPrefix(string(cmdline), bin+"\x00") && lib.rankOf(string(env), rank) {
			pid, _ := strconv.Atoi(f)
			require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
			return
		}
	}
	t.Fatalf("no process of rank %d on %s", rank, node)
}

// TestClusterKill kills rank 1 (node n1) with SIGKILL in the middle of each
// suite run by beff run: the job ends within 30 s, non-zero, with a
// message that names rank 1; no results file is stored, what was measured
// is kept under results/partial/, marked with why the job ended.
func TestClusterKill(t *testing.T) {
	bin := mpiBinary(t, true)
	lib := testLib(t)
	c := startCluster(t, 2, linkRate)
	for _, s := range []struct{ bench, marker string }{
		{"^BenchmarkBeff$", "[beff] b_eff on"},
		{"^BenchmarkBeffIO$", "[beff] b_eff_io on"},
		{"^BenchmarkSkampi$", "[beff] SKaMPI on"},
	} {
		t.Run(strings.Trim(s.bench, "^$"), func(t *testing.T) {
			results := t.TempDir()
			j := startJob(t, c.benchCommand(t, lib, placement{2, 1, false}, bin, s.bench, results, "-test.short"))
			j.waitFor(t, s.marker)
			time.Sleep(500 * time.Millisecond)
			c.kill9(t, lib, bin, "n1", 1)
			took := j.wait(t, time.Now(), 60*time.Second)
			t.Logf("%s: %s: the job ended %.1f s after the kill, exit %d", lib.name, s.bench, took.Seconds(), j.code)
			assert.Less(t, took, 30*time.Second)
			assert.NotEqual(t, 0, j.code)
			assert.Regexp(t, `lost rank 1 \(on n1\)|process rank 1 with PID \d+ on node n1|reports a bad end of rank 1 on n1`, j.stderr())
			checkKept(t, results, "a process was lost")
			assert.Equal(t, 11, j.code, "the exit code of a lost process")
			if dir := regexp.MustCompile(`b_eff_io on .*, dir (\S+)`).FindStringSubmatch(j.stderr()); dir != nil {
				assert.NoDirExists(t, dir[1], "no scratch files left")
			}
		})
	}
}

// TestClusterLinkDown takes node n1's link down in the middle of b_eff_io:
// the job ends within 60 s (the watchdog on every rank, bounded here by
// -beffio.watchdog=25s, above the 15 s the partition of rank 0 alone takes;
// under Open MPI its daemons' keepalive comes first), a message names the
// measurement in progress (a type of partition 1, or on the process
// outside it, the partition it waits for), and the scratch directory is
// gone.
func TestClusterLinkDown(t *testing.T) {
	bin := mpiBinary(t, true)
	lib := testLib(t)
	c := startCluster(t, 2, linkRate)
	j := startJob(t, c.command(t, lib, placement{2, 1, false}, bin, append(quickIO, "-beffio.T=30", "-beffio.watchdog=25s")...))
	j.waitFor(t, "[beff] b_eff_io on")
	dir := regexp.MustCompile(`dir (\S+)`).FindStringSubmatch(j.stderr())
	require.NotNil(t, dir, "the log names the scratch directory")
	time.Sleep(time.Second)
	out, err := exec.Command(clusterScript, "link", c.id, "n1", "down").CombinedOutput()
	require.NoError(t, err, "%s", out)
	took := j.wait(t, time.Now(), 90*time.Second)
	t.Logf("%s: link down: the job ended %.1f s later, exit %d; stderr:\n%s", lib.name, took.Seconds(), j.code, tail(j.stderr(), 12))
	assert.Less(t, took, 60*time.Second)
	assert.NotEqual(t, 0, j.code)
	assert.Regexp(t, `(watchdog: |terminated \(\w+\) during ).*b_eff_io partition \d+, \w+(, type \w+| \(waiting outside it\))`, j.stderr())
	for try := 0; try < 50 && dirExists(dir[1]); try++ { // a process may still be on its way out
		time.Sleep(100 * time.Millisecond)
	}
	assert.NoDirExists(t, dir[1], "the scratch directory is removed")
}

// TestClusterUnreachable starts beff run on a node that does not answer:
// the launcher's error reaches the user as it wrote it, the exit is
// non-zero and nothing is left in the results folder. Open MPI ends at
// once; MPICH's hydra waits for the node for ever (MPICH issue 1620), and
// beff run's guard ends it 10 s after its timeout, here 15 s.
func TestClusterUnreachable(t *testing.T) {
	bin := mpiBinary(t, true)
	lib := testLib(t)
	c := startCluster(t, 2, linkRate)
	results := t.TempDir()
	cmd := c.benchCommand(t, lib, placement{2, 1, false}, bin, "^BenchmarkBeff$", results, "-test.short")
	for i, a := range cmd.Args {
		switch {
		case strings.Contains(a, "n1"):
			cmd.Args[i] = strings.Replace(a, "n1", "n7", 1)
		case a == "300s":
			cmd.Args[i] = "15s"
		}
	}
	j := startJob(t, cmd)
	took := j.wait(t, time.Now(), 60*time.Second)
	t.Logf("%s: unreachable node: exit %d after %.1f s; stderr:\n%s", lib.name, j.code, took.Seconds(), tail(j.stderr(), 12))
	assert.NotEqual(t, 0, j.code)
	assert.Contains(t, j.stderr(), "ssh: connect to host n7 port 22: No route to host")
	left, _ := os.ReadDir(results)
	assert.Empty(t, left)
}

func dirExists(d string) bool {
	_, err := os.Stat(d)
	return err == nil
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}

// TestClusterCongestion: on 6 nodes under 2 leaf switches whose uplinks
// to the spine are a tenth of the nodes' links, an all-to-all of 64 KiB
// among 4 nodes (2 on each leaf) loads the spine. Canaries whose ring
// crosses the spine (n0, n3) see their latency grow far more than
// canaries within one leaf (n0, n1), whose latency and ring bandwidth it
// leaves about alone. The test asserts the order, not the times. The
// emulated nodes share the machine's cores: the canaries get a core of
// their own (pinByRole), or the congestors, which poll, would slow every
// canary by taking its core.
func TestClusterCongestion(t *testing.T) {
	bin := mpiBinary(t, true)
	lib := testLib(t)
	c := startCluster(t, 6, "200mbit", "2", "20mbit")
	args := []string{"-test.run", "^$", "-test.bench", "^BenchmarkCongestion$", "-congestion.time=0.3", "-congestion.reps=2",
		"-congestion.bw-len=16384", "-congestion.congestors=alltoall", "-congestion.seed=1", "-congestion.len=65536"}
	fig := map[string]foldedRun{}
	for _, where := range []string{"n0,n3", "n0,n1"} {
		res := c.run(t, lib, placement{6, 1, false}, pinByRole(t, where), append([]string{bin}, append(args, "-congestion.canary-nodes="+where)...)...)
		require.Equal(t, 0, res.code, "canaries on %s: stderr:\n%s", where, res.stderr)
		fig[where] = foldRuns(t, res.stdout)["congestion"]
		assert.Equal(t, "list", fig[where].Config["congestion-split"])
	}
	across, leaf := fig["n0,n3"], fig["n0,n1"]
	latAcross, latLeaf := across.figure(t, "cif-rr-lat"), leaf.figure(t, "cif-rr-lat")
	t.Logf("%s: CIF rr-lat across the spine %.2f, within a leaf %.2f; rr-bw %.2f and %.2f; allreduce %.2f and %.2f", lib.name,
		latAcross, latLeaf, across.figure(t, "cif-rr-bw"), leaf.figure(t, "cif-rr-bw"),
		across.figure(t, "cif-allreduce"), leaf.figure(t, "cif-allreduce"))
	assert.Less(t, latLeaf, 2.0, "the ring within a leaf: the load is elsewhere")
	assert.Greater(t, latAcross, 2*latLeaf, "across the spine against within a leaf")
	assert.Greater(t, across.figure(t, "cif-allreduce"), leaf.figure(t, "cif-allreduce"))
	assert.InDelta(t, 1, leaf.figure(t, "cif-rr-bw"), 0.3, "the ring bandwidth within a leaf: the load is elsewhere")
}

// pinByRole returns a script that runs its arguments (the program and
// its own) on one core on the nodes named in canaries (comma-separated)
// and on the other cores this test may use elsewhere, as on a cluster, where no congestor takes a canary's core:
// the emulated nodes share this machine's cores, and a polling congestor
// beside a canary would make the canary's time that of the scheduler (a
// canary within a leaf measured 40 times slower under load when one core
// was busy with something else). The canaries' core is the same alone and
// under load. With a single core, the script runs them as they are.
func pinByRole(t *testing.T, canaries string) string {
	t.Helper()
	cores := allowedCores(t)
	script := "#!/bin/sh\nexec \"$@\"\n"
	if len(cores) >= 2 {
		script = fmt.Sprintf(`#!/bin/sh
case ",%s," in
*,"$(hostname)",*) cores=%s ;;
*) cores=%s ;;
esac
exec taskset -c "$cores" "$@"
`, canaries, cores[0], strings.Join(cores[1:], ","))
	}
	path := filepath.Join(t.TempDir(), "pinned")
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path
}

// allowedCores lists the cores this process may run on
// (Cpus_allowed_list of /proc/self/status, e.g. 0-3,6).
func allowedCores(t *testing.T) []string {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^Cpus_allowed_list:\s*(\S+)$`).FindSubmatch(status)
	require.NotNil(t, m, "no Cpus_allowed_list in /proc/self/status")
	var cores []string
	for _, r := range strings.Split(string(m[1]), ",") {
		lo, hi, _ := strings.Cut(r, "-")
		first, err := strconv.Atoi(lo)
		require.NoError(t, err, "Cpus_allowed_list %s", m[1])
		last := first
		if hi != "" {
			last, err = strconv.Atoi(hi)
			require.NoError(t, err, "Cpus_allowed_list %s", m[1])
		}
		for c := first; c <= last; c++ {
			cores = append(cores, strconv.Itoa(c))
		}
	}
	return cores
}
