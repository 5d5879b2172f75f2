package launch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// A System is what finding a launcher looks at: the environment, the
// programs on PATH, and what a program prints for --version. Tests give
// their own.
type System struct {
	Getenv   func(string) string
	LookPath func(string) (string, error)
	// Readlink reads a symbolic link (Debian's alternatives are chains
	// of them).
	Readlink func(string) (string, error)
	// Exists reports whether a file is there.
	Exists func(string) bool
	// Version runs a launcher (its path and the words of its command
	// before its flags) with --version and returns what it printed.
	Version func(argv ...string) (string, error)
}

// Host is the System of this process.
var Host = System{Getenv: os.Getenv, LookPath: exec.LookPath, Readlink: os.Readlink, Exists: exists, Version: version}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// version runs argv --version for at most 20 s.
func version(argv ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, argv[0], append(argv[1:], "--version")...).CombinedOutput()
	if len(out) > 0 {
		err = nil // some launchers exit non-zero after printing their version
	}
	return string(out), err
}

// ErrNoLauncher says that no launcher was found.
var ErrNoLauncher = errors.New("no MPI launcher found")

// Find finds the launcher of this machine's MPI:
//   - inside a Slurm allocation (SLURM_JOB_ID), srun, unless BEFF_NO_SRUN
//     is set; its --mpi follows the family of the library's own launcher
//     (pmix for Open MPI, pmi2 for Hydra), unless SLURM_MPI_TYPE says;
//   - else MPIEXEC, with MPIEXEC_NUMPROC_FLAG and MPIEXEC_PREFLAGS (the
//     names CMake's FindMPI uses); MPIEXEC may be a command of several
//     words (a wrapper and its arguments), split at spaces;
//   - else the launcher beside the MPI compiler wrapper (MPICC, default
//     mpicc on PATH): mpiexec.X beside mpicc.X, else mpiexec or mpirun in
//     its directory;
//   - else mpiexec or mpirun on PATH.
func (sys System) Find() (*Launcher, error) {
	own, ownErr := sys.ownLauncher()
	if sys.Getenv("SLURM_JOB_ID") != "" && sys.Getenv("BEFF_NO_SRUN") == "" {
		path, err := sys.LookPath("srun")
		if err != nil {
			return nil, fmt.Errorf("in Slurm job %s but no srun on PATH (BEFF_NO_SRUN=1 launches with MPIEXEC or mpiexec)", sys.Getenv("SLURM_JOB_ID"))
		}
		l := sys.identify(path)
		l.Family, l.Library = Srun, ""
		if own != nil {
			l.Library = own.Family
			if sys.Getenv("SLURM_MPI_TYPE") == "" {
				l.PMI = pmiOf(own.Family)
			}
		}
		return l, nil
	}
	return own, ownErr
}

// ownLauncher is the library's own launcher (everything but srun).
func (sys System) ownLauncher() (*Launcher, error) {
	if words := strings.Fields(sys.Getenv("MPIEXEC")); len(words) > 0 {
		path, err := sys.LookPath(words[0])
		if err != nil {
			return nil, fmt.Errorf("MPIEXEC=%s: %v", sys.Getenv("MPIEXEC"), err)
		}
		l := sys.identify(path, words[1:]...)
		l.NumProcFlag = sys.Getenv("MPIEXEC_NUMPROC_FLAG")
		if pre := strings.Fields(sys.Getenv("MPIEXEC_PREFLAGS")); len(pre) > 0 {
			l.PreFlags = pre
		}
		return l, nil
	}
	for _, path := range sys.besideCompiler() {
		if sys.Exists(path) {
			return sys.identify(path), nil
		}
	}
	for _, n := range []string{"mpiexec", "mpirun"} {
		if path, err := sys.LookPath(n); err == nil {
			return sys.identify(path), nil
		}
	}
	return nil, fmt.Errorf("%w: load your MPI (e.g. module load openmpi), set MPIEXEC (and MPICC), or on Debian run make deps", ErrNoLauncher)
}

// besideCompiler lists, in order, where the launcher of the compiler
// wrapper MPICC (default mpicc) would be: along the chain of links from
// it to its program, mpiexec.X and mpirun.X beside a link named mpicc.X
// (Debian: mpicc → /etc/alternatives/mpi → mpicc.openmpi → opal_wrapper),
// then mpiexec and mpirun in the directory of each link.
func (sys System) besideCompiler() []string {
	cc := sys.Getenv("MPICC")
	if cc == "" {
		cc = "mpicc"
	}
	path, err := sys.LookPath(strings.Fields(cc + " x")[0])
	if err != nil {
		return nil
	}
	chain := sys.links(path)
	var out []string
	for _, p := range chain {
		dir, base := filepath.Split(p)
		if _, suffix, ok := strings.Cut(base, "."); ok { // mpicc.openmpi, mpicc.mpich
			out = append(out, filepath.Join(dir, "mpiexec."+suffix), filepath.Join(dir, "mpirun."+suffix))
		}
	}
	for _, p := range chain {
		out = append(out, filepath.Join(filepath.Dir(p), "mpiexec"), filepath.Join(filepath.Dir(p), "mpirun"))
	}
	return out
}

// links is path and the links it leads through, at most 16.
func (sys System) links(path string) []string {
	chain := []string{path}
	for range 16 {
		target, err := sys.Readlink(path)
		if err != nil {
			break
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
		chain = append(chain, path)
	}
	return chain
}

// identify asks the launcher at path (with the words of its command
// before its flags) for its version.
func (sys System) identify(path string, prefix ...string) *Launcher {
	out, err := sys.Version(append([]string{path}, prefix...)...)
	if len(prefix) == 0 {
		prefix = nil
	}
	if err != nil {
		return &Launcher{Path: path, Prefix: prefix, Family: Generic, Version: "unknown (" + err.Error() + ")", Library: Generic}
	}
	f, name := Identify(out)
	return &Launcher{Path: path, Prefix: prefix, Family: f, Version: name, Library: f}
}
