// Package congestion holds the definition of the congestion suite (after
// GPCNeT, Chunduri et al.; docs/congestion.md) as plain Go that needs no
// MPI: the canaries (random ring latency and bandwidth, allreduce) and the
// congestors (incast, one-sided incast, broadcast, all-to-all) by name,
// the plan of a run — each canary isolated, the congestors alone, each
// canary under each load, repeated — with its time known before it runs
// (plan.go), how the job's nodes are split between canaries and
// congestors (split.go), the latency histogram the canaries fill and its
// quantiles (hist.go), resuming whole repetitions, and the names a results
// file uses (names.go, with ID, the suite's identity). Its driver runs it
// under MPI (package driver), its fold reads, folds and renders it
// (package fold).
package congestion
