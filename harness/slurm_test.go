package harness

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRankOrder(t *testing.T) {
	for _, c := range []struct {
		hosts []string
		want  string
	}{
		{[]string{"a", "a", "a"}, "one node"},
		{[]string{"a", "a", "b", "b", "c"}, "block"},
		{[]string{"a", "b", "c", "a", "b", "c"}, "cyclic"},
		{[]string{"a", "b", "a"}, "cyclic"},
		{[]string{"a", "b", "b", "a"}, "mixed"},
		{[]string{"a", "b", "a", "a"}, "mixed"},
		{[]string{"a"}, "one node"},
		{nil, "one node"},
	} {
		assert.True(t, strings.HasPrefix(rankOrder(c.hosts), c.want), "%v: %s", c.hosts, rankOrder(c.hosts))
	}
}

func TestSlurmMem(t *testing.T) {
	clear := func() {
		for _, k := range []string{"SLURM_MEM_PER_CPU", "SLURM_MEM_PER_NODE", "SLURM_CPUS_PER_TASK"} {
			t.Setenv(k, "")
		}
	}
	clear()
	assert.EqualValues(t, 4096, slurmMemMiB(4096, 2), "no limit: the node's memory")
	t.Setenv("SLURM_MEM_PER_CPU", "500")
	assert.EqualValues(t, 1000, slurmMemMiB(4096, 2), "500 MiB per CPU, 2 processes of 1 CPU")
	t.Setenv("SLURM_CPUS_PER_TASK", "2")
	assert.EqualValues(t, 2000, slurmMemMiB(4096, 2), "2 CPUs per task")
	assert.EqualValues(t, 1500, slurmMemMiB(1500, 2), "the node has less than Slurm gives")
	assert.EqualValues(t, 2000, slurmMemMiB(0, 2), "unknown node memory: Slurm's")
	clear()
	t.Setenv("SLURM_MEM_PER_NODE", "3000")
	assert.EqualValues(t, 3000, slurmMemMiB(4096, 4))
	t.Setenv("SLURM_MEM_PER_NODE", "garbage")
	assert.EqualValues(t, 4096, slurmMemMiB(4096, 4), "an unreadable limit is no limit")
	t.Setenv("SLURM_MEM_PER_NODE", "-5")
	assert.EqualValues(t, 4096, slurmMemMiB(4096, 4))
}

func TestSlurmJobLines(t *testing.T) {
	t.Setenv("SLURM_JOB_ID", "")
	t.Setenv("SLURM_JOBID", "")
	assert.Nil(t, readSlurmJob(), "outside Slurm")
	for k, v := range map[string]string{
		"SLURM_JOB_ID": "42", "SLURM_CLUSTER_NAME": "c", "SLURM_JOB_PARTITION": "p",
		"SLURM_JOB_NODELIST": "n[0-2]", "SLURM_STEP_TASKS_PER_NODE": "2(x3)", "SLURM_TASKS_PER_NODE": "9",
		"SLURM_DISTRIBUTION": "", "SLURM_MEM_PER_CPU": "", "SLURM_MEM_PER_NODE": "1024",
	} {
		t.Setenv(k, v)
	}
	j := readSlurmJob()
	require.NotNil(t, j)
	assert.Equal(t, [][2]string{
		{"slurm-job", "42"}, {"slurm-cluster", "c"}, {"slurm-partition", "p"}, {"slurm-nodes", "n[0-2]"},
		{"slurm-tasks-per-node", "2(x3)"}, {"slurm-mem", "1024 MiB per node"}, {"slurm-topology", "s.l0.n[0-2] (2 each)"},
	}, j.lines("s.l0.n[0-2] (2 each)"), "the step's tasks per node, not the allocation's; no distribution line when unset")
}

func TestTopologySummary(t *testing.T) {
	nodes := []node{{topo: "s.l0.n0"}, {topo: "s.l0.n0"}, {topo: "s.l1.n1"}}
	assert.Equal(t, "s.l0.n0 (2), s.l1.n1 (1)", topologySummary(nodes))
	nodes[1].topo = ""
	assert.Equal(t, "", topologySummary(nodes), "not every rank has an address: none is written")
	long := strings.Repeat("x", 200)
	t.Setenv("SLURM_TOPOLOGY_ADDR", long)
	assert.Len(t, topologyAddr(), topoLen)
}
