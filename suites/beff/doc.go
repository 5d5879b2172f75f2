// Package beff holds the definition of the effective bandwidth benchmark b_eff
// (Rabenseifner and Koniges; docs/beff.md) as pure functions of the
// process count, the maximum message length and a random seed, so that every
// rule can be tested without MPI.
//
// b_eff is the logarithmic average of two logarithmic averages, one over six
// ring patterns and one over 30 random rings. Each pattern's value is the
// arithmetic mean over 21 message sizes of the best bandwidth over three
// communication methods and three repetitions:
//
//	b_eff = logavg( logavg_rings  ( avg_L ( max_mthd ( max_rep b ))),
//	                logavg_random ( avg_L ( max_mthd ( max_rep b ))) )
//
// with b = L · (messages of the pattern per iteration) · looplength /
// (maximum over ranks of the loop time). Where each step lives:
//
//   - Sizes: the 21 message lengths (13 powers of two, 8 geometric steps to Lmax).
//   - Patterns: the 6 rings (RingSizes), 30 random rings (RandomPatterns) and
//     13 additional patterns, each as per-rank exchange Steps.
//   - Controller: the time-driven loop length (the analogue of testing's predictN).
//   - Formula: the b_eff formula (Beff, LogAvg, Mean).
//   - Names: the configuration keys, metrics and sub-benchmark names that the
//     driver writes and the fold reads.
//
// The measurement lives in package driver (running the plans, the loop
// lengths and the shortcut decided on rank 0) with its C loop in
// package loops; reading and folding the results in package fold.
package beff
