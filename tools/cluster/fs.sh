# tools/cluster/fs.sh: a distributed file system (GlusterFS) served by the
# nodes of a cluster, with a FUSE client on every node.
# Sourced by tools/cluster.sh, which sets STATE, SELF, SUBNET and HUB and
# dispatches to the functions here.

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
