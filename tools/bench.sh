#!/usr/bin/env bash
# tools/bench.sh: run the suites with ./beff.test under mpirun and store the
# result in results/ without overwriting anything. Called by `make bench`.
# Environment: NP (processes), ARGS (extra flags of the test binary), GO,
# MPI (openmpi or mpich: whose launcher starts the job; ./beff.test must be
# built against it, as make does), MPIRUN_ARGS (extra launcher flags, e.g.
# --hostfile hosts), BEFF_CLUSTER (see below), BEFF_RESULTS (the folder of
# results, default results/), BEFF_BIN (the test binary, default ./beff.test),
# BENCH (the -test.bench pattern: b_eff and b_eff_io by
# default; make skampi runs SKaMPI in a job of its own, as a full b_eff before
# it in the same job doubles its small-message times).
set -euo pipefail
cd "$(dirname "$0")/.."
NP=${NP:-2}
GO=${GO:-go}
case "$NP" in ''|*[!0-9]*|0) echo "bench: NP=$NP: the number of processes must be a positive integer" >&2; exit 2;; esac

timeout=${BEFF_TIMEOUT:-3600}
cores=$(nproc 2>/dev/null || echo 1)
oversub= guard=()
if [ "$NP" -gt "$cores" ] && [ -z "${MPIRUN_ARGS:-}" ] && [ -z "${BEFF_CLUSTER:-}" ]; then
	oversub=1
	echo "bench: $NP processes on $cores cores: oversubscribed, the figures check correctness, not speed" >&2
fi
case "${MPI:-openmpi}" in
openmpi)
	prog=(mpirun.openmpi)
	command -v mpirun.openmpi >/dev/null 2>&1 || prog=(mpirun)
	flags=(--timeout "$timeout")
	# a node that stops answering ends the job within about 20 s instead of
	# hanging in TCP retransmissions (Open MPI's daemons probe idle links)
	[ -n "${BEFF_CLUSTER:-}" ] || flags+=(--mca oob_tcp_keepalive_time 10 --mca oob_tcp_keepalive_intvl 2 --mca oob_tcp_keepalive_probes 3)
	[ -z "$oversub" ] || flags+=(--oversubscribe)
	flags+=(-np "$NP") suffix=
	if [ "$(id -u)" = 0 ]; then
		export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	fi ;;
mpich)
	export MPIEXEC_TIMEOUT=$timeout
	# hydra waits for ever for a node that cannot be reached (MPICH issue
	# 1620), even past its own timeout: a guard ends it 10 s after that
	guard=(timeout -k 5 $((timeout + 10)))
	prog=(mpiexec.hydra) flags=(-n "$NP") suffix=-mpich
	# MPICH polls without yielding the core; Open MPI yields by itself
	# when it sees more processes than cores (see tools/mpich-yield.c)
	if [ -n "$oversub" ]; then
		lib=$(tools/mpich-yield.sh)
		flags+=(-genv LD_PRELOAD "$lib")
	fi ;;
*) echo "bench: MPI=$MPI: the MPI library is openmpi or mpich" >&2; exit 2 ;;
esac
# BEFF_CLUSTER=ID: on the emulated cluster ID (tools/cluster.sh), launched
# from its node n0; MPIRUN_ARGS names the hosts (e.g. --host n0:2,n1:2)
[ -z "${BEFF_CLUSTER:-}" ] || prog=(tools/cluster.sh mpirun "$BEFF_CLUSTER" -mpi "${MPI:-openmpi}")
prog=("${guard[@]}" "${prog[@]}")
results=${BEFF_RESULTS:-results}

host=$(hostname -s 2>/dev/null || hostname)
date=$(date -u +%Y-%m-%d)
mkdir -p "$results"
out=$results/$host-$date-np$NP$suffix.txt
i=2
while [ -e "$out" ]; do out=$results/$host-$date-np$NP$suffix-run$i.txt; i=$((i + 1)); done

tmp=$(mktemp "${TMPDIR:-/tmp}/beff-XXXXXX.txt")
errlog=$(mktemp "${TMPDIR:-/tmp}/beff-XXXXXX.err")
trap 'rm -f "$tmp" "$errlog"' EXIT
start=$(date +%s)
rc=0
# shellcheck disable=SC2086
"${prog[@]}" "${flags[@]}" ${MPIRUN_ARGS:-} "${BEFF_BIN:-./beff.test}" -test.run '^$' -test.bench "${BENCH:-^(BenchmarkBeff|BenchmarkBeffIO)\$}" ${ARGS:-} >"$tmp" 2> >(tee "$errlog" >&2) || rc=$?
wait # for tee
if [ "$rc" != 0 ]; then
	# what the launcher wrote to stdout (MPICH's hydra reports a lost
	# process there, by process id and host: the harness's list of
	# processes on stderr gives its rank)
	grep -vE '^(Benchmark|[a-z][a-z0-9-]*: |Unit |PASS|FAIL|ok |goos|goarch|pkg|cpu)' "$tmp" >&2 || true
	sed -n 's/.*PID \([0-9]*\) RUNNING AT \([^ ]*\).*/\1 \2/p' "$tmp" | while read -r pid host; do
		r=$(grep -o "rank [0-9]* on $host (pid $pid)" "$errlog" | head -1)
		[ -z "$r" ] || echo "bench: the process that ended the job was $r" >&2
	done
	# b_eff_io's scratch files, where its processes could not remove them
	# (MPICH's hydra kills them with SIGKILL): beff's own file names only
	d=$(sed -n 's/^\[beff\] b_eff_io on .*, dir \(.*\)$/\1/p' "$errlog" | head -1)
	if [ -n "$d" ] && [ -d "$d" ]; then
		rm -f "$d"/beffio_n*_*.dat "$d"/beffio_n*_*.dat-*.lock
		case "$(basename "$d")" in beffio-*) rmdir "$d" 2>/dev/null || true ;; esac
		echo "bench: removed what was left of b_eff_io's scratch files in $d" >&2
	fi
	echo "bench: the job failed (exit $rc); nothing stored" >&2
	exit "$rc"
fi
end=$(date +%s)
echo "bench: $NP processes took $((end - start)) s" >&2
case " ${ARGS:-} " in
*" -skampi.plan "* | *" -skampi.plan=true "*)
	cat "$tmp" # a dry run: its plan, nothing to store
	exit 0 ;;
esac
"$GO" run ./cmd/beff fold -append "$tmp" >/dev/null
mv "$tmp" "$out"
trap - EXIT
"$GO" run ./cmd/beff fold "$out"
echo "bench: stored $out"
