/* skampi.h: the timed loops of the SKaMPI suite: one call per batch of
 * repetitions of one operation, and the measurements that prepare a run
 * (round trips of pairs, clock offsets, the cost of a clock read). */
#ifndef BEFF_SKAMPI_H
#define BEFF_SKAMPI_H

#include "control.h"

/* The number of operations, SKAMPI_NOPS, and their functions (written
 * from the Go table); skampi_op_name names them in the order of
 * loops.LoopOps; the SKaMPI driver finds its operations there by name. */
#include "skampi_ops.h"
const char *skampi_op_name(int i);
/* skampi_op_blocks says whether operation i uses one block of the length
 * per process of its communicator (else one message). */
int skampi_op_blocks(int i);

/* The most work items of a master-worker repetition (they travel in tags). */
#define SKAMPI_MAXCHUNKS 30000

/* How a typed message travels (docs/skampi.md, "Datatypes"). */
enum {
	SKAMPI_CONTIG = 0, /* the payload as contiguous bytes (every untyped point) */
	SKAMPI_DATATYPE,   /* the derived datatype handed to MPI */
	SKAMPI_PACK,       /* MPI_Pack, contiguous MPI_PACKED, MPI_Unpack */
	SKAMPI_MANUAL      /* a copy loop over the runs into contiguous bytes and back */
};

/* One side (send or receive) of a typed point: its committed datatype,
 * the program it was built from, its runs of data in typemap order as
 * (offset, bytes) pairs, and the layout of one message. */
typedef struct {
	MPI_Datatype type;
	int64_t *prog, nprog;
	int64_t *runs, nruns;
	int64_t count; /* instances per message */
	int64_t ext;   /* bytes between instances */
} skampi_side;

typedef struct {
	skampi_side s, r;
} skampi_types;

/* skampi_types_new builds and commits both sides' datatypes from their
 * programs (skampi.Program) and copies the runs; count and ext are per
 * side. */
int skampi_types_new(const int64_t *prog[2], const int64_t nprog[2], const int64_t *runs[2],
                     const int64_t nruns[2], const int64_t count[2], const int64_t ext[2],
                     skampi_types **out);
void skampi_types_free(skampi_types *t);
/* skampi_type_info writes MPI's size, lb, extent, true lb and true extent
 * of side (0 send, 1 receive). */
int skampi_type_info(const skampi_types *t, int side, int64_t info[5]);

/* How a one-sided operation's epochs are synchronised. */
enum {
	SKAMPI_FENCE = 0,     /* MPI_Win_fence after each call's operations */
	SKAMPI_PSCW,          /* MPI_Win_start/complete at the origin, post/wait at the target */
	SKAMPI_LOCK,          /* MPI_Win_lock/unlock around each call's operations */
	SKAMPI_FLUSH,         /* MPI_Win_lock_all for the batch, MPI_Win_flush after each call */
	SKAMPI_FLUSH_LOCAL    /* the same with MPI_Win_flush_local */
};

/* skampi_rma_delay is the partner's delay of the delayed synchronisations, seconds. */
#define SKAMPI_RMA_DELAY 100e-6
/* SKAMPI_RMA_BURST is the operations of a one-sided bandwidth call. */
#define SKAMPI_RMA_BURST 64

/* One batch of repetitions of one operation on this rank. */
typedef struct {
	int op;           /* index in skampi_op_names */
	MPI_Fint comm;    /* the point's communicator */
	int64_t len;      /* bytes: the message, or the block per process */
	int chunks;       /* master-worker: work items per call */
	int calls;        /* calls per repetition */
	int reps;         /* repetitions */
	int window_sync;  /* 1: window schedule; 0: a barrier before each repetition */
	double clk_at, clk_off, clk_drift; /* rank 0's time is t + clk_off + clk_drift·(t − clk_at) at MPI_Wtime t */
	double window;    /* rank 0: the window, seconds (broadcast to the others) */
	double lead;      /* rank 0: the first window starts this far ahead */
	unsigned char *sbuf, *rbuf;
	int64_t buflen;   /* bytes of each buffer */
	int cycle;        /* 1: call n of the point uses the n-th part of the buffers, round them */
	int64_t span;     /* cycle: over the first span bytes of each buffer (0: all of it) */
	int64_t seq;      /* calls of the point before this batch (validation) */
	int inject;       /* tests only: 1 corrupts the first received message; 2 makes the
	                     manual method's unpacking put one run of each message a byte too far;
	                     3 makes a one-sided origin skip its put in a full check (a lost put) */
	int yield;        /* yield the processor while waiting for a window */
	int passive;      /* window mode: this rank only answers, so it does not wait for the
	                     windows (a ping-pong responder, a master-worker worker) */
	int nosync;       /* without window_sync: nothing before a repetition (else a barrier) */
	const skampi_types *types; /* typed points: the datatypes (NULL: bytes) */
	int method;       /* SKAMPI_CONTIG, _DATATYPE, _PACK or _MANUAL */
	int full;         /* stamp and check every byte of every message, and the holes */
	int rma_sync;     /* one-sided: SKAMPI_FENCE, ... */
	int rma_allocate; /* one-sided: the window from MPI_Win_allocate (else MPI_Win_create over rbuf) */
	int rma_nocheck;  /* one-sided: pass MPI_MODE_NOCHECK to locks, MPI_MODE_NOSTORE to fences */
	int64_t steps;    /* non-blocking operations: steps of the computation (compute.h) each call
	                     runs between the start and the wait (0: none, the plain time) */
	int topo;         /* neighborhood collectives: SKAMPI_TOPO_CART or SKAMPI_TOPO_STENCIL */
	int ndims;        /* 2 or 3 */
	int dims[3];      /* the grid, its product the communicator's size */
	int periodic;     /* every dimension wraps around */
	int threads;      /* partitioned: the threads that mark the partitions ready (1: the caller;
	                     more need MPI_THREAD_MULTIPLE) */
	int64_t *progress; /* the process's progress counter: one step a repetition (ctl_advance) */
} skampi_batch_t;

/* The topologies of the neighborhood collectives: MPI_Cart_create (2·ndims
 * neighbors), or the full stencil (every process within one step in each
 * dimension: 8 or 26) as MPI_Dist_graph_create_adjacent. */
enum { SKAMPI_TOPO_NONE = 0, SKAMPI_TOPO_CART, SKAMPI_TOPO_STENCIL };

/* The first validation failure a rank saw in a batch. */
typedef struct {
	int64_t count, call;
	int sender;
	int64_t at; /* byte offset in the message */
	int expect, got;
} skampi_fault;

/* skampi_batch runs the batch; per repetition k it writes when this rank
 * was ready to wait for its start (arrive, window mode), when it started
 * and ended (all on the clock corrected by offset) and the seconds its
 * calls computed (busy, overlap points), and the window and the start of
 * the first one (window mode). A persistent operation's requests are made
 * before the first repetition and freed after the last: *init is the time
 * of the calls that made them (0 for the other operations). An operation
 * whose MPI 4 call the library lacks fails with MPI_ERR_OTHER. */
int skampi_batch(const skampi_batch_t *b, double *arrive, double *start, double *end, double *busy,
                 double *init, double *window, double *first, skampi_fault *f);

/* skampi_rtt: rounds 1-byte round trips with partner; the initiator gets
 * the fastest in *best (the other side 0). */
int skampi_rtt(MPI_Fint comm, int partner, int initiator, int rounds, double *best);

/* skampi_timer writes n empty measurements (two consecutive clock reads). */
void skampi_timer(double *d, int n);


/* The validation values (also computed by Go tests). */
unsigned char skampi_byte1(int64_t call, int sender);
unsigned char skampi_byte2(int64_t call, int sender);
float skampi_float1(int64_t call, int sender);
float skampi_float2(int64_t call, int sender);

#endif
