#!/usr/bin/env bash
# tools/module-swap.sh: what a centre's user does with a module system
# (Lmod or Environment Modules): make bench with one MPI's module loaded,
# module swap to another, make bench again. Each stored results file must
# name the library of its module, and the test binary built under it must
# link that library. Run from the top of the repository as a user without
# root (make trixie-test runs it in its Debian 13 root: debian-root.sh
# user). FROM and TO name the modules (default mpich, then openmpi);
# ARGS the test binary's flags (default a quick run).
set -euo pipefail
type module >/dev/null 2>&1 || . /usr/share/lmod/lmod/init/bash
from=${FROM:-mpich} to=${TO:-openmpi} args=${ARGS:--test.short -beffio.T=3}

# bench LIBRARY SONAME: make bench, then the new results file and the
# library beff.test links
bench() {
	local before new lib so
	before=$(ls results/*.txt 2>/dev/null || true)
	make --no-print-directory bench NP=2 ARGS="$args"
	new=$(comm -13 <(echo "$before") <(ls results/*.txt) | head -1)
	[ -n "$new" ] || { echo "module-swap: make bench stored no results file" >&2; exit 1; }
	lib=$(sed -n 's/^mpi-library: //p' "$new" | head -1)
	so=$(ldd beff.test | grep -oE 'lib(mpi|mpich)\.so\.[0-9]+' | head -1)
	echo "module-swap: $(module -t list 2>&1 | tr '\n' ' ')→ $new: mpi-library: $lib; beff.test links $so"
	case $lib in *"$1"*) ;; *) echo "module-swap: $new names $lib, not $1" >&2; exit 1 ;; esac
	[ "$so" = "$2" ] || { echo "module-swap: beff.test links $so, not $2: the build did not follow the module" >&2; exit 1; }
}

module purge
module load "$from"
bench MPICH libmpich.so.12
module swap "$from" "$to"
bench "Open MPI" libmpi.so.40
echo "module-swap: passed"
