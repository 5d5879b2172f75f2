#!/usr/bin/env bash
# tools/cluster.sh: an emulated cluster on one Linux machine, for running beff
# on "N nodes" without N machines. Needs root and iproute2.
#
# A cluster ID has K nodes n0 … n<K-1>. Each node is a network namespace
# beff-<ID>-n<i> with one interface eth0 (10.77.0.<i+1>/24), joined through
# a veth pair to a bridge in a namespace of its own, beff-<ID>-sw. Each link
# is shaped in both directions with a token bucket (tc tbf) to RATE (tc's
# notation: 1gbit, 500mbit; "none" leaves it unshaped). Nothing is created in
# the machine's own namespace, so clusters with different IDs never collide.
# Processes started on a node see its hostname (a UTS namespace), an
# /etc/hosts that names every node (bind-mounted in a private mount
# namespace), System V IPC and a /dev/shm of their own (an IPC namespace and
# a tmpfs), so that no MPI library takes two nodes for one and talks through
# shared memory; the rest of the file system is the machine's, shared by all
# nodes.
#
#   cluster.sh up ID K [RATE [LEAVES [UPLINK]]]
#                                  create (RATE default 1gbit); LEAVES > 1:
#                                  that many leaf switches under a spine,
#                                  nodes in blocks (n0… on leaf0), each
#                                  leaf's link to the spine shaped to UPLINK
#                                  (default RATE)
#   cluster.sh down ID             kill what runs on its nodes, remove it all
#   cluster.sh gc                  remove every cluster whose owner process is gone
#   cluster.sh list                the clusters present
#   cluster.sh exec ID NODE CMD…   run CMD on a node (NODE: n0, n1, …)
#   cluster.sh link ID NODE up|down   take a node's link down or up again
#   cluster.sh shape ID NODE RATE  reshape a node's link (both directions) to
#                                  RATE: a slow node
#   cluster.sh slow ID NODE PEER RATE
#                                  the path between two nodes at RATE (both
#                                  ways; each node's other traffic keeps the
#                                  cluster's rate): a slow link
#   cluster.sh mpirun ID [-mpi openmpi|mpich] ARGS…
#                                  `beff launch ARGS` on n0 with the agent,
#                                  interface and yielding set (launch-env);
#                                  ARGS as for beff launch: -np N
#                                  -launcher-args '--host n0:2,n1:2' -- PROG…
#   cluster.sh launch-env ID [LAUNCHER]
#                                  those settings as KEY=VALUE lines, for
#                                  beff run (with LAUNCHER: MPIEXEC, that
#                                  launcher run on n0)
#   cluster.sh agent ID HOST CMD…  the remote-shell agent the launchers call
#   cluster.sh slurm up ID [K [RATE [LEAVES [UPLINK]]]]
#                                  Slurm on cluster ID, made first when it
#                                  does not exist (K default 3, LEAVES 2):
#                                  munged, slurmctld on the hub
#                                  (10.77.0.254), slurmd on every node with
#                                  BEFF_SLURM_CPUS CPUs (default: the
#                                  machine's), the switches declared
#                                  (topology/tree); its clients on a node:
#                                  cluster.sh exec ID n0 salloc|srun|sbatch …
#   cluster.sh slurm down ID       stop it, and remove the cluster if
#                                  `slurm up` made it (`down` stops it too)
#   cluster.sh slurm kill ID NODE  the node dies: slurmd and its processes
#   cluster.sh fs up ID [NODE…]    a GlusterFS volume served by the nodes
#                                  given (default all), a FUSE client on
#                                  every node: commands on a node see it at
#                                  $STATE/ID/fs/mnt (start it before Slurm)
#   cluster.sh fs down ID          unmount and remove it (`down` does too)
#
# The owner of a cluster is the process that ran `up` (or BEFF_CLUSTER_OWNER):
# `gc` removes clusters whose owner is gone, so an interrupted test leaves
# nothing behind for long.
set -euo pipefail

STATE=${BEFF_CLUSTER_STATE:-/run/beff-cluster}
SELF=$(readlink -f "$0")
SUBNET=10.77.0
HUB=254 # the hub's address in the subnet (Slurm's controller runs there)

# The three tools: the cluster (net.sh), Slurm on it (slurm.sh), a file
# system on it (fs.sh); `down` stops what the other two started.
LIB=$(dirname "$SELF")/cluster
# shellcheck source=cluster/net.sh
. "$LIB/net.sh"
# shellcheck source=cluster/fs.sh
. "$LIB/fs.sh"
# shellcheck source=cluster/slurm.sh
. "$LIB/slurm.sh"

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
up) need_root; [ $# -ge 2 ] || die "usage: cluster.sh up ID K [RATE [LEAVES [UPLINK]]]"; up "$@" ;;
down) need_root; [ $# -eq 1 ] || die "usage: cluster.sh down ID"; down "$1" ;;
gc) need_root; gc ;;
list) ls "$STATE" 2>/dev/null || true ;;
exec) need_root; [ $# -ge 3 ] || die "usage: cluster.sh exec ID NODE CMD..."; exec_cmd "$@" ;;
link) need_root; [ $# -eq 3 ] || die "usage: cluster.sh link ID NODE up|down"; link "$@" ;;
shape) need_root; [ $# -eq 3 ] || die "usage: cluster.sh shape ID NODE RATE"; reshape "$@" ;;
slow) need_root; [ $# -eq 4 ] || die "usage: cluster.sh slow ID NODE PEER RATE"; slow_pair "$@" ;;
mpirun) need_root; [ $# -ge 1 ] || die "usage: cluster.sh mpirun ID [-mpi openmpi|mpich] ARGS..."; mpirun_cmd "$@" ;;
launch-env) [ $# -ge 1 ] || die "usage: cluster.sh launch-env ID [LAUNCHER]"; launch_env "$@" ;;
slurm)
	need_root
	case "${1:-}" in
	up) [ $# -ge 2 ] || die "usage: cluster.sh slurm up ID [K [RATE [LEAVES [UPLINK]]]]"; shift; slurm_up "$@" ;;
	down) [ $# -eq 2 ] || die "usage: cluster.sh slurm down ID"; slurm_down "$2" ;;
	kill) [ $# -eq 3 ] || die "usage: cluster.sh slurm kill ID NODE"; slurm_kill "$2" "$3" ;;
	*) die "usage: cluster.sh slurm up ID [K …] | slurm down ID | slurm kill ID NODE" ;;
	esac ;;
fs)
	need_root
	case "${1:-}" in
	up) [ $# -ge 2 ] || die "usage: cluster.sh fs up ID [NODE...]"; shift; fs_up "$@" ;;
	down) [ $# -eq 2 ] || die "usage: cluster.sh fs down ID"; fs_down "$2" ;;
	*) die "usage: cluster.sh fs up ID [NODE...] | fs down ID" ;;
	esac ;;
agent) [ $# -ge 3 ] || die "usage: cluster.sh agent ID HOST CMD..."; agent "$@" ;;
*) sed -n '2,/^set -euo/p' "$SELF" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
