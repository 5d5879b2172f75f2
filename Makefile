# beff — effective bandwidth benchmarks under MPI.
#   make bench [NP=4] [ARGS='-beffio.T=900']    b_eff, then b_eff_io (T = 150 s: NOT VALID for comparisons), stored in results/
#   make beff / make beffio                     one of the two
#   make test                                   unit tests + real mpirun jobs
#   make deps                                   install Open MPI (Debian) and pkg-config if missing

NP      ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ $$n -lt 2 ] && n=2; echo $$n)
ARGS    ?=
GO      ?= go
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
LDFLAGS := -X github.com/beff-suite/beff/harness.Commit=$(COMMIT)

.PHONY: all bench beff beffio test deps build vet clean

all: test

## deps: Open MPI from Debian (mpirun, headers, pkg-config file) when missing.
deps:
	@if command -v mpirun >/dev/null 2>&1 && command -v pkg-config >/dev/null 2>&1 && pkg-config --exists mpi-c; then \
		echo "deps: Open MPI present: $$(mpirun --version 2>/dev/null | head -1)"; \
	else \
		echo "deps: installing Open MPI and pkg-config from Debian"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq openmpi-bin libopenmpi-dev pkg-config >/dev/null && \
		mpirun --version | head -1; \
	fi

## build: the MPI test binary ./beff.test
build: deps
	$(GO) test -c -tags mpi -ldflags '$(LDFLAGS)' -o beff.test .

## bench: b_eff then b_eff_io on NP processes; results/<host>-<date>-np<NP>.txt
bench: build
	@NP=$(NP) ARGS='$(ARGS)' GO='$(GO)' tools/bench.sh

## beff, beffio: one benchmark only
beff: build
	@NP=$(NP) ARGS='$(ARGS)' GO='$(GO)' BENCH='^BenchmarkBeff$$' tools/bench.sh
beffio: build
	@NP=$(NP) ARGS='$(ARGS)' GO='$(GO)' BENCH='^BenchmarkBeffIO$$' tools/bench.sh

## test: vet, unit tests, and the integration tests that run real mpirun jobs
test: deps
	$(GO) vet ./...
	$(GO) vet -tags mpi ./...
	$(GO) test -tags mpi -count=1 ./internal/mpi/
	$(GO) test -count=1 ./...

vet:
	$(GO) vet ./... && $(GO) vet -tags mpi ./...

clean:
	rm -f beff.test q.txt io.txt
