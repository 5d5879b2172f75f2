package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/exitcode"
	"github.com/beff-suite/beff/internal/launch"
	"github.com/beff-suite/beff/suites/links"
)

// TestLinksPairLoop runs the links suite's loop tests under the launcher
// on two processes: every measurement of a pair, stopped by its count and
// by its time cap, both members together, every stamp checked.
func TestLinksPairLoop(t *testing.T) {
	mpiBinary(t, true) // skips and checks like the others
	env, err := launch.BuildEnv()
	require.NoError(t, err)
	bin := filepath.Join(t.TempDir(), "links.test")
	cmd := exec.Command("go", "test", "-c", "-tags", "mpi", "-o", bin, "./suites/links/loops")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	res := runJob(t, testLib(t).command(t, 2, bin, "-test.run", "^(TestPairOfTwo|TestMultiOfTwo)$", "-test.v"))
	require.Equal(t, 0, res.code, "stderr:\n%s\nstdout:\n%s", res.stderr, res.stdout)
	assert.Equal(t, 2, strings.Count(res.stdout, "--- PASS: TestPairOfTwo"), "both members ran it, none skipped:\n%s", res.stdout)
	assert.Equal(t, 2, strings.Count(res.stdout, "--- PASS: TestMultiOfTwo"), "both ran the windows:\n%s", res.stdout)
}

// quickLinks is a short links run: 100 ping-pongs, 4 messages of 64 KiB.
var quickLinks = []string{"-test.run", "^$", "-test.bench", "^BenchmarkLinks$", "-links.lat-reps=100", "-links.reps=4", "-links.len=65536"}

// TestQuickLinks runs the suite on the processes of one machine (the
// level auto takes processes on one node), at once and serially: a line
// per pair and per member, every figure measured, and the fold names the
// processes.
func TestQuickLinks(t *testing.T) {
	bin := mpiBinary(t, true)
	for _, serial := range []string{"-links.serial=false", "-links.serial=true"} {
		t.Run(serial, func(t *testing.T) {
			res := mpirun(t, 4, bin, append(append([]string(nil), quickLinks...), serial)...)
			require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
			run := readBench(t, res.stdout, links.Bench)
			assert.Equal(t, links.LevelProcs, run.config[links.KeyLevel])
			assert.Equal(t, links.MatrixFull, run.config[links.KeyMatrix])
			kinds := map[string]int{}
			for name := range run.metrics {
				switch {
				case strings.HasPrefix(name, "pass=2/"):
					kinds["again"]++ // a suspect measured again: the fold holds them to the suspects
				case strings.HasPrefix(name, "host="):
					kinds["members"]++
				default:
					kinds["pairs"]++
				}
			}
			assert.Equal(t, 6, kinds["pairs"], "every pair of 4")
			assert.Equal(t, 4, kinds["members"])
			assert.LessOrEqual(t, kinds["again"], 6)
			for name, m := range run.metrics {
				assert.Positive(t, m[links.MetricUs], name)
				assert.Positive(t, m[links.MetricMBps], name)
				assert.Positive(t, m[links.MetricBothMBps], name)
			}
			out := foldStdout(t, res.stdout)
			assert.Contains(t, out, "links: 4 processes, 6 links")
		})
	}
}

// TestLinksBadInput: a bad flag, or nodes on one node, is one message
// from rank 0 and exit code 2 everywhere, nothing measured.
func TestLinksBadInput(t *testing.T) {
	bin := mpiBinary(t, true)
	for _, c := range []struct{ flag, msg string }{
		{"-links.cap=0s", "-links.cap"},
		{"-links.level=racks", "-links.level=racks: want nodes, procs or auto"},
		{"-links.level=nodes", "links on 1 nodes: a link needs two"},
	} {
		t.Run(c.flag, func(t *testing.T) {
			res := mpirun(t, 2, bin, append(append([]string(nil), quickLinks...), c.flag)...)
			assert.Equal(t, 2, res.code, "stderr:\n%s", res.stderr)
			assert.Equal(t, 1, strings.Count(res.stderr, "beff: "), "one message, from rank 0:\n%s", res.stderr)
			assert.Contains(t, res.stderr, c.msg)
			assert.Empty(t, res.stdout, "nothing is measured or printed")
		})
	}
}

// clusterLinks are the flags of the links runs on the emulated cluster:
// serial (its nodes share this machine's cores: pairs at once would
// measure the scheduler), messages of 256 KiB.
var clusterLinks = []string{"-test.run", "^$", "-test.bench", "^BenchmarkLinks$", "-links.serial", "-links.len=262144"}

// linksFolded is what a test reads of a folded links run.
type linksFolded struct {
	Links struct {
		Findings []struct {
			Figure string `json:"figure"`
			Member int    `json:"member"`
			Other  int    `json:"other"`
			Line   string `json:"line"`
		} `json:"findings"`
		Members []struct {
			Host   string `json:"host"`
			Switch string `json:"switch"`
		} `json:"member_links"`
		Pairs []struct {
			A    int     `json:"a"`
			B    int     `json:"b"`
			MBps float64 `json:"mbps"`
			Back float64 `json:"back_mbps"`
		} `json:"pairs"`
		Multi []struct {
			K int `json:"k"`
		} `json:"multi"`
	} `json:"links"`
}

// linksRun runs the suite on the cluster's nodes, a process each, and
// folds it with beff fold -json -exit-findings: its findings, its pairs,
// and whether the exit code said it found something.
func linksRun(t *testing.T, c *cluster, lib mpiLib, bin string) (linksFolded, bool) {
	t.Helper()
	res := c.run(t, lib, placement{c.nodes, 1, false}, bin, clusterLinks...)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	file := filepath.Join(t.TempDir(), "links.txt")
	require.NoError(t, os.WriteFile(file, []byte(res.stdout), 0o644))
	return foldLinks(t, file)
}

// foldLinks folds the one links run of file with beff fold -json
// -exit-findings: the run, and whether the exit code said it found
// something (which the findings must agree with).
func foldLinks(t *testing.T, file string) (linksFolded, bool) {
	t.Helper()
	cmd := exec.Command(beffCommand(t), "fold", "-json", "-exit-findings", file)
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	require.Contains(t, []int{0, exitcode.Findings}, code, "beff fold: %s", out)
	var doc struct {
		Files []struct {
			Runs []linksFolded `json:"runs"`
		} `json:"files"`
	}
	require.NoError(t, json.Unmarshal(out, &doc))
	require.Len(t, doc.Files, 1)
	require.Len(t, doc.Files[0].Runs, 1)
	r := doc.Files[0].Runs[0]
	assert.Equal(t, code == exitcode.Findings, len(r.Links.Findings) > 0, "the exit code says whether there are findings")
	return r, code == exitcode.Findings
}

// findingLines are the findings' sentences.
func (r linksFolded) findingLines() []string {
	var out []string
	for _, f := range r.Links.Findings {
		out = append(out, f.Line)
	}
	return out
}

// TestClusterLinks: on 6 emulated nodes under 2 leaves, the uniform
// cluster names nothing in 5 runs; one node's link shaped to a quarter
// names exactly that node; the path between two nodes slowed to a
// quarter names exactly that link; a leaf's uplinks at a quarter name
// nothing (every node is alike) but make the pairs across the spine a
// block of a quarter of those within a leaf.
func TestClusterLinks(t *testing.T) {
	bin := mpiBinary(t, true)
	lib := testLib(t)
	c := startCluster(t, 6, "200mbit", "2", "200mbit")
	for i := range 5 {
		r, found := linksRun(t, c, lib, bin)
		assert.False(t, found, "uniform, run %d: %s", i+1, r.findingLines())
	}
	t.Run("slow node", func(t *testing.T) {
		c.tool(t, "shape", "n2", "50mbit")
		defer c.tool(t, "shape", "n2", "200mbit")
		r, found := linksRun(t, c, lib, bin)
		require.True(t, found)
		require.Len(t, r.Links.Findings, 1, "%s", r.findingLines())
		f := r.Links.Findings[0]
		assert.Equal(t, []any{"bandwidth", 2, -1}, []any{f.Figure, f.Member, f.Other}, f.Line)
		assert.Contains(t, f.Line, "slow node n2: bandwidth")
		t.Log(f.Line)
	})
	t.Run("slow link", func(t *testing.T) {
		c.tool(t, "slow", "n1", "n4", "50mbit")
		defer c.tool(t, "shape", "n1", "200mbit")
		defer c.tool(t, "shape", "n4", "200mbit")
		r, found := linksRun(t, c, lib, bin)
		require.True(t, found)
		require.Len(t, r.Links.Findings, 1, "%s", r.findingLines())
		f := r.Links.Findings[0]
		assert.Equal(t, []any{"bandwidth", 1, 4}, []any{f.Figure, f.Member, f.Other}, f.Line)
		assert.Contains(t, f.Line, "slow link n1–n4: bandwidth")
		t.Log(f.Line)
	})
	t.Run("slow uplinks", func(t *testing.T) {
		slow := startCluster(t, 6, "200mbit", "2", "50mbit")
		r, found := linksRun(t, slow, lib, bin)
		assert.False(t, found, "every node alike: %s", r.findingLines())
		var within, across []float64
		for _, p := range r.Links.Pairs {
			if (p.A < 3) == (p.B < 3) {
				within = append(within, p.MBps, p.Back)
			} else {
				across = append(across, p.MBps, p.Back)
			}
		}
		require.Len(t, within, 12)
		require.Len(t, across, 18)
		slices.Sort(within)
		slices.Sort(across)
		t.Logf("within a leaf %.1f–%.1f MB/s, across the spine %.1f–%.1f", within[0], within[11], across[0], across[17])
		assert.Less(t, across[17], 0.5*within[0], "every pair across the spine is slower than every pair within a leaf: a block")
	})
}
