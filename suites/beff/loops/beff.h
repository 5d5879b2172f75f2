/* beff.h: the timed loop of b_eff, one call per measurement. */
#ifndef BEFF_BEFF_H
#define BEFF_BEFF_H

#include "control.h"

#define BEFF_MAXSTEPS 8

/* The exchanges, in the order of mpi.Exchanges (a Go test checks the names). */
enum beff_method { BEFF_SENDRECV, BEFF_ALLTOALLV, BEFF_NONBLOCKING, BEFF_NMETHODS };
extern const char *const beff_method_names[BEFF_NMETHODS];

/* One b_eff exchange plan: what this rank does in one iteration. */
typedef struct {
	int nsteps;
	int dest[BEFF_MAXSTEPS]; /* MPI_PROC_NULL where nothing is sent */
	int src[BEFF_MAXSTEPS];  /* MPI_PROC_NULL where nothing is received */
} beff_plan;

/* The first validation failure a rank saw in a measurement. */
typedef struct {
	int64_t iter;
	int step, partner;
	int64_t offset;
	int expect_first, got_first, expect_last, got_last;
	int64_t count; /* failures in this measurement */
} beff_fault;

/* beff_measure runs one b_eff measurement on this rank: a barrier on
 * barrier_comm, `warm` untimed iterations, then `looplen` timed iterations
 * of the plan on comm (MPI_COMM_NULL when the rank is not in the pattern's
 * communicator: it then only takes part in the barrier). The elapsed time of
 * the timed loop goes to *elapsed. Messages sit cyclically in sbuf/rbuf:
 * with base NULL, send and receive offsets of their own, advanced by the
 * messages this rank sends and receives, starting from carry[0] and
 * carry[1] (where the last measurement left them; stored back at the end)
 * or, with carry NULL, from 0;
 * with base, the reference code's placement: one offset *base for both
 * buffers, taken by every step, carried from one measurement to the next
 * (and non-blocking steps posted as the reference code posts them).
 * inject != 0 corrupts the first received message (tests only); quiet != 0
 * makes the barrier an MPI_Ibarrier that the processes with nothing to do
 * in the loop wait for asleep (a pattern some processes take no part in).
 * Every iteration advances progress, the process's progress counter
 * (ctl_advance). */
int beff_measure(MPI_Fint barrier_comm, MPI_Fint comm, const beff_plan *p, int method,
                 int len, int sizeidx, int looplen, int warm, unsigned char *sbuf,
                 unsigned char *rbuf, int64_t buflen, int64_t *carry, int64_t *base, int inject,
                 int quiet, int64_t *progress, double *elapsed, beff_fault *fault);

/* The longest nap of a process that waits asleep for the barrier of a
 * pattern it takes no part in, µs (as harness's quietPoll). */
#define BEFF_QUIET_POLL_US 10000

/* The validation bytes (also computed by Go tests). */
unsigned char beff_first_byte(int64_t iter, int step, int sizeidx, int sender);
unsigned char beff_last_byte(int64_t iter, int step, int sizeidx, int sender);

#endif
