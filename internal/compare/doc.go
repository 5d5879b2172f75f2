// Package compare compares results: two or more sides, each the runs read
// from one or more results files, in benchstat-style tables, and decides
// whether a new side got worse than a base side (the gate of a CI
// pipeline). It works over the list of suites it is given and names none.
//
// One launch (one mpirun: a configuration block of a file) is one sample:
// the median of its -test.count runs, which share its placement, its
// library's choices and the machine's state. The pipeline:
//
//  1. Load (side.go) reads the files of a side with results.ReadFile,
//     folds every run of every suite (Suite.Fold) and checks that the runs
//     of each suite on the side share one configuration (the settings the
//     suite names with Suite.Settings, config.go), but for the settings
//     the suite draws at random (Identity.Drawn: b_eff's seed), whose
//     draws it keeps. A restricted run (results.ErrRestricted) has no
//     figures; its experiments are still compared.
//  2. Compare (table.go) builds two tables per suite: its folded figures
//     (Folded.Figures: one value per launch) and its experiments
//     (Suite.Experiments: one row per measurement). Figures pool across
//     draws; an experiment marked drawn pools only within one, and rows
//     of draws no two sides share are left out with a note. Each cell
//     summarises the samples of one side by their median and its 95 %
//     confidence interval, as benchstat does (benchmath.AssumeNothing);
//     each side after the first is compared with the first by the
//     Mann–Whitney U test. A difference is significant when p < 0.05.
//  3. WriteText (text.go) renders the tables under a header that shows
//     how the sides' configurations differ (ConfigTable, config.go); where
//     the launches are too few for the test, the change shows, marked "no
//     test". Gate (gate.go) decides whether the new side got worse: a row
//     FAILs only beyond doubt (judge.go), otherwise it is unresolved with
//     its reasons; WriteGate (gatetext.go) explains the decision.
//
// The direction of each unit is the one the results files declare with
// their Unit lines ("Unit ns/call better=lower", benchfmt's unit
// metadata, which every beff run and fold writes); for a figure of a file
// folded without -append, the one the suite declares for its folded
// figures (Identity.FoldBetter). Sides whose files declare a unit
// differently are refused; a gate refuses rows whose unit has no
// direction.
package compare
