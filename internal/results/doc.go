// Package results is the results format of beff and its generic reading:
// what every suite's results file has in common, and the interface through
// which the generic layers (fold, compare, report) handle a suite without
// naming it.
//
// A results file is benchfmt. The harness writes the job's configuration
// lines (keys.go), each suite its own configuration lines and one result
// line per measurement, named Benchmark<Bench>/<key>=<value>/…; fold
// -append adds the folded figures as Benchmark<FoldBench>/fig=<name>. The
// pipeline:
//
//  1. Read (read.go) reads a file with a list of Suites: each result line
//     goes to the suite whose benchmark it is (Suite.ParseLine), which
//     gives it a canonical name and a value; results of one suite whose
//     configuration lines are equal and whose name occurs for the k-th time
//     belong to the k-th Run of that configuration, so a file written with
//     -test.count=N holds N runs. Problems are *Error values that print as
//     "file:line: msg".
//  2. Suite.Fold checks a run and folds it into a Folded: its figures, its
//     Validity (VALID, or NOT VALID with every reason) and its renderings.
//     ConfigReader and Common read the configuration lines every suite
//     shares.
//  3. WriteProtocol (or WriteProtocolHead) and Text (text.go) give every
//     protocol the same shape;
//     WriteSummary and WriteAppendix (summary.go) write the figures as
//     benchfmt, so that benchstat compares them; NewJSONFile and WriteJSONFolded
//     (json.go, jsonstream.go) write the JSON document of fold -json (schema beff-fold/1,
//     docs/fold-json.md), each suite's details under its JSONKey.
//
// The package imports no suite; resultstest holds a toy suite for the
// tests of the generic layers.
package results
