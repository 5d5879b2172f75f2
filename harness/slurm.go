package harness

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// SlurmJob is the Slurm job a run belongs to, from the environment srun
// gives rank 0 (nil when the job was not started by Slurm).
type SlurmJob struct {
	ID, Cluster, Partition string
	Nodes                  string // the job's nodes, as Slurm's hostlist expression
	TasksPerNode           string // the step's tasks per node, "2(x3)"
	Distribution           string // srun's --distribution, when set
	Mem                    string // the memory limit Slurm gives, "500 MiB per CPU"
}

// slurmEnv returns the first of keys set in the environment.
func slurmEnv(keys ...string) string {
	for _, k := range keys {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return ""
}

// readSlurmJob describes the Slurm job of this process, or nil.
func readSlurmJob() *SlurmJob {
	id := slurmEnv("SLURM_JOB_ID", "SLURM_JOBID")
	if id == "" {
		return nil
	}
	j := &SlurmJob{
		ID:           id,
		Cluster:      slurmEnv("SLURM_CLUSTER_NAME"),
		Partition:    slurmEnv("SLURM_JOB_PARTITION"),
		Nodes:        slurmEnv("SLURM_JOB_NODELIST", "SLURM_NODELIST"),
		TasksPerNode: slurmEnv("SLURM_STEP_TASKS_PER_NODE", "SLURM_TASKS_PER_NODE"),
		Distribution: slurmEnv("SLURM_DISTRIBUTION"),
	}
	if perCPU, ok := envMiB("SLURM_MEM_PER_CPU"); ok {
		j.Mem = fmt.Sprintf("%d MiB per CPU", perCPU)
	} else if perNode, ok := envMiB("SLURM_MEM_PER_NODE"); ok {
		j.Mem = fmt.Sprintf("%d MiB per node", perNode)
	}
	return j
}

// envMiB reads a positive number of MiB from the environment.
func envMiB(key string) (int64, bool) {
	v, err := strconv.ParseInt(os.Getenv(key), 10, 64)
	return v, err == nil && v > 0
}

// slurmMemMiB bounds the memory of this process's node, memMiB, by what
// Slurm gives the job there: SLURM_MEM_PER_CPU times the CPUs of the nloc
// processes on the node (SLURM_CPUS_PER_TASK each, default 1), or
// SLURM_MEM_PER_NODE. Without Slurm's limit, memMiB.
func slurmMemMiB(memMiB int64, nloc int) int64 {
	limit := int64(-1)
	if perCPU, ok := envMiB("SLURM_MEM_PER_CPU"); ok {
		cpus, ok := envMiB("SLURM_CPUS_PER_TASK")
		if !ok {
			cpus = 1
		}
		limit = perCPU * cpus * int64(nloc)
	} else if perNode, ok := envMiB("SLURM_MEM_PER_NODE"); ok {
		limit = perNode
	}
	if limit > 0 && (memMiB <= 0 || limit < memMiB) {
		return limit
	}
	return memMiB
}

// lines are the configuration lines of the Slurm job; the node list is
// bounded as the host summary is.
func (j *SlurmJob) lines(topology string) [][2]string {
	out := [][2]string{{results.KeySlurmJob, j.ID}}
	add := func(k, v string) {
		if v != "" {
			out = append(out, [2]string{k, v})
		}
	}
	add(results.KeySlurmCluster, j.Cluster)
	add(results.KeySlurmPartition, j.Partition)
	add(results.KeySlurmNodes, boundLine([]string{j.Nodes}, 1))
	add(results.KeySlurmTasks, j.TasksPerNode)
	add(results.KeySlurmDistribution, j.Distribution)
	add(results.KeySlurmMem, j.Mem)
	add(results.KeySlurmTopology, topology)
	return out
}

// rankOrder says how the ranks lie on the nodes of hosts (the host of each
// rank): "one node"; "block" when each node's ranks are consecutive;
// "cyclic" when consecutive ranks go round the nodes in turn; else "mixed".
func rankOrder(hosts []string) string {
	first := map[string]int{}
	var order []string
	block := true
	for r, h := range hosts {
		if _, seen := first[h]; !seen {
			first[h] = r
			order = append(order, h)
		} else if hosts[r-1] != h {
			block = false
		}
	}
	switch {
	case len(order) <= 1:
		return "one node"
	case block:
		return "block (consecutive ranks share a node)"
	}
	for r, h := range hosts {
		if h != order[r%len(order)] {
			return "mixed"
		}
	}
	return "cyclic (consecutive ranks on consecutive nodes, in turn)"
}

// topologyAddr is this process's place in the network as Slurm's topology
// plugin gives it ("spine.leaf0.n3"), cut to topoLen bytes, or "".
func topologyAddr() string {
	a := os.Getenv("SLURM_TOPOLOGY_ADDR")
	if len(a) > topoLen {
		a = strings.ToValidUTF8(a[:topoLen], "")
	}
	return a
}
