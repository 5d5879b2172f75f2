// Package launch starts beff's test binary as an MPI job the way the
// machine it runs on wants it: it finds the launcher (srun inside a Slurm
// allocation; else MPIEXEC, the mpiexec beside the MPI compiler wrapper,
// or one on PATH), tells its family from what it prints for --version,
// builds that family's command line (family.go, command.go, find.go),
// and runs a job through its whole life: signals passed on, the outcome
// and its exit code told from the harness's messages and the launcher's,
// the results file kept as partial or handed on (job.go, outcome.go).
//
// It names no suite and no MPI library by build: the families differ
// only in the flags and environment of their launchers.
package launch

import (
	"regexp"
	"strconv"
	"strings"
)

// A Family is a kind of launcher: the flags it takes and how it behaves.
type Family string

const (
	// OpenMPI4 is mpirun of Open MPI up to 4.x (ORTE).
	OpenMPI4 Family = "openmpi4"
	// OpenMPI5 is mpirun or prterun of Open MPI 5 (PRRTE): its runtime
	// settings are PRRTE's (--prtemca, PRTE_MCA_*), its output goes
	// through PMIx's forwarding.
	OpenMPI5 Family = "openmpi5"
	// Hydra is mpiexec of MPICH and of the libraries built on it (Intel
	// MPI, MVAPICH).
	Hydra Family = "hydra"
	// Srun is Slurm's srun, inside an allocation.
	Srun Family = "srun"
	// Generic is a launcher beff does not know: only its process-count
	// flag (MPIEXEC_NUMPROC_FLAG, default -n) and MPIEXEC_PREFLAGS.
	Generic Family = "generic"
)

var (
	openMPIVersion = regexp.MustCompile(`\((?:Open MPI|OpenRTE)\) (\d+)\.(\S+)`)
	prrteVersion   = regexp.MustCompile(`\(PRRTE\) (\S+)`)
	hydraVersion   = regexp.MustCompile(`(?m)^\s*Version:\s*(\S+)`)
	intelVersion   = regexp.MustCompile(`Intel\(R\) MPI Library.*?Version (\S+)`)
	slurmVersion   = regexp.MustCompile(`(?i)^slurm(?:-wlm)? (\S+)`)
)

// Identify tells a launcher's family, and names it with its version,
// from what it printed for --version.
func Identify(version string) (Family, string) {
	if m := openMPIVersion.FindStringSubmatch(version); m != nil {
		name := "Open MPI " + m[1] + "." + m[2]
		if major, _ := strconv.Atoi(m[1]); major < 5 {
			return OpenMPI4, name
		}
		return OpenMPI5, name
	}
	if m := prrteVersion.FindStringSubmatch(version); m != nil {
		return OpenMPI5, "PRRTE " + m[1]
	}
	if m := intelVersion.FindStringSubmatch(version); m != nil {
		return Hydra, "Intel MPI " + strings.TrimSuffix(m[1], ",")
	}
	if strings.Contains(version, "HYDRA build details") {
		name := "Hydra"
		if m := hydraVersion.FindStringSubmatch(version); m != nil {
			name += " " + m[1]
		}
		return Hydra, name
	}
	if m := slurmVersion.FindStringSubmatch(strings.TrimSpace(version)); m != nil {
		return Srun, "Slurm " + m[1]
	}
	first, _, _ := strings.Cut(strings.TrimSpace(version), "\n")
	return Generic, strings.TrimSpace(first)
}

// pmiOf is the process-management interface srun gives processes of a
// library whose own launcher is of family f ("" leaves Slurm's default).
func pmiOf(f Family) string {
	switch f {
	case OpenMPI4, OpenMPI5:
		return "pmix"
	case Hydra:
		return "pmi2"
	}
	return ""
}
