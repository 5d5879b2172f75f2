# tools/cluster/net.sh: the emulated cluster itself: nodes as network
# namespaces under shaped links and switches, commands on a node, the
# remote-shell agent, the launcher settings for beff launch and beff run.
# Sourced by tools/cluster.sh, which sets STATE, SELF, SUBNET and HUB and
# dispatches to the functions here.

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

# node_ns ID NODE: the namespace of a node of the cluster, or die
node_ns() {
	local n; n=$(ns "$1" "$2")
	case "$2" in n[0-9]*) ;; *) die "cluster $1 has no node '$2'" ;; esac
	ns_exists "$n" || die "cluster $1 has no node '$2'"
	echo "$n"
}

# reshape ID NODE RATE: the node's link shaped to RATE both ways (its eth0
# and its port on the switch)
reshape() {
	local id=$1 node=$2 rate=$3 n sw
	nodes_of "$id" >/dev/null
	n=$(node_ns "$id" "$node")
	burst "$rate" >/dev/null
	sw=$(ns "$id" sw)
	ip netns exec "$n" tc qdisc del dev eth0 root 2>/dev/null || true
	ip netns exec "$sw" tc qdisc del dev "p${node#n}" root 2>/dev/null || true
	shape eth0 "$n" "$rate"
	shape "p${node#n}" "$sw" "$rate"
}

# slow_pair ID NODE PEER RATE: what NODE sends to PEER and PEER to NODE
# goes at RATE, the rest at the cluster's rate: an htb on each one's eth0
# whose default class has the cluster's rate, a u32 filter on the other's
# address to a class of RATE (the kernel may lack prio)
slow_pair() {
	local id=$1 a=$2 b=$3 rate=$4 keep
	nodes_of "$id" >/dev/null
	node_ns "$id" "$a" >/dev/null
	node_ns "$id" "$b" >/dev/null
	[ "$a" != "$b" ] || die "slow: two different nodes"
	burst "$rate" >/dev/null
	keep=$(cat "$STATE/$id/rate")
	[ "$keep" != none ] || keep=100gbit
	slow_to "$(ns "$id" "$a")" "$(addr "$b")" "$rate" "$keep"
	slow_to "$(ns "$id" "$b")" "$(addr "$a")" "$rate" "$keep"
}

slow_to() {
	local n=$1 dst=$2 rate=$3 keep=$4
	ip netns exec "$n" tc qdisc del dev eth0 root 2>/dev/null || true
	ip netns exec "$n" tc qdisc add dev eth0 root handle 1: htb default 20 r2q 1000
	ip netns exec "$n" tc class add dev eth0 parent 1: classid 1:10 htb rate "$rate" ceil "$rate" burst "$(burst "$rate")" cburst "$(burst "$rate")"
	ip netns exec "$n" tc class add dev eth0 parent 1: classid 1:20 htb rate "$keep" ceil "$keep" burst "$(burst "$keep")" cburst "$(burst "$keep")"
	ip netns exec "$n" tc filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip dst "$dst/32" flowid 1:10
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

# addr NODE: the node's address
addr() { echo "$SUBNET.$((${1#n} + 1))"; }

# node_env ID: the environment of every process on the cluster's nodes:
# Slurm's configuration, and the MPI settings the emulated nodes need (see
# mpirun_cmd: the interface that joins them; waiting processes yield the
# cores the nodes share)
node_env() {
	[ ! -f "$STATE/$1/slurm/slurm.conf" ] || echo "SLURM_CONF=$STATE/$1/slurm/slurm.conf"
	# Open MPI 5's runtime (PRRTE) reads its own variables, not OMPI_MCA_oob_*
	echo OMPI_MCA_btl_tcp_if_include=eth0 OMPI_MCA_oob_tcp_if_include=eth0 PRTE_MCA_oob_tcp_if_include=eth0 OMPI_MCA_mpi_yield_when_idle=1
}
