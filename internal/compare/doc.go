// Package compare compares results: two or more sides, each the runs read
// from one or more results files, in benchstat-style tables, and decides
// whether a new side got worse than a base side (the gate of a CI
// pipeline). It works over the list of suites it is given and names none.
//
// A run is one execution of a suite's benchmark as package results tells
// them apart: each file, and each -test.count repetition within a file,
// is one run, so every measurement has one sample per run. The pipeline:
//
//  1. Load (side.go) reads the files of a side with results.ReadFile,
//     folds every run of every suite (Suite.Fold) and checks that the runs
//     of each suite on the side share one configuration (the settings the
//     suite names with Suite.Settings, config.go). A restricted
//     run (results.ErrRestricted) has no figures; its experiments are still
//     compared.
//  2. Compare (table.go) builds two tables per suite: its folded figures
//     (Folded.Figures: one value per run) and its experiments
//     (Suite.Experiments: one row per measurement). Each cell summarises
//     the samples of one side by their median and its 95 % confidence
//     interval, as benchstat does (benchmath.AssumeNothing) and as
//     SKaMPI's post-processor combines runs (the median of each
//     measurement); each side after the first is compared with the first
//     by the Mann–Whitney U test. A difference is significant when
//     p < 0.05.
//  3. WriteText (text.go) renders the tables; Gate and WriteGate (gate.go)
//     decide and explain whether the new side is worse than the base side
//     by more than a given percentage anywhere.
//
// The direction of each unit is the one the results files declare with
// their Unit lines ("Unit ns/call better=lower", benchfmt's unit
// metadata, which every beff run and fold writes); for a figure of a file
// folded without -append, the one the suite declares for its folded
// figures (Identity.FoldBetter). Sides whose files declare a unit
// differently are refused; a gate refuses rows whose unit has no
// direction.
package compare
