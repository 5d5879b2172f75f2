package launch

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// BuildEnv is the environment under which go build compiles the binding
// (package mpi, -tags mpi) against the MPI on PATH: cgo's compiler is the
// library's compiler wrapper, MPICC (default mpicc); where MPI_PC names a
// pkg-config package instead (a library without a wrapper), its flags.
func BuildEnv() ([]string, error) {
	if pc := os.Getenv("MPI_PC"); pc != "" {
		cflags, err1 := exec.Command("pkg-config", "--cflags", pc).Output()
		libs, err2 := exec.Command("pkg-config", "--libs", pc).Output()
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("MPI_PC=%s: pkg-config does not know it", pc)
		}
		return []string{"CGO_CFLAGS=" + strings.TrimSpace(string(cflags)), "CGO_LDFLAGS=" + strings.TrimSpace(string(libs))}, nil
	}
	cc := os.Getenv("MPICC")
	if cc == "" {
		cc = "mpicc"
	}
	if _, err := exec.LookPath(strings.Fields(cc + " x")[0]); err != nil {
		return nil, fmt.Errorf("no MPI compiler wrapper %s on PATH: load your MPI (module load …) or set MPICC", cc)
	}
	return []string{"CC=" + cc}, nil
}
