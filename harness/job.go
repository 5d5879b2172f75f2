package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/beff-suite/beff/internal/crash"
	"github.com/beff-suite/beff/internal/launch"
	"github.com/beff-suite/beff/internal/machine"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/results"
)

// node is what each rank knows about its own node.
type node struct {
	host      string
	memMiB    int64  // node memory
	procsNode int    // processes of the job on the node
	cpus      int    // CPUs online on the node
	pid       int    // the rank's process id
	topo      string // the rank's topology address under Slurm ("" elsewhere)
	kind      uint64 // the node's machine.Hash
}

// hostLen is the bytes of a host name in the gathered record: Linux host
// names have at most 64 (HOST_NAME_MAX); rank 0 gathers hostLen+40 bytes
// per process (its memory, processes, CPUs, process id and kind of node
// after it: 40 bytes), and topoLen for its topology address.
const (
	hostLen = 64
	topoLen = 64
)

// probeLocal describes every rank's node to rank 0 (nil elsewhere); m is
// this node's machine.
func probeLocal(s *Session, m machine.Machine) []node {
	shared, err := s.World().Comm.SplitShared()
	s.Must("MPI_Comm_split_type", err)
	nloc, err := shared.Size()
	s.Must("MPI_Comm_size", err)
	shared.Free()
	host := []byte(mpi.ProcessorName())
	if len(host) > hostLen {
		host = host[:hostLen]
	}
	in := make([]byte, hostLen+40+topoLen)
	copy(in, host)
	copy(in[hostLen+40:], topologyAddr())
	putInt64(in[hostLen+32:], int64(m.Hash()))
	putInt64(in[hostLen:], slurmMemMiB(m.MemMiB, nloc))
	putInt64(in[hostLen+8:], int64(nloc))
	cpus := m.Threads // the node's online CPUs: runtime.NumCPU sees only the affinity mask, which mpirun's binding narrows
	if cpus == 0 {
		cpus = runtime.NumCPU()
	}
	putInt64(in[hostLen+16:], int64(cpus))
	putInt64(in[hostLen+24:], int64(os.Getpid()))
	var all []byte
	if s.IsRoot() {
		all = make([]byte, len(in)*s.Size)
	}
	s.Must("gathering host names", s.World().Comm.GatherBytes(in, all, 0))
	if !s.IsRoot() {
		return nil
	}
	out := make([]node, s.Size)
	for r := range out {
		rec := all[r*len(in) : (r+1)*len(in)]
		out[r] = node{host: string(bytes.TrimRight(rec[:hostLen], "\x00")),
			memMiB: getInt64(rec[hostLen:]), procsNode: int(getInt64(rec[hostLen+8:])), cpus: int(getInt64(rec[hostLen+16:])),
			pid: int(getInt64(rec[hostLen+24:])), kind: uint64(getInt64(rec[hostLen+32:])), topo: string(bytes.TrimRight(rec[hostLen+40:], "\x00"))}
	}
	return out
}

// An outcome is what rank 0 decides at start-up: the job, or why it stops.
type outcome struct {
	Job  Job
	Err  string
	Done string // a suite's dry run: what rank 0 writes before every rank exits 0
}

// setupOutcome runs on rank 0: it describes the job and sets up the
// selected suites.
func setupOutcome(s *Session, provided string, nodes []node, kinds machineKinds) outcome {
	if err := checkTestFlags(s.flags); err != nil {
		return outcome{Err: err.Error()}
	}
	if n, ok := launch.JobSize(); ok && n != s.Size {
		return outcome{Err: fmt.Sprintf("the launcher started %d processes but MPI_COMM_WORLD has %d: the binary and mpirun come from different MPI installations", n, s.Size)}
	}
	job := describeJob(provided, nodes)
	job.Machines, job.MachineKinds = kinds.described, kinds.all
	oc := outcome{Job: job}
	if err := setupSuites(&oc.Job, selected(s.drivers)); err != nil {
		var done *Done
		if !errors.As(err, &done) {
			return outcome{Err: err.Error()}
		}
		oc = outcome{Done: done.Text}
	}
	// the results file last: a job refused before leaves none
	f, err := openOut(*s.flags.out)
	if err != nil {
		return outcome{Err: err.Error()}
	}
	s.outFile = f
	return oc
}

// describeJob is the Job before the suites' settings.
func describeJob(provided string, nodes []node) Job {
	job := Job{
		Library:   strings.Join(strings.Fields(strings.SplitN(mpi.LibraryVersion(), "\n", 2)[0]), " "), // MPICH puts a tab in it
		Thread:    provided,
		Short:     testing.Short(),
		GoVersion: runtime.Version(),
		Version:   Version,
		Commit:    commit(),
		Date:      time.Now().UTC().Format(time.RFC3339),
		MemMiB:    -1,
		Preload:   os.Getenv("LD_PRELOAD"),
		MPIEnv:    mpiSettings(),
		Slurm:     readSlurmJob(),
	}
	for i, n := range nodes {
		perProc := n.memMiB / int64(n.procsNode)
		job.Hosts = append(job.Hosts, n.host)
		job.PIDs = append(job.PIDs, n.pid)
		if job.MemMiB < 0 || perProc < job.MemMiB {
			job.MemMiB = perProc
		}
		if i == 0 {
			job.RootMiB = n.memMiB
		}
		job.ProcsNode = max(job.ProcsNode, n.procsNode)
		if n.cpus > 0 {
			job.Share = max(job.Share, (n.procsNode+n.cpus-1)/n.cpus)
		}
		job.TotalMiB += perProc // node memory / processes on the node, summed over the processes
		if n.cpus > 0 && n.procsNode > n.cpus && job.Oversub == "" {
			job.Oversub = fmt.Sprintf("yes: %d processes on %s, which has %d CPUs (figures check correctness, not speed)", n.procsNode, n.host, n.cpus)
		}
	}
	job.Topology = topologySummary(nodes)
	job.TopoAddrs = make([]string, len(nodes))
	for i, n := range nodes {
		job.TopoAddrs[i] = n.topo
	}
	return job
}

// topologySummary sums up the ranks' topology addresses ("" when Slurm gave none).
func topologySummary(nodes []node) string {
	addrs := make([]string, len(nodes))
	for i, n := range nodes {
		if n.topo == "" {
			return ""
		}
		addrs[i] = n.topo
	}
	return hostSummary(addrs)
}

// safeSetup runs su's Setup; a panic there (a bug of beff, whatever the
// flags and files it reads) becomes an error of one line that says where
// its details went, and the job stops as for bad input.
func safeSetup(su *Driver, job *Job) (st any, err error) {
	defer func() {
		if v := recover(); v != nil {
			st, err = nil, fmt.Errorf("internal error setting up %s: %v (%s)", su.ID.Name, v, crash.Save(os.Args, v))
		}
	}()
	return su.Setup(job)
}

// setupSuites runs the Setup of every suite in list and keeps the decided
// settings in job.
func setupSuites(job *Job, list []*Driver) error {
	job.SuiteState = map[string]json.RawMessage{}
	for _, su := range list {
		st, err := safeSetup(su, job)
		if err != nil {
			return err
		}
		raw, err := json.Marshal(st)
		if err != nil {
			return err
		}
		job.SuiteState[su.ID.Key] = raw
	}
	return nil
}

// writeConfig prints the benchfmt configuration and unit lines of the run:
// the job's, then those of the suites set up.
func writeConfig(w io.Writer, job *Job, drivers []*Driver) {
	line := func(k, v string) { fmt.Fprintf(w, "%s: %s\n", k, v) }
	line(results.KeyVersion, job.Version)
	line(results.KeyCommit, job.Commit)
	line(results.KeyGoVersion, job.GoVersion)
	line(results.KeyDate, job.Date)
	line(results.KeyLibrary, job.Library)
	line(results.KeyThread, job.Thread)
	line(results.KeyProcs, strconv.Itoa(job.Procs()))
	line(results.KeyHosts, hostSummary(job.Hosts))
	line(results.KeyProcsPerNode, strconv.Itoa(job.ProcsNode))
	oversub := job.Oversub
	if oversub == "" {
		oversub = "no"
	}
	line(results.KeyOversub, oversub)
	line(results.KeyRankOrder, rankOrder(job.Hosts))
	if job.Slurm != nil {
		for _, kv := range job.Slurm.lines(job.Topology) {
			line(kv[0], kv[1])
		}
	}
	if job.Preload != "" {
		line(results.KeyPreload, job.Preload)
	}
	if job.MPIEnv != "" {
		line(machine.KeyMPIEnv, job.MPIEnv)
	}
	for _, kv := range machine.Record(job.Machines, job.MachineKinds) {
		line(kv[0], kv[1])
	}
	mode := results.ModeFull
	if job.Short {
		mode = results.ModeShort
	}
	line(results.KeyMode, mode)
	list := setUp(drivers, job)
	for _, su := range list {
		for _, l := range su.Config(job) {
			fmt.Fprintln(w, l)
		}
	}
	for _, su := range list {
		for _, u := range su.ID.Units {
			fmt.Fprintln(w, "Unit "+u)
		}
	}
}

// pollWarning is what the job's library needs said, decided from its
// MPI_Get_library_version: a library that polls (launch.LibraryPolls) on
// an oversubscribed node makes a message wait for the scheduler's tick
// (milliseconds) unless a library that yields is preloaded
// (launch.YieldLib, which beff run and beff launch preload). "" when there
// is nothing to say.
func pollWarning(job *Job) string {
	if job.Oversub == "" || !launch.LibraryPolls(job.Library) || strings.Contains(job.Preload, launch.YieldName) {
		return ""
	}
	return "MPICH polls without giving up its core, and this node is oversubscribed: a message may wait for the scheduler's tick; preload tools/mpich-yield.so (beff run does) or run no more processes than cores"
}
