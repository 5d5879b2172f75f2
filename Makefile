# beff — effective bandwidth benchmarks under MPI.
#   make bench [NP=4] [ARGS='-beffio.T=2700']   b_eff, then b_eff_io (default T = 150 s: NOT VALID; valid needs 900 s per partition), stored in results/
#   make bench RESUME=results/partial/F.txt     measure only what the failed job F did not (also make beff/beffio/skampi)
#   make bench RUNS=6 [AGAINST=base.test]       6 launches (each one sample), with AGAINST interleaved with it: two sides for beff gate
#   make beff / make beffio / make skampi       one suite only (skampi: the default suite file, in seconds; its own job, see README)
#   make congestion [NP=…] [MPIRUN_ARGS=…]      the canaries isolated and under congestors (its own job; from 3 nodes, see docs/congestion.md)
#   make links [NP=…] [MPIRUN_ARGS=…]           every pair of nodes, the slow node and the slow link (its own job; docs/links.md)
#   make test                                   unit tests + real MPI jobs + 5 s of each fuzz target
#   make test-mpi                               the tests that run MPI only
#   make trixie-test                            build and run in a Debian 13 root made here (Open MPI 5, MPICH 4.2, Go 1.25; root, debootstrap),
#                                               then as a user without root, apt or pkg-config, with Lmod: module load, make bench, module swap
#   make fuzz [FUZZTIME=30s]                    each fuzz target for FUZZTIME
#   make cluster-test                           the suites on an emulated cluster of network namespaces (root; tools/cluster.sh)
#   make slurm-test                             the suites under Slurm (srun, sbatch, scancel, a node lost) on emulated nodes (root; tools/cluster.sh slurm)
#   make scale-test                             jobs of 32 and 64 processes: memory against the model, the lifeline (docs/scale.md)
#   make big-test [BIG_NP=256]                  each suite's quick job on 256 processes, one line for a stopped or killed one (hours; not in CI)
#   make deps                                   Debian: install the MPI library, Chromium and npm if missing, and the assets
#   make assets                                 fetch the plotting library of `beff report` (npm pack plotly.js-basic-dist-min)
# The MPI is the one on PATH (MPICC, its compiler wrapper, default mpicc); MPI=openmpi or
# MPI=mpich picks one of Debian's two by name. Nothing is installed beside an MPI on PATH.

NP      ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ $$n -lt 2 ] && n=2; echo $$n)
# NP_AUTO: NP was not given (beff run then takes a Slurm allocation's tasks
# or CPUs, else this node's CPUs)
NP_AUTO := $(if $(filter file,$(origin NP)),1)
ARGS    ?=
RESUME  ?=
GO      ?= go
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
LDFLAGS := -X github.com/beff-suite/beff/harness.Commit=$(COMMIT)
# the plotting library of beff report: npm package, version, sha256 of its tarball
PLOTLY_VERSION := 4.1.1
PLOTLY_SHA256  := ea907f854b6cec4f6a2fa71540ec019a21ed2c61e6a109ddd5c072103a96eed0
PLOTLY_DIR     := internal/report/assets/vendor

# The MPI library is the one on PATH, as a centre's module loads it: cgo
# compiles and links through its compiler wrapper MPICC (default mpicc;
# Cray's cc works the same way), and `beff run` launches with its launcher
# (srun inside a Slurm allocation, else MPIEXEC, else the mpiexec beside
# MPICC). Where a library has no wrapper, MPI_PC names its pkg-config
# package instead. MPI=openmpi or MPI=mpich picks one of Debian's two
# libraries by their Debian names, and is what make deps installs.
MPI ?=
ifeq ($(MPI),openmpi)
MPICC    ?= mpicc.openmpi
MPI_PKGS := openmpi-bin libopenmpi-dev
else ifeq ($(MPI),mpich)
MPICC    ?= mpicc.mpich
MPI_PKGS := mpich libmpich-dev
else ifeq ($(MPI),)
MPICC    ?= mpicc
MPI_PKGS := openmpi-bin libopenmpi-dev
else
$(error MPI=$(MPI): Debian's MPI libraries are openmpi and mpich; for another MPI load it (module load …) or set MPICC)
endif
MPI_PC ?=
export MPICC MPI_PC
# MPI_BUILD identifies the MPI the build compiles against (beff build-id:
# the wrapper resolved, what it adds, the mpi.h it finds), worked out once
# when a recipe first needs it, after deps-mpi. Handed to cgo in
# CGO_CPPFLAGS it makes a module swap rebuild: Go's build cache knows a
# compiler by its name only.
MPI_BUILD = $(eval MPI_BUILD := $$(shell $(GO) run ./cmd/beff build-id))$(MPI_BUILD)
# cgo's compiler for the MPI build: the wrapper, or pkg-config's flags
# (after cgo's default -O2 -g, which CGO_CFLAGS replaces)
CGO_MPI = $(if $(MPI_PC),CGO_CFLAGS="-O2 -g $$(pkg-config --cflags $(MPI_PC))" CGO_LDFLAGS="$$(pkg-config --libs $(MPI_PC))",CC="$(MPICC)") \
	CGO_CPPFLAGS="$$CGO_CPPFLAGS -DBEFF_MPI_BUILD=$(MPI_BUILD)"
# the beff command (./beff), which runs the jobs (beff run) and folds
BEFF_RUN = ./beff run

.PHONY: all bench beff beffio skampi congestion links test test-mpi fuzz cluster-test slurm-test scale-test big-test trixie-test deps deps-mpi deps-test deps-cluster deps-slurm deps-fs apt assets build vet clean

all: test

## deps-mpi: an MPI library: the one on PATH (a compiler wrapper and a
## launcher, as beff mpi finds them: the launcher knowledge is the beff
## command's), else Debian's (as root: apt), else one message that says
## what to load, and exit 2. It never installs beside an MPI on PATH.
deps-mpi:
	@out=$$($(GO) run ./cmd/beff mpi 2>&1); rc=$$?; out=$$(echo "$$out" | grep -v '^exit status '); \
	if [ $$rc = 0 ]; then echo "deps: MPI present: $${out#beff mpi: }"; exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "$(filter-out mpicc mpicc.openmpi mpicc.mpich,$(MPICC))" ]; then \
		$(MAKE) --no-print-directory apt PKGS="$(MPI_PKGS)"; \
	else \
		echo "deps: no MPI found: $${out#beff mpi: }" >&2; \
		echo "deps: load your MPI (module load openmpi, module load mpich, …) or set MPICC=/path/to/mpicc (and MPIEXEC=/path/to/mpiexec); on Debian, sudo make deps installs Open MPI." >&2; \
		exit 2; \
	fi

## deps-cluster: what the emulated cluster needs (iproute2, iperf3)
deps-cluster: deps-mpi
	@if command -v ip >/dev/null 2>&1 && command -v tc >/dev/null 2>&1 && command -v iperf3 >/dev/null 2>&1; then \
		echo "deps: iproute2 and iperf3 present"; \
	else $(MAKE) --no-print-directory apt PKGS="iproute2 iperf3"; fi

## deps-slurm: Slurm's daemons and clients and munge, for the emulated
## Slurm cluster (tools/cluster.sh slurm); Open MPI launches through
## Slurm's PMIx plugin (slurm-wlm-basic-plugins), MPICH through PMI-2
deps-slurm: deps-cluster
	@if command -v slurmctld >/dev/null 2>&1 && command -v slurmd >/dev/null 2>&1 && command -v srun >/dev/null 2>&1 && command -v munged >/dev/null 2>&1 && command -v nsenter >/dev/null 2>&1; then \
		echo "deps: Slurm present: $$(dpkg-query -W -f '$${Version}' slurm-client 2>/dev/null)"; \
	else $(MAKE) --no-print-directory apt APT_FLAGS=--no-install-recommends PKGS="slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge util-linux"; fi

## deps-fs: GlusterFS's server and client, for the distributed file system
## of the emulated nodes (tools/cluster.sh fs)
deps-fs:
	@if command -v glusterd >/dev/null 2>&1 && command -v mount.glusterfs >/dev/null 2>&1; then \
		echo "deps: GlusterFS present: $$(glusterd --version | head -1)"; \
	else $(MAKE) --no-print-directory apt APT_FLAGS=--no-install-recommends PKGS="glusterfs-server glusterfs-client"; fi

## deps: the Debian convenience: Debian's MPI library (MPI names it; with
## sudo when not root) unless one is on PATH, Chromium (browser test of
## beff report) and npm (assets) when missing, then the assets.
deps:
	@$(MAKE) --no-print-directory deps-mpi 2>/dev/null || $(MAKE) --no-print-directory apt PKGS="$(MPI_PKGS)"
	@pkgs=; \
	if [ -x /usr/bin/chromium ]; then echo "deps: Chromium present"; else pkgs="$$pkgs chromium"; fi; \
	if [ "$$(cat $(PLOTLY_DIR)/VERSION 2>/dev/null)" = "$(PLOTLY_VERSION)" ] || command -v npm >/dev/null 2>&1; then :; else pkgs="$$pkgs npm"; fi; \
	if [ -n "$$pkgs" ]; then $(MAKE) --no-print-directory apt PKGS="$$pkgs"; fi
	@$(MAKE) --no-print-directory assets

## deps-test: what make test needs: an MPI (deps-mpi); on Debian as root
## also what deps installs; elsewhere nothing is installed: without
## Chromium the browser test skips, without npm the tests that need the
## plotting library skip.
deps-test: deps-mpi
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then $(MAKE) --no-print-directory deps; \
	else $(MAKE) --no-print-directory assets || echo "assets: not fetched: the tests that need the plotting library skip"; fi

apt:
	@echo "deps: installing from Debian: $(PKGS)"; \
	SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(APT_FLAGS) $(PKGS) >/dev/null && \
	echo "deps: installed: $(PKGS)"

## assets: the plotting library of `beff report` (plotly.js basic, MIT), embedded
## into the beff binary from internal/report/assets/vendor/ (git-ignored).
assets:
	@if [ -f $(PLOTLY_DIR)/plotly-basic.min.js ] && [ "$$(cat $(PLOTLY_DIR)/VERSION 2>/dev/null)" = "$(PLOTLY_VERSION)" ]; then \
		echo "assets: plotly.js-basic-dist-min $(PLOTLY_VERSION) present"; \
	else \
		command -v npm >/dev/null 2>&1 || { echo "assets: npm is missing: run make deps" >&2; exit 1; }; \
		echo "assets: npm pack plotly.js-basic-dist-min@$(PLOTLY_VERSION)"; \
		tgz=plotly.js-basic-dist-min-$(PLOTLY_VERSION).tgz; tmp=$$(mktemp -d); ok=; \
		( cd $$tmp && npm pack --silent plotly.js-basic-dist-min@$(PLOTLY_VERSION) >/dev/null ) && \
		echo "$(PLOTLY_SHA256)  $$tmp/$$tgz" | sha256sum -c --quiet - && \
		tar -xzf $$tmp/$$tgz -C $$tmp package/plotly-basic.min.js package/LICENSE && \
		cp $$tmp/package/plotly-basic.min.js $$tmp/package/LICENSE $(PLOTLY_DIR)/ && \
		echo "$(PLOTLY_VERSION)" > $(PLOTLY_DIR)/VERSION && ok=1; \
		rm -rf $$tmp; \
		[ -n "$$ok" ] || { echo "assets: fetching plotly.js-basic-dist-min $(PLOTLY_VERSION) failed" >&2; exit 1; }; \
		echo "assets: $(PLOTLY_DIR)/plotly-basic.min.js ($(PLOTLY_VERSION))"; \
	fi

## build: the MPI test binary ./beff.test, compiled and linked by MPICC, and
## the command ./beff
build: deps-mpi
	$(CGO_MPI) $(GO) test -c -tags mpi -ldflags '$(LDFLAGS)' -o beff.test .
	$(GO) build -o beff ./cmd/beff

## bench: b_eff then b_eff_io on NP processes; results/<host>-<date>-np<NP>[-<library>].txt
RUN_FLAGS = $(if $(NP_AUTO),,-np $(NP)) $(if $(RESUME),-resume '$(RESUME)') $(if $(MPIRUN_ARGS),-launcher-args '$(MPIRUN_ARGS)') \
	$(if $(RUNS),-runs $(RUNS)) $(if $(AGAINST),-against '$(AGAINST)') \
	$(if $(BEFF_RESULTS),-results '$(BEFF_RESULTS)') $(if $(BEFF_TIMEOUT),-timeout $(BEFF_TIMEOUT)s) -hint 'make $@$(if $(MPI), MPI=$(MPI)) RESUME=%s'
bench: build
	@$(BEFF_RUN) $(RUN_FLAGS) -- $(ARGS)

## beff, beffio, skampi, congestion, links: one benchmark only
beff: build
	@$(BEFF_RUN) $(RUN_FLAGS) -bench b_eff -- $(ARGS)
beffio: build
	@$(BEFF_RUN) $(RUN_FLAGS) -bench b_eff_io -- $(ARGS)
skampi: build
	@$(BEFF_RUN) $(RUN_FLAGS) -bench skampi -- $(ARGS)
congestion: build
	@$(BEFF_RUN) $(RUN_FLAGS) -bench congestion -- $(ARGS)
links: build
	@$(BEFF_RUN) $(RUN_FLAGS) -bench links -- $(ARGS)

## test: vet, unit tests, and the integration tests that run real MPI jobs;
## BEFF_REQUIRE_BROWSER=1 (the default where Chromium is installed): the
## browser test of beff report fails rather than skips
BEFF_REQUIRE_BROWSER ?= $(if $(wildcard /usr/bin/chromium),1)
# the packages whose tests run under MPI as a singleton: the binding, each
# suite's timed loops, the harness and the SKaMPI driver
MPI_TEST_PKGS = ./internal/mpi/ $(patsubst %,./%/,$(wildcard suites/*/loops)) ./harness/ ./suites/skampi/driver/
test: deps-test
	$(GO) vet ./...
	$(CGO_MPI) $(GO) vet -tags mpi ./...
	$(CGO_MPI) $(GO) test -tags mpi -count=1 $(MPI_TEST_PKGS)
	$(CGO_MPI) $(GO) test -tags mpi,rmatrace -count=1 -run '^TestRMAAssertions$$' ./suites/skampi/loops/
	BEFF_REQUIRE_BROWSER=$(BEFF_REQUIRE_BROWSER) $(GO) test -count=1 ./...
	@$(MAKE) --no-print-directory fuzz FUZZTIME=$(TEST_FUZZTIME)

## test-mpi: the tests that run MPI: the binding, the suites' loops, the
## harness and drivers under MPI, and the real jobs of ./e2e (those TEST_MPI_RUN
## names; BEFF_REPEAT=N: each quick suite N times through beff run)
TEST_MPI_RUN ?= .
test-mpi: deps-mpi
	$(CGO_MPI) $(GO) test -tags mpi -count=1 $(MPI_TEST_PKGS)
	BEFF_REPEAT=$(BEFF_REPEAT) $(GO) test -count=1 -timeout 30m -v -run '$(TEST_MPI_RUN)' ./e2e/ 2>&1 | \
		awk '/^(=== RUN|=== PAUSE|=== CONT)/ {next} {print} /^(--- FAIL|FAIL|panic)/ {bad=1} END {exit bad}'

## fuzz: each fuzz target for FUZZTIME (default 30s; make test: 5s each);
## an input that fails is written to testdata/fuzz/<target>/ of its
## package: commit it, it is a regression case from then on
FUZZTIME      ?= 30s
TEST_FUZZTIME ?= 5s
# FUZZ_TARGETS: every fuzz target of the module, found in its test files
# (package:Name), none listed by hand
FUZZ_TARGETS := $(shell grep -rH --include='*_test.go' --exclude-dir=vendor --exclude-dir=testdata --exclude-dir=.git \
	-o '^func Fuzz[A-Za-z0-9_]*' . | sed -E 's|^\./(.*)/[^/]*_test\.go:func (Fuzz.*)|./\1:\2|' | sort)
fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; log=$${TMPDIR:-/tmp}/beff-fuzz-$$name.log; count=$${TMPDIR:-/tmp}/beff-fuzz-$$name.count; \
		corpus=$$pkg/testdata/fuzz/$$name; before=$$(ls $$corpus 2>/dev/null | wc -l); \
		rm -f $$count; rc=0; \
		BEFF_FUZZ_COUNT=$$count $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg >$$log 2>&1 || rc=$$?; \
		n=$$(stat -c %s $$count 2>/dev/null || echo 0); \
		if [ $$rc != 0 ] && [ "$$(ls $$corpus 2>/dev/null | wc -l)" = "$$before" ] && grep -q '^    context deadline exceeded$$' $$log; then \
			echo "fuzz: $$name ($$pkg): $$n inputs in $(FUZZTIME); no failing input (the engine's end-of-time race, golang/go#75804, is not a failure)"; \
		elif [ $$rc != 0 ]; then \
			tail -30 $$log; echo "fuzz: $$name failed; the input is in $$corpus/: commit it" >&2; exit 1; \
		else echo "fuzz: $$name ($$pkg): $$n inputs in $(FUZZTIME)"; fi; \
	done

## cluster-test: b_eff, b_eff_io and SKaMPI across emulated nodes (network
## namespaces, rate-limited links; needs root), the link figures, and faults
cluster-test: deps-cluster
	BEFF_CLUSTER_TESTS=1 $(GO) test -count=1 -timeout 30m -run '^TestCluster' ./e2e/

## slurm-test: the suites under Slurm on three emulated nodes under two
## leaf switches (srun in an allocation, the batch script, block against
## cyclic placement, the memory Slurm gives, scancel, a node that dies, the
## heat map of the round trips, b_eff_io on a GlusterFS volume)
slurm-test: deps-slurm deps-fs
	BEFF_SLURM_TESTS=1 $(GO) test -count=1 -timeout 30m -run '^TestSlurm' ./e2e/

## scale-test: jobs of 32 and 64 processes (oversubscribed) that run all
## three suites and fold them, peak memory against the model, and the
## lifeline under a limit of 48 descriptors per process (docs/scale.md)
## (ONLY=lifeline: the lifeline test alone)
SCALE_RUN := ^(TestScaleJobs|TestLifelineUnderFdLimit)$$
ifeq ($(ONLY),lifeline)
SCALE_RUN := ^TestLifelineUnderFdLimit$$
endif
scale-test: deps-mpi
	BEFF_SCALE_TESTS=1 $(GO) test -count=1 -timeout 30m -run '$(SCALE_RUN)' ./e2e/

## big-test: each suite's quick job (-test.short) on BIG_NP processes
## (default 256; oversubscribed on a small machine): it completes, or is
## refused before it starts; wall time, lines on stderr and the ETA's
## errors logged; then a job with one process stopped and one with a
## process killed end with one line (docs/scale.md). Hours on 2 cores:
## not part of CI.
## (BIG_SUITES=b_eff,links: those suites alone, without the notice test)
BIG_NP ?= 256
BIG_SUITES ?=
big-test: deps-mpi
	$(if $(BIG_SUITES),,BEFF_NOTICE_NP=$(BIG_NP) $(GO) test -count=1 -timeout 30m -v -run '^TestNoticeOnce$$' ./e2e/)
	BEFF_BIG_TESTS=1 BEFF_BIG_NP=$(BIG_NP) BEFF_BIG_SUITES=$(BIG_SUITES) $(GO) test -count=1 -timeout 8h -v -run '^TestBigJobs$$' ./e2e/

## trixie-test: beff on Debian 13 (Open MPI 5.0, MPICH 4.2) in a root made
## here with debootstrap (needs root), removed afterwards, built by
## Debian's Go of go.mod's version (golang-1.25-go of trixie-backports):
## the MPI tests TRIXIE_RUN under both libraries (each quick suite
## TRIXIE_REPEAT times through beff run, every line accounted for; bad
## input, a killed rank, resume, fold); then the root as a cluster's login
## node with Lmod (tools/debian-root.sh module): as a user without root,
## pkg-config, apt or sudo, module load mpich, make bench, module swap to
## openmpi, make bench again: each stored file names its library and
## beff.test links it (tools/module-swap.sh); the MPI tests MODULE_RUN
## pass under the mpich module and nothing is installed; without a module
## make build says what to load and exits 2.
TRIXIE_DIR    ?= /var/tmp/beff-trixie
TRIXIE_REPEAT ?= 3
TRIXIE_RUN    ?= ^(TestRepeatedRuns|TestQuickBeff|TestBench.*|TestBadInput|TestBeffIOBadInput|TestSkampiBadInput|TestSkampiResume|TestQuickCongestion|TestValidationStopsJob|TestWithoutMPIBuild|TestGoTestUnderMpirun|TestNoticeOnce)$$
MODULE_RUN    ?= ^(TestRepeatedRuns|TestQuickBeff|TestBenchResume|TestBadInput|TestWithoutMPIBuild)$$
trixie-test:
	@command -v debootstrap >/dev/null 2>&1 || $(MAKE) --no-print-directory apt PKGS=debootstrap
	@tools/debian-root.sh down $(TRIXIE_DIR) 2>/dev/null || true
	@trap 'tools/debian-root.sh down $(TRIXIE_DIR)' EXIT; set -e; \
	tools/debian-root.sh up $(TRIXIE_DIR) trixie; \
	for lib in openmpi mpich; do \
		echo "trixie-test: the MPI tests under Debian 13's $$lib"; \
		tools/debian-root.sh exec $(TRIXIE_DIR) make --no-print-directory test-mpi MPI=$$lib BEFF_REPEAT=$(TRIXIE_REPEAT) TEST_MPI_RUN='$(TRIXIE_RUN)'; \
	done; \
	tools/debian-root.sh module $(TRIXIE_DIR); \
	before=$$(chroot $(TRIXIE_DIR) dpkg-query -W | md5sum); \
	echo "trixie-test: as a user with Lmod: module load mpich, make bench, module swap mpich openmpi, make bench"; \
	tools/debian-root.sh user $(TRIXIE_DIR) bash tools/module-swap.sh; \
	echo "trixie-test: as a user, module load mpich: the MPI tests"; \
	tools/debian-root.sh user $(TRIXIE_DIR) make --no-print-directory test-mpi BEFF_REPEAT=1 TEST_MPI_RUN='$(MODULE_RUN)'; \
	rc=0; MODULE=off tools/debian-root.sh user $(TRIXIE_DIR) make --no-print-directory build >$(TRIXIE_DIR).nompi 2>&1 || rc=$$?; \
	cat $(TRIXIE_DIR).nompi; rm -f $(TRIXIE_DIR).nompi; \
	[ $$rc = 2 ] || { echo "trixie-test: without an MPI make build must say what to load and exit 2, not $$rc" >&2; exit 1; }; \
	[ "$$(chroot $(TRIXIE_DIR) dpkg-query -W | md5sum)" = "$$before" ] || { echo "trixie-test: the user's make installed packages" >&2; exit 1; }; \
	echo "trixie-test: passed"

vet:
	$(GO) vet ./... && $(CGO_MPI) $(GO) vet -tags mpi ./...

clean:
	rm -f beff beff.test q.txt io.txt
