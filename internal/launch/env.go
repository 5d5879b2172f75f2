package launch

import (
	"os"
	"strconv"
)

// The variables in which each launcher tells a process the job's size and
// its rank (Open MPI, PMIx, Hydra's PMI, Slurm), the first one set winning.
var (
	SizeEnvs = []string{"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS"}
	RankEnvs = []string{"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}
)

// JobSize is the number of processes the launcher says the job has, and
// whether it says so: before MPI_Init, or without MPI at all.
func JobSize() (int, bool) { return firstNumber(SizeEnvs) }

// Rank is this process's rank as the launcher's environment gives it, or
// 0 (a process no launcher started).
func Rank() int {
	n, _ := firstNumber(RankEnvs)
	return n
}

// firstNumber is the value of the first of keys set to a number.
func firstNumber(keys []string) (int, bool) {
	for _, k := range keys {
		if v, ok := os.LookupEnv(k); ok {
			if n, err := strconv.Atoi(v); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}
