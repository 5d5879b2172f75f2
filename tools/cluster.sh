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

die() { echo "cluster: $*" >&2; exit 2; }

need_root() { [ "$(id -u)" = 0 ] || die "needs root (network namespaces, tc)"; }

check_id() {
	case "$1" in
	'' | *[!a-z0-9]* ) die "cluster ID '$1': lower-case letters and digits only" ;;
	esac
	[ ${#1} -le 16 ] || die "cluster ID '$1': at most 16 characters"
}

ns() { echo "beff-$1-$2"; }

ns_exists() { ip netns list 2>/dev/null | awk '{print $1}' | grep -qx "$1"; }

nodes_of() { cat "$STATE/$1/nodes" 2>/dev/null || die "no cluster '$1' (see: cluster.sh list)"; }

# shape DEV NS RATE: a token bucket of RATE on the egress of DEV in NS. The
# bucket holds 1 ms of traffic but at least 64 KiB, so that a segmentation-
# offloaded packet fits; the queue holds at most 20 ms.
shape() {
	local dev=$1 n=$2 rate=$3
	[ "$rate" = none ] && return 0
	ip netns exec "$n" tc qdisc add dev "$dev" root tbf rate "$rate" burst "$(burst "$rate")" latency 20ms
}

# burst RATE: bytes in 1 ms at RATE (bit/s, tc suffixes k/m/g), at least 64 KiB.
burst() {
	local r=${1,,} m=1
	case "$r" in
	*gbit) m=1000000000; r=${r%gbit} ;;
	*mbit) m=1000000; r=${r%mbit} ;;
	*kbit) m=1000; r=${r%kbit} ;;
	*bit) r=${r%bit} ;;
	*) die "rate '$1': write it as tc does, e.g. 1gbit, 500mbit" ;;
	esac
	case "$r" in '' | *[!0-9]*) die "rate '$1': a whole number with a unit, e.g. 1gbit" ;; esac
	local b=$((r * m / 8 / 1000))
	[ "$b" -ge 65536 ] || b=65536
	echo "$b"
}

up() {
	local id=$1 k=$2 rate=${3:-1gbit} leaves=${4:-1} uplink=${5:-${3:-1gbit}}
	check_id "$id"
	case "$k" in '' | *[!0-9]*) die "nodes '$k': a number from 1 to 200" ;; esac
	[ "$k" -ge 1 ] && [ "$k" -le 200 ] || die "nodes '$k': a number from 1 to 200"
	case "$leaves" in '' | *[!0-9]*) die "leaves '$leaves': a number from 1 to the nodes ($k)" ;; esac
	[ "$leaves" -ge 1 ] && [ "$leaves" -le "$k" ] || die "leaves '$leaves': a number from 1 to the nodes ($k)"
	[ "$rate" = none ] || burst "$rate" >/dev/null
	[ "$uplink" = none ] || burst "$uplink" >/dev/null
	[ ! -e "$STATE/$id" ] || die "cluster '$id' exists (cluster.sh down $id)"
	mkdir -p "$STATE/$id"
	echo "${BEFF_CLUSTER_OWNER:-$PPID}" >"$STATE/$id/owner"
	echo "$rate" >"$STATE/$id/rate"
	trap 'down "$id" >/dev/null 2>&1' ERR
	local sw; sw=$(ns "$id" sw)
	ip netns add "$sw"
	ip -n "$sw" link set lo up
	switches "$id" "$sw" "$leaves" "$uplink"
	{ echo "127.0.0.1 localhost"; echo "$SUBNET.$HUB hub"; } >"$STATE/$id/hosts"
	: >"$STATE/$id/topology"
	local i n leaf
	for ((i = 0; i < k; i++)); do
		n=$(ns "$id" "n$i")
		leaf=$(leaf_of "$i" "$k" "$leaves")
		ip netns add "$n"
		ip -n "$n" link set lo up
		ip link add eth0 netns "$n" type veth peer name "p$i" netns "$sw"
		ip -n "$n" addr add "$SUBNET.$((i + 1))/24" dev eth0
		ip -n "$n" link set eth0 up
		ip -n "$sw" link set "p$i" master "$leaf" up
		shape eth0 "$n" "$rate"
		shape "p$i" "$sw" "$rate"
		echo "$SUBNET.$((i + 1)) n$i" >>"$STATE/$id/hosts"
		echo "n$i $leaf" >>"$STATE/$id/topology"
	done
	printf '#!/bin/sh\nexec %q agent %q "$@"\n' "$SELF" "$id" >"$STATE/$id/agent"
	chmod +x "$STATE/$id/agent"
	echo "$k" >"$STATE/$id/nodes"
	trap - ERR
	local how="one switch"
	[ "$leaves" = 1 ] || how="$leaves leaf switches under a spine, uplinks $uplink"
	echo "cluster $id: $k nodes n0..n$((k - 1)) ($SUBNET.1-$k), links $rate, $how; hub $SUBNET.$HUB; agent $STATE/$id/agent" >&2
}

# leaf_of I K L: the switch of node I of K under L leaves, in blocks
# (n0…: leaf0, then leaf1, …); with one leaf, br0.
leaf_of() {
	if [ "$3" = 1 ]; then echo br0; else echo "leaf$(($1 * $3 / $2))"; fi
}

# switches ID SW L UPLINK: the switches in the hub's namespace SW. One leaf:
# the bridge br0, which the hub joins. More: bridges leaf0…, each joined to
# the bridge spine by a veth pair (u<j> on the leaf, s<j> on the spine)
# shaped to UPLINK in both directions, so that traffic between leaves
# crosses two such links and the spine; the hub joins the spine.
switches() {
	local id=$1 sw=$2 leaves=$3 uplink=$4 j top=br0
	[ "$leaves" = 1 ] || top=spine
	ip -n "$sw" link add "$top" type bridge
	ip -n "$sw" link set "$top" up
	for ((j = 0; leaves > 1 && j < leaves; j++)); do
		ip -n "$sw" link add "leaf$j" type bridge
		ip -n "$sw" link set "leaf$j" up
		ip -n "$sw" link add "u$j" type veth peer name "s$j"
		ip -n "$sw" link set "u$j" master "leaf$j" up
		ip -n "$sw" link set "s$j" master spine up
		shape "u$j" "$sw" "$uplink"
		shape "s$j" "$sw" "$uplink"
	done
	ip -n "$sw" addr add "$SUBNET.$HUB/24" dev "$top"
}

down() {
	local id=$1 n
	check_id "$id"
	slurm_down "$id" from-down || true # the nodes go whatever is left of Slurm
	fs_down "$id" || true
	for n in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^beff-$id-" || true); do
		ip netns pids "$n" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
		ip netns del "$n" 2>/dev/null || true
	done
	rm -rf "${STATE:?}/$id"
}

gc() {
	local d id owner
	for d in "$STATE"/*/; do
		[ -d "$d" ] || continue
		id=$(basename "$d"); owner=$(cat "$d/owner" 2>/dev/null || echo 0)
		if ! kill -0 "$owner" 2>/dev/null; then echo "cluster: removing $id (owner $owner gone)" >&2; down "$id"; fi
	done
	# namespaces of clusters whose state is gone
	for n in $(ip netns list 2>/dev/null | awk '{print $1}' | grep '^beff-' || true); do
		id=${n#beff-}; id=${id%%-*}
		[ -d "$STATE/$id" ] || { ip netns pids "$n" | xargs -r kill -9 2>/dev/null || true; ip netns del "$n" 2>/dev/null || true; }
	done
}

# on ID NODE CMD…: CMD in the node's network namespace, with the node's
# hostname and /etc/hosts, in a private mount namespace (where the node's
# client of the cluster's file system, when it has one, is at
# $STATE/ID/fs/mnt).
on() {
	local id=$1 node=$2; shift 2
	local n; n=$(ns "$id" "$node")
	ip netns exec "$n" unshare --uts --ipc --mount --propagation private \
		sh -c "$NODE_SETUP" sh "$node" "$STATE/$id/hosts" $(fs_bind "$id" "$node") env $(node_env "$id") "$@"
}

# NODE_SETUP prepares a node's namespaces (sh -c; arguments: host name,
# hosts file, the file system's client and where it goes or - -, command).
NODE_SETUP='hostname "$1" && mount --bind "$2" /etc/hosts && mount -t tmpfs -o mode=1777 shm /dev/shm &&
	{ [ "$3" = - ] || mount --bind "$3" "$4"; } && shift 4 && exec "$@"'

# fs_bind ID NODE: the node's client mount and the path all nodes see it
# at, or "- -" without a file system.
fs_bind() {
	local m=$STATE/$1/fs/$2/mnt
	if [ -f "$STATE/$1/fs/up" ] && mountpoint -q "$m"; then echo "$m $STATE/$1/fs/mnt"; else echo "- -"; fi
}

# agent ID HOST CMD…: what ssh would do — run the words of CMD as one shell
# command on HOST — or fail as ssh fails for a host it cannot reach (exit 255).
agent() {
	local id=$1 host=$2; shift 2
	local k; k=$(nodes_of "$id")
	case "$host" in
	n[0-9]*) ;;
	*) echo "ssh: Could not resolve hostname $host: Name or service not known" >&2; exit 255 ;;
	esac
	local i=${host#n}
	[ "$i" -lt "$k" ] && ns_exists "$(ns "$id" "$host")" ||
		{ echo "ssh: connect to host $host port 22: No route to host" >&2; exit 255; }
	on "$id" "$host" sh -c "$*"
}

exec_cmd() {
	local id=$1 node=$2; shift 2
	nodes_of "$id" >/dev/null
	ns_exists "$(ns "$id" "$node")" || die "cluster $id has no node '$node'"
	on "$id" "$node" "$@"
}

link() {
	local id=$1 node=$2 state=$3
	case "$state" in up | down) ;; *) die "link: up or down, not '$state'" ;; esac
	ip -n "$(ns "$id" "$node")" link set eth0 "$state"
}

# launch_env ID [LAUNCHER]: the settings `beff launch` and `beff run` take
# for the cluster's nodes (package launch reads them): the remote-shell
# agent, the interface that joins the nodes, waiting processes that yield
# the cores the nodes share (no node sees them oversubscribed), the
# keepalive probes the agent's launcher needs no others than its own
# (Open MPI: about 16 s from a silent node to the end of the job); with
# LAUNCHER, MPIEXEC: that launcher run on node n0.
launch_env() {
	local id=$1
	nodes_of "$id" >/dev/null
	echo "BEFF_LAUNCH_AGENT=$STATE/$id/agent"
	echo "BEFF_LAUNCH_IFACE=eth0"
	echo "BEFF_LAUNCH_YIELD=1"
	[ -z "${2:-}" ] || echo "MPIEXEC=$SELF exec $id n0 $2"
}

# mpirun_cmd ID [-mpi openmpi|mpich] ARGS…: `beff launch ARGS` on node n0
# with the cluster's settings (launch_env); -mpi picks Debian's library by
# its compiler wrapper's name, MPICC. --bind-to none (which beff launch
# adds with an agent): every node sees the machine's cores, and Open MPI
# would pin the first process of each node to core 0.
mpirun_cmd() {
	local id=$1; shift
	if [ "${1:-}" = -mpi ]; then
		case "$2" in openmpi | mpich) export MPICC=mpicc.$2 ;; *) die "MPI library '$2': openmpi or mpich" ;; esac
		shift 2
	fi
	local beff=${BEFF_CMD:-$(dirname "$SELF")/../beff}
	[ -x "$beff" ] || die "no beff command at $beff: build it (make build) or set BEFF_CMD"
	local env
	env=$(launch_env "$id")
	# shellcheck disable=SC2086
	exec_cmd "$id" n0 env $env "$beff" launch "$@"
}

# --- A distributed file system (GlusterFS) ------------------------------
# fs_up ID [NODE…]: a GlusterFS volume whose servers run on the nodes
# given (default: all), a brick each under BEFF_FS_BRICKS (default
# /var/tmp)/beff-fs-ID/<node>, and a FUSE client on every node, so that
# each node reaches the volume over its own shaped link. glusterd runs in
# the node's network namespace with its state, sockets and logs of its
# own (bind mounts over /var/lib/glusterd, /run/gluster and
# /var/log/glusterfs in a private mount namespace); the peers and bricks
# are named by address, so the clients need no host names. A client's
# mount is at $STATE/ID/fs/<node>/mnt in the machine's mount namespace;
# every command on a node (exec, mpirun, slurmd started afterwards) sees
# its node's at $STATE/ID/fs/mnt.
fs_up() {
	local id=$1; shift
	local k; k=$(nodes_of "$id")
	local d=$STATE/$id/fs
	[ ! -e "$d" ] || die "cluster $id has a file system already (cluster.sh fs down $id)"
	command -v glusterd >/dev/null && command -v gluster >/dev/null && command -v mount.glusterfs >/dev/null ||
		die "the file system needs Debian's glusterfs-server and glusterfs-client (make deps-fs)"
	local servers=("$@") i s
	[ ${#servers[@]} -gt 0 ] || for ((i = 0; i < k; i++)); do servers+=("n$i"); done
	for s in "${servers[@]}"; do
		case "$s" in n[0-9]*) [ "${s#n}" -lt "$k" ] 2>/dev/null || die "fs servers: no node '$s' in cluster $id" ;; *) die "fs servers: nodes n0…n$((k - 1)), not '$s'" ;; esac
	done
	local bricks=${BEFF_FS_BRICKS:-/var/tmp}/beff-fs-$id
	mkdir -p "$d/mnt"
	echo "$bricks" >"$d/bricks"
	trap 'fs_down "$id" >/dev/null 2>&1' ERR
	for s in "${servers[@]}"; do glusterd_start "$id" "$s" "$bricks"; done
	local first=${servers[0]} t
	for s in "${servers[@]:1}"; do
		for ((t = 0; t < 50; t++)); do gluster_cli "$id" "$first" peer probe "$(addr "$s")" >/dev/null 2>&1 && break; sleep 0.2; done
		[ "$t" -lt 50 ] || die "fs: glusterd on $first cannot probe $s (logs in $d/$s/log)"
	done
	local list=()
	for s in "${servers[@]}"; do list+=("$(addr "$s"):$bricks/$s"); done
	for ((t = 0; t < 50; t++)); do gluster_cli "$id" "$first" volume create beff "${list[@]}" force >/dev/null 2>&1 && break; sleep 0.2; done
	[ "$t" -lt 50 ] || die "fs: the volume was not created: $(gluster_cli "$id" "$first" volume create beff "${list[@]}" force 2>&1)"
	gluster_cli "$id" "$first" volume start beff >/dev/null
	for ((i = 0; i < k; i++)); do
		mkdir -p "$d/n$i/mnt"
		nsenter --net="/run/netns/$(ns "$id" "n$i")" mount -t glusterfs -o "log-file=$d/n$i/client.log" "$(addr "$first"):/beff" "$d/n$i/mnt" ||
			die "fs: node n$i cannot mount the volume (log: $d/n$i/client.log)"
	done
	: >"$d/up"
	trap - ERR
	echo "fs on cluster $id: GlusterFS volume beff, servers ${servers[*]} (bricks under $bricks), a client on every node; on the nodes at $d/mnt" >&2
}

# addr NODE: the node's address
addr() { echo "$SUBNET.$((${1#n} + 1))"; }

# glusterd_start ID NODE BRICKS: glusterd on the node, with a brick
# directory and state of its own
glusterd_start() {
	local id=$1 node=$2 d=$STATE/$1/fs/$2
	mkdir -p "$d/lib" "$d/run" "$d/log" "$3/$node"
	sed "s|^\( *option working-directory .*\)$|\1\n    option glusterd-sockfile $d/run/glusterd.socket|" /etc/glusterfs/glusterd.vol >"$d/glusterd.vol"
	setsid nsenter --net="/run/netns/$(ns "$id" "$node")" unshare --uts --ipc --pid --fork --kill-child --mount-proc --propagation private \
		sh -c 'hostname "$1" && mount --bind "$2" /etc/hosts && mount --bind "$3/lib" /var/lib/glusterd &&
			mount --bind "$3/run" /run/gluster && mount --bind "$3/log" /var/log/glusterfs &&
			exec glusterd -N -f "$3/glusterd.vol" -S "$3/run/glusterfsd.socket"' \
		sh "$node" "$STATE/$id/hosts" "$d" >"$d/glusterd.log" 2>&1 </dev/null &
	echo $! >"$d/glusterd.pid"
}

# gluster_cli ID NODE ARGS…: the gluster command against the node's glusterd
gluster_cli() {
	local id=$1 node=$2; shift 2
	ip netns exec "$(ns "$id" "$node")" gluster --mode=script --glusterd-sock="$STATE/$id/fs/$node/run/glusterd.socket" "$@"
}

fs_down() {
	local id=$1 d=$STATE/$1/fs m f
	[ -d "$d" ] || return 0
	for m in "$d"/n*/mnt; do
		mountpoint -q "$m" && umount -l "$m" 2>/dev/null || true
	done
	for f in "$d"/n*/glusterd.pid; do
		[ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null || true
	done
	local bricks; bricks=$(cat "$d/bricks" 2>/dev/null || true)
	case "$bricks" in */beff-fs-"$id") rm -rf "$bricks" ;; esac
	rm -rf "${d:?}"
}

# --- Slurm -------------------------------------------------------------
# slurm_up ID [K [RATE [LEAVES [UPLINK]]]]: Slurm on cluster ID, which is
# made first (as `up`; K default 3, LEAVES default 2) when it does not
# exist. munged runs on the machine (its socket under the cluster's state,
# a key of its own), slurmctld on the hub, one slurmd per node, each in the
# node's network namespace with a PID namespace of its own (so that killing
# a node's slurmd ends everything it started, as a node that dies). The
# configuration declares the switches of `up` (topology/tree) and
# BEFF_SLURM_CPUS CPUs per node (default: the machine's).
slurm_up() {
	local id=$1 cpus=${BEFF_SLURM_CPUS:-$(nproc)}
	check_id "$id"
	case "$cpus" in '' | *[!0-9]* | 0) die "BEFF_SLURM_CPUS='$cpus': a positive number of CPUs per node" ;; esac
	local made=
	if [ ! -e "$STATE/$id" ]; then
		local k=${2:-3}
		up "$id" "$k" "${3:-1gbit}" "${4:-$([ "$k" -ge 2 ] && echo 2 || echo 1)}" "${5:-${3:-1gbit}}"
		made=1
	elif [ $# -gt 1 ]; then
		die "cluster '$id' exists: slurm up $id (no K, RATE, …) starts Slurm on it"
	fi
	local k; k=$(nodes_of "$id")
	local d=$STATE/$id/slurm
	[ ! -e "$d" ] || die "cluster $id runs Slurm already (cluster.sh slurm down $id)"
	command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null && command -v srun >/dev/null ||
		die "Slurm needs Debian's slurmctld, slurmd, slurm-client and munge (make deps-slurm)"
	mkdir -p "$d/ctld"
	[ -z "$made" ] || : >"$d/made-cluster"
	trap 'slurm_down "$id" >/dev/null 2>&1' ERR
	head -c 1024 /dev/urandom >"$d/munge.key"
	chmod 400 "$d/munge.key"
	munged --socket="$d/munge.sock" --key-file="$d/munge.key" --pid-file="$d/munged.pid" \
		--log-file="$d/munged.log" --seed-file="$d/munge.seed" ||
		die "munged did not start: $(tail -3 "$d/munged.log" 2>/dev/null)"
	slurm_conf "$id" "$k" "$cpus" >"$d/slurm.conf"
	slurm_topology "$id" >"$d/topology.conf"
	slurm_mpi_conf >"$d/mpi.conf"
	local i
	for ((i = 0; i < k; i++)); do mkdir -p "$d/n$i/spool" "$d/n$i/tmp"; done
	daemon "$id" sw hub "$d/slurmctld" slurmctld -D -f "$d/slurm.conf"
	for ((i = 0; i < k; i++)); do
		daemon "$id" "n$i" "n$i" "$d/n$i/slurmd" slurmd -D -N "n$i" -f "$d/slurm.conf"
	done
	# up when every node is idle
	local t
	for ((t = 0; t < 300; t++)); do
		[ "$(on "$id" n0 sinfo -h -o '%T %D' 2>/dev/null | awk '$1=="idle"{print $2}')" = "$k" ] && break
		sleep 0.1
	done
	[ "$t" -lt 300 ] || die "Slurm on cluster $id: the nodes did not come up in 30 s (logs in $d)"
	trap - ERR
	echo "slurm on cluster $id: slurmctld on hub, slurmd on n0..n$((k - 1)), $cpus CPUs each; clients: $0 exec $id n0 srun|salloc|sbatch …" >&2
}

# daemon ID NS HOST PIDFILE CMD…: CMD in the background in the network
# namespace of NS (a node, or sw for the hub), with the host name HOST, the
# cluster's /etc/hosts and a PID namespace of its own; PIDFILE.pid holds the
# process that owns that namespace, PIDFILE.log its output. (`ip netns
# exec` would remount /sys, which hides the cgroup tree slurmd reads.)
daemon() {
	local id=$1 n; n=$(ns "$1" "$2"); local host=$3 pf=$4; shift 4
	local bind="- -"
	[ "$host" = hub ] || bind=$(fs_bind "$id" "$host")
	setsid nsenter --net="/run/netns/$n" unshare --uts --ipc --pid --fork --kill-child --mount-proc --propagation private \
		sh -c "$NODE_SETUP" sh "$host" "$STATE/$id/hosts" $bind env $(node_env "$id") "$@" >"$pf.log" 2>&1 </dev/null &
	echo $! >"$pf.pid"
}

# node_env ID: the environment of every process on the cluster's nodes:
# Slurm's configuration, and the MPI settings the emulated nodes need (see
# mpirun_cmd: the interface that joins them; waiting processes yield the
# cores the nodes share)
node_env() {
	[ ! -f "$STATE/$1/slurm/slurm.conf" ] || echo "SLURM_CONF=$STATE/$1/slurm/slurm.conf"
	# Open MPI 5's runtime (PRRTE) reads its own variables, not OMPI_MCA_oob_*
	echo OMPI_MCA_btl_tcp_if_include=eth0 OMPI_MCA_oob_tcp_if_include=eth0 PRTE_MCA_oob_tcp_if_include=eth0 OMPI_MCA_mpi_yield_when_idle=1
}

slurm_conf() {
	local id=$1 k=$2 cpus=$3 d=$STATE/$1/slurm i
	cat <<-EOF
	# Slurm of the emulated cluster $id (tools/cluster.sh): no cgroups, no systemd
	ClusterName=beff$id
	SlurmctldHost=hub($SUBNET.$HUB)
	SlurmUser=root
	SlurmdUser=root
	AuthType=auth/munge
	CredType=cred/munge
	AuthInfo=socket=$d/munge.sock
	StateSaveLocation=$d/ctld
	SlurmdSpoolDir=$d/%n/spool
	TmpFS=$d/%n/tmp
	SlurmctldPidFile=$d/slurmctld.pidfile
	SlurmdPidFile=$d/%n/slurmd.pidfile
	SlurmctldLogFile=$d/slurmctld.log
	SlurmdLogFile=$d/%n/slurmd.log
	SlurmdParameters=config_overrides
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	SelectType=select/cons_tres
	SelectTypeParameters=CR_CPU
	TopologyPlugin=topology/tree
	MpiDefault=none
	MailProg=/bin/true
	ReturnToService=2
	SlurmdTimeout=20
	MessageTimeout=10
	EOF
	for ((i = 0; i < k; i++)); do
		echo "NodeName=n$i NodeAddr=$SUBNET.$((i + 1)) CPUs=$cpus RealMemory=$(($(awk '/MemTotal/{print $2}' /proc/meminfo) / 1024 / k)) State=UNKNOWN"
	done
	echo "PartitionName=beff Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
}

# slurm_mpi_conf: mpi.conf (read beside slurm.conf) for jobs of srun
# --mpi=pmix: the ring fence between the nodes' step daemons. With Slurm
# 22.05's default (mixed) fence and a slow network, Open MPI 4.1's first
# messages from another node reach processes still inside MPI_Init, before
# they have a handler for them, and crash them (SIGSEGV in the TCP BTL): 58
# of 300 jobs with the uplinks loaded, 1 of 40 with tree, none of 320 with
# ring (README, "Open MPI jobs that crash in MPI_Init under srun").
slurm_mpi_conf() {
	echo "# the PMIx plugin of the emulated cluster (tools/cluster.sh)"
	echo "PMIxCollFence=ring"
}

# slurm_topology ID: topology.conf of the switches of `up`
slurm_topology() {
	local t=$STATE/$1/topology leaf nodes
	for leaf in $(awk '{print $2}' "$t" | sort -u); do
		nodes=$(awk -v l="$leaf" '$2==l{print $1}' "$t" | paste -sd,)
		echo "SwitchName=$leaf Nodes=$nodes"
	done
	if [ "$(awk '{print $2}' "$t" | sort -u | wc -l)" -gt 1 ]; then
		echo "SwitchName=spine Switches=$(awk '{print $2}' "$t" | sort -u | paste -sd,)"
	fi
}

# slurm_kill ID NODE: the node dies: its slurmd and everything it started
# are killed with SIGKILL (the end of the node's PID namespace).
slurm_kill() {
	local f=$STATE/$1/slurm/$2/slurmd.pid
	[ -f "$f" ] || die "cluster $1 runs no slurmd on '$2'"
	kill -9 "$(cat "$f")"
}

slurm_down() {
	local id=$1 d=$STATE/$1/slurm f
	[ -d "$d" ] || return 0
	for f in "$d"/slurmctld.pid "$d"/n*/slurmd.pid; do
		[ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null || true
	done
	# munged writes its seed file as it exits: wait for it, or the
	# directory is not empty when it is removed
	local mpid=; [ ! -f "$d/munged.pid" ] || mpid=$(cat "$d/munged.pid")
	if [ -n "$mpid" ] && kill "$mpid" 2>/dev/null; then
		for _ in $(seq 50); do kill -0 "$mpid" 2>/dev/null || break; sleep 0.05; done
	fi
	local made=; [ ! -f "$d/made-cluster" ] || made=1
	rm -rf "${d:?}" || { sleep 0.2; rm -rf "${d:?}"; }
	# the cluster `slurm up` made goes with it (unless `down` called this)
	[ -z "$made" ] || [ -n "${2:-}" ] || down "$id"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
up) need_root; [ $# -ge 2 ] || die "usage: cluster.sh up ID K [RATE [LEAVES [UPLINK]]]"; up "$@" ;;
down) need_root; [ $# -eq 1 ] || die "usage: cluster.sh down ID"; down "$1" ;;
gc) need_root; gc ;;
list) ls "$STATE" 2>/dev/null || true ;;
exec) need_root; [ $# -ge 3 ] || die "usage: cluster.sh exec ID NODE CMD..."; exec_cmd "$@" ;;
link) need_root; [ $# -eq 3 ] || die "usage: cluster.sh link ID NODE up|down"; link "$@" ;;
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
