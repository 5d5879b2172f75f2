package machine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// KeyMPIEnv is the record's line of the environment settings that change
// how the MPI library and its network layers behave.
const KeyMPIEnv = "mpi-env"

// settingPrefixes are the environment variables of MPI libraries and
// their network layers that change what they do: Open MPI's and PRRTE's
// and PMIx's MCA parameters, UCX, libfabric (Slingshot's CXI among them),
// MPICH and Cray MPICH, Intel MPI, MVAPICH, Omni-Path's PSM, HCOLL.
var settingPrefixes = []string{"OMPI_MCA_", "PRTE_MCA_", "PMIX_MCA_", "UCX_", "FI_", "MPICH_", "MPIR_CVAR_",
	"I_MPI_", "MV2_", "MVP_", "PSM2_", "PSM3_", "HFI_", "HCOLL_"}

// launcherSet are the variables of those prefixes that a launcher sets
// for each process to run the job (its addresses, ids, session
// directories): no setting of the user's, and different in every job.
var launcherSet = []string{"OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix", "OMPI_MCA_initial_wdir",
	"HFI_NO_BACKTRACE", "OMPI_MCA_PREFIXES", "OMPI_MCA_mca_base_component_path", "OMPI_MCA_num_procs", "OMPI_MCA_cpu_type",
	"OMPI_MCA_shmem_RUNTIME_QUERY_hint", "OMPI_MCA_mpi_oversubscribe", "OMPI_MCA_prte_", "OMPI_MCA_opal_",
	"PMIX_MCA_mca_base_component_show_load_errors", "PRTE_MCA_prte_", "PRTE_MCA_ess", "PRTE_MCA_pmix",
	"MPIR_CVAR_CH3_INTERFACE_HOSTNAME", "I_MPI_HYDRA_", "I_MPI_PMI_"}

// Bounds of the mpi-env line.
const (
	maxSettings = 40
	maxEnvLine  = 4000
)

// MPISettings is the mpi-env line of an environment (KEY=VALUE each): the
// settings of settingPrefixes but those a launcher sets, sorted, a value
// with spaces quoted; at most maxSettings and maxEnvLine bytes, then how
// many more; "none" when there is none.
func MPISettings(environ []string) string {
	var kept []string
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !hasPrefix(k, settingPrefixes) || hasPrefix(k, launcherSet) {
			continue
		}
		v = clip(v)
		if v == "" || strings.ContainsAny(v, " \"") {
			v = strconv.Quote(v)
		}
		kept = append(kept, clip(k)+"="+v)
	}
	if len(kept) == 0 {
		return "none"
	}
	sort.Strings(kept)
	var b strings.Builder
	for i, s := range kept {
		if i == maxSettings || b.Len()+len(s) > maxEnvLine {
			fmt.Fprintf(&b, " and %d more", len(kept)-i)
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return b.String()
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
