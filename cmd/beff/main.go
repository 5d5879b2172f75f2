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
//	gate    decide whether new runs got worse than base runs by more than P% (CI)
//	report  write a static web site with the runs, their plots and a comparison page
//	conformance  put beff beside the reference codes: medians and ratios over interleaved rounds
//	run     run the suites as an MPI job the way this machine launches one, and store the results
//	launch  start a program as an MPI job with this machine's launcher and its family's flags
//	build-id  identify the MPI a build compiles against (make build passes it to cgo)
//	mpi     say which MPI beff builds with and launches with here
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
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/crash"
	"github.com/beff-suite/beff/internal/exitcode"
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
	{"gate", "decide whether new runs got worse than base runs by more than P% (CI)", gateMain},
	{"report", "write a static web site with the runs, their plots and a comparison page", reportMain},
	{"conformance", "put beff beside the reference codes: medians and ratios over interleaved rounds", conformanceMain},
	{"run", "run the suites as an MPI job the way this machine launches one, and store the results", runMain},
	{"launch", "start a program as an MPI job with this machine's launcher and its family's flags", launchMain},
	{"build-id", "identify the MPI a build compiles against (make build passes it to cgo)", buildIDMain},
	{"mpi", "say which MPI beff builds with and launches with here", mpiMain},
}

// Exit codes: the table of package exitcode, one for every command and
// job.
const (
	exitOK       = exitcode.OK
	exitFail     = exitcode.Failed   // failed otherwise: an output could not be written
	exitBadInput = exitcode.BadInput // bad flags, arguments or files: nothing decided
	// exitInternal: a bug of beff (a panic), reported in one line
	exitInternal = exitcode.Internal
	// exitGateFail: beff gate found a figure significantly worse
	exitGateFail = exitcode.GateFail
	// exitInconclusive: beff gate cannot tell a drop from the sides' spread
	exitInconclusive = exitcode.Inconclusive
	// exitFindings: beff fold -exit-findings: a run names something slow
	exitFindings = exitcode.Findings
)

// beffMain runs the command line args (without the program name), writing
// to stdout and stderr (through cleanWriters: no control character of a
// results file reaches a terminal), and returns the exit code.
func beffMain(stdout, stderr io.Writer, args []string) int {
	out, errs := newCleanWriter(stdout), newCleanWriter(stderr)
	defer out.Flush()
	defer errs.Flush()
	return runCommand(out, errs, args)
}

// runCommand runs the command line args.
func runCommand(stdout, stderr io.Writer, args []string) int {
	if len(args) == 0 {
		usage(stderr)
		return exitBadInput
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
	return exitBadInput
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
	fmt.Fprintf(w, "\nExit codes, of every command and every job:\n")
	for _, c := range exitcode.Table {
		code := strconv.Itoa(c.Code)
		if c.Code == exitcode.Signal {
			code = "128+n"
		}
		fmt.Fprintf(w, "  %-5s %s\n", code, plainText(c.Meaning))
	}
	fmt.Fprintf(w, "\nRun 'beff <command> -h' for the flags of a command.\n")
}

// plainText drops the backquotes of markdown code from s.
func plainText(s string) string { return strings.ReplaceAll(s, "`", "") }

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
		return exitBadInput, false
	}
	return 0, true
}
