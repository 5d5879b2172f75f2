#!/usr/bin/env bash
# tools/bench.sh: run the suites with ./beff.test under mpirun and store the
# result in results/ without overwriting anything. Called by `make bench`.
# Environment: NP (processes), ARGS (extra flags of the test binary), GO,
# MPIRUN_ARGS (extra mpirun flags, e.g. --hostfile hosts), BENCH (the -test.bench
# pattern: b_eff and b_eff_io by default; make skampi runs SKaMPI in a job of its
# own, as a full b_eff before it in the same job doubles its small-message times).
set -euo pipefail
cd "$(dirname "$0")/.."
NP=${NP:-2}
GO=${GO:-go}
case "$NP" in ''|*[!0-9]*|0) echo "bench: NP=$NP: the number of processes must be a positive integer" >&2; exit 2;; esac

mpiargs=(--timeout "${BEFF_TIMEOUT:-3600}")
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
cores=$(nproc 2>/dev/null || echo 1)
if [ "$NP" -gt "$cores" ] && [ -z "${MPIRUN_ARGS:-}" ]; then
	mpiargs+=(--oversubscribe)
	echo "bench: $NP processes on $cores cores: oversubscribed, the figures check correctness, not speed" >&2
fi

host=$(hostname -s 2>/dev/null || hostname)
date=$(date -u +%Y-%m-%d)
mkdir -p results
out=results/$host-$date-np$NP.txt
i=2
while [ -e "$out" ]; do out=results/$host-$date-np$NP-run$i.txt; i=$((i + 1)); done

tmp=$(mktemp "${TMPDIR:-/tmp}/beff-XXXXXX.txt")
trap 'rm -f "$tmp"' EXIT
start=$(date +%s)
# shellcheck disable=SC2086
mpirun "${mpiargs[@]}" ${MPIRUN_ARGS:-} -np "$NP" ./beff.test -test.run '^$' -test.bench "${BENCH:-^(BenchmarkBeff|BenchmarkBeffIO)\$}" ${ARGS:-} >"$tmp"
end=$(date +%s)
echo "bench: $NP processes took $((end - start)) s" >&2
"$GO" run ./cmd/beff fold -append "$tmp" >/dev/null
mv "$tmp" "$out"
trap - EXIT
"$GO" run ./cmd/beff fold "$out"
echo "bench: stored $out"
