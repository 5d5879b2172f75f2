package launch

import (
	"strconv"
	"strings"
	"time"
)

// A Launcher is the program that starts a job's processes.
type Launcher struct {
	Path    string   // as it is run
	Prefix  []string // the words of its command before its flags (MPIEXEC="wrapper args")
	Family  Family
	Version string // its name and version, from --version ("Open MPI 5.0.7")
	// NumProcFlag is the flag that takes the number of processes:
	// MPIEXEC_NUMPROC_FLAG, or the family's own.
	NumProcFlag string
	// PreFlags go right before the program (MPIEXEC_PREFLAGS).
	PreFlags []string
	// PMI is srun's --mpi for the library's processes ("" leaves
	// Slurm's default: SLURM_MPI_TYPE or slurm.conf's MpiDefault).
	PMI string
	// Library is the family of the library's own launcher: Family, but
	// for srun the launcher beside the compiler wrapper ("" unknown).
	Library Family
}

// Polls reports whether the library's processes poll without giving up
// their core while they wait (MPICH and its kin: Hydra's family), which
// a node with more processes than cores needs them to (Spec.Preload).
func (l *Launcher) Polls() bool { return l.Library == Hydra }

// A Spec is what one job asks of its launcher.
type Spec struct {
	NP int // processes
	// Oversubscribe places more processes than the node has cores.
	Oversubscribe bool
	// Timeout ends the job after this long (0: never); the launcher's
	// own limit where it has one, and a guard after it (Cmd.Guard).
	Timeout time.Duration
	// Preload is a library every process preloads (LD_PRELOAD), "" none.
	Preload string
	// Root: the user is root, which Open MPI refuses unless told.
	Root bool
	// KeepAlive ends the job within about 20 s of a node that stops
	// answering: Open MPI's daemons probe idle links.
	KeepAlive bool
	// Env is KEY=VALUE for every process.
	Env []string
	// Agent is the remote shell that starts processes on other hosts
	// (instead of ssh), Iface the network interface the job uses, both
	// "" for the launcher's defaults.
	Agent, Iface string
	// Yield makes waiting processes give up their core, where the nodes
	// do not know that they share cores (Open MPI's mpi_yield_when_idle;
	// Hydra's libraries yield only through Preload).
	Yield bool
	// Flags are the user's own launcher flags (a host file, a placement),
	// given before the program.
	Flags []string
}

// FromEnv takes the settings of an emulated cluster's nodes from the
// environment: BEFF_LAUNCH_AGENT (Agent), BEFF_LAUNCH_IFACE (Iface),
// BEFF_LAUNCH_YIELD=1 (Yield) and BEFF_LAUNCH_KEEPALIVE=0 (no KeepAlive:
// the nodes' launcher probes its links itself).
func (s *Spec) FromEnv(getenv func(string) string) {
	s.Agent, s.Iface = getenv("BEFF_LAUNCH_AGENT"), getenv("BEFF_LAUNCH_IFACE")
	s.Yield = s.Yield || getenv("BEFF_LAUNCH_YIELD") == "1"
	if getenv("BEFF_LAUNCH_KEEPALIVE") == "0" {
		s.KeepAlive = false
	}
}

// A Cmd is a job's command line: Argv[0] is the launcher; Env holds what
// the launcher's environment needs besides the caller's.
type Cmd struct {
	Argv []string
	Env  []string
	// Guard is how long the caller lets the launcher run before it kills
	// it: some launchers wait for ever for a node they cannot reach, past
	// their own limit (0: no guard).
	Guard time.Duration
}

// keepAlive are the TCP keepalive settings of Open MPI's runtime: about
// 16 s from a node's silence to the end of the job.
var keepAlive = [][2]string{{"oob_tcp_keepalive_time", "10"}, {"oob_tcp_keepalive_intvl", "2"}, {"oob_tcp_keepalive_probes", "3"}}

// Command is the command line that runs prog with args as the job s.
func (l *Launcher) Command(s Spec, prog string, args ...string) Cmd {
	c := Cmd{Argv: append([]string{l.Path}, l.Prefix...)}
	flag := l.NumProcFlag
	if flag == "" {
		flag = defaultNumProcFlag(l.Family)
	}
	c.Argv = append(c.Argv, flag, strconv.Itoa(s.NP))
	switch l.Family {
	case OpenMPI4, OpenMPI5:
		c.openMPI(l.Family, s)
	case Hydra:
		c.hydra(s)
	case Srun:
		c.srun(l.PMI, s)
	default:
		c.Env = append(c.Env, s.Env...)
		if s.Preload != "" {
			c.Env = append(c.Env, "LD_PRELOAD="+s.Preload)
		}
	}
	if s.Timeout > 0 {
		c.Guard = s.Timeout + 10*time.Second
		if l.Family == OpenMPI4 || l.Family == OpenMPI5 {
			c.Guard = s.Timeout + 30*time.Second // mpirun's own limit comes first
		}
	}
	c.Argv = append(c.Argv, l.PreFlags...)
	c.Argv = append(c.Argv, s.Flags...)
	c.Argv = append(c.Argv, prog)
	return Cmd{Argv: append(c.Argv, args...), Env: c.Env, Guard: c.Guard}
}

func defaultNumProcFlag(f Family) string {
	if f == OpenMPI4 || f == OpenMPI5 {
		return "-np"
	}
	return "-n"
}

// openMPI adds the flags of Open MPI's mpirun: 4 (ORTE) takes its
// runtime's settings with --mca, 5 (PRRTE) with --prtemca; both pass
// environment variables on with -x and refuse root unless told.
func (c *Cmd) openMPI(f Family, s Spec) {
	if s.Timeout > 0 {
		c.Argv = append(c.Argv, "--timeout", seconds(s.Timeout))
	}
	if s.KeepAlive {
		mca := "--mca"
		if f == OpenMPI5 {
			mca = "--prtemca"
		}
		for _, kv := range keepAlive {
			c.Argv = append(c.Argv, mca, kv[0], kv[1])
		}
	}
	if s.Oversubscribe {
		c.Argv = append(c.Argv, "--oversubscribe")
	}
	c.openMPIPlacement(f, s)
	for _, kv := range s.Env {
		c.Argv = append(c.Argv, "-x", kv)
	}
	if s.Preload != "" {
		c.Argv = append(c.Argv, "-x", "LD_PRELOAD="+s.Preload)
	}
	if s.Root {
		c.Env = append(c.Env, "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	}
}

// openMPIPlacement adds Open MPI's settings for the remote shell, the
// interface and yielding: 4 names the remote shell rsh, PRRTE ssh, and
// PRRTE reads its own settings, not OMPI_MCA_* or --mca (the MPI
// library's btl and mpi settings stay --mca).
func (c *Cmd) openMPIPlacement(f Family, s Spec) {
	rt, agent := "--mca", "plm_rsh_"
	if f == OpenMPI5 {
		rt, agent = "--prtemca", "plm_ssh_"
	}
	if s.Agent != "" {
		c.Argv = append(c.Argv, rt, agent+"agent", s.Agent, rt, agent+"no_tree_spawn", "1", "--bind-to", "none")
	}
	if s.Iface != "" {
		c.Argv = append(c.Argv, "--mca", "btl_tcp_if_include", s.Iface, rt, "oob_tcp_if_include", s.Iface)
	}
	if s.Yield {
		c.Argv = append(c.Argv, "--mca", "mpi_yield_when_idle", "1")
	}
}

// hydra adds the flags of Hydra's mpiexec: its limit is an environment
// variable, its variables for the processes -genv.
func (c *Cmd) hydra(s Spec) {
	if s.Timeout > 0 {
		c.Env = append(c.Env, "MPIEXEC_TIMEOUT="+seconds(s.Timeout))
	}
	if s.Agent != "" {
		c.Argv = append(c.Argv, "-launcher", "rsh", "-launcher-exec", s.Agent)
	}
	if s.Iface != "" {
		c.Argv = append(c.Argv, "-iface", s.Iface)
	}
	for _, kv := range s.Env {
		k, v, _ := strings.Cut(kv, "=")
		c.Argv = append(c.Argv, "-genv", k, v)
	}
	if s.Preload != "" {
		c.Argv = append(c.Argv, "-genv", "LD_PRELOAD", s.Preload)
	}
}

// srun adds srun's flags: the library's process-management interface,
// the end of the step when a process fails, and the environment (srun
// passes the caller's on; a preload only to the processes, not to srun).
func (c *Cmd) srun(pmi string, s Spec) {
	if pmi != "" {
		c.Argv = append(c.Argv, "--mpi="+pmi)
	}
	c.Argv = append(c.Argv, "--kill-on-bad-exit=1")
	c.Env = append(c.Env, s.Env...)
	if s.Preload != "" {
		c.Argv = append(c.Argv, "--export=ALL,LD_PRELOAD="+s.Preload)
	}
}

// seconds is d in whole seconds, at least 1.
func seconds(d time.Duration) string {
	return strconv.FormatInt(max(1, int64((d+time.Second-1)/time.Second)), 10)
}
