package launch

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIdentify(t *testing.T) {
	tests := []struct {
		name, out string
		family    Family
		version   string
	}{
		{"Open MPI 4.1", "mpirun (Open MPI) 4.1.4\n\nReport bugs to http://www.open-mpi.org/community/help/\n", OpenMPI4, "Open MPI 4.1.4"},
		{"Open MPI 4.1's mpiexec", "mpiexec (OpenRTE) 4.1.4\n", OpenMPI4, "Open MPI 4.1.4"},
		{"Open MPI 5.0", "mpirun (Open MPI) 5.0.7\n\nReport bugs to https://www.open-mpi.org/community/help/\n", OpenMPI5, "Open MPI 5.0.7"},
		{"Open MPI 10", "mpirun (Open MPI) 10.0.0\n", OpenMPI5, "Open MPI 10.0.0"},
		{"prterun", "prterun (PRRTE) 3.0.8\n", OpenMPI5, "PRRTE 3.0.8"},
		{"MPICH's Hydra", "HYDRA build details:\n    Version:                                 4.2.1\n    Release Date:                            Wed Apr 17\n", Hydra, "Hydra 4.2.1"},
		{"Intel MPI", "Intel(R) MPI Library for Linux* OS, Version 2021.10 Build 20230619 (id: c2e19c2f3e)\nCopyright 2003-2023, Intel Corporation.\n", Hydra, "Intel MPI 2021.10"},
		{"srun", "slurm 22.05.8\n", Srun, "Slurm 22.05.8"},
		{"srun of Debian", "slurm-wlm 24.11.5\n", Srun, "Slurm 24.11.5"},
		{"unknown", "aprun (ALPS) 6.6.59\nmore\n", Generic, "aprun (ALPS) 6.6.59"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, v := Identify(tc.out)
			assert.Equal(t, tc.family, f)
			assert.Equal(t, tc.version, v)
		})
	}
}

func TestCommand(t *testing.T) {
	full := Spec{NP: 4, Oversubscribe: true, Timeout: 300 * time.Second, Preload: "/p/y.so", Root: true, KeepAlive: true,
		Env: []string{"A=1"}, Flags: []string{"--host", "n0:2,n1:2"}}
	tests := []struct {
		name string
		l    Launcher
		s    Spec
		want Cmd
	}{
		{"Open MPI 4, everything", Launcher{Path: "mpirun", Family: OpenMPI4}, full, Cmd{
			Argv: strings.Fields("mpirun -np 4 --timeout 300 --mca oob_tcp_keepalive_time 10 --mca oob_tcp_keepalive_intvl 2 --mca oob_tcp_keepalive_probes 3 --oversubscribe -x A=1 -x LD_PRELOAD=/p/y.so --host n0:2,n1:2 ./beff.test -x"),
			Env:  []string{"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"}, Guard: 330 * time.Second}},
		{"Open MPI 5: PRRTE's settings", Launcher{Path: "mpirun", Family: OpenMPI5}, Spec{NP: 2, KeepAlive: true}, Cmd{
			Argv: strings.Fields("mpirun -np 2 --prtemca oob_tcp_keepalive_time 10 --prtemca oob_tcp_keepalive_intvl 2 --prtemca oob_tcp_keepalive_probes 3 ./beff.test -x")}},
		{"Hydra, everything", Launcher{Path: "mpiexec.hydra", Family: Hydra}, full, Cmd{
			Argv: strings.Fields("mpiexec.hydra -n 4 -genv A 1 -genv LD_PRELOAD /p/y.so --host n0:2,n1:2 ./beff.test -x"),
			Env:  []string{"MPIEXEC_TIMEOUT=300"}, Guard: 310 * time.Second}},
		{"Open MPI 4 on nodes reached through an agent", Launcher{Path: "mpirun", Family: OpenMPI4}, Spec{NP: 2, Agent: "/run/a", Iface: "eth0", Yield: true}, Cmd{
			Argv: strings.Fields("mpirun -np 2 --mca plm_rsh_agent /run/a --mca plm_rsh_no_tree_spawn 1 --bind-to none --mca btl_tcp_if_include eth0 --mca oob_tcp_if_include eth0 --mca mpi_yield_when_idle 1 ./beff.test -x")}},
		{"Open MPI 5 on nodes reached through an agent: PRRTE's names", Launcher{Path: "mpirun", Family: OpenMPI5}, Spec{NP: 2, Agent: "/run/a", Iface: "eth0", Yield: true}, Cmd{
			Argv: strings.Fields("mpirun -np 2 --prtemca plm_ssh_agent /run/a --prtemca plm_ssh_no_tree_spawn 1 --bind-to none --mca btl_tcp_if_include eth0 --prtemca oob_tcp_if_include eth0 --mca mpi_yield_when_idle 1 ./beff.test -x")}},
		{"Hydra on nodes reached through an agent", Launcher{Path: "mpiexec", Family: Hydra}, Spec{NP: 2, Agent: "/run/a", Iface: "eth0", Yield: true}, Cmd{
			Argv: strings.Fields("mpiexec -n 2 -launcher rsh -launcher-exec /run/a -iface eth0 ./beff.test -x")}},
		{"srun with PMIx", Launcher{Path: "srun", Family: Srun, PMI: "pmix"}, Spec{NP: 6, Timeout: time.Minute, Preload: "/p/y.so"}, Cmd{
			Argv: strings.Fields("srun -n 6 --mpi=pmix --kill-on-bad-exit=1 --export=ALL,LD_PRELOAD=/p/y.so ./beff.test -x"), Guard: 70 * time.Second}},
		{"a wrapper's words first", Launcher{Path: "/w/cluster.sh", Prefix: []string{"mpirun", "c1"}, Family: Hydra}, Spec{NP: 2}, Cmd{
			Argv: strings.Fields("/w/cluster.sh mpirun c1 -n 2 ./beff.test -x")}},
		{"srun, Slurm's default interface", Launcher{Path: "srun", Family: Srun}, Spec{NP: 1}, Cmd{
			Argv: strings.Fields("srun -n 1 --kill-on-bad-exit=1 ./beff.test -x")}},
		{"a launcher beff does not know, as CMake's variables say", Launcher{Path: "aprun", Family: Generic, NumProcFlag: "-N", PreFlags: []string{"-d", "1"}},
			Spec{NP: 8, Env: []string{"A=1"}, Timeout: 1500 * time.Millisecond}, Cmd{
				Argv: strings.Fields("aprun -N 8 -d 1 ./beff.test -x"), Env: []string{"A=1"}, Guard: 11500 * time.Millisecond}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.l.Command(tc.s, "./beff.test", "-x"))
		})
	}
	assert.Equal(t, "2", seconds(1500*time.Millisecond), "a limit is rounded up to whole seconds")
}

// fakeSystem is a machine with the given environment, files (path →
// what it prints for --version; a link is "-> target"), and PATH.
func fakeSystem(env map[string]string, files map[string]string, dirs ...string) System {
	resolve := func(p string) (string, error) {
		for range 10 {
			v, ok := files[p]
			if !ok {
				return "", fs.ErrNotExist
			}
			if !strings.HasPrefix(v, "-> ") {
				return p, nil
			}
			target := strings.TrimPrefix(v, "-> ")
			if !strings.HasPrefix(target, "/") {
				target = path.Join(path.Dir(p), target)
			}
			p = target
		}
		return "", errors.New("too many links")
	}
	return System{
		Getenv: func(k string) string { return env[k] },
		LookPath: func(n string) (string, error) {
			if strings.Contains(n, "/") {
				if _, ok := files[n]; ok {
					return n, nil
				}
				return "", fs.ErrNotExist
			}
			for _, d := range dirs {
				if _, ok := files[d+"/"+n]; ok {
					return d + "/" + n, nil
				}
			}
			return "", fmt.Errorf("exec: %q: executable file not found in $PATH", n)
		},
		Readlink: func(p string) (string, error) {
			if v, ok := strings.CutPrefix(files[p], "-> "); ok {
				return v, nil
			}
			return "", errors.New("not a link")
		},
		Exists: func(p string) bool { _, ok := files[p]; return ok },
		Version: func(argv ...string) (string, error) {
			r, err := resolve(argv[0])
			if err != nil {
				return "", err
			}
			if files[r] == "" {
				return "", errors.New("exit status 1")
			}
			return files[r], nil
		},
	}
}

const (
	ompi4 = "mpirun (Open MPI) 4.1.4\n"
	ompi5 = "mpirun (Open MPI) 5.0.7\n"
	hydra = "HYDRA build details:\n    Version:   4.2.1\n"
	slurm = "slurm 22.05.8\n"
	cc    = "" // a compiler wrapper prints no launcher version
)

// debian is Debian with both libraries, Open MPI chosen as the
// alternative.
var debian = map[string]string{
	"/usr/bin/mpicc": "-> /etc/alternatives/mpi", "/etc/alternatives/mpi": "-> /usr/bin/mpicc.openmpi",
	"/usr/bin/mpicc.openmpi": "-> opal_wrapper", "/usr/bin/opal_wrapper": cc, "/usr/bin/mpicc.mpich": cc,
	"/usr/bin/mpiexec": "-> /etc/alternatives/mpiexec", "/etc/alternatives/mpiexec": "-> /usr/bin/mpiexec.openmpi",
	"/usr/bin/mpiexec.openmpi": "-> orterun", "/usr/bin/orterun": ompi4, "/usr/bin/mpirun.openmpi": "-> orterun",
	"/usr/bin/mpiexec.mpich": "-> mpiexec.hydra", "/usr/bin/mpiexec.hydra": hydra,
	"/usr/bin/srun": slurm,
}

func TestFind(t *testing.T) {
	module := map[string]string{"/opt/ompi5/bin/mpicc": cc, "/opt/ompi5/bin/mpirun": ompi5, "/opt/ompi5/bin/mpiexec": "-> mpirun", "/usr/bin/mpiexec": hydra}
	tests := []struct {
		name    string
		env     map[string]string
		files   map[string]string
		path    []string
		want    Launcher
		wantErr string
	}{
		{"Debian: the launcher of the chosen alternative", nil, debian, []string{"/usr/bin"},
			Launcher{Path: "/usr/bin/mpiexec.openmpi", Family: OpenMPI4, Version: "Open MPI 4.1.4", Library: OpenMPI4}, ""},
		{"Debian, MPICC=mpicc.mpich: MPICH's, whatever the alternative", map[string]string{"MPICC": "mpicc.mpich"}, debian, []string{"/usr/bin"},
			Launcher{Path: "/usr/bin/mpiexec.mpich", Family: Hydra, Version: "Hydra 4.2.1", Library: Hydra}, ""},
		{"a module's prefix first on PATH: the mpiexec beside its mpicc, not the system's", nil, module, []string{"/opt/ompi5/bin", "/usr/bin"},
			Launcher{Path: "/opt/ompi5/bin/mpiexec", Family: OpenMPI5, Version: "Open MPI 5.0.7", Library: OpenMPI5}, ""},
		{"MPIEXEC and CMake's flags", map[string]string{"MPIEXEC": "/opt/x/bin/xrun", "MPIEXEC_NUMPROC_FLAG": "-N", "MPIEXEC_PREFLAGS": "-d 1"},
			map[string]string{"/opt/x/bin/xrun": "xrun 1.0\n"}, nil,
			Launcher{Path: "/opt/x/bin/xrun", Family: Generic, Version: "xrun 1.0", NumProcFlag: "-N", PreFlags: []string{"-d", "1"}, Library: Generic}, ""},
		{"MPIEXEC, a command of several words", map[string]string{"MPIEXEC": "/w/cluster.sh mpirun c1"},
			map[string]string{"/w/cluster.sh": hydra}, nil,
			Launcher{Path: "/w/cluster.sh", Prefix: []string{"mpirun", "c1"}, Family: Hydra, Version: "Hydra 4.2.1", Library: Hydra}, ""},
		{"MPIEXEC that is not there", map[string]string{"MPIEXEC": "/opt/none/mpiexec"}, debian, []string{"/usr/bin"},
			Launcher{}, "MPIEXEC=/opt/none/mpiexec: file does not exist"},
		{"no compiler wrapper: mpiexec on PATH", nil, map[string]string{"/usr/bin/mpiexec": hydra}, []string{"/usr/bin"},
			Launcher{Path: "/usr/bin/mpiexec", Family: Hydra, Version: "Hydra 4.2.1", Library: Hydra}, ""},
		{"in a Slurm job: srun, PMIx for Open MPI", map[string]string{"SLURM_JOB_ID": "7"}, debian, []string{"/usr/bin"},
			Launcher{Path: "/usr/bin/srun", Family: Srun, Version: "Slurm 22.05.8", PMI: "pmix", Library: OpenMPI4}, ""},
		{"in a Slurm job: srun, PMI-2 for MPICH", map[string]string{"SLURM_JOB_ID": "7", "MPICC": "mpicc.mpich"}, debian, []string{"/usr/bin"},
			Launcher{Path: "/usr/bin/srun", Family: Srun, Version: "Slurm 22.05.8", PMI: "pmi2", Library: Hydra}, ""},
		{"in a Slurm job with SLURM_MPI_TYPE: Slurm's choice", map[string]string{"SLURM_JOB_ID": "7", "SLURM_MPI_TYPE": "cray_shasta"}, debian, []string{"/usr/bin"},
			Launcher{Path: "/usr/bin/srun", Family: Srun, Version: "Slurm 22.05.8", Library: OpenMPI4}, ""},
		{"in a Slurm job, BEFF_NO_SRUN", map[string]string{"SLURM_JOB_ID": "7", "BEFF_NO_SRUN": "1"}, debian, []string{"/usr/bin"},
			Launcher{Path: "/usr/bin/mpiexec.openmpi", Family: OpenMPI4, Version: "Open MPI 4.1.4", Library: OpenMPI4}, ""},
		{"in a Slurm job without srun", map[string]string{"SLURM_JOB_ID": "7"}, map[string]string{"/usr/bin/mpiexec": hydra}, []string{"/usr/bin"},
			Launcher{}, "in Slurm job 7 but no srun on PATH"},
		{"no MPI at all", nil, map[string]string{}, []string{"/usr/bin"},
			Launcher{}, "no MPI launcher found: load your MPI (e.g. module load openmpi), set MPIEXEC (and MPICC), or on Debian run make deps"},
		{"a launcher that prints no version", nil, map[string]string{"/usr/bin/mpiexec": ""}, []string{"/usr/bin"},
			Launcher{Path: "/usr/bin/mpiexec", Family: Generic, Version: "unknown (exit status 1)", Library: Generic}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := fakeSystem(tc.env, tc.files, tc.path...).Find()
			if tc.wantErr != "" {
				assert.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, *l)
		})
	}
}
