// Command beff works with the output of beff's benchmark suites (the list
// is in suites.go).
//
// Usage:
//
//	beff <command> [arguments]
//
// The commands are:
//
//	fold    fold the suites' benchmark output into protocols and figures
//	compare compare runs: folded figures and experiments, benchstat-style
//	gate    exit 1 when new runs are significantly worse than base runs by more than P%
//	report  write a static web site with the runs, their plots and a comparison page
//	conformance  put beff beside the reference codes: medians and ratios over interleaved rounds
//	run     run the suites as an MPI job the way this machine launches one, and store the results
//	launch  start a program as an MPI job with this machine's launcher and its family's flags
//
// Run "beff <command> -h" for the flags of a command.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/beff-suite/beff/internal/crash"
)

func main() {
	boundMemory()
	os.Exit(beffMain(os.Stdout, os.Stderr, os.Args[1:]))
}

// softMemory is the heap at which the garbage collector of beff works
// harder (a soft limit: beff goes on above it). Without it the heap grows
// to twice what is live, and the readers' bound of about 600 MiB (64 MiB
// of input) would not hold: fold -json of a 60 MB file of configuration
// peaked at 730 MB, with it at 460 MB, no slower.
const softMemory = 400 << 20

// boundMemory sets softMemory as the soft memory limit, unless the user
// set one (GOMEMLIMIT).
func boundMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemory)
	}
}

// A command is one subcommand of beff.
type command struct {
	name    string
	summary string
	run     func(stdout, stderr io.Writer, args []string) int
}

// commands lists the subcommands in the order the usage shows them.
var commands = []command{
	{"fold", "fold the suites' benchmark output into protocols and figures", foldMain},
	{"compare", "compare runs: folded figures and experiments, benchstat-style", compareMain},
	{"gate", "exit 1 when new runs are significantly worse than base runs by more than P%", gateMain},
	{"report", "write a static web site with the runs, their plots and a comparison page", reportMain},
	{"conformance", "put beff beside the reference codes: medians and ratios over interleaved rounds", conformanceMain},
	{"run", "run the suites as an MPI job the way this machine launches one, and store the results", runMain},
	{"launch", "start a program as an MPI job with this machine's launcher and its family's flags", launchMain},
}

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // refused input, parse or I/O error
	exitUsage = 2
	// exitInternal: a bug of beff (a panic), reported in one line
	exitInternal = 3
	// exitInconclusive: beff gate cannot tell a drop from the sides' spread
	exitInconclusive = 4
)

// beffMain runs the command line args (without the program name), writing
// to stdout and stderr, and returns the exit code.
func beffMain(stdout, stderr io.Writer, args []string) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] {
			return guarded(c, stdout, stderr, args[1:])
		}
	}
	fmt.Fprintf(stderr, "beff: unknown command %q\n", args[0])
	usage(stderr)
	return exitUsage
}

// guarded runs command c; a panic (a bug of beff, whatever the input)
// becomes one line on stderr that says where its details went, and exit
// code exitInternal.
func guarded(c command, stdout, stderr io.Writer, args []string) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "beff %s: internal error: %v (%s)\n", c.name, v, crash.Save(append([]string{"beff", c.name}, args...), v))
			code = exitInternal
		}
	}()
	return c.run(stdout, stderr, args)
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "usage: beff <command> [arguments]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nSuites (benchmark, definition):\n")
	for _, s := range suites() {
		id := s.ID()
		fmt.Fprintf(w, "  %-11s %s, %s\n", id.Name, id.Benchmark(), id.Doc)
	}
	fmt.Fprintf(w, "\nRun 'beff <command> -h' for the flags of a command.\n")
}

// newFlags makes the flag set of a subcommand: errors and usage go to
// stderr, usage prints the command's usage text and its flags.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args; when the command must stop (-h, or a bad flag,
// already reported) it returns the exit code and false.
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	return 0, true
}
