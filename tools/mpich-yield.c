/* tools/mpich-yield.c: lets MPICH (ch4:ucx) give up the core while it waits,
 * for jobs with more processes than cores. Built and preloaded by
 * tools/mpich-yield.sh; the tests, beff run and beff launch use it
 * for such jobs only.
 *
 * MPICH 4.0's progress loop polls without a system call: with 3 processes on
 * 2 cores a waiting process keeps its core until the scheduler's tick, and a
 * 1-byte ring step takes 2.7 ms instead of 1.7 us (Open MPI, which yields
 * when it sees more processes than slots). Its MPIR_CVAR_POLLS_BEFORE_YIELD
 * does not reach this loop. Every pass of the loop asks UCX for progress, so
 * this library stands in for ucp_worker_progress: it calls the real one and,
 * when nothing happened, sched_yield(), as Open MPI's mpi_yield_when_idle.
 * Figures of such jobs are for correctness, not speed; the harness records
 * the preload in the mpi-preload configuration line.
 *
 * It also bounds MPI_Finalize's wait for closing the connections. MPICH
 * before 4.2 can hang there on these emulated nodes (about 1 job in 5 with
 * 3 processes): a process that closed its connections early has closed its
 * sockets, and a slower process waits for ever to flush its end of one.
 * Once MPICH has waited 2 s (making progress all along) for its requests to
 * close, this library reports them complete, says so on stderr, and MPICH
 * goes on. MPI_Finalize runs after every message of the job has arrived,
 * so nothing is lost.
 * Build: cc -O2 -shared -fPIC -o mpich-yield.so tools/mpich-yield.c -ldl   */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* next returns the definition of name that this library hides. */
static void *next(const char *name) {
	void *f = dlsym(RTLD_NEXT, name);
	if (!f) {
		fprintf(stderr, "mpich-yield: no %s after this library\n", name);
		abort();
	}
	return f;
}

typedef unsigned (*progress_fn)(void *worker);
typedef void *(*disconnect_fn)(void *ep);
typedef int (*completed_fn)(void *request);

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static double closing; /* when MPI_Finalize began to close connections */

void *ucp_disconnect_nb(void *ep) {
	static disconnect_fn real;
	if (!real) real = (disconnect_fn)next("ucp_disconnect_nb");
	if (closing == 0) closing = now();
	return real(ep);
}

int ucp_request_is_completed(void *request) {
	static completed_fn real;
	static int told;
	if (!real) real = (completed_fn)next("ucp_request_is_completed");
	int done = real(request);
	if (done || closing == 0 || now() - closing < 2) return done;
	if (!told) {
		told = 1;
		fprintf(stderr, "mpich-yield: MPI_Finalize: a connection did not close in 2 s (its peer had closed its end); not waiting longer\n");
	}
	return 1;
}

unsigned ucp_worker_progress(void *worker) {
	static progress_fn real;
	if (!real) real = (progress_fn)next("ucp_worker_progress");
	unsigned events = real(worker);
	if (events == 0)
		sched_yield();
	return events;
}
