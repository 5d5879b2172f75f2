// Package exitcode holds beff's exit codes: one table for every command
// (fold, compare, gate, report, conformance, run, launch) and for the
// benchmark binary's jobs, so that no code means two things. The harness
// ends a job with them, the launching side (package launch) tells a job's
// outcome by them, whatever its launcher made of its processes' codes,
// and the beff command returns them.
package exitcode

const (
	OK       = 0 // success: the job's run stored, the file folded, the comparison written, the gate passed
	Failed   = 1 // failed for a reason no other code names
	BadInput = 2 // flags, arguments, files, paths or process counts refused: nothing measured or decided
	// Validation: a received message or a file read back failed
	// validation.
	Validation = 3
	MPI        = 4 // an MPI call failed
	IO         = 5 // a read or write on the file system under test failed
	Watchdog   = 10
	Lost       = 11 // a process of the job was lost
	Record     = 12 // rank 0 could not write the results file (-out)
	// GateFail: beff gate found a figure significantly worse beyond the
	// allowed drop and the sides' spread.
	GateFail = 13
	// Inconclusive: beff gate cannot tell a drop from the sides' spread.
	Inconclusive = 14
	Internal     = 15 // a bug of beff (a panic), reported in one line
	// Findings: beff fold -exit-findings found a run that names
	// something slow in the machine (a node, a link).
	Findings = 16
	Signal   = 128 // + n: ended by signal n
)

// A Code is one row of the table: the code, its name in Go and what it
// means.
type Code struct {
	Code    int
	Name    string
	Meaning string
}

// Table is every exit code of beff, in order. The README prints it (a
// test holds the two together).
var Table = []Code{
	{OK, "OK", "success: the job's run is stored, the files folded, the comparison or site written, the gate passed"},
	{Failed, "Failed", "failed for a reason no other code names: a job's test binary failed, or the fold refused a finished job's output (kept under `results/partial/`); an output could not be written"},
	{BadInput, "BadInput", "bad input: flags, arguments, files, paths or process counts refused, before anything is measured or decided; for the gate also sides it cannot judge (not one configuration, too few launches, a run cut short)"},
	{Validation, "Validation", "a received message or a file read back failed validation"},
	{MPI, "MPI", "an MPI call failed"},
	{IO, "IO", "a read or write on the file system under test failed (b_eff_io)"},
	{Watchdog, "Watchdog", "the watchdog ended the job: a measurement made no progress"},
	{Lost, "Lost", "a process of the job was lost"},
	{Record, "Record", "rank 0 could not write the results file"},
	{GateFail, "GateFail", "`beff gate`: FAIL, a figure got significantly worse by more than the allowed drop and the sides' spread"},
	{Inconclusive, "Inconclusive", "`beff gate`: INCONCLUSIVE, a median is worse by more than the allowed drop but the launches cannot resolve it"},
	{Internal, "Internal", "a bug of beff (a panic), reported in one line with where its details went"},
	{Findings, "Findings", "`beff fold -exit-findings`: a run names something slow in the machine (links: a slow node or a slow link)"},
	{Signal, "Signal", "128 + n: ended by signal n (130: SIGINT, 143: SIGTERM, e.g. `scancel`)"},
}

// Known reports whether code is one of the table's, a signal's included.
func Known(code int) bool {
	if code > Signal && code < Signal+65 {
		return true
	}
	for _, c := range Table {
		if c.Code == code && code != Signal {
			return true
		}
	}
	return false
}
