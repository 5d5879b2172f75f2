#!/usr/bin/env bash
# tools/debian-root.sh: a Debian root of another release (default 13,
# trixie: Open MPI 5 and MPICH 4.2) in a directory, to build and test beff
# with the MPI libraries it packages. Needs root, debootstrap and Debian's
# package mirror.
#
#   debian-root.sh up DIR [SUITE]   debootstrap SUITE into DIR, install both MPI
#                                   libraries, a C compiler, make and Lmod, and
#                                   the oldest Go beff builds with (go.mod's)
#                                   from SUITE's backports (else this machine's
#                                   Go, read-only); mount /proc, /sys, /dev,
#                                   /dev/shm; this machine's module cache,
#                                   read-only; a copy of this checkout at DIR/beff
#   debian-root.sh exec DIR CMD…    run CMD in the root, in /beff, as root, with
#                                   Go on PATH and no module downloads
#   debian-root.sh module DIR       make the root a cluster's login node with Lmod:
#                                   Debian's MPICH copied to /opt/mpich/V (bin, lib,
#                                   include, its compiler wrapper pointing there)
#                                   and its packages purged; Open MPI's commands
#                                   under /opt/openmpi/V/bin, none of either on
#                                   PATH; modulefiles mpich/V and openmpi/V (one
#                                   family) in /opt/modulefiles; pkg-config, apt
#                                   and sudo made unusable; a user beff without
#                                   root who has a copy of the checkout in its home
#   debian-root.sh user DIR CMD…    run CMD as that user in ~/beff in a login
#                                   shell with Lmod, after module load MODULE
#                                   (default mpich; MODULE=off: no module)
#   debian-root.sh down DIR         unmount all of it and remove DIR
set -euo pipefail

die() { echo "debian-root: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
top=$(cd "$(dirname "$0")/.." && pwd)
hostgo=$(go env GOROOT)
modcache=$(go env GOMODCACHE)
gocache=$(go env GOCACHE)
mirror=${BEFF_DEBIAN_MIRROR:-http://deb.debian.org/debian}
pkgs="openmpi-bin libopenmpi-dev mpich libmpich-dev gcc libc6-dev make procps lmod"
# the oldest Go beff builds with: go.mod's go line (1.25.0 → golang-1.25-go)
gominor=$(sed -n 's/^go \([0-9]*\.[0-9]*\).*/\1/p' "$(dirname "$0")/../go.mod")

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
	rootgo "$dir" "$suite"
	bind "$dir" "$modcache" ro "$rootmods"
	mkdir -p "$gocache"
	bind "$dir" "$gocache" rw "$rootcache"
	mkdir -p "$dir/beff"
	(cd "$top" && git ls-files -z --cached --others --exclude-standard | grep -zv '^results/' |
		xargs -0 cp --parents -t "$dir/beff")
	cp -a "$top/internal/report/assets/vendor/." "$dir/beff/internal/report/assets/vendor/" 2>/dev/null || true
	rm -f "$dir.debootstrap.log"
	echo "debian-root: $suite in $dir: $(chroot "$dir" sh -c 'mpirun.openmpi --version | head -1; mpichversion | head -1' | tr '\n' ' ')$(chroot "$dir" "$(goroot "$dir")/bin/go" version)"
}

run() {
	local dir=$1
	shift
	[ -d "$dir/beff" ] || die "no root in $dir (debian-root.sh up $dir)"
	chroot "$dir" env -i HOME=/root PATH="$(goroot "$dir")/bin:/usr/local/bin:/usr/bin:/bin" TERM=dumb \
		GOFLAGS=-mod=mod GOPROXY=off GOMODCACHE="$rootmods" GOCACHE="$rootcache" GOTOOLCHAIN=local \
		sh -c 'cd /beff && exec "$@"' sh "$@"
}

# rootgo DIR SUITE: Go in the root, its GOROOT in DIR/.beff-goroot: Debian's
# golang-X.Y-go of go.mod's X.Y from SUITE's backports (or SUITE), else this
# machine's Go at its path, read-only
rootgo() {
	local dir=$1 suite=$2 g=/usr/lib/go-$gominor
	echo "deb $mirror $suite-backports main" >"$dir/etc/apt/sources.list.d/backports.list"
	if chroot "$dir" env DEBIAN_FRONTEND=noninteractive sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends -t $suite-backports golang-$gominor-go" \
		>>"$dir.debootstrap.log" 2>&1 && [ -x "$dir$g/bin/go" ]; then
		echo "$g" >"$dir/.beff-goroot"
	else
		echo "debian-root: no golang-$gominor-go in $suite-backports: this machine's Go ($hostgo)" >&2
		bind "$dir" "$hostgo" ro
		echo "$hostgo" >"$dir/.beff-goroot"
	fi
}

# goroot DIR: the GOROOT of the root's Go
goroot() { cat "$1/.beff-goroot"; }

# module DIR: a login node with Lmod: MPICH under /opt/mpich/V, Open MPI's
# commands under /opt/openmpi/V/bin, their modulefiles; a user without root
module() {
	local dir=$1
	[ -d "$dir/beff" ] || die "no root in $dir (debian-root.sh up $dir)"
	chroot "$dir" bash -euc '
		lib=/usr/lib/x86_64-linux-gnu mods=/opt/modulefiles
		mv=$(mpichversion | sed -n "s/^MPICH Version:[[:space:]]*\([0-9]*\.[0-9]*\).*/\1/p")
		ov=$(mpirun.openmpi --version | sed -n "s/.*(Open MPI) \([0-9]*\.[0-9]*\).*/\1/p")
		[ -n "$mv" ] && [ -n "$ov" ] || { echo "no MPICH or Open MPI version" >&2; exit 1; }
		# MPICH, self-contained under its prefix
		p=/opt/mpich/$mv
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
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq mpich libmpich-dev libmpich12 >/dev/null
		# Open MPI: its commands under its prefix (its libraries stay where
		# Debian put them), none on PATH
		o=/opt/openmpi/$ov
		mkdir -p $o/bin
		for c in mpicc mpirun mpiexec ompi_info; do ln -sf "$(readlink -f /usr/bin/$c.openmpi 2>/dev/null || readlink -f /usr/bin/$c)" $o/bin/$c; done
		for f in /usr/bin/mpi* /usr/bin/*.openmpi /usr/bin/ompi_info; do [ ! -L "$f" ] || rm -f "$f"; done
		mkdir -p $mods/mpich $mods/openmpi
		printf "family(\"mpi\")\nprepend_path(\"PATH\", \"%s/bin\")\nprepend_path(\"LD_LIBRARY_PATH\", \"%s/lib\")\n" $p $p >$mods/mpich/$mv.lua
		printf "family(\"mpi\")\nprepend_path(\"PATH\", \"%s/bin\")\n" $o >$mods/openmpi/$ov.lua
		for c in apt apt-get pkg-config pkgconf sudo; do
			f=$(command -v $c || true)
			[ -z "$f" ] || mv "$f" "$f.off"
		done
		id beff >/dev/null 2>&1 || useradd -m -s /bin/bash beff
		rm -rf /home/beff/beff
		cp -a /beff /home/beff/beff
		chown -R beff:beff /home/beff/beff
	'
	echo "debian-root: Lmod modules $(chroot "$dir" sh -c 'cd /opt/modulefiles && ls -d */* | sed "s/\.lua$//" | tr "\n" " "'); user beff"
}

# as_user DIR CMD…: CMD as user beff in ~/beff, in a login shell with
# Lmod (its modules in /opt/modulefiles), after module load MODULE
# (default mpich; off: none)
as_user() {
	local dir=$1
	shift
	chroot --userspec=beff:beff "$dir" env -i HOME=/home/beff USER=beff SHELL=/bin/bash TERM=dumb \
		PATH=/usr/local/bin:/usr/bin:/bin BEFF_GOROOT="$(goroot "$dir")" MODULE="${MODULE:-mpich}" \
		GOFLAGS=-mod=mod GOPROXY=off GOMODCACHE="$rootmods" GOTOOLCHAIN=local \
		bash -lc 'export PATH="$BEFF_GOROOT/bin:$PATH"; cd /home/beff/beff || exit 2
			if [ "$MODULE" != off ]; then
				type module >/dev/null 2>&1 || . /usr/share/lmod/lmod/init/bash
				module use /opt/modulefiles && module load "$MODULE" || exit 2
			fi
			exec "$@"' bash "$@"
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
