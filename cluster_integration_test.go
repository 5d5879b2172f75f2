package beff_test

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
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// The links of the test clusters: tc's rate and the same in MB/s (1e6 B/s).
const (
	linkRate = "1gbit"
	linkMBps = 125.0
)

var clusterScript, _ = filepath.Abs("tools/cluster.sh")

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

// startCluster brings up a cluster of n nodes whose links run at rate, and
// removes it when t ends.
func startCluster(t *testing.T, n int, rate string) *cluster {
	t.Helper()
	requireCluster(t)
	signalOnce.Do(removeOnSignal)
	out, err := exec.Command(clusterScript, "gc").CombinedOutput()
	require.NoError(t, err, "cluster.sh gc: %s", out)
	c := &cluster{id: fmt.Sprintf("t%d%c", os.Getpid(), 'a'+rune(clusterSeq.Add(1)-1)%26), nodes: n}
	cmd := exec.Command(clusterScript, "up", c.id, strconv.Itoa(n), rate)
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

// launchArgs are the launcher flags of p for lib.
func (p placement) launchArgs(lib mpiLib) []string {
	var hosts []string
	for i := 0; i < p.nodes; i++ {
		h := "n" + strconv.Itoa(i)
		if !(lib.name == "mpich" && p.roundRobin) {
			h += ":" + strconv.Itoa(p.ppn)
		}
		hosts = append(hosts, h)
	}
	list := strings.Join(hosts, ",")
	n := strconv.Itoa(p.np())
	if lib.name == "mpich" {
		return []string{"-hosts", list, "-n", n}
	}
	a := []string{"--timeout", strconv.Itoa(mpirunTimeout), "--host", list, "-np", n}
	if p.roundRobin {
		a = append(a, "--map-by", "node")
	}
	return a
}

// command is a job of bin with args placed as p, launched on node n0.
func (c *cluster) command(t *testing.T, lib mpiLib, p placement, bin string, args ...string) *exec.Cmd {
	t.Helper()
	full := append([]string{"mpirun", c.id, "-mpi", lib.name}, p.launchArgs(lib)...)
	cmd := exec.Command(clusterScript, append(append(full, bin), args...)...)
	cmd.Env = append(os.Environ(), "MPIEXEC_TIMEOUT="+strconv.Itoa(mpirunTimeout),
		"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	return cmd
}

// run runs a job placed as p and returns its output.
func (c *cluster) run(t *testing.T, lib mpiLib, p placement, bin string, args ...string) jobResult {
	t.Helper()
	return runJob(t, c.command(t, lib, p, bin, args...))
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
	out, err := exec.Command("go", "run", "./cmd/beff", "fold", "-json", file).Output()
	require.NoError(t, err, "beff fold -json: %s", out)
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

// TestClusterSuites runs b_eff, b_eff_io and SKaMPI in one job on 3 nodes
// with 1 process each and on 2 nodes with 2 each, and folds the output: the
// configuration names the nodes, every suite gives its figures.
func TestClusterSuites(t *testing.T) {
	bin := mpiBinary(t, true)
	lib := testLib(t)
	c := startCluster(t, 3, linkRate)
	all := []string{"-test.run", "^$", "-test.bench", "^(BenchmarkBeff|BenchmarkBeffIO|BenchmarkSkampi)$", "-test.short"}
	for _, p := range []placement{{3, 1, false}, {2, 2, false}} {
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
		})
	}
}
