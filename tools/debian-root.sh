#!/usr/bin/env bash
# tools/debian-root.sh: a Debian root of another release (default 13,
# trixie: Open MPI 5 and MPICH 4.2) in a directory, to build and test beff
# with the MPI libraries it packages. Needs root, debootstrap and Debian's
# package mirror.
#
#   debian-root.sh up DIR [SUITE]   debootstrap SUITE into DIR, install both MPI
#                                   libraries, a C compiler and make; mount
#                                   /proc, /sys, /dev, /dev/shm; this machine's
#                                   Go (at its path) and module cache, read-only;
#                                   a copy of this checkout at DIR/beff
#   debian-root.sh exec DIR CMD…    run CMD in the root, in /beff, as root, with
#                                   Go on PATH and no module downloads
#   debian-root.sh module DIR       make the root a cluster's login node: Debian's
#                                   MPICH copied to /opt/mpich (bin, lib, include,
#                                   its compiler wrapper pointing there), then every
#                                   MPI package purged, pkg-config, apt and sudo
#                                   made unusable; a user beff without root who
#                                   has a copy of the checkout in its home
#   debian-root.sh user DIR CMD…    run CMD as that user in ~/beff, the module
#                                   loaded: /opt/mpich/bin first on PATH, its
#                                   lib on LD_LIBRARY_PATH (MODULE=off: not)
#   debian-root.sh down DIR         unmount all of it and remove DIR
set -euo pipefail

die() { echo "debian-root: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
top=$(cd "$(dirname "$0")/.." && pwd)
goroot=$(go env GOROOT)
modcache=$(go env GOMODCACHE)
gocache=$(go env GOCACHE)
mirror=${BEFF_DEBIAN_MIRROR:-http://deb.debian.org/debian}
pkgs="openmpi-bin libopenmpi-dev mpich libmpich-dev gcc libc6-dev make procps"

# the module cache inside the root: where a user without root reads it;
# root's builds share this machine's build cache (its keys tell the
# compilers apart)
rootmods=/var/cache/beff-gomod rootcache=/var/cache/beff-gocache

# bind DIR SRC [ro [AT]]: SRC mounted under DIR at AT (default: its path)
bind() {
	local at=${4:-$2}
	mkdir -p "$1$at"
	mount --bind "$2" "$1$at"
	[ "${3:-}" != ro ] || mount -o remount,bind,ro "$1$at"
}

up() {
	local dir=$1 suite=${2:-trixie}
	[ ! -e "$dir/etc/debian_version" ] || die "$dir holds a root already (debian-root.sh down $dir)"
	mkdir -p "$dir"
	debootstrap --variant=minbase "$suite" "$dir" "$mirror" >"$dir.debootstrap.log" 2>&1 ||
		{ tail -20 "$dir.debootstrap.log" >&2; die "debootstrap $suite failed (log: $dir.debootstrap.log)"; }
	mount -t proc proc "$dir/proc"
	bind "$dir" /sys ro
	bind "$dir" /dev
	mount -t tmpfs tmpfs "$dir/dev/shm"
	chroot "$dir" env DEBIAN_FRONTEND=noninteractive sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends $pkgs" \
		>>"$dir.debootstrap.log" 2>&1 || { tail -20 "$dir.debootstrap.log" >&2; die "installing $pkgs failed"; }
	bind "$dir" "$goroot" ro
	bind "$dir" "$modcache" ro "$rootmods"
	mkdir -p "$gocache"
	bind "$dir" "$gocache" rw "$rootcache"
	mkdir -p "$dir/beff"
	(cd "$top" && git ls-files -z --cached --others --exclude-standard | grep -zv '^results/' |
		xargs -0 cp --parents -t "$dir/beff")
	cp -a "$top/internal/report/assets/vendor/." "$dir/beff/internal/report/assets/vendor/" 2>/dev/null || true
	rm -f "$dir.debootstrap.log"
	echo "debian-root: $suite in $dir: $(chroot "$dir" sh -c 'mpirun.openmpi --version | head -1; mpichversion | head -1' | tr '\n' ' ')"
}

run() {
	local dir=$1
	shift
	[ -d "$dir/beff" ] || die "no root in $dir (debian-root.sh up $dir)"
	chroot "$dir" env -i HOME=/root PATH="$goroot/bin:/usr/local/bin:/usr/bin:/bin" TERM=dumb \
		GOFLAGS=-mod=mod GOPROXY=off GOMODCACHE="$rootmods" GOCACHE="$rootcache" GOTOOLCHAIN=local \
		sh -c 'cd /beff && exec "$@"' sh "$@"
}

# module DIR: a module-like MPI at /opt/mpich and a user without root
module() {
	local dir=$1 p=/opt/mpich
	[ -d "$dir/beff" ] || die "no root in $dir (debian-root.sh up $dir)"
	chroot "$dir" sh -euc '
		p=$1 lib=/usr/lib/x86_64-linux-gnu
		mkdir -p $p/bin $p/lib $p/include $p/etc
		cp -L /usr/bin/mpiexec.hydra $p/bin/mpiexec
		ln -sf mpiexec $p/bin/mpirun
		cp -L /usr/bin/hydra_pmi_proxy /usr/bin/hydra_nameserver /usr/bin/hydra_persist /usr/bin/mpichversion $p/bin/
		sed -e "s|^prefix=.*|prefix=$p|; s|^exec_prefix=.*|exec_prefix=$p|; s|^sysconfdir=.*|sysconfdir=$p/etc|" \
			-e "s|^includedir=.*|includedir=$p/include|; s|^libdir=.*|libdir=$p/lib|" /usr/bin/mpicc.mpich >$p/bin/mpicc
		chmod 755 $p/bin/mpicc
		cp -a $lib/mpich/include/. $p/include/
		cp -a $lib/libmpich.so.12* $p/lib/
		ln -sf libmpich.so.12 $p/lib/libmpich.so
		ln -sf libmpich.so.12 $p/lib/libmpi.so.12
		cp -a /etc/mpich/. $p/etc/ 2>/dev/null || true
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq mpich libmpich-dev libmpich12 openmpi-bin libopenmpi-dev libopenmpi40 openmpi-common >/dev/null
		for c in apt apt-get pkg-config pkgconf sudo; do
			f=$(command -v $c || true)
			[ -z "$f" ] || mv "$f" "$f.off"
		done
		id beff >/dev/null 2>&1 || useradd -m beff
		rm -rf /home/beff/beff
		cp -a /beff /home/beff/beff
		chown -R beff:beff /home/beff/beff
	' sh "$p"
	echo "debian-root: a module-like MPICH at $p ($(chroot "$dir" env LD_LIBRARY_PATH=$p/lib $p/bin/mpichversion | head -1 | tr -s ' ')); user beff"
}

# as_user DIR CMD…: CMD as user beff in ~/beff, the module loaded
as_user() {
	local dir=$1 p=/opt/mpich path=$goroot/bin:/usr/local/bin:/usr/bin:/bin ld=
	shift
	[ "${MODULE:-}" = off ] || path=$p/bin:$path ld=$p/lib
	chroot --userspec=beff:beff "$dir" env -i HOME=/home/beff USER=beff PATH="$path" LD_LIBRARY_PATH="$ld" TERM=dumb \
		GOFLAGS=-mod=mod GOPROXY=off GOMODCACHE="$rootmods" GOTOOLCHAIN=local \
		sh -c 'cd /home/beff/beff && exec "$@"' sh "$@"
}

down() {
	local dir=$1
	[ -n "$dir" ] && [ "$dir" != / ] || die "down: no directory"
	# deepest mounts first
	grep -o " $dir/[^ ]*" /proc/mounts | sort -r | while read -r m; do umount -l "$m" 2>/dev/null || true; done
	if grep -q " $dir/" /proc/mounts; then die "$dir still has mounts: not removing it"; fi
	rm -rf "$dir" "$dir.debootstrap.log"
}

case "${1:-}" in
up) [ $# -ge 2 ] || die "usage: debian-root.sh up DIR [SUITE]"; up "$2" "${3:-}" ;;
exec) [ $# -ge 3 ] || die "usage: debian-root.sh exec DIR CMD..."; dir=$2; shift 2; run "$dir" "$@" ;;
module) [ $# -eq 2 ] || die "usage: debian-root.sh module DIR"; module "$2" ;;
user) [ $# -ge 3 ] || die "usage: debian-root.sh user DIR CMD..."; dir=$2; shift 2; as_user "$dir" "$@" ;;
down) [ $# -eq 2 ] || die "usage: debian-root.sh down DIR"; down "$2" ;;
*) sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//; /^set -e/d' >&2; exit 2 ;;
esac
