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
#
# Inside a Slurm allocation (SLURM_JOB_ID set: salloc, sbatch) the job is
# launched with srun over the allocation: PMIx for Open MPI, PMI-2 for
# MPICH. NP is then one process per allocated task (SLURM_NTASKS) or, when
# no task count was asked for, per allocated CPU, unless NP_AUTO is empty
# (make sets NP_AUTO=1 when NP was not given). MPIRUN_ARGS are srun's
# flags there (e.g. --distribution=cyclic). BEFF_NO_SRUN=1 uses mpirun
# even inside an allocation.
set -euo pipefail
cd "$(dirname "$0")/.."
slurm=
[ -z "${SLURM_JOB_ID:-}" ] || [ -n "${BEFF_CLUSTER:-}" ] || [ -n "${BEFF_NO_SRUN:-}" ] || slurm=1
# slurm_cpus: the CPUs of the allocation, from SLURM_JOB_CPUS_PER_NODE
# ("2(x3),1": three nodes of 2 and one of 1)
slurm_cpus() {
	echo "${SLURM_JOB_CPUS_PER_NODE:-}" | tr ',' '\n' |
		awk '/^[0-9]+$/ {n += $1; next} match($0, /^[0-9]+\(x[0-9]+\)$/) {split($0, a, /[(x)]+/); n += a[1] * a[2]; next} {bad = 1} END {if (bad || n == 0) exit 1; print n}'
}
if [ -n "$slurm" ] && [ -n "${NP_AUTO:-}" ]; then
	NP=${SLURM_NTASKS:-}
	[ -n "$NP" ] || NP=$(slurm_cpus) || {
		echo "bench: in Slurm job $SLURM_JOB_ID, SLURM_JOB_CPUS_PER_NODE='${SLURM_JOB_CPUS_PER_NODE:-}' does not say the CPUs: give NP" >&2
		exit 2
	}
fi
NP=${NP:-2}
GO=${GO:-go}
case "$NP" in ''|*[!0-9]*|0) echo "bench: NP=$NP: the number of processes must be a positive integer" >&2; exit 2;; esac

timeout=${BEFF_TIMEOUT:-3600}
cores=$(nproc 2>/dev/null || echo 1)
oversub= guard=()
if [ "$NP" -gt "$cores" ] && [ -z "${MPIRUN_ARGS:-}" ] && [ -z "${BEFF_CLUSTER:-}" ] && [ -z "$slurm" ]; then
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
if [ -n "$slurm" ]; then
	# srun has no time limit of its own for a step: the guard ends it
	pmi=pmix
	[ "${MPI:-openmpi}" = openmpi ] || pmi=pmi2
	guard=(timeout -k 5 $((timeout + 10)))
	prog=(srun --mpi="$pmi" --kill-on-bad-exit=1) flags=(-n "$NP")
	echo "bench: in Slurm job $SLURM_JOB_ID (${SLURM_JOB_NODELIST:-?}): srun --mpi=$pmi -n $NP" >&2
fi
prog=("${guard[@]}" "${prog[@]}")
results=${BEFF_RESULTS:-results}

host=$(hostname -s 2>/dev/null || hostname)
date=$(date -u +%Y-%m-%d)
base=$host-$date-np$NP$suffix
# The output goes, as it is measured, to a file of its own under
# results/partial/ (mktemp: a name no other job has). Only a complete,
# folded run becomes results/<base>[-runK].txt; a job that fails leaves
# its file there, headed by "beff-partial: <why>", to resume from.
mkdir -p "$results/partial"
part=$(mktemp "$results/partial/$base-XXXXXX.txt")
chmod 644 "$part"
# drop removes the output, and results/partial/ when that leaves it empty.
drop() {
	rm -f "$part"
	rmdir "$results/partial" 2>/dev/null || true
}

errlog=$(mktemp "${TMPDIR:-/tmp}/beff-XXXXXX.err")
trap 'rm -f "$errlog"' EXIT
# a signal to this script (scancel, ^C, kill) goes to the launcher too,
# whose processes flush and mark what they measured; the script goes on to
# keep it
signal= launcher=
for sig in TERM INT HUP; do
	# shellcheck disable=SC2064
	trap "signal=SIG$sig; [ -z \"\$launcher\" ] || kill -$sig \$launcher 2>/dev/null" $sig
done

resume=()
if [ -n "${RESUME:-}" ]; then
	if [ ! -f "$RESUME" ]; then
		echo "bench: RESUME=$RESUME: not a file (give the partial output of an earlier job, results/partial/…)" >&2
		drop
		exit 2
	fi
	case "${BENCH:-}" in
	*Skampi*) resume=(-skampi.resume "$RESUME") ;;
	*) resume=(-beff.resume "$RESUME" -beffio.resume "$RESUME") ;;
	esac
	echo "bench: resuming from $RESUME" >&2
fi

echo "bench: the output goes to $part" >&2
start=$(date +%s)
# shellcheck disable=SC2086
"${prog[@]}" "${flags[@]}" ${MPIRUN_ARGS:-} "${BEFF_BIN:-./beff.test}" -test.run '^$' -test.bench "${BENCH:-^(BenchmarkBeff|BenchmarkBeffIO)\$}" "${resume[@]}" ${ARGS:-} >"$part" 2> >(tee "$errlog" >&2) &
launcher=$!
while :; do
	rc=0
	wait "$launcher" || rc=$?
	# a trapped signal interrupts wait: wait again while the launcher ends
	if [ "$rc" -gt 128 ] && kill -0 "$launcher" 2>/dev/null; then continue; fi
	break
done
launcher=
wait # for tee
[ -z "$signal" ] || [ "$rc" != 0 ] || rc=1

# keep marks the output as partial (why, first) and says how to resume;
# an output without a measurement is removed.
keep() {
	if ! grep -q '^Benchmark' "$part"; then
		drop
		echo "bench: nothing was measured; nothing kept" >&2
		return
	fi
	{ echo "beff-partial: $1"; cat "$part"; } >"$part.tmp" && mv "$part.tmp" "$part"
	echo "bench: kept $(grep -c '^Benchmark' "$part") measured lines in $part" >&2
	echo "bench: resume with: make ${MAKE_TARGET:-bench} RESUME=$part" >&2
}

if [ "$rc" != 0 ]; then
	# what the launcher wrote to stdout (MPICH's hydra reports a lost
	# process there, by process id and host: the harness's list of
	# processes on stderr gives its rank)
	grep -vE '^(Benchmark|[a-z][a-z0-9-]*: |Unit |PASS|FAIL|ok |goos|goarch|pkg|cpu|$)' "$part" >&2 || true
	sed -n 's/.*PID \([0-9]*\) RUNNING AT \([^ ]*\).*/\1 \2/p' "$part" | while read -r pid host; do
		r=$(grep -m1 -o "rank [0-9]* on $host (pid $pid)" "$errlog" || true)
		[ -z "$r" ] || echo "bench: the process that ended the job was $r" >&2
	done
	# b_eff_io's scratch files, where its processes could not remove them
	# (MPICH's hydra kills them with SIGKILL): the job's own directory
	d=$(sed -n 's/^\[beff\] b_eff_io on .*, dir \(.*\)$/\1/p' "$errlog" | head -1 || true)
	if [ -n "$d" ] && [ -d "$d" ] && [ ! -L "$d" ]; then
		case "$(basename "$d")" in beffio-*)
			rm -f "$d"/beffio_*.dat "$d"/beffio_*.dat-*.lock "$d"/.beffio-probe-*
			rmdir "$d" 2>/dev/null && echo "bench: removed what was left of b_eff_io's scratch files in $d" >&2 ;;
		esac
	fi
	# why the job ended, and an exit code that says it under both MPI
	# libraries (the harness's own codes; the watchdog's process ends by
	# SIGKILL so that MPICH's launcher notices; a process killed by SIGKILL
	# shows in MPICH's report as KILLED BY SIGNAL: 9 or EXIT CODE: 9)
	why="the job failed (exit $rc)" code=$rc
	if l=$(grep -m1 -o 'beff: rank [0-9]*: watchdog: .*' "$errlog"); then
		why="ended by the watchdog: ${l#beff: }" code=10
	elif l=$(grep -m1 -oE 'beff: rank [0-9]*: .*(lost rank [0-9]+|no longer answers).*' "$errlog"); then
		why="a process was lost: ${l#beff: }" code=11
	elif l=$(grep -h -m1 -oE '(process rank [0-9]+ with PID [0-9]+ on node [^ ]+ exited on signal [0-9]+.*|KILLED BY SIGNAL: [0-9]+.*|EXIT CODE: 9$)' "$errlog" "$part"); then
		why="a process was lost: the launcher says: ${l%%$'\n'*}" code=11
	elif l=$(grep -m1 -o 'validation FAILED.*' "$errlog"); then
		why="$l" code=3
	elif [ -n "$signal" ]; then
		why="terminated by $signal" code=$((128 + $(kill -l "$signal")))
	elif l=$(grep -m1 -o 'beff: rank [0-9]*: terminated .*' "$errlog"); then
		why="${l#beff: }"
	fi
	[ "$code" != 0 ] || code=1
	echo "bench: $why" >&2
	keep "$why"
	exit "$code"
fi
end=$(date +%s)
echo "bench: $NP processes took $((end - start)) s" >&2
case " ${ARGS:-} " in
*" -skampi.plan "* | *" -skampi.plan=true "*)
	cat "$part" # a dry run: its plan, nothing to store
	drop
	exit 0 ;;
esac
if ! err=$("$GO" run ./cmd/beff fold -append "$part" 2>&1 >/dev/null); then
	echo "$err" >&2
	keep "the fold refused it: $(echo "$err" | head -1)"
	exit 1
fi
# the results name, reserved atomically: link(2) fails when it exists
out=$results/$base.txt
i=2
until ln "$part" "$out" 2>/dev/null; do
	[ "$i" -le 10000 ] || { echo "bench: no free name for $results/$base-runK.txt" >&2; exit 1; }
	out=$results/$base-run$i.txt
	i=$((i + 1))
done
drop
"$GO" run ./cmd/beff fold "$out"
echo "bench: stored $out"
# the partial output resumed from is in the results file now
case "${RESUME:-}" in "$results"/partial/*.txt)
	rm -f "$RESUME" && echo "bench: removed $RESUME (resumed into $out)" ;;
esac
