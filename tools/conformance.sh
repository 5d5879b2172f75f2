#!/usr/bin/env bash
# tools/conformance.sh: beff beside the reference codes on this machine, in
# interleaved rounds, then `beff conformance` over what the rounds stored.
#
#   tools/conformance.sh [flags] [-beff PATH/b_eff.c] [-beffio PATH/b_eff_io.c] [-skampi PATH/skampi]
#
# Each round runs, for each suite, the reference code, beff with its default
# rules (default.txt) and beff in reference mode (reference.txt), one after
# the other, starting with a different one each round. The reference codes
# stay where they are: b_eff.c and b_eff_io.c are compiled with mpicc into
# OUT/bin (b_eff's memory per process is a compile-time constant); SKaMPI 5
# (the public coti/SKaMPI, built with its configure and make) is taken as
# built. For SKaMPI both beff runs use suite files of tools/skampi5:
# beff-default.yaml (beff's rules) and beff-skampi5.yaml (the settings
# that measure what SKaMPI 5 measures); SKaMPI 5 runs skampi5.ski.
#
# Flags:
#   -np N         processes (default 2)
#   -rounds K     rounds (default 5)
#   -mem MiB      memory per process M (default 1024): b_eff's
#                 MEMORY_PER_PROCESSOR and -beff.mem, b_eff_io's -MB and -beffio.mem
#   -T s          b_eff_io's scheduled time (default 60)
#   -out DIR      where the rounds go (default: a fresh directory under /tmp)
#   -dir DIR      b_eff_io's scratch directory (default: OUT/scratch)
#   -mpi openmpi|mpich   one of Debian's MPI libraries (default: the MPI on
#                 PATH, its compiler wrapper MPICC, default mpicc)
# Only the suites whose reference code is given run.
set -euo pipefail
cd "$(dirname "$0")/.."

np=2 rounds=5 mem=1024 T=60 out= scratch= mpi=
src_beff= src_beffio= skampi=
usage() { sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//; /^set -e/d' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	-np) np=$2; shift ;;
	-rounds) rounds=$2; shift ;;
	-mem) mem=$2; shift ;;
	-T) T=$2; shift ;;
	-out) out=$2; shift ;;
	-dir) scratch=$2; shift ;;
	-mpi) mpi=$2; shift ;;
	-beff) src_beff=$2; shift ;;
	-beffio) src_beffio=$2; shift ;;
	-skampi) skampi=$2; shift ;;
	-h|-help|--help) usage ;;
	*) echo "conformance: unknown flag $1" >&2; usage ;;
	esac
	shift
done
for v in np rounds mem T; do
	case "${!v}" in ''|*[!0-9]*|0) echo "conformance: -$v ${!v}: want a positive integer" >&2; exit 2 ;; esac
done
[ -n "$src_beff$src_beffio$skampi" ] || { echo "conformance: give at least one reference code (-beff, -beffio, -skampi)" >&2; exit 2; }
for f in "$src_beff" "$src_beffio" "$skampi"; do
	[ -z "$f" ] || [ -f "$f" ] || { echo "conformance: $f: no such file" >&2; exit 2; }
done
[ -z "$out" ] && out=$(mktemp -d /tmp/beff-conformance-XXXXXX)
mkdir -p "$out/bin"
out=$(cd "$out" && pwd)
[ -n "$scratch" ] || scratch=$out/scratch
mkdir -p "$scratch"

case "$mpi" in
'') ;;
openmpi | mpich) export MPICC=mpicc.$mpi ;;
*) echo "conformance: -mpi $mpi: Debian's libraries are openmpi and mpich (another MPI: put it on PATH, or set MPICC)" >&2; exit 2 ;;
esac
cc=${MPICC:-mpicc}
command -v "$cc" >/dev/null || { echo "conformance: no MPI compiler wrapper $cc: load your MPI or set MPICC" >&2; exit 2; }
# every job through beff launch: the launcher of the MPI on PATH, its
# family's flags (more processes than cores: oversubscribed)
run=("$out/bin/beff" launch -np "$np" --)
[ "$np" -le "$(nproc)" ] || echo "conformance: $np processes on $(nproc) cores: oversubscribed, the figures check the rules, not speed" >&2

echo "conformance: building into $out/bin" >&2
CC="$cc" go test -c -tags mpi -o "$out/bin/beff.test" .
go build -o "$out/bin/beff" ./cmd/beff
# the reference codes are C of the 1990s (functions used without their
# headers): GCC 14 and clang 16 make that an error unless told otherwise
old_c=(-Wno-error=implicit-function-declaration -Wno-error=implicit-int -Wno-error=int-conversion -Wno-error=incompatible-pointer-types)
# refcc LOG ARGS...: compile a reference code, the compiler's words in LOG
refcc() {
	local log=$1
	shift
	"$cc" -O2 "${old_c[@]}" "$@" -lm 2>"$log" || { echo "conformance: compiling a reference code failed (see $log)" >&2; exit 1; }
}
[ -z "$src_beff" ] || refcc "$out/bin/b_eff.cc.log" -D MEMORY_PER_PROCESSOR="$mem" -o "$out/bin/b_eff" "$src_beff"
[ -z "$src_beffio" ] || refcc "$out/bin/b_eff_io.cc.log" -o "$out/bin/b_eff_io" "$src_beffio"

mt=$((mem * np))
limit=$((3 * T + 900))
# run LABEL OUTFILE CMD...: one job under a time limit; stdout to OUTFILE
job() {
	local label=$1 file=$2
	shift 2
	echo "conformance: $(date -u +%H:%M:%S) $label" >&2
	if ! timeout -k 10 "$limit" "$@" >"$file" 2>"$file.err"; then
		echo "conformance: $label failed (see $file.err)" >&2
		exit 1
	fi
}
bench=(-test.run '^$')
# runs_<suite> DIR WHICH: the run WHICH (ref, default, reference) of a suite in round directory DIR
runs_beff() {
	local d=$1
	case $2 in
	ref) job "b_eff reference code" "$d/ref.out" "${run[@]}" "$out/bin/b_eff" -f "$d/ref" ;;
	default) job "b_eff, beff default" "$d/default.txt" "${run[@]}" "$out/bin/beff.test" "${bench[@]}" -test.bench '^BenchmarkBeff$' -beff.mem="$mem" ;;
	reference) job "b_eff, beff reference mode" "$d/reference.txt" "${run[@]}" "$out/bin/beff.test" "${bench[@]}" -test.bench '^BenchmarkBeff$' -beff.mem="$mem" -beff.reference ;;
	esac
}
runs_beff_io() {
	local d=$1
	case $2 in
	ref) job "b_eff_io reference code" "$d/ref.out" "${run[@]}" "$out/bin/b_eff_io" -MB "$mem" -MT "$mt" -T "$T" -p "$scratch" -f "$d/ref" ;;
	default) job "b_eff_io, beff default" "$d/default.txt" "${run[@]}" "$out/bin/beff.test" "${bench[@]}" -test.bench '^BenchmarkBeffIO$' \
		-beffio.mem="$mem" -beffio.totalmem="$mt" -beffio.T="$T" -beffio.dir="$scratch" ;;
	reference) job "b_eff_io, beff reference mode" "$d/reference.txt" "${run[@]}" "$out/bin/beff.test" "${bench[@]}" -test.bench '^BenchmarkBeffIO$' \
		-beffio.mem="$mem" -beffio.totalmem="$mt" -beffio.T="$T" -beffio.dir="$scratch" -beffio.reference ;;
	esac
}
runs_skampi() {
	local d=$1 ski=tools/skampi5
	case $2 in
	ref) job "SKaMPI 5" "$d/ref.out" "${run[@]}" "$skampi" -i "$ski/skampi5.ski" -o "$d/ref.sko" ;;
	default) job "SKaMPI, beff default" "$d/default.txt" "${run[@]}" "$out/bin/beff.test" "${bench[@]}" -test.bench '^BenchmarkSkampi$' -skampi.suites "$ski/beff-default.yaml" ;;
	reference) job "SKaMPI, beff with SKaMPI 5's settings" "$d/reference.txt" "${run[@]}" "$out/bin/beff.test" "${bench[@]}" -test.bench '^BenchmarkSkampi$' -skampi.suites "$ski/beff-skampi5.yaml" ;;
	esac
}

suites=()
[ -z "$src_beff" ] || suites+=(beff)
[ -z "$src_beffio" ] || suites+=(beff_io)
[ -z "$skampi" ] || suites+=(skampi)
order=(ref default reference)
for k in $(seq 1 "$rounds"); do
	for s in "${suites[@]}"; do
		d=$out/$s/round-$k
		mkdir -p "$d"
		for i in 0 1 2; do
			runs_"$s" "$d" "${order[$(((k - 1 + i) % 3))]}"
		done
	done
done
"$out/bin/beff" conformance "$out" | tee "$out/conformance.txt"
echo "conformance: rounds and table in $out" >&2
