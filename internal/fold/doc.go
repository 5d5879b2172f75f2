// Package fold turns the benchfmt output of BenchmarkBeff into the b_eff
// protocol: the single number b_eff and the other figures of the seed
// paper's Table 1 (SPEC §1.7 and §1.8), and that of BenchmarkBeffIO into
// the b_eff_io protocol (SPEC §2.6 and §2.8; see the section b_eff_io).
//
// The benchmark prints one benchfmt line per measurement, named
// pat=<pattern>/L=<bytes>/mthd=<method>, whose MB/s metric is the best of
// the repetitions. Folding them is a pipeline of four steps, and a fifth
// for programs:
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
//  5. NewJSONFile and WriteJSON (jsonbuild.go; the types in json.go)
//     render protocols as one JSON document for programs, schema
//     beff-fold/1 (docs/fold-json.md): per run the configuration, the
//     validity, the figures, every measurement with its metrics and the
//     pattern tables or partitions; numbers that are not finite become null.
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
// # b_eff_io
//
// The same file may hold the output of BenchmarkBeffIO (SPEC §2): per
// partition n, access method and pattern type one line per pattern
// (n=<n>/acc=<access>/type=<type>/pat=<No>/l=<l>/L=<L>), one line with the
// pattern-type total (…/pat=total, whose MB/s is Σ bytes / Σ time from open
// to close) and per partition and access method a phase line
// (…/type=all/pat=phase). Read collects them into IORuns (ioread.go);
// FoldIO (io.go) refuses incomplete runs and computes
//
//	access-method value = (2·type0 + type1 + type2 + type3 + type4)/6
//	partition value     = 0.25·write + 0.25·rewrite + 0.5·read
//	b_eff_io            = max over the partitions
//
// through beffio.AccessValue and beffio.PartitionValue, the reference code's
// release-2 formula as a secondary figure, the data per access method and
// the validity (VALID, or NOT VALID with every reason); WriteIOText
// (iotext.go) renders it, starting with "b_eff_io = <value> MB/s", and
// WriteSummary adds its figures as BenchmarkBeffIOFold/fig=<name> lines.
//
// The package computes without MPI; the measurement side lives in package
// harness, the pattern definitions and the formulas in internal/beff and
// internal/beffio.
package fold
