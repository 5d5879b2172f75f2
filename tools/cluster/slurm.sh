# tools/cluster/slurm.sh: Slurm on a cluster: munged and slurmctld on the hub,
# slurmd on every node, the switches declared.
# Sourced by tools/cluster.sh, which sets STATE, SELF, SUBNET and HUB and
# dispatches to the functions here.

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
