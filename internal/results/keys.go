package results

import "github.com/beff-suite/beff/internal/machine"

// Configuration keys that every run carries, whatever its suite: the
// harness writes them at the top of the output, the readers take the job's
// description from them. A suite's own keys live in its package.
const (
	KeyVersion      = "beff-version"       // the version of beff
	KeyCommit       = "beff-commit"        // the commit it was built from
	KeyGoVersion    = "go-version"         // the Go toolchain
	KeyDate         = "date"               // start of the run, RFC 3339, UTC
	KeyLibrary      = "mpi-library"        // first line of MPI_Get_library_version
	KeyThread       = "mpi-thread"         // the MPI thread level provided
	KeyProcs        = "mpi-procs"          // the number of processes N
	KeyHosts        = "mpi-hosts"          // host names with their process counts
	KeyProcsPerNode = "mpi-procs-per-node" // the most processes on one node
	KeyOversub      = "mpi-oversubscribed" // "no", or "yes: <how>"
	KeyPreload      = "mpi-preload"        // LD_PRELOAD of the processes, when set
	KeyMode         = "beff-mode"          // ModeFull or a short mode
	KeyRankOrder    = "mpi-rank-order"     // how the ranks lie on the nodes: block, cyclic, …
	// The Slurm job, when Slurm started the processes.
	KeySlurmJob          = "slurm-job"            // the job id
	KeySlurmCluster      = "slurm-cluster"        // the cluster's name
	KeySlurmPartition    = "slurm-partition"      // the partition
	KeySlurmNodes        = "slurm-nodes"          // the job's nodes, as a hostlist expression
	KeySlurmTasks        = "slurm-tasks-per-node" // the step's tasks per node, "2(x3)"
	KeySlurmDistribution = "slurm-distribution"   // srun's --distribution
	KeySlurmMem          = "slurm-mem"            // the memory Slurm gives the job
	KeySlurmTopology     = "slurm-topology"       // the processes' topology addresses, with their counts
	// KeyPartial heads the output of a job that did not end well (kept in
	// results/partial/): why it ended.
	KeyPartial = "beff-partial"
)

// JobKeys are the configuration keys that describe the job as a whole
// (the harness and Go's testing write them once, at the start): runs of
// one file that differ in one of them come from different jobs, as in a
// concatenation of two files.
var JobKeys = []string{"goos", "goarch", "pkg", "cpu", KeyVersion, KeyCommit, KeyGoVersion, KeyDate, KeyLibrary,
	KeyThread, KeyProcs, KeyHosts, KeyProcsPerNode, KeyOversub, KeyPreload, KeyMode, KeyRankOrder,
	KeySlurmJob, KeySlurmCluster, KeySlurmPartition, KeySlurmNodes, KeySlurmTasks, KeySlurmDistribution,
	KeySlurmMem, KeySlurmTopology, machine.KeyCPU, machine.KeyMemory, machine.KeyNet, machine.KeyKernel, machine.KeyOS,
	machine.KeyKinds, machine.KeyMPIEnv}

// Values of KeyMode.
const (
	ModeFull  = "full"
	ModeShort = "short (quick check, not a valid result)"
)
