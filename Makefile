# beff — effective bandwidth benchmarks under MPI.
#   make bench [NP=4] [ARGS='-beffio.T=2700']   b_eff, then b_eff_io (default T = 150 s: NOT VALID; valid needs 900 s per partition), stored in results/
#   make beff / make beffio / make skampi       one suite only (skampi: the default suite file, in seconds; its own job, see README)
#   make test                                   unit tests + real mpirun jobs
#   make deps                                   install Open MPI, pkg-config, Chromium and npm (Debian) if missing, and the assets
#   make assets                                 fetch the plotting library of `beff report` (npm pack plotly.js-basic-dist-min)

NP      ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ $$n -lt 2 ] && n=2; echo $$n)
ARGS    ?=
GO      ?= go
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
LDFLAGS := -X github.com/beff-suite/beff/harness.Commit=$(COMMIT)
# the plotting library of beff report: npm package, version, sha256 of its tarball
PLOTLY_VERSION := 4.1.1
PLOTLY_SHA256  := ea907f854b6cec4f6a2fa71540ec019a21ed2c61e6a109ddd5c072103a96eed0
PLOTLY_DIR     := internal/report/assets/vendor

.PHONY: all bench beff beffio skampi test deps deps-mpi apt assets build vet clean

all: test

## deps-mpi: Open MPI (mpirun, headers, pkg-config file) from Debian when missing:
## all that building and running the benchmarks needs.
deps-mpi:
	@if command -v mpirun >/dev/null 2>&1 && command -v pkg-config >/dev/null 2>&1 && pkg-config --exists mpi-c; then \
		echo "deps: Open MPI present: $$(mpirun --version 2>/dev/null | head -1)"; \
	else $(MAKE) --no-print-directory apt PKGS="openmpi-bin libopenmpi-dev pkg-config"; fi

## deps: deps-mpi, plus Chromium (browser test of beff report) and npm (assets)
## when missing, then the assets.
deps: deps-mpi
	@pkgs=; \
	if [ -x /usr/bin/chromium ]; then echo "deps: Chromium present"; else pkgs="$$pkgs chromium"; fi; \
	if [ "$$(cat $(PLOTLY_DIR)/VERSION 2>/dev/null)" = "$(PLOTLY_VERSION)" ] || command -v npm >/dev/null 2>&1; then :; else pkgs="$$pkgs npm"; fi; \
	if [ -n "$$pkgs" ]; then $(MAKE) --no-print-directory apt PKGS="$$pkgs"; fi
	@$(MAKE) --no-print-directory assets

apt:
	@echo "deps: installing from Debian: $(PKGS)"; \
	SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(PKGS) >/dev/null && \
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

## build: the MPI test binary ./beff.test
build: deps-mpi
	$(GO) test -c -tags mpi -ldflags '$(LDFLAGS)' -o beff.test .

## bench: b_eff then b_eff_io on NP processes; results/<host>-<date>-np<NP>.txt
bench: build
	@NP=$(NP) ARGS='$(ARGS)' GO='$(GO)' tools/bench.sh

## beff, beffio, skampi: one benchmark only
beff: build
	@NP=$(NP) ARGS='$(ARGS)' GO='$(GO)' BENCH='^BenchmarkBeff$$' tools/bench.sh
beffio: build
	@NP=$(NP) ARGS='$(ARGS)' GO='$(GO)' BENCH='^BenchmarkBeffIO$$' tools/bench.sh
skampi: build
	@NP=$(NP) ARGS='$(ARGS)' GO='$(GO)' BENCH='^BenchmarkSkampi$$' tools/bench.sh

## test: vet, unit tests, and the integration tests that run real mpirun jobs;
## BEFF_REQUIRE_BROWSER=1: the browser test of beff report fails rather than skips
test: deps
	$(GO) vet ./...
	$(GO) vet -tags mpi ./...
	$(GO) test -tags mpi -count=1 ./internal/mpi/ ./harness/
	BEFF_REQUIRE_BROWSER=1 $(GO) test -count=1 ./...

vet:
	$(GO) vet ./... && $(GO) vet -tags mpi ./...

clean:
	rm -f beff.test q.txt io.txt
