// Package compare compares b_eff and b_eff_io results: two or more sides,
// each the runs read from one or more results files, in benchstat-style
// tables, and decides whether a new side got worse than a base side (the
// gate of a CI pipeline).
//
// A run is one execution of BenchmarkBeff or BenchmarkBeffIO as package
// fold tells them apart: each file, and each -test.count repetition within
// a file, is one run, so every measurement has one sample per run. The
// pipeline:
//
//  1. Load (side.go) reads the files of a side with fold.ReadFile, folds
//     every run (fold.Fold, fold.FoldIO) and checks that the runs of the
//     side share one configuration (config.go: mpi-procs, beff-lmax,
//     beff-sizes, beff-patterns, beff-random-patterns and beff-mode for
//     b_eff; mpi-procs, beffio-partitions, beffio-mpart, beffio-rewrite,
//     beffio-t-s and beff-mode for b_eff_io). A deliberately partial b_eff
//     run (beff-patterns without every ring and random pattern) has no
//     figures; its experiments are still compared.
//  2. Compare (table.go) builds four tables: the folded figures of b_eff
//     and of b_eff_io (Protocol.Figures, IOProtocol.Figures: one value per
//     run) and the experiments of each, one row per benchmark line name
//     with its MB/s (the phase lines of b_eff_io, which have only a
//     scheduled time, are left out). Each cell summarises the samples of
//     one side by their median and its 95 % confidence interval, as
//     benchstat does (benchmath.AssumeNothing) and as SKaMPI's
//     post-processor combines runs (the median of each measurement); each
//     side after the first is compared with the first by the Mann–Whitney
//     U test. A difference is significant when p < 0.05.
//  3. WriteText (text.go) renders the tables; Gate and WriteGate (gate.go)
//     decide and explain whether the new side is worse than the base side
//     by more than a given percentage anywhere.
//
// The direction of each unit: MB/s and B/F are better when higher, µs,
// min and s when lower.
package compare
