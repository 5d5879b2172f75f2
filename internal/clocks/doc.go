// Package clocks is the model of the processes' clocks against rank 0's:
// an offset and a drift per process, learnt along a binomial tree in
// ⌈log2 p⌉ rounds (docs/clocks.md). The model and its error bound are
// plain Go; the rounds of ping-pongs run in the harness (Session.Clock).
//
// A process's clock differs from rank 0's by an offset that changes at a
// rate, its drift: a few to tens of ppm between nodes. A Model
// holds both, learnt from samples of the offset taken at different times
// (a linear fit, as ReproMPI's HCA does), and models compose: a process
// that learnt its clock against another's, which learnt its own against
// rank 0, knows rank 0's time, so a tree of learners reaches every
// process in ⌈log2 p⌉ rounds (Round).
package clocks
