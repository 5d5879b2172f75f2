/* beffio.h: the calls of one b_eff_io pattern, one call per batch. */
#ifndef BEFF_BEFFIO_H
#define BEFF_BEFFIO_H

#include "control.h"

/* How the calls are placed and which MPI-IO calls they are, in the order
 * of mpi.IOLayouts (a Go test checks the names). */
enum beffio_layout { BEFFIO_STRIDED, BEFFIO_ORDERED, BEFFIO_OWNFILE, BEFFIO_SEGMENT, BEFFIO_SEGMENT_ALL, BEFFIO_NLAYOUTS };
extern const char *const beffio_layout_names[BEFFIO_NLAYOUTS];

/* One pattern's calls on this rank. */
typedef struct {
	MPI_Fint fh;
	int read;      /* 0 write, 1 read */
	int layout;    /* enum beffio_layout */
	int64_t len;   /* memory chunk per call (bytes) */
	int64_t l;     /* disk chunk (bytes) */
	int n, rank;   /* partition size, rank in it */
	int64_t base;  /* start of the pattern's region (file, own file or segment) */
	int64_t lseg;  /* segment size (the segment layouts) */
	int pattern;   /* pattern number, enters the values */
	int access;    /* the stamp: enters the values written / expected */
	int explicit_offsets; /* ordered: write_at_all/read_at_all instead of the shared pointer */
	int64_t *progress;    /* the process's progress counter: one step a call (ctl_advance) */
} beffio_calls_t;

typedef struct {
	int64_t rep, offset;
	uint64_t expect_first, got_first, expect_last, got_last;
} beffio_fault;

uint64_t beffio_value(int64_t rep, int64_t offset, int pattern, int access, int last);
int64_t beffio_offset(const beffio_calls_t *p, int64_t c, int64_t j);
/* Runs calls c0 .. c0+k-1; on reads counts the chunks whose first or last
 * 8-byte element is wrong (*errors) and keeps the first in *fault. */
int beffio_calls(const beffio_calls_t *p, int64_t c0, int64_t k, unsigned char *buf,
                 int64_t *errors, beffio_fault *fault);

/* beffio_ref_continue is the reference code's rule after done calls of a
 * time-driven write pattern that took elapsed seconds on rank 0's clock,
 * after a barrier: go on while one more call at the mean rate so far ends
 * within the pattern's time target (a pattern of no time, U = 0, makes one
 * call). beffio_calls_until takes its decisions by it. */
int beffio_ref_continue(int64_t done, double elapsed, double target);

/* What beffio_calls_until did on this rank. */
typedef struct {
	int64_t done;      /* calls made */
	int64_t decisions; /* stop decisions taken (one per call) */
	double seconds;    /* time in the decisions' barriers and broadcasts */
	int capped;        /* rank 0: limit stopped the calls before the target */
} beffio_until;

/* The reference code's stop rule of a time-driven write (b_eff_io 2.1),
 * one decision per call: after each call the processes of comm meet in a
 * barrier, rank 0 of comm reads its clock and goes on while the time since
 * t0 stretched by one more call, (now - t0)·(r+1)/r, stays within target
 * (and r < limit where limit > 0), and broadcasts the decision. A failed
 * call does not leave the loop, which would leave the partners alone in a
 * collective call: the first failure's code is returned at the end. */
int beffio_calls_until(const beffio_calls_t *p, MPI_Fint comm, double t0, double target, int64_t limit,
                       unsigned char *buf, beffio_until *u);

#endif
