// Package exitcode holds the exit codes of a beff job, one table for the
// harness that ends a job with them and for the launching side (package
// launch) that tells a job's outcome, whatever its launcher made of its
// processes' codes.
package exitcode

const (
	Failed     = 1  // anything else
	BadInput   = 2  // flags, paths or rank counts refused before measuring
	Validation = 3  // a received message failed validation
	MPI        = 4  // an MPI call failed
	Suite      = 5  // the first code a suite may define (5 to 9)
	Watchdog   = 10 // a process's watchdog ended the job
	Lost       = 11 // rank 0 lost another process
	Record     = 12 // the results file (-out) could not be written
)
