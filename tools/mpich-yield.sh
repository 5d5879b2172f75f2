#!/usr/bin/env bash
# tools/mpich-yield.sh: builds mpich-yield.so (tools/mpich-yield.c) at the top
# of the repository when it is missing or older than its source, and prints
# its path: the library MPICH jobs with more processes than cores preload.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/tools/mpich-yield.c so=$top/mpich-yield.so
if [ ! -e "$so" ] || [ "$src" -nt "$so" ]; then
	tmp=$(mktemp "$so.XXXXXX")
	trap 'rm -f "$tmp"' EXIT
	"${CC:-cc}" -O2 -shared -fPIC -o "$tmp" "$src" -ldl || { echo "mpich-yield: building $so failed" >&2; exit 1; }
	chmod 0755 "$tmp"
	mv -f "$tmp" "$so"
	trap - EXIT
fi
echo "$so"
