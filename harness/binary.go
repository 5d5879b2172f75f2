package harness

import (
	"flag"
	"time"
)

// The flags of the harness itself, on the flag set the binary's main owns
// (Main puts them there, beside the suites' own): nothing of the harness
// or of a suite registers a flag at package level.
type flags struct {
	fs       *flag.FlagSet
	thread   *string // -mpi.thread
	progress *string // -progress
	out      *string // -out
	skew     *string // -clock.skew (tests only)
	// err is what parsing the command line found wrong ("" when nothing):
	// said once, by rank 0, after MPI is up (setupOutcome), so that a
	// misspelt flag on 10^5 processes prints one line, not 10^5 usages.
	err string
}

func newFlags(fs *flag.FlagSet) *flags {
	return &flags{fs: fs,
		thread:   fs.String("mpi.thread", "single", "MPI thread level to ask for: single (default: what a plain C program gets from MPI_Init; beff makes every MPI call from the thread that initialised MPI), funneled, serialized or multiple"),
		progress: fs.String("progress", progressAuto, "how often rank 0 writes the progress to stderr: terminal (every 2 s), log (at every tenth of the predicted time, at least once a minute: for batch logs), off, or auto (terminal when stderr is one, else log; beff run passes what its own stderr is)"),
		skew:     fs.String("clock.skew", "", "tests only: make chosen processes' clocks run fast by a rate, ppm[@ranks] (ranks: odd, the default, or a list such as 1,3,8-15; a negative ppm runs them slow), to test the model of the clocks against drift (docs/clocks.md)"),
		out:      fs.String("out", "", "the results file: rank 0 writes every output line to it, whole and in order, as it is measured (a new file; its directory must exist); stdout keeps a copy"),
	}
}

// Flags puts the harness's own flags on fs, for a program that lists the
// flags of the binary (the documentation's tests); Main does it itself.
func Flags(fs *flag.FlagSet) { newFlags(fs) }

// WatchdogFlag defines the flag -<prefix>.watchdog of a suite on fs.
func WatchdogFlag(fs *flag.FlagSet, prefix, suite string) *time.Duration {
	return fs.Duration(prefix+".watchdog", DefaultWatchdog, suite+": end the job when a measurement's loop makes no progress (no step of it ends) for this long "+
		fmtWatchdog())
}
