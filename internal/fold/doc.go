// Package fold turns the benchfmt output of BenchmarkBeff into the b_eff
// protocol: the single number b_eff and the other figures of the seed
// paper's Table 1 (SPEC §1.7 and §1.8).
//
// The benchmark prints one benchfmt line per measurement, named
// pat=<pattern>/L=<bytes>/mthd=<method>, whose MB/s metric is the best of
// the repetitions. Folding them is a pipeline of four steps:
//
//  1. Read (read.go) parses a results file into Runs. A run is one execution
//     of BenchmarkBeff: its configuration (the mpi-procs and beff-* lines)
//     and its measurements. Results of equal configuration whose name occurs
//     for the k-th time belong to run k, so a file written with
//     -test.count=N holds N runs. Problems are returned as *Error values
//     that print as "file:line: msg".
//  2. Fold (fold.go) checks that a run holds every measurement its
//     configuration promises (the patterns of beff.PureSet, the sizes of the
//     beff-sizes line, the methods of each pattern) and computes the figures
//     (see below). Fold refuses partial runs: without all ring and random
//     patterns at every size there is no b_eff.
//  3. WriteText (text.go) renders a Protocol for people: the line
//     "b_eff = <value> MB/s", the figures with their units, the notes and a
//     table per pattern.
//  4. WriteSummary and WriteAppendix (summary.go) render the figures as
//     benchfmt lines named BenchmarkBeffFold/fig=<name>, which can be
//     appended to the results file so that benchstat compares b_eff itself.
//
// For each pattern and size the best bandwidth over the methods, best, enters
//
//	b_eff = logavg( logavg_rings(avg_L best), logavg_random(avg_L best) )
//
// through beff.Beff (logavg: geometric mean, avg_L: arithmetic mean over the
// sizes); the same with only L = Lmax gives b_eff at Lmax. Latencies come
// from the loop times of the 1-byte measurements, not from the rounded
// bandwidths.
//
// The package computes without MPI; the measurement side lives in package
// harness, the pattern definitions and the formula in internal/beff.
package fold
