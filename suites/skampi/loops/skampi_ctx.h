//go:build mpi

/* skampi_ctx.h: what the files of the SKaMPI loop share (skampi*.c): the
 * context of a batch, the layout of a message, inline what an operation
 * does per message (the stamps that check it, its wire), and the
 * operations the table of skampi.c names. Internal to package mpi; its
 * public face is skampi.h. */
#ifndef BEFF_SKAMPI_CTX_H
#define BEFF_SKAMPI_CTX_H

#include "skampi.h"
#include "compute.h"
#include "mpi4.h"
#include "pready.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>

enum { TAG = 1, TAG_STOP = 2, TAG_ITEM = 3, TAG_NBR = 16 /* up to 16 + 26 */ };

/* Where a message's payload lies in a buffer: count instances ext bytes
 * apart, each the runs (offset, bytes) in typemap order; the blocks of
 * a block operation stride bytes apart. first and last are the offsets
 * of payload bytes 0 and L-1, span one past the highest. */
typedef struct {
	const int64_t *runs;
	int64_t nruns, count, ext, stride, span, first, last;
} lay;

/* The state of one batch on this rank. */
struct sk_ctx { /* ctx, declared in skampi_ops.h */
	MPI_Comm comm;
	int rank, size;
	int64_t len; /* bytes */
	int chunks;
	unsigned char *sb, *rb; /* this call's part of the buffers */
	int64_t call;           /* validation sequence number */
	skampi_fault *f;
	int inject;
	MPI_Comm made[64]; /* communicators a call created, freed after the repetition */
	int nmade;
	int *counts, *displs; /* size entries, in elements of the operation */
	MPI_Request *reqs;    /* 2·size entries */
	int *widx;            /* master-worker: the item each worker holds */
	int method;           /* SKAMPI_CONTIG, ... */
	const skampi_types *ty;
	lay sl, rl;              /* a message in the send and the receive buffer */
	int64_t plain[2];        /* the one run of a contiguous message */
	unsigned char *stmp, *rtmp; /* pack, manual: contiguous blocks, wlen bytes apart */
	int64_t wlen;            /* bytes of a message on the wire (pack: MPI_Pack_size) */
	int full;
	int64_t rfoot;  /* full: bytes of the receive buffer a call uses */
	void *rma;      /* one-sided: the batch's window (rma) */
	int rma_blocks; /* one-sided: every rank's block in the window (put-all-one) */
	int mode;       /* how a collective runs: M_BLOCK, M_NB or M_PERSIST */
	int setup;      /* persistent: the untimed pass that makes the requests */
	MPI_Request rq, rq2; /* the non-blocking call's request; the persistent ones */
	int64_t steps;  /* overlap: the computation's steps between start and wait */
	double busy;    /* overlap: seconds computed in this repetition */
	double init;    /* persistent: seconds the setup pass spent making the requests */
	double t0;      /* persistent: when the init call of the setup pass began */
	MPI_Datatype *wtypes; /* alltoallw: size entries of MPI_BYTE */
	MPI_Aint *adispls;    /* neighbor-alltoallw: byte displacements */
	MPI_Comm base;  /* neighborhood: the point's communicator; comm is its topology */
	int deg;        /* neighborhood: the neighbors (sources = destinations, in order) */
	int *nbr;       /* their ranks, MPI_PROC_NULL past a non-periodic edge */
	int *code;      /* per neighbor, the direction it lies in (a tag of the reference) */
	int *back;      /* per neighbor, the direction I lie in from it */
	int threads;    /* partitioned: the threads that mark the partitions ready */
	pready_pool *pool; /* partitioned: those threads, made by the setup pass */
};

/* A byte the full check writes into a receive buffer before the call and
 * expects in the holes of the received layout afterwards. */
enum { HOLE = 0xA5 };

/* A message as MPI gets it: buffer, count and datatype. */
typedef struct {
	void *p;
	int n;
	MPI_Datatype t;
} wire;

typedef enum { S_SEND, S_SSEND, S_ISEND, S_ISSEND, S_BSEND } smode;

/* A collective of the table runs in its row's mode: M_BLOCK calls the
 * blocking operation; M_NB starts the non-blocking one, computes for the
 * batch's steps (an overlap point) and waits; M_PERSIST starts and waits
 * for a persistent request that the batch's untimed setup pass made with
 * the MPI 4 init call (and frees after the last repetition). COLL takes
 * the three calls; each operation's code around them (stamping, checking)
 * is the same in every mode. */
enum { M_BLOCK, M_NB, M_PERSIST };

/* SETUP_DONE ends an operation's setup pass before it starts anything
 * (not an MPI error code, so that the checks after the call are skipped). */
#define SETUP_DONE (-1)

#define COLL(c, blocking, start, init)                                                              \
	((c)->mode == M_NB        ? sk_nb_wait((c), (start))                                                \
	 : (c)->mode == M_PERSIST ? sk_persist((c), (c)->setup ? ((c)->t0 = MPI_Wtime(), (init)) : 0)       \
	                          : (blocking))

/* The window of a batch on this rank and the roles of the operation. */
typedef struct {
	MPI_Win win;
	unsigned char *base; /* this rank's window */
	int64_t len;         /* its bytes */
	int sync, nocheck;
	int origin, target;  /* this rank issues operations; the rank they reach */
	int exposed;         /* this rank's window is reached (by source, or by every rank) */
	int source;          /* pscw: the rank that reaches this one (-1: every rank) */
	MPI_Group to, from;  /* pscw: the target's group, the sources' group */
	int64_t k;           /* calls of this batch so far */
	int expect;          /* accumulations: what the target's elements hold after the last call */
	int64_t last;        /* the validation number of the last call */
	unsigned char *res;  /* get, get-accumulate, fetch-and-op, compare-and-swap: results */
	int lockall;
} rma;

typedef int (*opfn)(ctx *);

typedef struct {
	const char *name;
	opfn fn;
	int bsend;  /* needs an attached buffer */
	int blocks; /* uses one block of the length per process of the communicator */
	int rma;    /* one-sided: runs on a window (sk_rma_open) */
	int mode;   /* M_BLOCK, M_NB or M_PERSIST */
	int needs;  /* the MPI 4 call it needs (mpi4.h), -1 for none */
	int per;    /* what its blocks are per: PER_PROC, PER_NBR (on the batch's topology), PER_PART */
	int count64; /* hands its length to MPI as an MPI_Count (it may pass INT_MAX) */
} optab;

/* What the blocks of a block operation are per: a process of the
 * communicator, a neighbor of the topology, a partition of the message. */
enum { PER_PROC, PER_NBR, PER_PART };

/* What an operation does per message runs inline where it is called: the
 * stamps of a message, its wire and its blocks run inside the timed
 * calls. The slow paths, a full check's and the copies of a hand-built
 * datatype, are functions of skampi_check.c and skampi_wire.c. */
void sk_fault(ctx *c, int sender, int64_t at, int expect, int got);
void sk_fill(ctx *c, const lay *l, unsigned char *m, int sender);
void sk_verify(ctx *c, const lay *l, unsigned char *m, int sender);
void sk_gather_runs(unsigned char *dst, const unsigned char *m, const lay *l);
void sk_scatter_runs(unsigned char *m, const unsigned char *src, const lay *l, int skew);

static inline unsigned char sk_byte1(int64_t call, int sender) {
	return (unsigned char)(1 + (call * 37 + (int64_t)sender * 13) % 251);
}

static inline unsigned char sk_byte2(int64_t call, int sender) {
	return (unsigned char)(2 + (call * 17 + (int64_t)sender * 3 + 101) % 253);
}

static inline float sk_float1(int64_t call, int sender) { return (float)(1 + call % 61 + sender); }

static inline float sk_float2(int64_t call, int sender) { return (float)(2 + call % 59 + 2 * sender); }

/* sk_put stamps the message at m from sender: its first and last payload
 * byte, or every byte in a full check; sk_chk checks one received. */
static inline void sk_put(ctx *c, const lay *l, unsigned char *m, int sender) {
	if (c->len <= 0) return;
	if (c->full) return sk_fill(c, l, m, sender);
	m[l->first] = sk_byte1(c->call, sender);
	if (c->len > 1) m[l->last] = sk_byte2(c->call, sender);
}

static inline void sk_chk(ctx *c, const lay *l, unsigned char *m, int sender) {
	if (c->len <= 0) return;
	if (c->inject == 1) {
		m[l->first] ^= 0xff;
		c->inject = 0;
	}
	if (c->full) return sk_verify(c, l, m, sender);
	int e1 = sk_byte1(c->call, sender), e2 = c->len > 1 ? sk_byte2(c->call, sender) : e1;
	if (m[l->first] != e1) sk_fault(c, sender, l->first, e1, m[l->first]);
	else if (m[l->last] != e2) sk_fault(c, sender, l->last, e2, m[l->last]);
}

/* sk_sput, sk_rchk: a message in the send layout, one in the receive layout. */
static inline void sk_sput(ctx *c, unsigned char *m, int sender) { sk_put(c, &c->sl, m, sender); }

static inline void sk_rchk(ctx *c, unsigned char *m, int sender) { sk_chk(c, &c->rl, m, sender); }

/* Reductions run over MPI_FLOAT with MPI_SUM: the first and the last
 * element carry small integers whose sums are exact. */
static inline void sk_putf(unsigned char *m, int64_t n, int64_t call, int sender) {
	float *x = (float *)m;
	int64_t k = n / 4;
	if (k <= 0) return;
	x[0] = sk_float1(call, sender);
	x[k - 1] = k > 1 ? sk_float2(call, sender) : x[0];
}

static inline int sk_n4(ctx *c) { return (int)(c->len / 4); }

static inline int sk_nb(ctx *c) { return (int)c->len; }

static inline unsigned char *sk_sblk(ctx *c, int i) { return c->sb + (int64_t)i * c->sl.stride; }

static inline unsigned char *sk_rblk(ctx *c, int i) { return c->rb + (int64_t)i * c->rl.stride; }

/* sk_out_wire makes the wire that sends the message laid out at m, packing
 * or copying it into tmp where the method says so. */
static inline int sk_out_wire(ctx *c, unsigned char *m, unsigned char *tmp, wire *w) {
	int pos = 0;
	switch (c->method) {
	case SKAMPI_DATATYPE:
		*w = (wire){m, (int)c->ty->s.count, c->ty->s.type};
		return 0;
	case SKAMPI_PACK:
		*w = (wire){tmp, (int)c->wlen, MPI_PACKED};
		return MPI_Pack(m, (int)c->ty->s.count, c->ty->s.type, tmp, (int)c->wlen, &pos, c->comm);
	case SKAMPI_MANUAL:
		sk_gather_runs(tmp, m, &c->sl);
		*w = (wire){tmp, sk_nb(c), MPI_BYTE};
		return 0;
	}
	*w = (wire){m, sk_nb(c), MPI_BYTE};
	return 0;
}

/* sk_in_wire is the wire that receives a message for m (into tmp where the
 * method unpacks); sk_in_done unpacks it into m. */
static inline wire sk_in_wire(ctx *c, unsigned char *m, unsigned char *tmp) {
	switch (c->method) {
	case SKAMPI_DATATYPE: return (wire){m, (int)c->ty->r.count, c->ty->r.type};
	case SKAMPI_PACK: return (wire){tmp, (int)c->wlen, MPI_PACKED};
	case SKAMPI_MANUAL: return (wire){tmp, sk_nb(c), MPI_BYTE};
	}
	return (wire){m, sk_nb(c), MPI_BYTE};
}

static inline int sk_in_done(ctx *c, unsigned char *m, unsigned char *tmp) {
	int pos = 0;
	switch (c->method) {
	case SKAMPI_PACK:
		return MPI_Unpack(tmp, (int)c->wlen, &pos, m, (int)c->ty->r.count, c->ty->r.type, c->comm);
	case SKAMPI_MANUAL:
		sk_scatter_runs(m, tmp, &c->rl, c->inject == 2);
	}
	return 0;
}

/* sk_stmp_at, sk_rtmp_at: the scratch of block i. */
static inline unsigned char *sk_stmp_at(ctx *c, int i) { return c->stmp ? c->stmp + (int64_t)i * c->wlen : NULL; }

static inline unsigned char *sk_rtmp_at(ctx *c, int i) { return c->rtmp ? c->rtmp + (int64_t)i * c->wlen : NULL; }

/* skampi_check.c: the stamps' slow paths and a reduction's check */
void sk_chkf(ctx *c, unsigned char *m, int64_t n, int lo, int hi);

/* skampi_p2p.c: point to point; how an operation runs (blocking, non-blocking, persistent) */
int sk_nb_wait(ctx *c, int rc);
int sk_persist(ctx *c, int rc);

/* skampi_neighbor.c: neighborhood collectives and the batch's topology */
int sk_topo_open(const skampi_batch_t *b, ctx *c);
int sk_topo_close(ctx *c);

/* skampi_rma.c: one-sided */
int sk_rma_open(const skampi_batch_t *b, ctx *c, const optab *o, int64_t len);
int sk_rma_close(ctx *c, opfn f);

/* skampi_dtype.c: datatypes */
int sk_type_build(const int64_t **pc, const int64_t *end, MPI_Datatype *t, int depth);

/* skampi.c: the table and the timed loop */
int64_t sk_foot(int op, const lay *l, int n);
void sk_free_made(ctx *c);
extern const optab sk_ops[SKAMPI_NOPS];

#endif
