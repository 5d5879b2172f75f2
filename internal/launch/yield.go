package launch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// YieldName is in the file name of the library that makes a polling
// library's waiting processes give up their core (tools/mpich-yield.c).
const YieldName = "mpich-yield"

// LibraryPolls reports, from the library's MPI_Get_library_version, whether
// its processes poll without giving up their core while they wait
// (MPICH and the libraries built on it), which on an oversubscribed node
// makes a message wait for the scheduler's tick unless YieldLib is
// preloaded.
func LibraryPolls(version string) bool {
	return strings.Contains(version, "MPICH") || strings.Contains(version, "Intel(R) MPI") || strings.Contains(version, "MVAPICH")
}

// YieldLib is the library that makes a polling library's waiting processes
// give up their core: BEFF_YIELD_LIB, else built by tools/mpich-yield.sh
// of the working directory or of the running command's.
func YieldLib() (string, error) {
	if lib := os.Getenv("BEFF_YIELD_LIB"); lib != "" {
		return lib, nil
	}
	script := filepath.Join("tools", YieldName+".sh")
	if _, err := os.Stat(script); err != nil {
		if exe, err := os.Executable(); err == nil {
			script = filepath.Join(filepath.Dir(exe), "tools", YieldName+".sh")
		}
	}
	out, err := exec.Command(script).Output()
	if err != nil {
		return "", fmt.Errorf("%s: %v: the processes poll without yielding their cores", script, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Leave ends this process so that any launcher ends the job. A process
// cut off from the job (cutOff: a watchdog ended it) is killed by a
// signal: Hydra takes a process that exits with a code for one that
// ended, and would then wait for ever for its node's report; a process
// killed by a signal makes every launcher end the job. Else it exits with
// code.
func Leave(code int, cutOff bool) {
	if cutOff {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	os.Exit(code)
}
