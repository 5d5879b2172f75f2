// Package links holds the definition of the links suite as plain Go that
// needs no MPI: every pair of nodes (or of processes) measured for latency
// and bandwidth in rounds of disjoint pairs (schedule.go, after the round
// robin of LinkTest and the shifts of mpiGraph), the plan of a run with
// its time known before it runs (plan.go), and the verdicts a person acts
// on — the slow node, the slow link — by a robust rule (verdict.go). Its
// driver runs it under MPI (package driver), its fold reads, folds and
// renders it (package fold).
package links
