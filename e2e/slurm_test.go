package e2e

// Tests under Slurm on an emulated cluster (tools/cluster.sh slurm): three
// nodes, n0 and n1 on leaf switch leaf0, n2 on leaf1, the leaves joined by a
// spine through slower uplinks; slurmctld on the hub, a slurmd per node.
// They need what the cluster tests need and Debian's Slurm and munge, and
// run with BEFF_SLURM_TESTS=1 (make slurm-test). Every job goes through
// beff run or tools/beff.sbatch, as a centre would run it.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/skampi"
)

// The spine's uplinks: slower than the nodes' links.
const uplinkRate = "200mbit"

// requireSlurm skips a Slurm test unless BEFF_SLURM_TESTS=1, and fails it
// where Slurm is missing.
func requireSlurm(t *testing.T) {
	t.Helper()
	if os.Getenv("BEFF_SLURM_TESTS") != "1" {
		t.Skip("the Slurm tests run with BEFF_SLURM_TESTS=1 (make slurm-test)")
	}
	t.Setenv("BEFF_CLUSTER_TESTS", "1")
	for _, p := range []string{"slurmctld", "slurmd", "srun", "sbatch", "munged", "nsenter"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Fatalf("the Slurm tests need %s: make deps-slurm", p)
		}
	}
}

// startSlurm brings up the three nodes under two leaf switches and Slurm on
// them, 2 CPUs per node; both are removed when t ends.
func startSlurm(t *testing.T) *cluster {
	t.Helper()
	requireSlurm(t)
	c := startCluster(t, 3, linkRate, "2", uplinkRate)
	cmd := exec.Command(clusterScript, "slurm", "up", c.id)
	cmd.Env = append(os.Environ(), "BEFF_SLURM_CPUS=2")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "cluster.sh slurm up: %s", out)
	t.Logf("Slurm up in %.2f s", time.Since(start).Seconds())
	return c
}

// slurmEnv is the environment of beff run and the batch script under
// Slurm: the nodes share the cores, so waiting processes yield them
// (MPICH through tools/mpich-yield.c; Open MPI through the nodes'
// OMPI_MCA_mpi_yield_when_idle).
func slurmEnv(t *testing.T, results string, args ...string) []string {
	return append(os.Environ(), "BEFF_LAUNCH_YIELD=1", "BEFF_RESULTS="+results, "BEFF_BIN="+mpiBinary(t, true),
		"BEFF_CMD="+beffCommand(t), "ARGS="+strings.Join(args, " "))
}

// salloc is beff run in an allocation made with alloc, from node n0.
func (c *cluster) salloc(t *testing.T, alloc []string, bench, results string, srunArgs []string, args ...string) *exec.Cmd {
	full := append([]string{"-k", "5", "400", clusterScript, "exec", c.id, "n0", "salloc"}, alloc...)
	full = append(full, beffCommand(t), "run", "-bin", mpiBinary(t, true), "-bench", bench, "-results", results, "-timeout", "300s",
		"-launcher-args", strings.Join(srunArgs, " "), "--")
	cmd := exec.Command("timeout", append(full, args...)...)
	cmd.Env = slurmEnv(t, results)
	return cmd
}

// stored is the one results file of a results folder, folded.
func stored(t *testing.T, results string) (string, map[string]foldedRun) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(results, "*.txt"))
	require.Len(t, files, 1, "one results file in %s", results)
	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	return files[0], foldRuns(t, string(data))
}

// TestSlurmSuites runs the three suites through salloc and beff run on one
// CPU of each node (NP from the allocation): srun launches them, the
// results file is stored and folds, and its configuration names the Slurm
// job, its nodes, the topology and the rank order.
func TestSlurmSuites(t *testing.T) {
	c := startSlurm(t)
	lib := testLib(t)
	results := t.TempDir()
	res := runJob(t, c.salloc(t, []string{"-N3"}, "^(BenchmarkBeff|BenchmarkBeffIO|BenchmarkSkampi)$", results, nil, "-test.short"))
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	pmi := map[string]string{"openmpi": "pmix", "mpich": "pmi2"}[lib.name]
	assert.Regexp(t, `beff run: .*srun -n 3 --mpi=`+pmi+` `, res.stderr, "srun over the allocation, a process per allocated CPU")
	_, runs := stored(t, results)
	for _, b := range []string{"b_eff", "b_eff_io", "SKaMPI"} {
		r, ok := runs[b]
		require.True(t, ok, "%s folded", b)
		assert.Regexp(t, `^\d+$`, r.Config["slurm-job"], b)
		assert.Equal(t, "beff"+c.id, r.Config["slurm-cluster"], b)
		assert.Equal(t, "beff", r.Config["slurm-partition"], b)
		assert.Equal(t, "n[0-2]", r.Config["slurm-nodes"], b)
		assert.Equal(t, "1(x3)", r.Config["slurm-tasks-per-node"], b)
		assert.Equal(t, "spine.leaf0.n0 (1), spine.leaf0.n1 (1), spine.leaf1.n2 (1)", r.Config["slurm-topology"], b)
		assert.Equal(t, "n0 (1), n1 (1), n2 (1)", r.Config["mpi-hosts"], b)
		assert.NotEmpty(t, r.Figures, b)
	}
	assert.Greater(t, runs["b_eff"].figure(t, "beff"), 0.0)
	assert.Greater(t, runs["b_eff_io"].figure(t, "beffio"), 0.0)
}

// TestSlurmMemory: the memory per CPU given to the allocation is the memory
// per process b_eff decides Lmax from (Lmax = M/128: 64 MiB, 512 KiB), a
// job of srun with the ping-pong alone.
func TestSlurmMemory(t *testing.T) {
	c := startSlurm(t)
	lib := testLib(t)
	pmi := map[string]string{"openmpi": "pmix", "mpich": "pmi2"}[lib.name]
	cmd := exec.Command("timeout", "-k", "5", "300", clusterScript, "exec", c.id, "n0", "salloc", "-N2", "--mem-per-cpu=64",
		"srun", "--mpi="+pmi, mpiBinary(t, true), "-test.run", "^$", "-test.bench", "^BenchmarkBeff$", "-beff.patterns=pingpong")
	cmd.Env = slurmEnv(t, "")
	res := runJob(t, cmd)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	assert.Contains(t, res.stdout, "\nslurm-mem: 64 MiB per CPU\n")
	assert.Contains(t, res.stdout, "\nbeff-mem-per-proc-mib: 64\n")
	assert.Contains(t, res.stdout, "\nbeff-lmax: 524288\n")
}

// TestSlurmBatch submits tools/beff.sbatch with sbatch --wait on three
// nodes, a task each: the job stores two results files (b_eff with
// b_eff_io, and SKaMPI) and its output says each step.
func TestSlurmBatch(t *testing.T) {
	c := startSlurm(t)
	results := t.TempDir()
	out := filepath.Join(t.TempDir(), "job.out")
	cmd := exec.Command("timeout", "-k", "5", "600", clusterScript, "exec", c.id, "n0",
		"sbatch", "--wait", "-N3", "--ntasks-per-node=1", "-o", out, "tools/beff.sbatch")
	cmd.Env = slurmEnv(t, results, "-test.short")
	res := runJob(t, cmd)
	log, _ := os.ReadFile(out)
	require.Equal(t, 0, res.code, "sbatch: %s\njob output:\n%s", res.stderr, log)
	files, _ := filepath.Glob(filepath.Join(results, "*.txt"))
	require.Len(t, files, 2, "b_eff with b_eff_io, and SKaMPI; job output:\n%s", log)
	assert.Regexp(t, `(?s)beff.sbatch: job \d+ on n\[0-2\].*beff run: stored .*np3.*beff run: stored .*np3.*beff.sbatch: done`, string(log))
	suites := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for b := range foldRuns(t, string(data)) {
			suites[b] = true
		}
	}
	assert.Equal(t, map[string]bool{"b_eff": true, "b_eff_io": true, "SKaMPI": true}, suites)
}

// TestSlurmPlacement runs b_eff on two nodes with two tasks each, placed by
// srun --distribution=block (ranks 0,1 on n0) and cyclic (0,2 on n0), and
// checks that the rings are faster in block (placementRatios).
func TestSlurmPlacement(t *testing.T) {
	c := startSlurm(t)
	lib := testLib(t)
	best := map[string]map[string]float64{"block": {}, "cyclic": {}}
	for round := 0; round < 2; round++ {
		for _, dist := range []string{"block", "cyclic"} {
			results := t.TempDir()
			res := runJob(t, c.salloc(t, []string{"-N2", "--ntasks-per-node=2"}, "^BenchmarkBeff$", results,
				[]string{"--distribution=" + dist}, "-test.short", "-beff.lmax=1048576"))
			require.Equal(t, 0, res.code, "%s: stderr:\n%s", dist, res.stderr)
			_, runs := stored(t, results)
			run := runs["b_eff"]
			assert.Equal(t, dist, run.Config["slurm-distribution"])
			assert.True(t, strings.HasPrefix(run.Config["mpi-rank-order"], dist), "%s: %s", dist, run.Config["mpi-rank-order"])
			// ring2's neighbours share a node in blocks, in no case cyclic
			ring2 := strings.SplitN(run.Config["beff-ring-paths"], ";", 2)[0]
			if dist == "block" {
				assert.Equal(t, "ring2 node=4", ring2)
			} else {
				assert.NotContains(t, ring2, "node=")
			}
			keepBetter(t, best[dist], run)
		}
	}
	assertPlacement(t, lib.name+" under srun", best, "block", "cyclic")
}

// batchJob submits tools/beff.sbatch without waiting and returns its job id
// and the path of its output.
func (c *cluster) batchJob(t *testing.T, results string, args ...string) (string, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "job.out")
	cmd := exec.Command(clusterScript, "exec", c.id, "n0", "sbatch", "--parsable", "-N3", "--ntasks-per-node=1", "-o", out, "tools/beff.sbatch")
	cmd.Env = slurmEnv(t, results, args...)
	id, err := cmd.Output()
	require.NoError(t, err, "sbatch")
	return strings.TrimSpace(string(id)), out
}

// waitOutput waits until the file holds marker, at most limit.
func waitOutput(t *testing.T, file, marker string, limit time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		data, _ := os.ReadFile(file)
		if strings.Contains(string(data), marker) {
			return string(data)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q not in %s after %v:\n%s", marker, file, limit, data)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// jobGone waits until squeue no longer lists job id, at most limit, and
// returns how long that took from since.
func (c *cluster) jobGone(t *testing.T, id string, since time.Time, limit time.Duration) time.Duration {
	t.Helper()
	for time.Since(since) < limit {
		out, err := exec.Command(clusterScript, "exec", c.id, "n0", "squeue", "-h", "-j", id, "-o", "%T").Output()
		if err != nil || strings.TrimSpace(string(out)) == "" || strings.Contains(string(out), "COMPLET") {
			return time.Since(since)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("job %s still listed %v after the fault", id, limit)
	return 0
}

// scratchGone checks that b_eff_io's directory, as the output names it, is
// removed (its processes may be on their way out).
func scratchGone(t *testing.T, output string) {
	t.Helper()
	dir := regexp.MustCompile(`b_eff_io on .*, dir (\S+)`).FindStringSubmatch(output)
	require.NotNil(t, dir, "the output names b_eff_io's directory")
	for try := 0; try < 100 && dirExists(dir[1]); try++ {
		time.Sleep(100 * time.Millisecond)
	}
	assert.NoDirExists(t, dir[1], "b_eff_io's scratch files are removed")
}

// TestSlurmCancel: scancel of the batch job in the middle of b_eff_io ends
// it within 60 s; the output says why, what was measured is kept under
// results/partial/, and b_eff_io's scratch files are removed.
func TestSlurmCancel(t *testing.T) {
	c := startSlurm(t)
	lib := testLib(t)
	results := t.TempDir()
	id, out := c.batchJob(t, results, "-test.short", "-beffio.T=60")
	waitOutput(t, out, "[beff] b_eff_io on", 120*time.Second)
	time.Sleep(time.Second)
	start := time.Now()
	require.NoError(t, exec.Command(clusterScript, "exec", c.id, "n0", "scancel", id).Run())
	took := c.jobGone(t, id, start, 90*time.Second)
	log := waitOutput(t, out, "beff run: kept", 10*time.Second)
	t.Logf("%s: scancel: the job ended %.1f s later; output:\n%s", lib.name, took.Seconds(), tail(log, 8))
	assert.Less(t, took, 60*time.Second)
	assert.Regexp(t, `beff run: terminated by SIG(TERM|CONT)|terminated \(SIGTERM\)`, log)
	checkKept(t, results, "terminated")
	scratchGone(t, log)
}

// TestSlurmNodeKill: node n2 dies (its slurmd and every process it started
// killed) in the middle of b_eff_io run by beff run in an allocation: the
// job ends within 60 s with a message, exit 11 (a lost process), what was
// measured is kept and the scratch files are removed.
func TestSlurmNodeKill(t *testing.T) {
	c := startSlurm(t)
	lib := testLib(t)
	results := t.TempDir()
	j := startJob(t, c.salloc(t, []string{"-N3"}, "^BenchmarkBeffIO$", results, nil, "-test.short", "-beffio.T=60"))
	j.waitFor(t, "[beff] b_eff_io on")
	time.Sleep(time.Second)
	start := time.Now()
	out, err := exec.Command(clusterScript, "slurm", "kill", c.id, "n2").CombinedOutput()
	require.NoError(t, err, "%s", out)
	took := j.wait(t, start, 90*time.Second)
	t.Logf("%s: node killed: the job ended %.1f s later, exit %d; stderr:\n%s", lib.name, took.Seconds(), j.code, tail(j.stderr(), 10))
	assert.Less(t, took, 60*time.Second)
	assert.Equal(t, 11, j.code, "the exit code of a lost process")
	checkKept(t, results, "a process was lost")
	scratchGone(t, j.stderr())
}

// loadUplinks keeps TCP streams across the spine in both directions
// until the test ends, as an oversubscribed uplink has: four from n0 to n2
// fill the queue of leaf0's uplink towards the spine, four from n2 to n1
// the spine's queue towards leaf0, so that every round trip between the
// leaves waits in two queues. (The token buckets alone pass a 1-byte
// message at once, whatever their rate: without a load, crossing the
// spine costs no time a round trip shows. The streams of one direction
// back off together now and then and drain their queue for a moment; two
// loaded directions rarely drain at once.)
func (c *cluster) loadUplinks(t *testing.T) {
	t.Helper()
	c.iperfLoad(t, "n0", "5201")
	c.iperfLoad(t, "n1", "5202", "-R")
}

// iperfLoad runs an iperf3 server on n2 at port and four streams from
// client to it (-R: from it to client) until the test ends. Both ends run
// at the highest priority (nice -20): the six processes of a job share the
// machine's 2 cores with them, and an iperf3 kept off a core for longer
// than its queue holds (20 ms) lets the queue run empty, so that a round
// trip across the spine passes without waiting.
func (c *cluster) iperfLoad(t *testing.T, client, port string, more ...string) {
	t.Helper()
	log := filepath.Join(t.TempDir(), "iperf3.log")
	c.background(t, log+".server", "n2", "nice", "-n", "-20", "iperf3", "-s", "-1", "-p", port)
	for try := 0; ; try++ { // until the server listens
		stop := c.background(t, log, client, append([]string{"nice", "-n", "-20", "iperf3", "-c", "n2", "-p", port, "-P", "4", "-t", "600", "--forceflush"}, more...)...)
		var out []byte
		for wait := 0; wait < 50; wait++ { // its first report comes after a second
			time.Sleep(100 * time.Millisecond)
			out, _ = os.ReadFile(log)
			if strings.Contains(string(out), "connected to") {
				return
			}
			if strings.Contains(string(out), "unable to connect") {
				break
			}
		}
		stop()
		srv, _ := os.ReadFile(log + ".server")
		require.Less(t, try, 20, "iperf3 load from %s to n2: %s\nserver: %s", client, out, srv)
	}
}

// background runs a command on a node with its output to the file log
// until stop is called or the test ends; it ends as one process group.
func (c *cluster) background(t *testing.T, log, node string, args ...string) (stop func()) {
	t.Helper()
	f, err := os.Create(log)
	require.NoError(t, err)
	defer f.Close()
	cmd := exec.Command(clusterScript, append([]string{"exec", c.id, node}, args...)...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
	var once sync.Once
	stop = func() { once.Do(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() }) }
	t.Cleanup(stop)
	return stop
}

// TestSlurmHeatMap runs SKaMPI's ping-pong on the three nodes, two tasks
// each, while the uplinks between the leaves are loaded: the round trips
// of every pair are in the results, the three slowest pairs cross the
// spine (8 of the 15 pairs do) and the three fastest do not, and the
// report draws the heat map with them listed. Then the same jobs keep the
// matrix per node and per leaf switch, as they do above 1,024 processes
// (-skampi.testmatrix-ranks lowers that limit): a node's row or a
// switch's is slow where it crosses the spine.
func TestSlurmHeatMap(t *testing.T) {
	c := startSlurm(t)
	lib := testLib(t)
	c.loadUplinks(t)
	suites := filepath.Join(t.TempDir(), "pp.yaml")
	require.NoError(t, os.WriteFile(suites, []byte("suites:\n  - name: pp\n    ops: send-recv\n    vary: length\n    lengths: 1:16\n    step: 16\n    time: 1s\n"), 0o644))
	job := func(more ...string) (string, *skampi.Matrix) {
		results := t.TempDir()
		res := runJob(t, c.salloc(t, []string{"-N3", "--ntasks-per-node=2"}, "^BenchmarkSkampi$", results, nil,
			append([]string{"-test.short", "-skampi.suites=" + suites}, more...)...))
		require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
		file, runs := stored(t, results)
		cfg := runs["SKaMPI"].Config
		t.Logf("%s %v: pairs: max %s; min %s; %s", lib.name, more, cfg[skampi.KeyPairMax], cfg[skampi.KeyPairMin], cfg[skampi.KeyPairs])
		m, err := skampi.ParseMatrix(6, cfg)
		require.NoError(t, err)
		require.NotNil(t, m, "the matrix is in the results")
		return file, m
	}
	file, m := job()
	assert.Equal(t, skampi.OfRanks, m.Of)
	slow, fast := m.Extremes(3)
	t.Logf("%s: slowest and fastest pairs:%s", lib.name, pairsText(m, append(slow, fast...)))
	for _, p := range slow {
		assert.Equal(t, "spine", m.Crossing(p.A, p.B), "slow pair %d-%d", p.A, p.B)
	}
	for _, p := range fast {
		assert.NotEqual(t, "spine", m.Crossing(p.A, p.B), "fast pair %d-%d", p.A, p.B)
	}
	page := reportPage(t, file)
	assert.Contains(t, page, `id="skampi-heat"`)
	assert.Regexp(t, `Of the 10 slowest pairs, \d+ cross the spine`, page)

	file, m = job("-skampi.testmatrix-ranks=4")
	require.Equal(t, skampi.OfNodes, m.Of)
	require.Equal(t, []skampi.Place{{Host: "n0", Switch: "spine.leaf0"}, {Host: "n1", Switch: "spine.leaf0"}, {Host: "n2", Switch: "spine.leaf1"}}, m.Places)
	slow, fast = m.Extremes(2)
	t.Logf("%s: per node: slowest and fastest pairs:%s", lib.name, pairsText(m, append(slow, fast...)))
	for _, p := range slow {
		assert.Equal(t, "spine", m.Crossing(p.A, p.B), "slow pair of nodes %d-%d", p.A, p.B)
	}
	assert.Equal(t, "node", m.Crossing(fast[0].A, fast[0].B), "the fastest within a node")
	assert.Contains(t, reportPage(t, file), "a row and column per node (3)")

	_, m = job("-skampi.testmatrix-ranks=2")
	require.Equal(t, skampi.OfSwitches, m.Of)
	require.Equal(t, 2, m.N)
	t.Logf("%s: per switch:%s", lib.name, pairsText(m, []skampi.RankPair{{A: 0, B: 0}, {A: 0, B: 1}, {A: 1, B: 1}}))
	within, _ := m.At(0, 0)
	across, _ := m.At(0, 1)
	assert.Greater(t, across, within, "across the spine slower than between the nodes of leaf0")
	_, ok := m.At(1, 1)
	assert.False(t, ok, "leaf1 has one node: no pair between different nodes")
}

// pairsText is pairs of m with where they go and their round trips
// (those of m where it has them).
func pairsText(m *skampi.Matrix, pairs []skampi.RankPair) string {
	var b strings.Builder
	for _, p := range pairs {
		us, _ := m.At(p.A, p.B)
		fmt.Fprintf(&b, " %d-%d %s %.1f µs;", p.A, p.B, m.Crossing(p.A, p.B), us)
	}
	return b.String()
}

// reportPage is the run page beff report makes of a results file.
func reportPage(t *testing.T, file string) string {
	t.Helper()
	site := filepath.Join(t.TempDir(), "site")
	out, err := exec.Command(beffCommand(t), "report", "-o", site, file).CombinedOutput()
	require.NoError(t, err, "beff report: %s", out)
	pages, _ := filepath.Glob(filepath.Join(site, "runs", "*.html"))
	require.NotEmpty(t, pages)
	page, err := os.ReadFile(pages[0])
	require.NoError(t, err)
	return string(page)
}

// startFS brings up a GlusterFS volume on c served by node n2 alone, behind
// the spine, with a client on every node; the nodes see it at the
// returned directory.
func startFS(t *testing.T, c *cluster) string {
	t.Helper()
	for _, p := range []string{"glusterd", "gluster", "mount.glusterfs"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Fatalf("the file-system tests need %s: make deps-fs", p)
		}
	}
	start := time.Now()
	out, err := exec.Command(clusterScript, "fs", "up", c.id, "n2").CombinedOutput()
	require.NoError(t, err, "cluster.sh fs up: %s", out)
	t.Logf("GlusterFS up in %.2f s", time.Since(start).Seconds())
	return "/run/beff-cluster/" + c.id + "/fs/mnt"
}

// uplinkMBps is uplinkRate in MB/s (1e6 B/s).
const uplinkMBps = 25.0

// TestSlurmFS runs b_eff_io on n0 and n1 with its files on a GlusterFS
// volume served by n2 across the spine, launched by mpirun and through
// Slurm, and once on the local disk: each folds; the configuration names
// the file system and its server; the written volume per second stays
// below the uplink's rate (every byte crosses it) and so below the sum of
// the clients' links; the report shows the runs side by side, each with
// its file system; the scratch directories are gone.
func TestSlurmFS(t *testing.T) {
	requireSlurm(t)
	lib := testLib(t)
	bin := mpiBinary(t, true)
	c := startCluster(t, 3, linkRate, "2", uplinkRate)
	dir := startFS(t, c)
	cmd := exec.Command(clusterScript, "slurm", "up", c.id)
	cmd.Env = append(os.Environ(), "BEFF_SLURM_CPUS=2")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "cluster.sh slurm up: %s", out)

	var files []string
	check := func(t *testing.T, results string, onFS bool) {
		file, runs := stored(t, results)
		files = append(files, file)
		r, ok := runs["b_eff_io"]
		require.True(t, ok, "b_eff_io folded")
		fs := r.Config["beffio-fs"]
		t.Logf("%s: b_eff_io on %s: %.1f MB/s, write %.1f MB/s, rewrite %.1f MB/s, read %.1f MB/s", lib.name, fs, r.figure(t, "beffio"),
			r.figure(t, "access/acc=write"), r.figure(t, "access/acc=rewrite"), r.figure(t, "access/acc=read"))
		if !onFS {
			assert.NotContains(t, fs, "glusterfs", "the local disk")
			return
		}
		assert.Regexp(t, `^fuse\.glusterfs 10\.77\.0\.3:/beff, servers n2$`, fs)
		for _, phase := range []string{"write", "rewrite"} {
			v := r.figure(t, "access/acc="+phase)
			t.Logf("%s: b_eff_io %s on GlusterFS: %.1f MB/s; uplink %.0f MB/s, the clients' links %.0f MB/s", lib.name, phase, v, uplinkMBps, 2*linkMBps)
			assert.Less(t, v, 1.1*uplinkMBps, "%s: every byte crosses the uplink", phase)
			assert.Less(t, v, 2*linkMBps, "%s: below the sum of the clients' links", phase)
		}
	}
	args := []string{"-test.short", "-beffio.dir=" + dir}
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()} // the results, kept for the report
	t.Run("mpirun", func(t *testing.T) {
		results := dirs[0]
		res := sharedOrOff(t, lib, func(more ...string) *exec.Cmd {
			return c.benchCommand(t, lib, placement{2, 1, false}, bin, "^BenchmarkBeffIO$", results, append(args, more...)...)
		})
		check(t, results, true)
		scratchGone(t, res.stderr)
	})
	t.Run("srun", func(t *testing.T) {
		results := dirs[1]
		res := sharedOrOff(t, lib, func(more ...string) *exec.Cmd {
			return c.salloc(t, []string{"-w", "n[0-1]"}, "^BenchmarkBeffIO$", results, nil, append(args, more...)...)
		})
		check(t, results, true)
		scratchGone(t, res.stderr)
	})
	t.Run("local", func(t *testing.T) {
		results := dirs[2]
		res := runJob(t, c.salloc(t, []string{"-w", "n[0-1]"}, "^BenchmarkBeffIO$", results, nil, "-test.short"))
		require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
		check(t, results, false)
	})
	require.Len(t, files, 3)
	site := filepath.Join(t.TempDir(), "site")
	out, err = exec.Command(beffCommand(t), "report", "-o", site, files[0], files[2]).CombinedOutput()
	require.NoError(t, err, "beff report: %s", out)
	assert.Contains(t, string(out), "2 runs from 2 files")
	pages, _ := filepath.Glob(filepath.Join(site, "runs", "*.html"))
	var fsPages int
	for _, p := range pages {
		data, _ := os.ReadFile(p)
		if strings.Contains(string(data), `<p id="io-fs">File system: <code>fuse.glusterfs`) {
			fsPages++
		}
	}
	assert.Equal(t, 1, fsPages, "one run page names GlusterFS")
}

// sharedOrOff runs the b_eff_io job cmd makes. Where the shared file
// pointer is not coherent on the file system (ROMIO's on GlusterFS's FUSE
// client, whose caches hold a stale pointer: the processes' writes
// overwrite each other), the job must refuse with a message that says so
// and names the remedy, keep what it measured and remove its scratch
// files; the test then runs it with -beffio.sharedfp=off, which must
// succeed.
func sharedOrOff(t *testing.T, lib mpiLib, cmd func(more ...string) *exec.Cmd) jobResult {
	t.Helper()
	res := runJob(t, cmd())
	if res.code != 0 && strings.Contains(res.stderr, "the shared file pointer is not coherent on this file system") {
		t.Logf("%s: the shared file pointer is not coherent on GlusterFS: %s", lib.name, tail(res.stderr, 6))
		assert.Contains(t, res.stderr, "-beffio.sharedfp=off measures type shared with explicit offsets instead")
		assert.NotContains(t, res.stderr, "a process was lost")
		scratchGone(t, res.stderr)
		res = runJob(t, cmd("-beffio.sharedfp=off"))
	}
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	return res
}

// TestSlurmCongestion runs the congestion suite through salloc and beff
// run (srun) on 2 CPUs of each of the 3 nodes: split by processes, a
// canary and a congestor on every node, the congestors one at a time;
// the canaries' ring crosses the spine, which the congestors load.
func TestSlurmCongestion(t *testing.T) {
	c := startSlurm(t)
	results := t.TempDir()
	res := runJob(t, c.salloc(t, []string{"-N3", "--ntasks-per-node=2"}, "^BenchmarkCongestion$", results, nil,
		"-congestion.time=0.3", "-congestion.reps=1", "-congestion.bw-len=16384", "-congestion.congestors=alltoall,incast"))
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	_, runs := stored(t, results)
	r, ok := runs["congestion"]
	require.True(t, ok, "congestion folded")
	assert.Regexp(t, `^\d+$`, r.Config["slurm-job"])
	assert.Equal(t, "2(x3)", r.Config["slurm-tasks-per-node"])
	for k, v := range map[string]string{"congestion-split": "procs", "congestion-nodes": "3", "congestion-canary-procs": "3",
		"congestion-canary-nodes": "3", "congestion-mix": "each", "congestion-set-procs": "3", "congestion-set-nodes": "3"} {
		assert.Equal(t, v, r.Config[k], k)
	}
	for _, k := range []string{"alltoall", "incast"} {
		cif := r.figure(t, "cif-rr-lat-"+k)
		t.Logf("CIF of rr-lat under %s: %.2f", k, cif)
		assert.Greater(t, cif, 1.0, "the ring across the spine under "+k)
	}
}

// TestSlurmLinks runs the links suite through salloc and beff run (srun)
// on 2 CPUs of each of the 3 nodes, serially: every member's line names
// its leaf switch from Slurm's topology, the run page's heat map orders
// its rows by switch, the multi-pair figure has k = 1 and 2, and the
// pairs across the spine (200 Mbit/s uplinks) are slower than the one
// within leaf0 (1 Gbit/s links).
func TestSlurmLinks(t *testing.T) {
	c := startSlurm(t)
	results := t.TempDir()
	res := runJob(t, c.salloc(t, []string{"-N3", "--ntasks-per-node=2"}, "^BenchmarkLinks$", results, nil, clusterLinks[4:]...))
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	file, runs := stored(t, results)
	r, ok := runs["links"]
	require.True(t, ok, "links folded")
	assert.Equal(t, "1,2", r.Config["links-multi-k"])
	folded, _ := foldLinks(t, file)
	l := folded.Links
	require.Len(t, l.Members, 3)
	for i, m := range l.Members {
		assert.Equal(t, map[string]string{"n0": "spine.leaf0", "n1": "spine.leaf0", "n2": "spine.leaf1"}[m.Host], m.Switch, "member %d on %s", i, m.Host)
	}
	require.Len(t, l.Multi, 2)
	bw := map[[2]int]float64{}
	for _, p := range l.Pairs {
		bw[[2]int{p.A, p.B}] = p.MBps
	}
	t.Logf("within leaf0 %.1f MB/s, across the spine %.1f and %.1f", bw[[2]int{0, 1}], bw[[2]int{0, 2}], bw[[2]int{1, 2}])
	assert.Greater(t, bw[[2]int{0, 1}], 2*max(bw[[2]int{0, 2}], bw[[2]int{1, 2}]), "the pair within leaf0 against those across the spine")
	site := filepath.Join(t.TempDir(), "site")
	out, err := exec.Command(beffCommand(t), "report", "-o", site, file).CombinedOutput()
	require.NoError(t, err, "%s", out)
	pages, _ := filepath.Glob(filepath.Join(site, "runs", "*.html"))
	require.Len(t, pages, 1)
	page, err := os.ReadFile(pages[0])
	require.NoError(t, err)
	assert.Regexp(t, `(?s)<table id="links-heat-order">.*spine\.leaf0</td><td>n0</td>.*spine\.leaf0</td><td>n1</td>.*spine\.leaf1</td><td>n2</td>`, string(page),
		"the heat map's rows by switch")
}
