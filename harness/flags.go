package harness

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// parseFlags parses the command line without exiting on an error (the
// flag package's own parse prints the error and the whole usage from
// every process): nil, flag.ErrHelp for -h, or the error in one sentence.
// The flags' values are shared with main, the binary's flag set, which
// parses the line again when it is right, so that its Visit sees what was
// set.
func parseFlags(main *flag.FlagSet, args []string) error {
	fs := flag.NewFlagSet(os.Args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	main.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) })
	err := fs.Parse(args)
	if err == nil {
		return main.Parse(args)
	}
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return errors.New(explainFlagError(err.Error(), fs))
}

// explainFlagError adds to the flag package's message the names of the
// flags nearest to an unknown one, or the usage of a flag whose value did
// not parse.
func explainFlagError(msg string, fs *flag.FlagSet) string {
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		if near := nearestFlags(strings.TrimPrefix(name, "-"), fs); len(near) > 0 {
			return fmt.Sprintf("%s (did you mean -%s?); -h lists the flags", msg, strings.Join(near, " or -"))
		}
		return msg + "; -h lists the flags"
	}
	if _, rest, ok := strings.Cut(msg, " for flag -"); ok {
		name, _, _ := strings.Cut(rest, ":")
		if f := fs.Lookup(name); f != nil {
			return fmt.Sprintf("%s (-%s: %s)", msg, name, firstLine(f.Usage))
		}
	}
	return msg
}

// nearestFlags are the flags an unknown name most likely meant: those it
// names without their package (-mem for -beff.mem, -bench for
// -test.bench), else those at the smallest edit distance if it is small
// for the name's length. At most three, sorted.
func nearestFlags(name string, fs *flag.FlagSet) []string {
	var suffix, near []string
	best := max(2, len(name)/4) + 1
	fs.VisitAll(func(f *flag.Flag) {
		if strings.HasSuffix(f.Name, "."+name) {
			suffix = append(suffix, f.Name)
		}
		switch d := editDistance(name, f.Name); {
		case d < best:
			best, near = d, []string{f.Name}
		case d == best:
			near = append(near, f.Name)
		}
	})
	out := near
	if len(suffix) > 0 {
		out = suffix
	}
	sort.Strings(out)
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// DecideSeed is the seed a suite's flag -flagName gives (value, an
// unsigned integer), or one drawn from the clock when the flag is empty.
func DecideSeed(flagName, value string) (uint64, error) {
	if value == "" {
		return uint64(time.Now().UnixNano()), nil
	}
	v, err := strconv.ParseUint(value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("-%s=%q: the seed must be an unsigned integer", flagName, value)
	}
	return v, nil
}

// ResumeSeed is the seed a resumed run takes from its partial file's
// configuration line key (file's keys to values): ok is false where the
// file has none or the suite's seed flag, flagValue, was given (the flag
// wins); a value that is not an unsigned integer is refused.
func ResumeSeed(file map[string]string, key, flagValue string) (seed uint64, ok bool, err error) {
	v := file[key]
	if v == "" || flagValue != "" {
		return 0, false, nil
	}
	seed, err = strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("%s: %q is not a seed", key, v)
	}
	return seed, true, nil
}

// WindowFailure says why a one-sided window could not be made: this
// rank's error (nil: another process failed), and what makes one where
// the job's library is Open MPI 4, which makes none across nodes over TCP
// with its default osc/rdma.
func (j *Job) WindowFailure(why error) string {
	text := "it failed on another process"
	if why != nil {
		text = why.Error()
	}
	if strings.HasPrefix(j.Library, "Open MPI v4.") {
		text += "; Open MPI 4 makes windows across nodes over TCP with --mca osc pt2pt"
	}
	return text
}
