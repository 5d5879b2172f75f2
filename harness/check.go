package harness

import (
	"fmt"
	"io"
	"strings"

	"github.com/beff-suite/beff/internal/launch"
	"github.com/beff-suite/beff/internal/mpi"
)

// checkOnly is the test binary started with launch.CheckEnv=1: it checks
// what of its flags needs no job (the test flags, each selected suite's
// CheckFlags), says which MPI it was compiled against and which it loads,
// and returns the exit code without initialising MPI (launch.CheckBinary
// reads it).
func checkOnly(w io.Writer, f *flags, drivers []*Driver) int {
	err := checkTestFlags(f)
	for _, su := range selected(drivers) {
		if err == nil && su.CheckFlags != nil {
			err = su.CheckFlags()
		}
	}
	line := func(k, v string) { fmt.Fprintf(w, "%s: %s\n", k, strings.Join(strings.Fields(v), " ")) }
	line(launch.BuiltKey, mpi.HeaderVersion())
	loaded, _, _ := strings.Cut(mpi.LibraryVersion(), "\n")
	line(launch.LoadedKey, loaded)
	if err != nil {
		line(launch.CheckKey, err.Error())
		return ExitBadInput
	}
	line(launch.CheckKey, launch.CheckOK)
	return 0
}
