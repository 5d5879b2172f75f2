#!/usr/bin/env bash
# tools/bench.sh: run the suites with ./beff.test under mpirun and store the
# result in results/ without overwriting anything. Called by `make bench`.
# Environment: NP (processes), ARGS (extra flags of the test binary), GO,
# MPI (openmpi or mpich: whose launcher starts the job; ./beff.test must be
# built against it, as make does), MPIRUN_ARGS (extra launcher flags, e.g.
# --hostfile hosts), BEFF_CLUSTER (see below), BEFF_RESULTS (the folder of
# results, default results/), BENCH (the -test.bench pattern: b_eff and b_eff_io by
# default; make skampi runs SKaMPI in a job of its own, as a full b_eff before
# it in the same job doubles its small-message times).
set -euo pipefail
cd "$(dirname "$0")/.."
NP=${NP:-2}
GO=${GO:-go}
case "$NP" in ''|*[!0-9]*|0) echo "bench: NP=$NP: the number of processes must be a positive integer" >&2; exit 2;; esac

timeout=${BEFF_TIMEOUT:-3600}
cores=$(nproc 2>/dev/null || echo 1)
oversub=
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
	prog=(mpiexec.hydra) flags=(-n "$NP") suffix=-mpich
	[ -z "$oversub" ] || echo "bench: MPICH spins without yielding: oversubscribed jobs are slow" >&2 ;;
*) echo "bench: MPI=$MPI: the MPI library is openmpi or mpich" >&2; exit 2 ;;
esac
# BEFF_CLUSTER=ID: on the emulated cluster ID (tools/cluster.sh), launched
# from its node n0; MPIRUN_ARGS names the hosts (e.g. --host n0:2,n1:2)
[ -z "${BEFF_CLUSTER:-}" ] || prog=(tools/cluster.sh mpirun "$BEFF_CLUSTER" -mpi "${MPI:-openmpi}")
results=${BEFF_RESULTS:-results}

host=$(hostname -s 2>/dev/null || hostname)
date=$(date -u +%Y-%m-%d)
mkdir -p "$results"
out=$results/$host-$date-np$NP$suffix.txt
i=2
while [ -e "$out" ]; do out=$results/$host-$date-np$NP$suffix-run$i.txt; i=$((i + 1)); done

tmp=$(mktemp "${TMPDIR:-/tmp}/beff-XXXXXX.txt")
trap 'rm -f "$tmp"' EXIT
start=$(date +%s)
# shellcheck disable=SC2086
"${prog[@]}" "${flags[@]}" ${MPIRUN_ARGS:-} ./beff.test -test.run '^$' -test.bench "${BENCH:-^(BenchmarkBeff|BenchmarkBeffIO)\$}" ${ARGS:-} >"$tmp"
end=$(date +%s)
echo "bench: $NP processes took $((end - start)) s" >&2
"$GO" run ./cmd/beff fold -append "$tmp" >/dev/null
mv "$tmp" "$out"
trap - EXIT
"$GO" run ./cmd/beff fold "$out"
echo "bench: stored $out"
