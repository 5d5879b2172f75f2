package harness

import (
	"encoding/json"
	"flag"
	"regexp"

	"github.com/beff-suite/beff/internal/results"
)

// A Driver is a suite's MPI side as the harness keeps it, untyped
// (a suite registers a typed Suite, which becomes one); Main sets it up only when
// -test.bench selects its benchmark, so a run of one suite neither checks
// the flags nor prints the configuration of another.
type Driver struct {
	// ID names the suite: its Key keys the suite's settings
	// (Settings), its Benchmark() is the top-level benchmark
	// function that runs it, its Units are the unit lines printed for it.
	ID *results.Identity
	// Setup runs on rank 0 only, after the job is known; it checks the
	// suite's flags and returns its decided settings (broadcast to every
	// rank as JSON, see Session.State) or an error, which stops the job
	// before anything is measured.
	Setup func(job *Job) (any, error)
	// CheckFlags, when set, checks what of the suite's flags needs no
	// job (ranges, names of values): beff run calls it through the test
	// binary before it launches anything (launch.CheckBinary); Setup
	// checks the same.
	CheckFlags func() error
	// Prepare, when set, runs on every rank after Setup's settings are
	// broadcast and before the configuration is printed: the place for
	// collective measurements the configuration reports (the SKaMPI
	// suite's pairs and clock offsets). It returns the settings to keep
	// instead, which must be the same on every rank (take them with
	// Decide).
	Prepare func(s *Session) any
	// Config returns the suite's configuration lines ("key: value").
	Config func(job *Job) []string
}

// A Done is what a suite's Setup returns to end the job at once,
// successfully, without measuring (a dry run): rank 0 writes Text to the
// output and every rank exits 0.
type Done struct{ Text string }

func (d *Done) Error() string { return "done without measuring" }

// selected returns the suites of the list whose benchmark -test.bench
// selects and -test.skip does not skip, in the list's order.
func selected(suites []*Driver) []*Driver {
	var out []*Driver
	for _, s := range suites {
		if benchSelected(flagValue("test.bench"), flagValue("test.skip"), s.ID.Benchmark()) {
			out = append(out, s)
		}
	}
	return out
}

// prepare runs the Prepare of every suite set up and keeps what it
// returns as the suite's settings.
func prepare(s *Session) {
	for _, su := range setUp(s.drivers, &s.Job) {
		if su.Prepare == nil {
			continue
		}
		raw, err := json.Marshal(su.Prepare(s))
		if err != nil {
			s.Fail("keeping the settings of "+su.ID.Name, err)
		}
		s.Job.SuiteState[su.ID.Key] = raw
	}
}

// setUp returns the suites of the list whose settings job holds, in the
// list's order.
func setUp(suites []*Driver, job *Job) []*Driver {
	var out []*Driver
	for _, s := range suites {
		if _, ok := job.SuiteState[s.ID.Key]; ok {
			out = append(out, s)
		}
	}
	return out
}

func flagValue(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// benchSelected reports whether testing runs the top-level benchmark name
// for -test.bench=bench and -test.skip=skip: some alternative of bench
// whose first element matches name, and no alternative of skip that is a
// single element matching it (a skip with deeper elements skips
// sub-benchmarks only). A pattern that does not compile selects
// everything: testing itself reports it.
func benchSelected(bench, skip, name string) bool {
	if bench == "" {
		return false
	}
	if !anyFirst(bench, name, false) {
		return false
	}
	return skip == "" || !anyFirst(skip, name, true)
}

// anyFirst reports whether an alternative of pattern matches name with its
// first element (whole: only alternatives of one element count).
func anyFirst(pattern, name string, whole bool) bool {
	for _, alt := range splitPattern(pattern) {
		if whole && len(alt) > 1 {
			continue
		}
		re, err := regexp.Compile(alt[0])
		if err != nil || re.MatchString(name) {
			return true
		}
	}
	return false
}

// splitPattern splits a -test.bench pattern the way testing does: into
// alternatives at each '|', and each alternative into elements at each
// '/', except inside brackets or parentheses and after a backslash.
func splitPattern(s string) [][]string {
	var alts [][]string
	var elems []string
	brackets, parens, start := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case c == '[':
			brackets++
		case c == ']' && brackets > 0:
			brackets--
		case c == '(' && brackets == 0:
			parens++
		case c == ')' && brackets == 0:
			parens--
		case (c == '/' || c == '|') && brackets == 0 && parens == 0:
			elems = append(elems, s[start:i])
			start = i + 1
			if c == '|' {
				alts, elems = append(alts, elems), nil
			}
		}
	}
	return append(alts, append(elems, s[start:]))
}
