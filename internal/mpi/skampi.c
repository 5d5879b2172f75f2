//go:build mpi

/* skampi.c: the operations of the SKaMPI suite and the loop that times
 * them (see skampi.h). An operation is one function over a context; the
 * table at the end names them (mpi.LoopOps). */
#include "skampi.h"
#include "compute.h"
#include "mpi4.h"
#include "pready.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>

enum { TAG = 1, TAG_STOP = 2, TAG_ITEM = 3, TAG_NBR = 16 /* up to 16 + 26 */ };

unsigned char skampi_byte1(int64_t call, int sender) {
	return (unsigned char)(1 + (call * 37 + (int64_t)sender * 13) % 251);
}
unsigned char skampi_byte2(int64_t call, int sender) {
	return (unsigned char)(2 + (call * 17 + (int64_t)sender * 3 + 101) % 253);
}
float skampi_float1(int64_t call, int sender) { return (float)(1 + call % 61 + sender); }
float skampi_float2(int64_t call, int sender) { return (float)(2 + call % 59 + 2 * sender); }

/* Where a message's payload lies in a buffer: count instances ext bytes
 * apart, each the runs (offset, bytes) in typemap order; the blocks of
 * a block operation stride bytes apart. first and last are the offsets
 * of payload bytes 0 and L-1, span one past the highest. */
typedef struct {
	const int64_t *runs;
	int64_t nruns, count, ext, stride, span, first, last;
} lay;

/* The state of one batch on this rank. */
typedef struct {
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
} ctx;

static void fault(ctx *c, int sender, int64_t at, int expect, int got) {
	if (c->f->count++ == 0) {
		c->f->call = c->call;
		c->f->sender = sender;
		c->f->at = at;
		c->f->expect = expect;
		c->f->got = got;
	}
}

/* The value of payload byte i from sender in call (full checks). */
static unsigned char full_byte(int64_t call, int sender, int64_t i) {
	return (unsigned char)(1 + (uint64_t)(call * 37 + (int64_t)sender * 13 + i * 7 + (i >> 8)) % 251);
}

/* A byte the full check writes into a receive buffer before the call and
 * expects in the holes of the received layout afterwards. */
enum { HOLE = 0xA5 };

/* fill stamps every payload byte of the message at m. */
static void fill(ctx *c, const lay *l, unsigned char *m, int sender) {
	int64_t i = 0;
	for (int64_t k = 0; k < l->count; k++)
		for (int64_t r = 0; r < l->nruns; r++) {
			unsigned char *p = m + k * l->ext + l->runs[2 * r];
			for (int64_t j = 0; j < l->runs[2 * r + 1]; j++) p[j] = full_byte(c->call, sender, i++);
		}
}

/* verify checks every payload byte of the message at m; in the receive
 * buffer it then checks that the rest of the message's span kept HOLE. */
static void verify(ctx *c, const lay *l, unsigned char *m, int sender) {
	int64_t i = 0;
	for (int64_t k = 0; k < l->count; k++)
		for (int64_t r = 0; r < l->nruns; r++) {
			unsigned char *p = m + k * l->ext + l->runs[2 * r];
			for (int64_t j = 0; j < l->runs[2 * r + 1]; j++, i++) {
				unsigned char e = full_byte(c->call, sender, i);
				if (p[j] != e) fault(c, sender, p + j - m, e, p[j]);
				p[j] = HOLE;
			}
		}
	if (m < c->rb || m >= c->rb + c->rfoot) return;
	for (int64_t j = 0; j < l->span; j++)
		if (m[j] != HOLE) { /* a byte outside the layout was written */
			fault(c, sender, j, HOLE, m[j]);
			break;
		}
}

/* put stamps the message at m from sender: its first and last payload
 * byte, or every byte in a full check; chk checks one received. */
static void put(ctx *c, const lay *l, unsigned char *m, int sender) {
	if (c->len <= 0) return;
	if (c->full) return fill(c, l, m, sender);
	m[l->first] = skampi_byte1(c->call, sender);
	if (c->len > 1) m[l->last] = skampi_byte2(c->call, sender);
}
static void chk(ctx *c, const lay *l, unsigned char *m, int sender) {
	if (c->len <= 0) return;
	if (c->inject == 1) {
		m[l->first] ^= 0xff;
		c->inject = 0;
	}
	if (c->full) return verify(c, l, m, sender);
	int e1 = skampi_byte1(c->call, sender), e2 = c->len > 1 ? skampi_byte2(c->call, sender) : e1;
	if (m[l->first] != e1) fault(c, sender, l->first, e1, m[l->first]);
	else if (m[l->last] != e2) fault(c, sender, l->last, e2, m[l->last]);
}

/* sput, rchk: a message in the send layout, one in the receive layout. */
static void sput(ctx *c, unsigned char *m, int sender) { put(c, &c->sl, m, sender); }
static void rchk(ctx *c, unsigned char *m, int sender) { chk(c, &c->rl, m, sender); }

/* Reductions run over MPI_FLOAT with MPI_SUM: the first and the last
 * element carry small integers whose sums are exact. */
static void putf(unsigned char *m, int64_t n, int64_t call, int sender) {
	float *x = (float *)m;
	int64_t k = n / 4;
	if (k <= 0) return;
	x[0] = skampi_float1(call, sender);
	x[k - 1] = k > 1 ? skampi_float2(call, sender) : x[0];
}
/* chkf checks the sum over the senders lo..hi-1. */
static void chkf(ctx *c, unsigned char *m, int64_t n, int lo, int hi) {
	float *x = (float *)m;
	int64_t k = n / 4;
	if (k <= 0 || hi <= lo) return;
	if (c->inject) {
		x[0] += 1000;
		c->inject = 0;
	}
	float e1 = 0, e2 = 0;
	for (int s = lo; s < hi; s++) {
		e1 += skampi_float1(c->call, s);
		e2 += k > 1 ? skampi_float2(c->call, s) : skampi_float1(c->call, s);
	}
	if (x[0] != e1) fault(c, lo, 0, (int)e1, (int)x[0]);
	else if (x[k - 1] != e2) fault(c, lo, n - 4, (int)e2, (int)x[k - 1]);
}

static int n4(ctx *c) { return (int)(c->len / 4); }
static int nb(ctx *c) { return (int)c->len; }
static unsigned char *sblk(ctx *c, int i) { return c->sb + (int64_t)i * c->sl.stride; }
static unsigned char *rblk(ctx *c, int i) { return c->rb + (int64_t)i * c->rl.stride; }

/* ---- the wire: how a message laid out in a buffer reaches MPI ---- */

/* A message as MPI gets it: buffer, count and datatype. */
typedef struct {
	void *p;
	int n;
	MPI_Datatype t;
} wire;

/* gather_runs copies the payload of the message at m into the
 * contiguous dst; scatter_runs copies it back out of src (skew, a test's
 * fault: the middle run of the middle instance lands a byte too far, the
 * off-by-one of a hand-written unpacking loop that only a check of every
 * byte finds). */
static void gather_runs(unsigned char *dst, const unsigned char *m, const lay *l) {
	for (int64_t k = 0; k < l->count; k++) {
		const unsigned char *b = m + k * l->ext;
		for (int64_t r = 0; r < l->nruns; r++) {
			int64_t n = l->runs[2 * r + 1];
			const unsigned char *from = b + l->runs[2 * r];
			switch (n) { /* the short runs of applications: copies the compiler inlines */
			case 4: memcpy(dst, from, 4); break;
			case 8: memcpy(dst, from, 8); break;
			case 16: memcpy(dst, from, 16); break;
			default: memcpy(dst, from, n);
			}
			dst += n;
		}
	}
}
static void scatter_runs(unsigned char *m, const unsigned char *src, const lay *l, int skew) {
	for (int64_t k = 0; k < l->count; k++) {
		unsigned char *b = m + k * l->ext;
		for (int64_t r = 0; r < l->nruns; r++) {
			int64_t n = l->runs[2 * r + 1];
			unsigned char *to = b + l->runs[2 * r];
			if (skew && k == l->count / 2 && r == l->nruns / 2) to++;
			switch (n) {
			case 4: memcpy(to, src, 4); break;
			case 8: memcpy(to, src, 8); break;
			case 16: memcpy(to, src, 16); break;
			default: memcpy(to, src, n);
			}
			src += n;
		}
	}
}

/* out_wire makes the wire that sends the message laid out at m, packing
 * or copying it into tmp where the method says so. */
static int out_wire(ctx *c, unsigned char *m, unsigned char *tmp, wire *w) {
	int pos = 0;
	switch (c->method) {
	case SKAMPI_DATATYPE:
		*w = (wire){m, (int)c->ty->s.count, c->ty->s.type};
		return 0;
	case SKAMPI_PACK:
		*w = (wire){tmp, (int)c->wlen, MPI_PACKED};
		return MPI_Pack(m, (int)c->ty->s.count, c->ty->s.type, tmp, (int)c->wlen, &pos, c->comm);
	case SKAMPI_MANUAL:
		gather_runs(tmp, m, &c->sl);
		*w = (wire){tmp, nb(c), MPI_BYTE};
		return 0;
	}
	*w = (wire){m, nb(c), MPI_BYTE};
	return 0;
}

/* in_wire is the wire that receives a message for m (into tmp where the
 * method unpacks); in_done unpacks it into m. */
static wire in_wire(ctx *c, unsigned char *m, unsigned char *tmp) {
	switch (c->method) {
	case SKAMPI_DATATYPE: return (wire){m, (int)c->ty->r.count, c->ty->r.type};
	case SKAMPI_PACK: return (wire){tmp, (int)c->wlen, MPI_PACKED};
	case SKAMPI_MANUAL: return (wire){tmp, nb(c), MPI_BYTE};
	}
	return (wire){m, nb(c), MPI_BYTE};
}
static int in_done(ctx *c, unsigned char *m, unsigned char *tmp) {
	int pos = 0;
	switch (c->method) {
	case SKAMPI_PACK:
		return MPI_Unpack(tmp, (int)c->wlen, &pos, m, (int)c->ty->r.count, c->ty->r.type, c->comm);
	case SKAMPI_MANUAL:
		scatter_runs(m, tmp, &c->rl, c->inject == 2);
	}
	return 0;
}

/* stmp_at, rtmp_at: the scratch of block i. */
static unsigned char *stmp_at(ctx *c, int i) { return c->stmp ? c->stmp + (int64_t)i * c->wlen : NULL; }
static unsigned char *rtmp_at(ctx *c, int i) { return c->rtmp ? c->rtmp + (int64_t)i * c->wlen : NULL; }

/* ---- ping-pong: rank 0 starts, rank 1 answers ---- */

typedef enum { S_SEND, S_SSEND, S_ISEND, S_ISSEND, S_BSEND } smode;
typedef enum { R_RECV, R_ANYTAG, R_IRECV, R_IPROBE } rmode;

static int psend(ctx *c, smode m, int to) {
	MPI_Request rq;
	wire w;
	int rc = out_wire(c, c->sb, c->stmp, &w);
	if (rc) return rc;
	switch (m) {
	case S_SSEND: return MPI_Ssend(w.p, w.n, w.t, to, TAG, c->comm);
	case S_BSEND: return MPI_Bsend(w.p, w.n, w.t, to, TAG, c->comm);
	case S_ISEND:
	case S_ISSEND:
		rc = m == S_ISEND ? MPI_Isend(w.p, w.n, w.t, to, TAG, c->comm, &rq)
		                  : MPI_Issend(w.p, w.n, w.t, to, TAG, c->comm, &rq);
		return rc ? rc : MPI_Wait(&rq, MPI_STATUS_IGNORE);
	default: return MPI_Send(w.p, w.n, w.t, to, TAG, c->comm);
	}
}

static int precv(ctx *c, rmode m, int from) {
	int flag = 0, rc = 0;
	wire w = in_wire(c, c->rb, c->rtmp);
	switch (m) {
	case R_ANYTAG: rc = MPI_Recv(w.p, w.n, w.t, from, MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE); break;
	case R_IPROBE:
		while (!flag && !rc) rc = MPI_Iprobe(from, TAG, c->comm, &flag, MPI_STATUS_IGNORE);
		if (!rc) rc = MPI_Recv(w.p, w.n, w.t, from, TAG, c->comm, MPI_STATUS_IGNORE);
		break;
	default: rc = MPI_Recv(w.p, w.n, w.t, from, TAG, c->comm, MPI_STATUS_IGNORE);
	}
	return rc ? rc : in_done(c, c->rb, c->rtmp);
}

/* pirecv receives with a receive posted before anything is sent. */
static int pirecv_post(ctx *c, int from, MPI_Request *rq) {
	wire w = in_wire(c, c->rb, c->rtmp);
	return MPI_Irecv(w.p, w.n, w.t, from, TAG, c->comm, rq);
}
static int pirecv_wait(ctx *c, MPI_Request *rq) {
	int rc = MPI_Wait(rq, MPI_STATUS_IGNORE);
	return rc ? rc : in_done(c, c->rb, c->rtmp);
}

static int pingpong(ctx *c, smode s, rmode r) {
	int other = 1 - c->rank, rc;
	MPI_Request rq;
	if (r == R_IRECV) {
		if ((rc = pirecv_post(c, other, &rq))) return rc;
		if (c->rank == 0) {
			sput(c, c->sb, 0);
			if ((rc = psend(c, s, other)) || (rc = pirecv_wait(c, &rq))) return rc;
			rchk(c, c->rb, 1);
			return 0;
		}
		if ((rc = pirecv_wait(c, &rq))) return rc;
		rchk(c, c->rb, 0);
		sput(c, c->sb, 1);
		return psend(c, s, other);
	}
	if (c->rank == 0) {
		sput(c, c->sb, 0);
		if ((rc = psend(c, s, other)) || (rc = precv(c, r, other))) return rc;
		rchk(c, c->rb, 1);
		return 0;
	}
	if ((rc = precv(c, r, other))) return rc;
	rchk(c, c->rb, 0);
	sput(c, c->sb, 1);
	return psend(c, s, other);
}

static int op_send_recv(ctx *c) { return pingpong(c, S_SEND, R_RECV); }
static int op_send_recv_anytag(ctx *c) { return pingpong(c, S_SEND, R_ANYTAG); }
static int op_send_irecv(ctx *c) { return pingpong(c, S_SEND, R_IRECV); }
static int op_send_iprobe_recv(ctx *c) { return pingpong(c, S_SEND, R_IPROBE); }
static int op_ssend_recv(ctx *c) { return pingpong(c, S_SSEND, R_RECV); }
static int op_isend_recv(ctx *c) { return pingpong(c, S_ISEND, R_RECV); }
static int op_issend_recv(ctx *c) { return pingpong(c, S_ISSEND, R_RECV); }
static int op_bsend_recv(ctx *c) { return pingpong(c, S_BSEND, R_RECV); }

static int op_sendrecv(ctx *c) {
	int other = 1 - c->rank;
	wire o, i = in_wire(c, c->rb, c->rtmp);
	sput(c, c->sb, c->rank);
	int rc = out_wire(c, c->sb, c->stmp, &o);
	if (!rc) rc = MPI_Sendrecv(o.p, o.n, o.t, other, TAG, i.p, i.n, i.t, other, TAG, c->comm, MPI_STATUS_IGNORE);
	if (!rc) rc = in_done(c, c->rb, c->rtmp);
	if (!rc) rchk(c, c->rb, other);
	return rc;
}

/* sendrecv-replace: one buffer and one datatype (a typed point's send and
 * receive types are the same); pack and manual replace the contiguous
 * copy and unpack it into the buffer. */
static int op_sendrecv_replace(ctx *c) {
	int other = 1 - c->rank;
	wire w;
	sput(c, c->sb, c->rank);
	int rc = out_wire(c, c->sb, c->stmp, &w);
	if (!rc) rc = MPI_Sendrecv_replace(w.p, w.n, w.t, other, TAG, other, TAG, c->comm, MPI_STATUS_IGNORE);
	if (!rc) rc = in_done(c, c->sb, c->stmp);
	if (!rc) rchk(c, c->sb, other);
	return rc;
}

/* ---- how an operation runs: blocking, non-blocking, persistent ---- */

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

static int nb_wait(ctx *c, int rc) {
	if (rc) return rc;
	if (c->steps > 0) {
		double t = MPI_Wtime();
		compute_run(c->steps);
		c->busy += MPI_Wtime() - t;
	}
	return MPI_Wait(&c->rq, MPI_STATUS_IGNORE);
}

static int start_wait(MPI_Request *rq) {
	int rc = MPI_Start(rq);
	return rc ? rc : MPI_Wait(rq, MPI_STATUS_IGNORE);
}

/* persist runs after the init call in the setup pass (rc is its result),
 * else starts the request and waits for it. */
static int persist(ctx *c, int rc) {
	if (!c->setup) return start_wait(&c->rq);
	c->init += MPI_Wtime() - c->t0;
	return rc ? rc : SETUP_DONE;
}

#define COLL(c, blocking, start, init)                                                              \
	((c)->mode == M_NB        ? nb_wait((c), (start))                                                \
	 : (c)->mode == M_PERSIST ? persist((c), (c)->setup ? ((c)->t0 = MPI_Wtime(), (init)) : 0)       \
	                          : (blocking))

/* ---- persistent and MPI 4 ping-pongs ---- */

/* send-recv-persistent: the ping-pong of send-recv through persistent
 * requests (MPI_Send_init, MPI_Recv_init) made by the setup pass. */
static int op_send_recv_persistent(ctx *c) {
	int other = 1 - c->rank, rc;
	if (c->setup) {
		c->t0 = MPI_Wtime();
		rc = MPI_Send_init(c->sb, nb(c), MPI_BYTE, other, TAG, c->comm, &c->rq);
		if (!rc) rc = MPI_Recv_init(c->rb, nb(c), MPI_BYTE, other, TAG, c->comm, &c->rq2);
		c->init += MPI_Wtime() - c->t0;
		return rc ? rc : SETUP_DONE;
	}
	if (c->rank == 0) {
		sput(c, c->sb, 0);
		if ((rc = start_wait(&c->rq)) || (rc = start_wait(&c->rq2))) return rc;
		rchk(c, c->rb, 1);
		return 0;
	}
	if ((rc = start_wait(&c->rq2))) return rc;
	rchk(c, c->rb, 0);
	sput(c, c->sb, 1);
	return start_wait(&c->rq);
}

/* isendrecv and isendrecv-replace: sendrecv's exchange started with the
 * MPI 4 call and completed by MPI_Wait. */
static int op_isendrecv(ctx *c) {
	int other = 1 - c->rank;
	sput(c, c->sb, c->rank);
	int rc = MPI4(ISENDRECV, isendrecv)(c->sb, nb(c), MPI_BYTE, other, TAG, c->rb, nb(c), MPI_BYTE, other, TAG,
	                                    c->comm, &c->rq);
	if (!rc) rc = MPI_Wait(&c->rq, MPI_STATUS_IGNORE);
	if (!rc) rchk(c, c->rb, other);
	return rc;
}

static int op_isendrecv_replace(ctx *c) {
	int other = 1 - c->rank;
	sput(c, c->sb, c->rank);
	int rc = MPI4(ISENDRECV_REPLACE, isendrecv_replace)(c->sb, nb(c), MPI_BYTE, other, TAG, other, TAG, c->comm,
	                                                    &c->rq);
	if (!rc) rc = MPI_Wait(&c->rq, MPI_STATUS_IGNORE);
	if (!rc) rchk(c, c->sb, other);
	return rc;
}

/* psend-precv: the ping-pong of a message of c->chunks partitions of L
 * bytes through MPI 4's partitioned requests, made by the setup pass:
 * each way the sender starts its request and marks every partition ready
 * (by c->threads threads), the receiver, its request started before,
 * polls MPI_Parrived until the last partition is there. */
static int parts_ready(ctx *c) {
	int rc = MPI_Start(&c->rq);
	if (!rc && c->pool) rc = pready_all(c->pool, c->rq, c->chunks);
	for (int k = 0; k < c->chunks && !rc && !c->pool; k++) rc = MPI4(PREADY, pready)(k, c->rq);
	return rc ? rc : MPI_Wait(&c->rq, MPI_STATUS_IGNORE);
}

static int parts_arrived(ctx *c, int from) {
	int rc = 0;
	for (int k = 0; k < c->chunks && !rc; k++)
		for (int flag = 0; !flag && !rc;) rc = MPI4(PARRIVED, parrived)(c->rq2, k, &flag);
	if (!rc) rc = MPI_Wait(&c->rq2, MPI_STATUS_IGNORE);
	for (int k = 0; k < c->chunks && !rc; k++) rchk(c, rblk(c, k), from);
	return rc;
}

static int op_psend_precv(ctx *c) {
	int other = 1 - c->rank, rc;
	if (c->setup) {
		c->t0 = MPI_Wtime();
		rc = MPI4(PSEND_INIT, psend_init)(c->sb, c->chunks, (MPI_Count)c->len, MPI_BYTE, other, TAG, c->comm,
		                                  MPI_INFO_NULL, &c->rq);
		if (!rc)
			rc = MPI4(PRECV_INIT, precv_init)(c->rb, c->chunks, (MPI_Count)c->len, MPI_BYTE, other, TAG, c->comm,
			                                  MPI_INFO_NULL, &c->rq2);
		c->init += MPI_Wtime() - c->t0;
		if (!rc && c->threads > 1) rc = pready_pool_new(c->threads, MPI4(PREADY, pready), &c->pool);
		return rc ? rc : SETUP_DONE;
	}
	if ((rc = MPI_Start(&c->rq2))) return rc;
	if (c->rank == 0) {
		for (int k = 0; k < c->chunks; k++) sput(c, sblk(c, k), 0);
		return (rc = parts_ready(c)) ? rc : parts_arrived(c, 1);
	}
	if ((rc = parts_arrived(c, 0))) return rc;
	for (int k = 0; k < c->chunks; k++) sput(c, sblk(c, k), 1);
	return parts_ready(c);
}

/* send-recv-c: send-recv's ping-pong through the large-count calls, the
 * length an MPI_Count (the only operation whose length may pass INT_MAX). */
static int op_send_recv_c(ctx *c) {
	int other = 1 - c->rank, rc;
	MPI_Count n = (MPI_Count)c->len;
	if (c->rank == 0) {
		sput(c, c->sb, 0);
		rc = MPI4(SEND_C, send_c)(c->sb, n, MPI_BYTE, other, TAG, c->comm);
		if (!rc) rc = MPI4(RECV_C, recv_c)(c->rb, n, MPI_BYTE, other, TAG, c->comm, MPI_STATUS_IGNORE);
		if (!rc) rchk(c, c->rb, 1);
		return rc;
	}
	rc = MPI4(RECV_C, recv_c)(c->rb, n, MPI_BYTE, other, TAG, c->comm, MPI_STATUS_IGNORE);
	if (rc) return rc;
	rchk(c, c->rb, 0);
	sput(c, c->sb, 1);
	return MPI4(SEND_C, send_c)(c->sb, n, MPI_BYTE, other, TAG, c->comm);
}

/* ---- collectives on every rank of the communicator; rank 0 is the root ---- */

static int op_barrier(ctx *c) {
	return COLL(c, MPI_Barrier(c->comm), MPI_Ibarrier(c->comm, &c->rq),
	            MPI4(BARRIER_INIT, barrier_init)(c->comm, MPI_INFO_NULL, &c->rq));
}

static int op_bcast(ctx *c) {
	wire w;
	int rc = 0;
	if (c->rank == 0) {
		sput(c, c->sb, 0);
		rc = out_wire(c, c->sb, c->stmp, &w);
	} else
		w = in_wire(c, c->rb, c->rtmp);
	if (!rc)
		rc = COLL(c, MPI_Bcast(w.p, w.n, w.t, 0, c->comm), MPI_Ibcast(w.p, w.n, w.t, 0, c->comm, &c->rq),
		          MPI4(BCAST_INIT, bcast_init)(w.p, w.n, w.t, 0, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc && c->rank) rc = in_done(c, c->rb, c->rtmp);
	if (!rc && c->rank) rchk(c, c->rb, 0);
	return rc;
}

static int op_reduce(ctx *c) {
	putf(c->sb, c->len, c->call, c->rank);
	int rc = COLL(c, MPI_Reduce(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, 0, c->comm),
	              MPI_Ireduce(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, 0, c->comm, &c->rq),
	              MPI4(REDUCE_INIT, reduce_init)(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, 0, c->comm,
	                                             MPI_INFO_NULL, &c->rq));
	if (!rc && c->rank == 0) chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

static int op_allreduce(ctx *c) {
	putf(c->sb, c->len, c->call, c->rank);
	int rc = COLL(c, MPI_Allreduce(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm),
	              MPI_Iallreduce(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm, &c->rq),
	              MPI4(ALLREDUCE_INIT, allreduce_init)(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm,
	                                                   MPI_INFO_NULL, &c->rq));
	if (!rc) chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

static int op_reduce_scatter_block(ctx *c) {
	for (int i = 0; i < c->size; i++) putf(sblk(c, i), c->len, c->call, c->rank);
	int rc = COLL(c, MPI_Reduce_scatter_block(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm),
	              MPI_Ireduce_scatter_block(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm, &c->rq),
	              MPI4(REDUCE_SCATTER_BLOCK_INIT, allreduce_init)(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM,
	                                                              c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

/* reduce-scatter: the same blocks through the counts of MPI_Reduce_scatter. */
static int op_reduce_scatter(ctx *c) {
	for (int i = 0; i < c->size; i++) {
		putf(sblk(c, i), c->len, c->call, c->rank);
		c->counts[i] = n4(c);
	}
	int rc = COLL(c, MPI_Reduce_scatter(c->sb, c->rb, c->counts, MPI_FLOAT, MPI_SUM, c->comm),
	              MPI_Ireduce_scatter(c->sb, c->rb, c->counts, MPI_FLOAT, MPI_SUM, c->comm, &c->rq),
	              MPI4(REDUCE_SCATTER_INIT, reduce_scatter_init)(c->sb, c->rb, c->counts, MPI_FLOAT, MPI_SUM,
	                                                             c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

static int op_scan(ctx *c) {
	putf(c->sb, c->len, c->call, c->rank);
	int rc = COLL(c, MPI_Scan(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm),
	              MPI_Iscan(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm, &c->rq),
	              MPI4(SCAN_INIT, allreduce_init)(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm,
	                                              MPI_INFO_NULL, &c->rq));
	if (!rc) chkf(c, c->rb, c->len, 0, c->rank + 1);
	return rc;
}

static int op_exscan(ctx *c) {
	putf(c->sb, c->len, c->call, c->rank);
	int rc = COLL(c, MPI_Exscan(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm),
	              MPI_Iexscan(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm, &c->rq),
	              MPI4(EXSCAN_INIT, allreduce_init)(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm,
	                                                MPI_INFO_NULL, &c->rq));
	if (!rc && c->rank > 0) chkf(c, c->rb, c->len, 0, c->rank);
	return rc;
}

/* even sets the v-variants' counts and displacements: len bytes each. */
static void even(ctx *c) {
	for (int i = 0; i < c->size; i++) {
		c->counts[i] = nb(c);
		c->displs[i] = i * nb(c);
	}
}

static void chk_blocks(ctx *c, int to) {
	for (int i = 0; i < c->size; i++) rchk(c, rblk(c, i), to < 0 ? i : i * c->size + to);
}

/* copies says whether the method packs or copies messages (pack, manual). */
static int copies(ctx *c) { return c->method == SKAMPI_PACK || c->method == SKAMPI_MANUAL; }

/* in_blocks unpacks the size blocks received into the scratch. */
static int in_blocks(ctx *c) {
	int rc = 0;
	if (!copies(c)) return 0; /* nothing to unpack: no loop over the processes in the timed call */
	for (int i = 0; i < c->size && !rc; i++) rc = in_done(c, rblk(c, i), rtmp_at(c, i));
	return rc;
}

/* out_blocks packs the size blocks to send; w is the wire of the first. */
static int out_blocks(ctx *c, wire *w) {
	int rc = 0;
	wire b;
	if (!copies(c)) return out_wire(c, c->sb, c->stmp, w); /* the blocks lie where MPI takes them */
	for (int i = c->size - 1; i >= 0 && !rc; i--) rc = out_wire(c, sblk(c, i), stmp_at(c, i), i ? &b : w);
	return rc;
}

static int op_gather(ctx *c) {
	wire o, i = in_wire(c, c->rb, c->rtmp);
	sput(c, c->sb, c->rank);
	int rc = out_wire(c, c->sb, c->stmp, &o);
	if (!rc)
		rc = COLL(c, MPI_Gather(o.p, o.n, o.t, i.p, i.n, i.t, 0, c->comm),
		          MPI_Igather(o.p, o.n, o.t, i.p, i.n, i.t, 0, c->comm, &c->rq),
		          MPI4(GATHER_INIT, gather_init)(o.p, o.n, o.t, i.p, i.n, i.t, 0, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc && c->rank == 0) rc = in_blocks(c);
	if (!rc && c->rank == 0) chk_blocks(c, -1);
	return rc;
}

static int op_gatherv(ctx *c) {
	sput(c, c->sb, c->rank);
	even(c);
	int rc = COLL(c, MPI_Gatherv(c->sb, nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, 0, c->comm),
	              MPI_Igatherv(c->sb, nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, 0, c->comm, &c->rq),
	              MPI4(GATHERV_INIT, gatherv_init)(c->sb, nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE,
	                                               0, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc && c->rank == 0) chk_blocks(c, -1);
	return rc;
}

static int op_scatter(ctx *c) {
	wire o = {c->sb, 0, MPI_BYTE}, i = in_wire(c, c->rb, c->rtmp);
	int rc = 0;
	if (c->rank == 0) {
		for (int k = 0; k < c->size; k++) sput(c, sblk(c, k), k);
		rc = out_blocks(c, &o);
	}
	if (!rc)
		rc = COLL(c, MPI_Scatter(o.p, o.n, o.t, i.p, i.n, i.t, 0, c->comm),
		          MPI_Iscatter(o.p, o.n, o.t, i.p, i.n, i.t, 0, c->comm, &c->rq),
		          MPI4(SCATTER_INIT, gather_init)(o.p, o.n, o.t, i.p, i.n, i.t, 0, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) rc = in_done(c, c->rb, c->rtmp);
	if (!rc) rchk(c, c->rb, c->rank);
	return rc;
}

static int op_scatterv(ctx *c) {
	if (c->rank == 0)
		for (int i = 0; i < c->size; i++) sput(c, sblk(c, i), i);
	even(c);
	int rc = COLL(c, MPI_Scatterv(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, nb(c), MPI_BYTE, 0, c->comm),
	              MPI_Iscatterv(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, nb(c), MPI_BYTE, 0, c->comm, &c->rq),
	              MPI4(SCATTERV_INIT, scatterv_init)(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, nb(c), MPI_BYTE,
	                                                 0, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) rchk(c, c->rb, c->rank);
	return rc;
}

static int op_allgather(ctx *c) {
	wire o, i = in_wire(c, c->rb, c->rtmp);
	sput(c, c->sb, c->rank);
	int rc = out_wire(c, c->sb, c->stmp, &o);
	if (!rc)
		rc = COLL(c, MPI_Allgather(o.p, o.n, o.t, i.p, i.n, i.t, c->comm),
		          MPI_Iallgather(o.p, o.n, o.t, i.p, i.n, i.t, c->comm, &c->rq),
		          MPI4(ALLGATHER_INIT, allgather_init)(o.p, o.n, o.t, i.p, i.n, i.t, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) rc = in_blocks(c);
	if (!rc) chk_blocks(c, -1);
	return rc;
}

static int op_allgatherv(ctx *c) {
	sput(c, c->sb, c->rank);
	even(c);
	int rc = COLL(c, MPI_Allgatherv(c->sb, nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, c->comm),
	              MPI_Iallgatherv(c->sb, nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, c->comm, &c->rq),
	              MPI4(ALLGATHERV_INIT, allgatherv_init)(c->sb, nb(c), MPI_BYTE, c->rb, c->counts, c->displs,
	                                                     MPI_BYTE, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) chk_blocks(c, -1);
	return rc;
}

/* The block from s to d carries sender id s·size + d. */
static void put_blocks(ctx *c) {
	for (int d = 0; d < c->size; d++) sput(c, sblk(c, d), c->rank * c->size + d);
}

static int op_alltoall(ctx *c) {
	wire o, i = in_wire(c, c->rb, c->rtmp);
	put_blocks(c);
	int rc = out_blocks(c, &o);
	if (!rc)
		rc = COLL(c, MPI_Alltoall(o.p, o.n, o.t, i.p, i.n, i.t, c->comm),
		          MPI_Ialltoall(o.p, o.n, o.t, i.p, i.n, i.t, c->comm, &c->rq),
		          MPI4(ALLTOALL_INIT, allgather_init)(o.p, o.n, o.t, i.p, i.n, i.t, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) rc = in_blocks(c);
	if (!rc) chk_blocks(c, c->rank);
	return rc;
}

static int op_alltoallv(ctx *c) {
	put_blocks(c);
	even(c);
	int rc = COLL(c, MPI_Alltoallv(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, c->comm),
	              MPI_Ialltoallv(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE,
	                             c->comm, &c->rq),
	              MPI4(ALLTOALLV_INIT, alltoallv_init)(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, c->counts,
	                                                   c->displs, MPI_BYTE, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) chk_blocks(c, c->rank);
	return rc;
}

/* alltoallw: the blocks of alltoallv with a datatype per peer (MPI_BYTE
 * each) and byte displacements. */
static int op_alltoallw(ctx *c) {
	put_blocks(c);
	even(c);
	int rc = COLL(c,
	              MPI_Alltoallw(c->sb, c->counts, c->displs, c->wtypes, c->rb, c->counts, c->displs, c->wtypes,
	                            c->comm),
	              MPI_Ialltoallw(c->sb, c->counts, c->displs, c->wtypes, c->rb, c->counts, c->displs, c->wtypes,
	                             c->comm, &c->rq),
	              MPI4(ALLTOALLW_INIT, alltoallw_init)(c->sb, c->counts, c->displs, c->wtypes, c->rb, c->counts,
	                                                   c->displs, c->wtypes, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) chk_blocks(c, c->rank);
	return rc;
}

static void free_made(ctx *c);

static int op_comm_split(ctx *c) {
	if (c->nmade >= 64) free_made(c);
	return MPI_Comm_split(c->comm, 0, c->rank, &c->made[c->nmade++]);
}

static int op_comm_dup(ctx *c) {
	if (c->nmade >= 64) free_made(c);
	return MPI_Comm_dup(c->comm, &c->made[c->nmade++]);
}

static int op_memcpy(ctx *c) {
	sput(c, c->sb, c->rank);
	memcpy(c->rb, c->sb, c->len);
	rchk(c, c->rb, c->rank);
	return 0;
}

/* ---- neighborhood collectives on the batch's topology ---- */

/* Every process stamps its blocks with its rank; block i of the receive
 * buffer comes from neighbor i (none from MPI_PROC_NULL). */
static void chk_nbrs(ctx *c) {
	for (int i = 0; i < c->deg; i++)
		if (c->nbr[i] != MPI_PROC_NULL) rchk(c, rblk(c, i), c->nbr[i]);
}

static void even_nbrs(ctx *c) {
	for (int i = 0; i < c->deg; i++) {
		c->counts[i] = nb(c);
		c->displs[i] = i * nb(c);
	}
}

static int op_neighbor_allgather(ctx *c) {
	sput(c, c->sb, c->rank);
	int rc = COLL(c, MPI_Neighbor_allgather(c->sb, nb(c), MPI_BYTE, c->rb, nb(c), MPI_BYTE, c->comm),
	              MPI_Ineighbor_allgather(c->sb, nb(c), MPI_BYTE, c->rb, nb(c), MPI_BYTE, c->comm, &c->rq),
	              MPI_ERR_OTHER);
	if (!rc) chk_nbrs(c);
	return rc;
}

static int op_neighbor_allgatherv(ctx *c) {
	sput(c, c->sb, c->rank);
	even_nbrs(c);
	int rc = COLL(c, MPI_Neighbor_allgatherv(c->sb, nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, c->comm),
	              MPI_Ineighbor_allgatherv(c->sb, nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, c->comm,
	                                       &c->rq),
	              MPI_ERR_OTHER);
	if (!rc) chk_nbrs(c);
	return rc;
}

static void put_nbr_blocks(ctx *c) {
	for (int i = 0; i < c->deg; i++) sput(c, sblk(c, i), c->rank);
}

static int op_neighbor_alltoall(ctx *c) {
	put_nbr_blocks(c);
	int rc = COLL(c, MPI_Neighbor_alltoall(c->sb, nb(c), MPI_BYTE, c->rb, nb(c), MPI_BYTE, c->comm),
	              MPI_Ineighbor_alltoall(c->sb, nb(c), MPI_BYTE, c->rb, nb(c), MPI_BYTE, c->comm, &c->rq),
	              MPI_ERR_OTHER);
	if (!rc) chk_nbrs(c);
	return rc;
}

static int op_neighbor_alltoallv(ctx *c) {
	put_nbr_blocks(c);
	even_nbrs(c);
	int rc = COLL(c,
	              MPI_Neighbor_alltoallv(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE,
	                                     c->comm),
	              MPI_Ineighbor_alltoallv(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, c->counts, c->displs,
	                                      MPI_BYTE, c->comm, &c->rq),
	              MPI_ERR_OTHER);
	if (!rc) chk_nbrs(c);
	return rc;
}

/* neighbor-alltoallw: byte displacements (MPI_Aint) and a type per neighbor. */
static int op_neighbor_alltoallw(ctx *c) {
	put_nbr_blocks(c);
	MPI_Aint *d = c->adispls;
	for (int i = 0; i < c->deg; i++) {
		c->counts[i] = nb(c);
		d[i] = (MPI_Aint)i * nb(c);
	}
	int rc = COLL(c,
	              MPI_Neighbor_alltoallw(c->sb, c->counts, d, c->wtypes, c->rb, c->counts, d, c->wtypes, c->comm),
	              MPI_Ineighbor_alltoallw(c->sb, c->counts, d, c->wtypes, c->rb, c->counts, d, c->wtypes, c->comm,
	                                      &c->rq),
	              MPI_ERR_OTHER);
	if (!rc) chk_nbrs(c);
	return rc;
}

/* The hand-built references: MPI_Irecv from every neighbor, MPI_Isend to
 * every one (all blocks, or the one block to each), MPI_Waitall. */
static int nbr_exchange(ctx *c, int one) {
	int rc = 0, n = 0;
	if (one) sput(c, c->sb, c->rank);
	else put_nbr_blocks(c);
	/* tagged with the direction the receiver sees the sender in, so that a neighbor met in two
	 * directions (a periodic dimension of 1 or 2 processes) gets each block where MPI puts it */
	for (int i = 0; i < c->deg && !rc; i++)
		if (c->nbr[i] != MPI_PROC_NULL)
			rc = MPI_Irecv(rblk(c, i), nb(c), MPI_BYTE, c->nbr[i], TAG_NBR + c->code[i], c->comm, &c->reqs[n++]);
	for (int i = 0; i < c->deg && !rc; i++)
		if (c->nbr[i] != MPI_PROC_NULL)
			rc = MPI_Isend(one ? c->sb : sblk(c, i), nb(c), MPI_BYTE, c->nbr[i], TAG_NBR + c->back[i], c->comm,
			               &c->reqs[n++]);
	if (!rc) rc = MPI_Waitall(n, c->reqs, MPI_STATUSES_IGNORE);
	if (!rc) chk_nbrs(c);
	return rc;
}
static int op_neighbor_allgather_isend_irecv(ctx *c) { return nbr_exchange(c, 1); }
static int op_neighbor_alltoall_isend_irecv(ctx *c) { return nbr_exchange(c, 0); }

/* ---- hand-built references ---- */

static int op_bcast_sendrecv(ctx *c) {
	int rc = 0;
	if (c->rank == 0) {
		sput(c, c->sb, 0);
		for (int i = 1; i < c->size && !rc; i++) rc = MPI_Send(c->sb, nb(c), MPI_BYTE, i, TAG, c->comm);
		return rc;
	}
	rc = MPI_Recv(c->rb, nb(c), MPI_BYTE, 0, TAG, c->comm, MPI_STATUS_IGNORE);
	if (!rc) rchk(c, c->rb, 0);
	return rc;
}

static int op_gather_sendrecv(ctx *c) {
	int rc = 0;
	if (c->rank) {
		sput(c, c->sb, c->rank);
		return MPI_Send(c->sb, nb(c), MPI_BYTE, 0, TAG, c->comm);
	}
	sput(c, c->rb, 0); /* rank 0's own block */
	for (int i = 1; i < c->size && !rc; i++)
		rc = MPI_Recv(rblk(c, i), nb(c), MPI_BYTE, i, TAG, c->comm, MPI_STATUS_IGNORE);
	if (!rc) chk_blocks(c, -1);
	return rc;
}

static int op_gather_irecv(ctx *c) {
	int rc = 0;
	if (c->rank) {
		sput(c, c->sb, c->rank);
		return MPI_Send(c->sb, nb(c), MPI_BYTE, 0, TAG, c->comm);
	}
	sput(c, c->rb, 0);
	for (int i = 1; i < c->size && !rc; i++)
		rc = MPI_Irecv(rblk(c, i), nb(c), MPI_BYTE, i, TAG, c->comm, &c->reqs[i - 1]);
	if (!rc) rc = MPI_Waitall(c->size - 1, c->reqs, MPI_STATUSES_IGNORE);
	if (!rc) chk_blocks(c, -1);
	return rc;
}

static int op_allreduce_reduce_bcast(ctx *c) {
	putf(c->sb, c->len, c->call, c->rank);
	int rc = MPI_Reduce(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, 0, c->comm);
	if (!rc) rc = MPI_Bcast(c->rb, n4(c), MPI_FLOAT, 0, c->comm);
	if (!rc) chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

static int op_alltoall_isend_irecv(ctx *c) {
	int rc = 0, n = 0;
	put_blocks(c);
	for (int i = 0; i < c->size && !rc; i++)
		if (i != c->rank) rc = MPI_Irecv(rblk(c, i), nb(c), MPI_BYTE, i, TAG, c->comm, &c->reqs[n++]);
	for (int i = 0; i < c->size && !rc; i++)
		if (i != c->rank) rc = MPI_Isend(sblk(c, i), nb(c), MPI_BYTE, i, TAG, c->comm, &c->reqs[n++]);
	memcpy(rblk(c, c->rank), sblk(c, c->rank), c->len);
	if (!rc) rc = MPI_Waitall(n, c->reqs, MPI_STATUSES_IGNORE);
	if (!rc) chk_blocks(c, c->rank);
	return rc;
}

/* ---- master-worker: rank 0 hands out chunks items, the workers return them ---- */

/* worker answers items until the master says stop. An item's number
 * travels in its tag. */
static int worker(ctx *c) {
	MPI_Status st;
	for (;;) {
		int rc = MPI_Recv(c->rb, nb(c), MPI_BYTE, 0, MPI_ANY_TAG, c->comm, &st);
		if (rc || st.MPI_TAG == TAG_STOP) return rc;
		int item = st.MPI_TAG - TAG_ITEM;
		rchk(c, c->rb, item);
		sput(c, c->sb, item + SKAMPI_MAXCHUNKS);
		if ((rc = MPI_Send(c->sb, nb(c), MPI_BYTE, 0, st.MPI_TAG, c->comm))) return rc;
	}
}

/* give sends item to worker w in mode m. */
static int give(ctx *c, smode m, int item, int w) {
	MPI_Request rq;
	int rc;
	sput(c, c->sb, item);
	c->widx[w] = item;
	switch (m) {
	case S_SSEND: return MPI_Ssend(c->sb, nb(c), MPI_BYTE, w, TAG_ITEM + item, c->comm);
	case S_BSEND: return MPI_Bsend(c->sb, nb(c), MPI_BYTE, w, TAG_ITEM + item, c->comm);
	case S_ISEND:
		rc = MPI_Isend(c->sb, nb(c), MPI_BYTE, w, TAG_ITEM + item, c->comm, &rq);
		return rc ? rc : MPI_Wait(&rq, MPI_STATUS_IGNORE);
	default: return MPI_Send(c->sb, nb(c), MPI_BYTE, w, TAG_ITEM + item, c->comm);
	}
}

static int stop_workers(ctx *c) {
	int rc = 0;
	for (int w = 1; w < c->size && !rc; w++) rc = MPI_Send(c->sb, 0, MPI_BYTE, w, TAG_STOP, c->comm);
	return rc;
}

/* got checks the result of worker w's item. */
static void got(ctx *c, int w, unsigned char *m) { rchk(c, m, c->widx[w] + SKAMPI_MAXCHUNKS); }

/* static_rr deals item k to worker 1 + k mod W and collects in the same
 * order: with MPI_Recv from that worker (send modes), or with MPI_Wait on
 * a receive posted per worker (wait). */
static int static_rr(ctx *c, smode m, int waits) {
	int W = c->size - 1, rc = 0;
	for (int k = 0; k < c->chunks && k < W && !rc; k++) {
		int w = 1 + k;
		if (waits) rc = MPI_Irecv(rblk(c, w), nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, &c->reqs[w]);
		if (!rc) rc = give(c, m, k, w);
	}
	for (int k = 0; k < c->chunks && !rc; k++) {
		int w = 1 + k % W;
		rc = waits ? MPI_Wait(&c->reqs[w], MPI_STATUS_IGNORE)
		           : MPI_Recv(rblk(c, w), nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
		if (rc) break;
		got(c, w, rblk(c, w));
		if (k + W < c->chunks) {
			if (waits) rc = MPI_Irecv(rblk(c, w), nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, &c->reqs[w]);
			if (!rc) rc = give(c, m, k + W, w);
		}
	}
	return rc ? rc : stop_workers(c);
}

/* dynamic hands the next item to whichever worker returns first: found
 * with MPI_Waitany over a receive posted per worker, or MPI_Recv from
 * MPI_ANY_SOURCE. */
static int dynamic(ctx *c, int waitany) {
	int W = c->size - 1, rc = 0, next = 0, out = 0;
	for (int w = 1; w <= W; w++) c->reqs[w - 1] = MPI_REQUEST_NULL;
	for (int w = 1; w <= W && next < c->chunks && !rc; w++, next++, out++) {
		if (waitany) rc = MPI_Irecv(rblk(c, w), nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, &c->reqs[w - 1]);
		if (!rc) rc = give(c, S_SEND, next, w);
	}
	while (out > 0 && !rc) {
		int w;
		if (waitany) {
			rc = MPI_Waitany(W, c->reqs, &w, MPI_STATUS_IGNORE);
			w++;
		} else {
			MPI_Status st;
			rc = MPI_Recv(rblk(c, 0), nb(c), MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, c->comm, &st);
			w = st.MPI_SOURCE;
		}
		if (rc) break;
		got(c, w, rblk(c, waitany ? w : 0));
		out--;
		if (next < c->chunks) {
			if (waitany) rc = MPI_Irecv(rblk(c, w), nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, &c->reqs[w - 1]);
			if (!rc) rc = give(c, S_SEND, next++, w);
			out++;
		}
	}
	return rc ? rc : stop_workers(c);
}

#define MW(name, master) \
	static int name(ctx *c) { return c->rank ? worker(c) : (master); }
MW(op_mw_wait, static_rr(c, S_SEND, 1))
MW(op_mw_waitany, dynamic(c, 1))
MW(op_mw_recv_any, dynamic(c, 0))
MW(op_mw_send, static_rr(c, S_SEND, 0))
MW(op_mw_ssend, static_rr(c, S_SSEND, 0))
MW(op_mw_isend, static_rr(c, S_ISEND, 0))
MW(op_mw_bsend, static_rr(c, S_BSEND, 0))

/* ---- simple: local operations ---- */

static int op_wtime(ctx *c) {
	volatile double t = MPI_Wtime();
	(void)t;
	return 0;
}
static int op_comm_rank(ctx *c) {
	int r;
	return MPI_Comm_rank(c->comm, &r);
}
static int op_comm_size(ctx *c) {
	int s;
	return MPI_Comm_size(c->comm, &s);
}
static int op_iprobe(ctx *c) {
	int flag;
	int rc = MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP + 100, c->comm, &flag, MPI_STATUS_IGNORE);
	return rc ? rc : (flag ? MPI_ERR_OTHER : 0);
}
static int op_buffer_attach(ctx *c) {
	static char buf[MPI_BSEND_OVERHEAD + 64];
	void *p;
	int n;
	int rc = MPI_Buffer_attach(buf, sizeof buf);
	return rc ? rc : MPI_Buffer_detach(&p, &n);
}

static int type_build(const int64_t **pc, const int64_t *end, MPI_Datatype *t, int depth);

/* type-create: build the send type from its program, commit it, free it. */
static int op_type_create(ctx *c) {
	MPI_Datatype t;
	const int64_t *pc = c->ty->s.prog;
	int rc = type_build(&pc, pc + c->ty->s.nprog, &t, 0);
	if (!rc) rc = MPI_Type_commit(&t);
	if (!rc) rc = MPI_Type_free(&t);
	return rc;
}

/* ---- one-sided: an origin reaches into a target's window ---- */

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

static rma *R(ctx *c) { return (rma *)c->rma; }

/* The stamp of a get: the target's window holds it for the whole batch. */
enum { GET_CALL = 1000003 };

/* rma_delay spins for the delayed synchronisations, outside MPI. */
static void rma_delay(void) {
	double t = MPI_Wtime() + SKAMPI_RMA_DELAY;
	while (MPI_Wtime() < t) {
	}
}

/* rma_begin opens the call's epoch: pscw's post and start, a lock. */
static int rma_begin(ctx *c, int sync) {
	rma *r = R(c);
	int rc = 0;
	if (sync == SKAMPI_PSCW && r->exposed) rc = MPI_Win_post(r->from, 0, r->win);
	if (sync == SKAMPI_PSCW && r->origin && !rc) rc = MPI_Win_start(r->to, 0, r->win);
	if (sync == SKAMPI_LOCK && r->origin)
		rc = MPI_Win_lock(MPI_LOCK_SHARED, r->target, r->nocheck ? MPI_MODE_NOCHECK : 0, r->win);
	return rc;
}

/* rma_end completes the call's operations: a fence, pscw's complete and
 * wait, an unlock, a flush. */
static int rma_end(ctx *c, int sync) {
	rma *r = R(c);
	int rc = 0;
	switch (sync) {
	case SKAMPI_FENCE: return MPI_Win_fence(r->nocheck ? MPI_MODE_NOSTORE : 0, r->win);
	case SKAMPI_PSCW:
		if (r->origin) rc = MPI_Win_complete(r->win);
		if (r->exposed && !rc) rc = MPI_Win_wait(r->win);
		return rc;
	case SKAMPI_LOCK: return r->origin ? MPI_Win_unlock(r->target, r->win) : 0;
	case SKAMPI_FLUSH: return r->origin ? MPI_Win_flush(r->target, r->win) : 0;
	case SKAMPI_FLUSH_LOCAL: return r->origin ? MPI_Win_flush_local(r->target, r->win) : 0;
	}
	return MPI_ERR_ARG;
}

/* between says whether the target can look at its window between two
 * calls: after MPI_Win_wait and before its next post nobody reaches it.
 * Under a fence the next call's operations may land at once, under the
 * locks at any time: those targets check at the end of a point. */
static int between(int sync) { return sync == SKAMPI_PSCW; }

/* at is where this rank's block lies in a window: the block of the rank
 * that reaches it in put-all-one, else the start. */
static int64_t at(ctx *c, int sender) { return c->rma_blocks ? sender * c->len : 0; }

/* rma_put puts the call's message (burst times) into the target. */
static int rma_put(ctx *c, int burst) {
	rma *r = R(c);
	int rc = 0;
	wire w;
	sput(c, c->sb, c->rank);
	if (c->inject == 3 && c->full) return 0; /* a lost put */
	rc = out_wire(c, c->sb, NULL, &w);
	int n = c->method == SKAMPI_DATATYPE ? (int)c->ty->r.count : nb(c);
	MPI_Datatype t = c->method == SKAMPI_DATATYPE ? c->ty->r.type : MPI_BYTE;
	for (int j = 0; j < burst && !rc; j++) rc = MPI_Put(w.p, w.n, w.t, r->target, at(c, c->rank), n, t, r->win);
	return rc;
}

/* rma_check_target checks, on a target that took part in the epoch, what
 * reached its window. */
static void rma_check_target(ctx *c, int sync) {
	rma *r = R(c);
	if (!r->exposed || !between(sync) || c->full) return;
	if (r->source >= 0) rchk(c, r->base + at(c, r->source), r->source);
	else
		for (int s = 0; s < c->size; s++) rchk(c, r->base + at(c, s), s);
}

static int op_put(ctx *c) {
	int sync = R(c)->sync, rc = rma_begin(c, sync);
	R(c)->last = c->call;
	if (!rc && R(c)->origin) rc = rma_put(c, 1);
	if (!rc) rc = rma_end(c, sync);
	if (!rc) rma_check_target(c, sync);
	return rc;
}
static int op_put_bw(ctx *c) {
	int sync = R(c)->sync, rc = rma_begin(c, sync);
	R(c)->last = c->call;
	if (!rc && R(c)->origin) rc = rma_put(c, SKAMPI_RMA_BURST);
	if (!rc) rc = rma_end(c, sync);
	if (!rc) rma_check_target(c, sync);
	return rc;
}
static int op_put_all(ctx *c) { return op_put(c); }

/* rma_get gets the target's stamped window burst times; the origin checks
 * the result. */
static int rma_get(ctx *c, int burst) {
	rma *r = R(c);
	int sync = r->sync, rc = rma_begin(c, sync);
	for (int j = 0; j < burst && r->origin && !rc; j++)
		rc = MPI_Get(r->res, nb(c), MPI_BYTE, r->target, 0, nb(c), MPI_BYTE, r->win);
	if (!rc) rc = rma_end(c, sync);
	if (!rc && r->origin) {
		int64_t call = c->call;
		c->call = GET_CALL;
		chk(c, &c->rl, r->res, r->target);
		c->call = call;
	}
	return rc;
}
static int op_get(ctx *c) { return rma_get(c, 1); }
static int op_get_bw(ctx *c) { return rma_get(c, SKAMPI_RMA_BURST); }

/* Accumulations run over MPI_INT: the origin contributes v to the first
 * and the last element (to every element in a full check); the target
 * checks the element after its epochs, the origin what it fetched. */
static int nints(ctx *c) { return (int)(c->len / 4); }

static void acc_stamp(ctx *c, int v) {
	int *x = (int *)c->sb, n = nints(c);
	if (n <= 0) return;
	if (c->full)
		for (int i = 0; i < n; i++) x[i] = v;
	x[0] = x[n - 1] = v;
}

static void acc_check(ctx *c, const int *x, int expect, int sender) {
	int n = nints(c);
	if (n <= 0) return;
	for (int i = 0; i < n; i = (c->full || i == n - 1) ? i + 1 : n - 1)
		if (x[i] != expect) {
			fault(c, sender, 4 * (int64_t)i, expect, x[i]);
			return;
		}
}

/* acc runs an accumulation with op; value is what the origin
 * contributes, after what the target's elements must hold. */
static int acc(ctx *c, MPI_Op op, int value, int after) {
	rma *r = R(c);
	r->expect = after;
	int sync = r->sync, rc = rma_begin(c, sync);
	if (r->origin) acc_stamp(c, value);
	if (!rc && r->origin) rc = MPI_Accumulate(c->sb, nints(c), MPI_INT, r->target, 0, nints(c), MPI_INT, op, r->win);
	if (!rc) rc = rma_end(c, sync);
	if (!rc && r->exposed && between(sync) && !c->full) acc_check(c, (int *)r->base, after, r->source);
	r->k++;
	return rc;
}
static int op_acc_sum(ctx *c) { return acc(c, MPI_SUM, 1, (int)R(c)->k + 1); }
static int op_acc_replace(ctx *c) {
	int v = (int)(c->call % 100000) + 1;
	return acc(c, MPI_REPLACE, v, v);
}
static int op_acc_max(ctx *c) { return acc(c, MPI_MAX, (int)R(c)->k + 1, (int)R(c)->k + 1); }

static int op_get_acc(ctx *c) {
	rma *r = R(c);
	int sync = r->sync, rc = rma_begin(c, sync);
	if (r->origin) acc_stamp(c, 1);
	if (!rc && r->origin)
		rc = MPI_Get_accumulate(c->sb, nints(c), MPI_INT, r->res, nints(c), MPI_INT, r->target, 0, nints(c), MPI_INT,
		                        MPI_SUM, r->win);
	if (!rc) rc = rma_end(c, sync);
	if (!rc && r->origin) acc_check(c, (int *)r->res, (int)r->k, r->target);
	r->k++;
	return rc;
}

/* fetch-and-op adds 1 to the target's first 8 bytes and fetches the old
 * value; compare-and-swap swaps k for k+1. Both check the old value. */
static int atomic(ctx *c, int cas) {
	rma *r = R(c);
	int sync = r->sync, rc = rma_begin(c, sync);
	int64_t one = 1, cmp = r->k, swap = r->k + 1, *old = (int64_t *)r->res;
	if (!rc && r->origin)
		rc = cas ? MPI_Compare_and_swap(&swap, &cmp, old, MPI_INT64_T, r->target, 0, r->win)
		         : MPI_Fetch_and_op(&one, old, MPI_INT64_T, r->target, 0, MPI_SUM, r->win);
	if (!rc) rc = rma_end(c, sync);
	if (!rc && r->origin && *old != r->k) fault(c, r->target, 0, (int)r->k, (int)*old);
	r->k++;
	return rc;
}
static int op_fetch_and_op(ctx *c) { return atomic(c, 0); }
static int op_compare_and_swap(ctx *c) { return atomic(c, 1); }

/* The synchronisations alone, in empty epochs; delayed: the partner
 * spins SKAMPI_RMA_DELAY outside MPI before its part. */
static int sync_alone(ctx *c, int sync, int delayed) {
	int rc;
	if (delayed && !R(c)->origin) rma_delay();
	if ((rc = rma_begin(c, sync))) return rc;
	return rma_end(c, sync);
}
static int op_win_fence(ctx *c) { return sync_alone(c, SKAMPI_FENCE, 0); }
static int op_win_pscw(ctx *c) { return sync_alone(c, SKAMPI_PSCW, 0); }
static int op_win_lock(ctx *c) { return sync_alone(c, SKAMPI_LOCK, 0); }
static int op_win_fence_delayed(ctx *c) { return sync_alone(c, SKAMPI_FENCE, 1); }
static int op_win_pscw_delayed(ctx *c) { return sync_alone(c, SKAMPI_PSCW, 1); }
static int op_win_lock_delayed(ctx *c) { return sync_alone(c, SKAMPI_LOCK, 1); }

/* ---- the table and the timed loop ---- */

typedef int (*opfn)(ctx *);
typedef struct {
	const char *name;
	opfn fn;
	int bsend;  /* needs an attached buffer */
	int blocks; /* uses one block of the length per process of the communicator */
	int rma;    /* one-sided: runs on a window (rma_open) */
	int mode;   /* M_BLOCK, M_NB or M_PERSIST */
	int needs;  /* the MPI 4 call it needs (mpi4.h), -1 for none */
	int per;    /* what its blocks are per: PER_PROC, PER_NBR (on the batch's topology), PER_PART */
	int count64; /* hands its length to MPI as an MPI_Count (it may pass INT_MAX) */
} optab;

/* What the blocks of a block operation are per: a process of the
 * communicator, a neighbor of the topology, a partition of the message. */
enum { PER_PROC, PER_NBR, PER_PART };

#define OP(n, f) {n, f, 0, 0, 0, M_BLOCK, -1, PER_PROC, 0}
#define OPB(n, f) {n, f, 0, 1, 0, M_BLOCK, -1, PER_PROC, 0}
#define OPR(n, f) {n, f, 0, 0, 1, M_BLOCK, -1, PER_PROC, 0}
#define ONB(n, f) {n, f, 0, 0, 0, M_NB, -1, PER_PROC, 0}
#define ONBB(n, f) {n, f, 0, 1, 0, M_NB, -1, PER_PROC, 0}
#define OPS(n, f, id) {n, f, 0, 0, 0, M_PERSIST, MPI4_##id, PER_PROC, 0}
#define OPSB(n, f, id) {n, f, 0, 1, 0, M_PERSIST, MPI4_##id, PER_PROC, 0}
#define ONH(n, f, mode) {n, f, 0, 1, 0, mode, -1, PER_NBR, 0}
static const optab ops[] = {
	OP("send-recv", op_send_recv), OP("send-recv-anytag", op_send_recv_anytag),
	OP("send-irecv", op_send_irecv), OP("send-iprobe-recv", op_send_iprobe_recv),
	OP("ssend-recv", op_ssend_recv), OP("isend-recv", op_isend_recv),
	OP("issend-recv", op_issend_recv), {"bsend-recv", op_bsend_recv, 1, 0, 0, M_BLOCK, -1, PER_PROC, 0},
	OP("sendrecv", op_sendrecv), OP("sendrecv-replace", op_sendrecv_replace),
	OP("barrier", op_barrier), OP("bcast", op_bcast), OP("reduce", op_reduce),
	OP("allreduce", op_allreduce), OPB("reduce-scatter-block", op_reduce_scatter_block),
	OP("scan", op_scan), OP("exscan", op_exscan), OPB("gather", op_gather),
	OPB("gatherv", op_gatherv), OPB("scatter", op_scatter), OPB("scatterv", op_scatterv),
	OPB("allgather", op_allgather), OPB("allgatherv", op_allgatherv),
	OPB("alltoall", op_alltoall), OPB("alltoallv", op_alltoallv),
	OP("comm-split", op_comm_split), OP("comm-dup", op_comm_dup), OP("memcpy", op_memcpy),
	OP("bcast-sendrecv", op_bcast_sendrecv), OPB("gather-sendrecv", op_gather_sendrecv),
	OPB("gather-irecv", op_gather_irecv), OP("allreduce-reduce-bcast", op_allreduce_reduce_bcast),
	OPB("alltoall-isend-irecv", op_alltoall_isend_irecv),
	OPB("mw-wait", op_mw_wait), OPB("mw-waitany", op_mw_waitany), OPB("mw-recv-any", op_mw_recv_any),
	OPB("mw-send", op_mw_send), OPB("mw-ssend", op_mw_ssend), OPB("mw-isend", op_mw_isend),
	{"mw-bsend", op_mw_bsend, 1, 1, 0, M_BLOCK, -1, PER_PROC, 0},
	OP("wtime", op_wtime), OP("comm-rank", op_comm_rank), OP("comm-size", op_comm_size),
	OP("iprobe", op_iprobe), OP("buffer-attach", op_buffer_attach),
	OP("type-create", op_type_create),
	OPR("put", op_put), OPR("get", op_get), OPR("acc-sum", op_acc_sum), OPR("acc-replace", op_acc_replace),
	OPR("acc-max", op_acc_max), OPR("get-acc", op_get_acc), OPR("fetch-and-op", op_fetch_and_op),
	OPR("compare-and-swap", op_compare_and_swap), OPR("put-bw", op_put_bw), OPR("get-bw", op_get_bw),
	OPR("win-fence", op_win_fence), OPR("win-pscw", op_win_pscw), OPR("win-lock", op_win_lock),
	OPR("win-fence-delayed", op_win_fence_delayed), OPR("win-pscw-delayed", op_win_pscw_delayed),
	OPR("win-lock-delayed", op_win_lock_delayed), {"put-all-one", op_put_all, 0, 1, 1, M_BLOCK, -1, PER_PROC, 0},
	OPR("put-all-own", op_put_all),
	OPB("reduce-scatter", op_reduce_scatter), OPB("alltoallw", op_alltoallw),
	{"send-recv-persistent", op_send_recv_persistent, 0, 0, 0, M_PERSIST, -1, PER_PROC, 0},
	{"isendrecv", op_isendrecv, 0, 0, 0, M_BLOCK, MPI4_ISENDRECV, PER_PROC, 0},
	{"isendrecv-replace", op_isendrecv_replace, 0, 0, 0, M_BLOCK, MPI4_ISENDRECV_REPLACE, PER_PROC, 0},
	ONB("ibarrier", op_barrier), ONB("ibcast", op_bcast), ONB("ireduce", op_reduce),
	ONB("iallreduce", op_allreduce), ONBB("ireduce-scatter-block", op_reduce_scatter_block),
	ONBB("ireduce-scatter", op_reduce_scatter), ONB("iscan", op_scan), ONB("iexscan", op_exscan),
	ONBB("igather", op_gather), ONBB("igatherv", op_gatherv), ONBB("iscatter", op_scatter),
	ONBB("iscatterv", op_scatterv), ONBB("iallgather", op_allgather), ONBB("iallgatherv", op_allgatherv),
	ONBB("ialltoall", op_alltoall), ONBB("ialltoallv", op_alltoallv), ONBB("ialltoallw", op_alltoallw),
	OPS("barrier-persistent", op_barrier, BARRIER_INIT), OPS("bcast-persistent", op_bcast, BCAST_INIT),
	OPS("reduce-persistent", op_reduce, REDUCE_INIT), OPS("allreduce-persistent", op_allreduce, ALLREDUCE_INIT),
	OPSB("reduce-scatter-block-persistent", op_reduce_scatter_block, REDUCE_SCATTER_BLOCK_INIT),
	OPSB("reduce-scatter-persistent", op_reduce_scatter, REDUCE_SCATTER_INIT),
	OPS("scan-persistent", op_scan, SCAN_INIT), OPS("exscan-persistent", op_exscan, EXSCAN_INIT),
	OPSB("gather-persistent", op_gather, GATHER_INIT), OPSB("gatherv-persistent", op_gatherv, GATHERV_INIT),
	OPSB("scatter-persistent", op_scatter, SCATTER_INIT), OPSB("scatterv-persistent", op_scatterv, SCATTERV_INIT),
	OPSB("allgather-persistent", op_allgather, ALLGATHER_INIT),
	OPSB("allgatherv-persistent", op_allgatherv, ALLGATHERV_INIT),
	OPSB("alltoall-persistent", op_alltoall, ALLTOALL_INIT), OPSB("alltoallv-persistent", op_alltoallv, ALLTOALLV_INIT),
	OPSB("alltoallw-persistent", op_alltoallw, ALLTOALLW_INIT),
	ONH("neighbor-allgather", op_neighbor_allgather, M_BLOCK),
	ONH("neighbor-allgatherv", op_neighbor_allgatherv, M_BLOCK),
	ONH("neighbor-alltoall", op_neighbor_alltoall, M_BLOCK),
	ONH("neighbor-alltoallv", op_neighbor_alltoallv, M_BLOCK),
	ONH("neighbor-alltoallw", op_neighbor_alltoallw, M_BLOCK),
	ONH("ineighbor-allgather", op_neighbor_allgather, M_NB),
	ONH("ineighbor-allgatherv", op_neighbor_allgatherv, M_NB),
	ONH("ineighbor-alltoall", op_neighbor_alltoall, M_NB),
	ONH("ineighbor-alltoallv", op_neighbor_alltoallv, M_NB),
	ONH("ineighbor-alltoallw", op_neighbor_alltoallw, M_NB),
	ONH("neighbor-allgather-isend-irecv", op_neighbor_allgather_isend_irecv, M_BLOCK),
	ONH("neighbor-alltoall-isend-irecv", op_neighbor_alltoall_isend_irecv, M_BLOCK),
	{"psend-precv", op_psend_precv, 0, 1, 0, M_PERSIST, MPI4_PSEND_INIT, PER_PART, 0},
	{"send-recv-c", op_send_recv_c, 0, 0, 0, M_BLOCK, MPI4_SEND_C, PER_PROC, 1},
};

_Static_assert(sizeof ops / sizeof ops[0] == SKAMPI_NOPS, "SKAMPI_NOPS is the length of the table");

static int op_sync(int op, int sync) {
	opfn f = ops[op].fn;
	if (f == op_win_fence || f == op_win_fence_delayed) return SKAMPI_FENCE;
	if (f == op_win_pscw || f == op_win_pscw_delayed) return SKAMPI_PSCW;
	if (f == op_win_lock || f == op_win_lock_delayed) return SKAMPI_LOCK;
	return sync;
}

const char *skampi_op_name(int i) { return i >= 0 && i < SKAMPI_NOPS ? ops[i].name : ""; }

int skampi_op_blocks(int i) { return i >= 0 && i < SKAMPI_NOPS ? ops[i].blocks : 0; }

static int64_t foot(int op, const lay *l, int size);

/* roles sets who reaches whom: a pair's rank 0 reaches rank 1 (alone,
 * itself); in put-all-one every rank reaches rank 0, in put-all-own the
 * next rank. */
static void roles(ctx *c, rma *r, int all_one, int all_own) {
	r->origin = c->rank == 0 || all_one || all_own;
	r->target = c->size > 1 && !all_one ? (c->rank + 1) % c->size : 0;
	r->exposed = c->size == 1 || (all_one ? c->rank == 0 : all_own || c->rank == 1);
	r->source = all_one ? -1 : (c->rank + c->size - 1) % c->size;
}

/* groups makes pscw's groups: the target's, and the sources'. */
static int groups(ctx *c, rma *r) {
	MPI_Group all;
	int rc = MPI_Comm_group(c->comm, &all);
	if (!rc) rc = MPI_Group_incl(all, 1, &r->target, &r->to);
	if (!rc && r->source >= 0) rc = MPI_Group_incl(all, 1, &r->source, &r->from);
	else if (!rc) rc = MPI_Comm_group(c->comm, &r->from);
	MPI_Group_free(&all);
	return rc;
}

/* rma_init writes the window before the first epoch: a get's stamp, the
 * fill of a full check (its holes), or zeros for the accumulations. */
static void rma_init(ctx *c, rma *r, int op) {
	int64_t call = c->call;
	if (ops[op].fn == op_get || ops[op].fn == op_get_bw) {
		c->call = GET_CALL;
		lay plain = {c->plain, 1, 1, c->len, c->len, c->len, 0, c->len > 0 ? c->len - 1 : 0};
		put(c, &plain, r->base, c->rank);
		c->call = call;
	} else
		memset(r->base, c->full && (ops[op].fn == op_put || ops[op].fn == op_put_all) ? HOLE : 0, r->len);
}

/* rma_open makes the batch's window and opens its first epoch, outside
 * the timed repetitions. */
static int rma_open(const skampi_batch_t *b, ctx *c) {
	rma *r = calloc(1, sizeof *r);
	if (!r) return MPI_ERR_NO_MEM;
	c->rma = r;
	r->to = r->from = MPI_GROUP_NULL;
	r->win = MPI_WIN_NULL;
	r->sync = op_sync(b->op, b->rma_sync);
	r->nocheck = b->rma_nocheck;
	c->rma_blocks = ops[b->op].fn == op_put_all && ops[b->op].blocks;
	roles(c, r, c->rma_blocks, ops[b->op].fn == op_put_all && !ops[b->op].blocks);
	r->len = foot(b->op, &c->rl, c->size);
	if (c->rma_blocks && c->rank != 0) r->len = c->len; /* only rank 0's window holds a block per process */
	if (r->len < 8) r->len = 8;
	r->res = malloc(c->len > 8 ? c->len : 8); /* what one get or atomic fetches */
	int rc = r->res ? 0 : MPI_ERR_NO_MEM;
	/* MPI_Win_allocate gets whole pages: MPICH 4.0's shared-memory windows
	 * lose or misroute puts into windows of other sizes (docs/skampi.md) */
	if (!rc && b->rma_allocate) {
		r->len = (r->len + 4095) & ~(int64_t)4095;
		rc = MPI_Win_allocate(r->len, 1, MPI_INFO_NULL, c->comm, &r->base, &r->win);
	}
	else if (!rc) {
		if (r->len > b->buflen) return MPI_ERR_BUFFER;
		r->base = b->rbuf;
		rc = MPI_Win_create(r->base, r->len, 1, MPI_INFO_NULL, c->comm, &r->win);
	}
	if (rc) return rc;
	c->rb = r->base; /* the window is the receive side: a full check looks at its holes */
	c->rfoot = r->len;
	rma_init(c, r, b->op);
	if (r->sync == SKAMPI_PSCW) rc = groups(c, r);
	if (!rc) rc = MPI_Barrier(c->comm); /* every window written before anyone reaches it */
	if (!rc && r->sync == SKAMPI_FENCE) rc = MPI_Win_fence(0, r->win);
	if (!rc && (r->sync == SKAMPI_FLUSH || r->sync == SKAMPI_FLUSH_LOCAL) && r->origin) {
		rc = MPI_Win_lock_all(r->nocheck ? MPI_MODE_NOCHECK : 0, r->win);
		r->lockall = !rc;
	}
	return rc;
}

/* rma_close ends the batch's epochs, checks in a full check what reached
 * the targets (every byte, and the holes), and frees the window. */
static int rma_close(ctx *c, int op) {
	rma *r = R(c);
	int rc = 0;
	if (!r) return 0;
	if (r->lockall) rc = MPI_Win_unlock_all(r->win);
	if (c->full && !rc) rc = MPI_Barrier(c->comm); /* every operation complete at its target */
	if (c->full && !rc && r->exposed) {
		int64_t call = c->call;
		c->call = r->last;
		if (ops[op].fn == op_put || ops[op].fn == op_put_bw || ops[op].fn == op_put_all) {
			if (r->source >= 0) rchk(c, r->base + at(c, r->source), r->source);
			else
				for (int s = 0; s < c->size; s++) rchk(c, r->base + at(c, s), s);
		} else if (ops[op].fn == op_acc_sum || ops[op].fn == op_acc_replace || ops[op].fn == op_acc_max)
			acc_check(c, (int *)r->base, r->expect, r->source);
		c->call = call;
	}
	if (r->win != MPI_WIN_NULL) {
		int rc2 = MPI_Win_free(&r->win);
		if (!rc) rc = rc2;
	}
	if (r->to != MPI_GROUP_NULL) MPI_Group_free(&r->to);
	if (r->from != MPI_GROUP_NULL) MPI_Group_free(&r->from);
	free(r->res);
	free(r);
	c->rma = NULL;
	return rc;
}

/* foot is the bytes one call uses of a buffer whose messages lie as l:
 * the message, or one block per process of the communicator (per
 * neighbor for the neighborhood collectives: n is that count). */
static int64_t foot(int op, const lay *l, int n) {
	return ops[op].blocks && n > 1 ? (n - 1) * l->stride + l->span : l->span;
}

/* blocks is the blocks of a block operation: per neighbor or per process. */
static int blocks(ctx *c, int op) {
	return ops[op].per == PER_NBR ? c->deg : ops[op].per == PER_PART ? c->chunks : c->size;
}

/* wait_until spins until the corrected clock reaches t, yielding the
 * processor while it waits when the node is oversubscribed. Until the
 * last microsecond it lets MPI progress (an Iprobe that finds nothing):
 * a buffered or nonblocking send of the last repetition completes while
 * its process waits, as it would in an application that goes on calling
 * MPI, instead of stalling its partner until the next repetition. */
static void wait_until(double t, double off, int yield, MPI_Comm c) {
	double now;
	int flag;
	while ((now = MPI_Wtime() - off) < t) {
		if (t - now > 1e-6) MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP + 100, c, &flag, MPI_STATUS_IGNORE);
		if (yield) sched_yield();
	}
}

static void free_made(ctx *c) {
	for (int i = 0; i < c->nmade; i++) MPI_Comm_free(&c->made[i]);
	c->nmade = 0;
}

/* schedule broadcasts rank 0's start and window of the batch. The
 * barrier first brings every process into this loop: the processes come
 * from Go, whose hand-over to the thread of MPI may take tens of
 * microseconds, so a start taken before it would make the first
 * repetitions late, and the window grow for nothing. */
static int schedule(const skampi_batch_t *b, ctx *c, double *t0, double *w) {
	int rc = MPI_Barrier(c->comm);
	if (rc) return rc;
	double sw[2] = {MPI_Wtime() - b->offset + b->lead, b->window};
	rc = MPI_Bcast(sw, 2, MPI_DOUBLE, 0, c->comm);
	*t0 = sw[0];
	*w = sw[1];
	return rc;
}

/* reps runs the repetitions of the batch. */
static int reps(const skampi_batch_t *b, ctx *c, opfn fn, double *arrive, double *start,
                double *end, double *busy, double *window, double *first) {
	/* cycled calls use slots of whole cache lines (one for empty messages) */
	int64_t fp = foot(b->op, &c->sl, blocks(c, b->op)), fr = foot(b->op, &c->rl, blocks(c, b->op));
	int64_t slot_len = ((fp > fr ? fp : fr) + 63) & ~(int64_t)63;
	if (slot_len == 0) slot_len = 64;
	int64_t cyc = b->span > 0 && b->span < b->buflen ? b->span : b->buflen;
	int64_t slots = cyc / slot_len > 0 ? cyc / slot_len : 1, slot = c->call % slots;
	double t0 = 0, w = 0;
	int rc = b->window_sync ? schedule(b, c, &t0, &w) : 0;
	*window = w;
	*first = t0;
	for (int k = 0; k < b->reps && !rc; k++) {
		if (b->window_sync) {
			double t = t0 + k * w;
			arrive[k] = MPI_Wtime() - b->offset;
			if (!b->passive) wait_until(t, b->offset, b->yield, c->comm);
		} else if (!b->nosync && (rc = MPI_Barrier(c->comm))) {
			break;
		}
		c->busy = 0;
		double s = MPI_Wtime();
		for (int i = 0; i < b->calls && !rc; i++, c->call++) {
			if (b->cycle && !ops[b->op].rma && ops[b->op].mode != M_PERSIST) { /* call n of the point uses slot n mod slots */
				c->sb = b->sbuf + slot * slot_len;
				c->rb = b->rbuf + slot * slot_len;
				if (++slot == slots) slot = 0;
			}
			if (c->full && !ops[b->op].rma) memset(c->rb, HOLE, c->rfoot);
			rc = fn(c);
		}
		double e = MPI_Wtime();
		free_made(c);
		start[k] = s - b->offset;
		end[k] = e - b->offset;
		busy[k] = c->busy;
	}
	return rc;
}

/* cart_nbrs lists a Cartesian topology's neighbors in MPI's order: per
 * dimension the one in the negative direction, then the positive one. */
static int cart_nbrs(ctx *c, int n) {
	int rc = 0;
	for (int d = 0; d < n && !rc; d++) {
		rc = MPI_Cart_shift(c->comm, d, 1, &c->nbr[2 * d], &c->nbr[2 * d + 1]);
		c->code[2 * d] = 2 * d, c->back[2 * d] = 2 * d + 1;
		c->code[2 * d + 1] = 2 * d + 1, c->back[2 * d + 1] = 2 * d;
	}
	return rc;
}

/* stencil_nbrs lists the neighbors of the full stencil on the grid dims
 * (row-major ranks, as MPI's Cartesian ones): every offset in {-1,0,1}^n
 * but zero, in lexicographic order; past a non-periodic edge there is
 * none. The direction of an offset is its index among all 3^n. */
static void stencil_nbrs(ctx *c, const int *dims, int n, int periodic) {
	int coord[3], k = 0, all = n == 2 ? 9 : 27;
	for (int d = n - 1, r = c->rank; d >= 0; d--) coord[d] = r % dims[d], r /= dims[d];
	for (int code = 0; code < all; code++) {
		int off[3] = {code / (n == 2 ? 3 : 9) % 3 - 1, code / (n == 2 ? 1 : 3) % 3 - 1, code % 3 - 1}, rank = 0, in = 1;
		if (code == all / 2) continue; /* the process itself */
		for (int d = 0; d < n; d++) {
			int x = coord[d] + off[d];
			if (periodic) x = (x + dims[d]) % dims[d];
			in = in && x >= 0 && x < dims[d];
			rank = rank * dims[d] + x;
		}
		if (!in) continue;
		c->nbr[k] = rank, c->code[k] = code, c->back[k] = all - 1 - code;
		k++;
	}
	c->deg = k;
}

/* topo_open makes the batch's topology on its communicator (the
 * neighborhood collectives' comm from then on): Cartesian, or the full
 * stencil as a distributed graph, on the grid b->dims. */
static int topo_open(const skampi_batch_t *b, ctx *c) {
	int n = b->ndims, per[3] = {b->periodic, b->periodic, b->periodic}, dims[3], rc = 0;
	int64_t prod = 1;
	if (n < 2 || n > 3) return MPI_ERR_DIMS;
	for (int d = 0; d < n; d++) dims[d] = b->dims[d], prod *= dims[d] > 0 && dims[d] <= c->size ? dims[d] : -1;
	if (prod != c->size) return MPI_ERR_DIMS;
	c->base = c->comm;
	c->nbr = malloc(sizeof(int) * 27), c->code = malloc(sizeof(int) * 27), c->back = malloc(sizeof(int) * 27);
	if (!c->nbr || !c->code || !c->back) return MPI_ERR_NO_MEM;
	if (b->topo == SKAMPI_TOPO_CART) {
		rc = MPI_Cart_create(c->base, n, dims, per, 0, &c->comm);
		c->deg = 2 * n;
		return rc ? rc : cart_nbrs(c, n);
	}
	stencil_nbrs(c, dims, n, b->periodic);
	return MPI_Dist_graph_create_adjacent(c->base, c->deg, c->nbr, MPI_UNWEIGHTED, c->deg, c->nbr, MPI_UNWEIGHTED,
	                                      MPI_INFO_NULL, 0, &c->comm);
}

static int topo_close(ctx *c) {
	int rc = 0;
	if (c->base != MPI_COMM_NULL && c->comm != c->base) rc = MPI_Comm_free(&c->comm);
	if (c->base != MPI_COMM_NULL) c->comm = c->base;
	free(c->nbr), free(c->code), free(c->back);
	return rc;
}

/* persistent_open runs the setup pass of a persistent operation: its
 * requests made (the time of the init calls in c->init), nothing started. */
static int persistent_open(ctx *c, opfn fn) {
	c->setup = 1;
	int rc = fn(c);
	c->setup = 0;
	return rc == SETUP_DONE ? 0 : rc ? rc : MPI_ERR_INTERN;
}

static int persistent_close(ctx *c) {
	int rc = 0, rc2 = 0;
	pready_pool_free(c->pool);
	c->pool = NULL;
	if (c->rq != MPI_REQUEST_NULL) rc = MPI_Request_free(&c->rq);
	if (c->rq2 != MPI_REQUEST_NULL) rc2 = MPI_Request_free(&c->rq2);
	return rc ? rc : rc2;
}

/* side_lay is the layout of a message of side s. */
static lay side_lay(const skampi_side *s) {
	const int64_t *r = s->runs;
	int64_t n = s->nruns, c = s->count, last_run = 2 * (n - 1);
	lay l = {r, n, c, s->ext, c * s->ext, (c - 1) * s->ext + r[last_run] + r[last_run + 1],
	         r[0], (c - 1) * s->ext + r[last_run] + r[last_run + 1] - 1};
	for (int64_t k = 0; k < n; k++) /* the span ends at the highest byte, in any order */
		if ((c - 1) * s->ext + r[2 * k] + r[2 * k + 1] > l.span) l.span = (c - 1) * s->ext + r[2 * k] + r[2 * k + 1];
	return l;
}

/* layouts sets the ctx's layouts and scratch for the batch's method. */
static int layouts(const skampi_batch_t *b, ctx *c) {
	c->plain[0] = 0;
	c->plain[1] = b->len;
	lay plain = {c->plain, 1, 1, b->len, b->len, b->len, 0, b->len > 0 ? b->len - 1 : 0};
	c->sl = c->rl = plain;
	c->wlen = b->len;
	c->method = b->types ? b->method : SKAMPI_CONTIG;
	c->ty = b->types;
	if (c->method == SKAMPI_CONTIG) return 0;
	c->sl = side_lay(&b->types->s);
	c->rl = side_lay(&b->types->r);
	if (c->method == SKAMPI_DATATYPE) return 0;
	int n = 0, rc = 0;
	if (c->method == SKAMPI_PACK) {
		rc = MPI_Pack_size((int)b->types->s.count, b->types->s.type, c->comm, &n);
		c->wlen = n > b->len ? n : b->len;
	}
	int64_t blocks = ops[b->op].blocks ? c->size : 1;
	c->stmp = malloc(blocks * c->wlen + 1);
	c->rtmp = malloc(blocks * c->wlen + 1);
	return rc ? rc : c->stmp && c->rtmp ? 0 : MPI_ERR_NO_MEM;
}

/* attach attaches the buffer of a buffered-send operation. */
static int attach(const skampi_batch_t *b, ctx *c, void **att) {
	int64_t attlen = 2 * (c->wlen + MPI_BSEND_OVERHEAD) * (int64_t)c->size;
	*att = NULL;
	if (!ops[b->op].bsend) return 0;
	if (attlen > 0x7fffffff) return MPI_ERR_BUFFER;
	*att = malloc(attlen);
	return MPI_Buffer_attach(*att, (int)attlen);
}

static int detach(void *att) {
	void *p;
	int n;
	if (!att) return 0;
	int rc = MPI_Buffer_detach(&p, &n);
	free(att);
	return rc;
}

int skampi_batch(const skampi_batch_t *b, double *arrive, double *start, double *end, double *busy,
                 double *init, double *window, double *first, skampi_fault *f) {
	if (b->op < 0 || b->op >= SKAMPI_NOPS || b->chunks > SKAMPI_MAXCHUNKS) return MPI_ERR_ARG;
	if (ops[b->op].fn == op_type_create && !b->types) return MPI_ERR_TYPE;
	if (ops[b->op].needs >= 0 && !mpi4_sym(ops[b->op].needs)) return MPI_ERR_OTHER; /* not in this library */
	if (b->steps > 0 && ops[b->op].mode != M_NB) return MPI_ERR_ARG;
	/* every length goes to MPI as an int but the large-count operations' */
	if (b->len > INT_MAX && !ops[b->op].count64) return MPI_ERR_COUNT;
	ctx c = {.comm = MPI_Comm_f2c(b->comm), .len = b->len, .chunks = b->chunks, .sb = b->sbuf,
	         .rb = b->rbuf, .call = b->seq, .f = f, .inject = b->inject, .full = b->full,
	         .mode = ops[b->op].mode, .rq = MPI_REQUEST_NULL, .rq2 = MPI_REQUEST_NULL, .steps = b->steps,
	         .base = MPI_COMM_NULL, .threads = b->threads};
	int rc = MPI_Comm_rank(c.comm, &c.rank);
	if (!rc) rc = MPI_Comm_size(c.comm, &c.size);
	if (!rc && ops[b->op].per == PER_NBR) rc = topo_open(b, &c);
	if (!rc) rc = layouts(b, &c);
	c.rfoot = foot(b->op, &c.rl, blocks(&c, b->op));
	if (!rc && (foot(b->op, &c.sl, blocks(&c, b->op)) > b->buflen || c.rfoot > b->buflen)) rc = MPI_ERR_BUFFER;
	/* the v-variants' displacements, i·len, are ints */
	if (!rc && ops[b->op].blocks && (int64_t)(blocks(&c, b->op) - 1) * b->len > INT_MAX) rc = MPI_ERR_COUNT;
	int n = c.size > 27 ? c.size : 27; /* per process, or per neighbor (at most 26) */
	c.counts = malloc(sizeof(int) * n);
	c.displs = malloc(sizeof(int) * n);
	c.adispls = malloc(sizeof(MPI_Aint) * n);
	c.widx = malloc(sizeof(int) * n);
	c.reqs = malloc(sizeof(MPI_Request) * 2 * n);
	c.wtypes = malloc(sizeof(MPI_Datatype) * n);
	for (int i = 0; c.wtypes && i < n; i++) c.wtypes[i] = MPI_BYTE;
	if (!rc && (!c.counts || !c.displs || !c.adispls || !c.widx || !c.reqs || !c.wtypes)) rc = MPI_ERR_NO_MEM;
	void *att = NULL;
	if (!rc && ops[b->op].rma && c.method != SKAMPI_CONTIG && c.method != SKAMPI_DATATYPE) rc = MPI_ERR_ARG;
	if (!rc) rc = attach(b, &c, &att);
	if (!rc && ops[b->op].rma) rc = rma_open(b, &c);
	if (!rc && c.mode == M_PERSIST) rc = persistent_open(&c, ops[b->op].fn);
	*init = c.init;
	if (!rc) rc = reps(b, &c, ops[b->op].fn, arrive, start, end, busy, window, first);
	int rc2 = persistent_close(&c);
	if (!rc) rc = rc2;
	rc2 = topo_close(&c);
	if (!rc) rc = rc2;
	rc2 = rma_close(&c, b->op);
	if (!rc) rc = rc2;
	rc2 = detach(att);
	if (!rc) rc = rc2;
	free(c.counts);
	free(c.displs);
	free(c.widx);
	free(c.reqs);
	free(c.wtypes);
	free(c.adispls);
	free(c.stmp);
	free(c.rtmp);
	return rc;
}

/* ---- datatypes ---- */

static int base_of(MPI_Datatype t) {
	return t == MPI_BYTE || t == MPI_CHAR || t == MPI_INT || t == MPI_FLOAT || t == MPI_DOUBLE;
}

static const MPI_Datatype *base_type(int64_t kind) {
	static MPI_Datatype t[5];
	t[0] = MPI_BYTE, t[1] = MPI_CHAR, t[2] = MPI_INT, t[3] = MPI_FLOAT, t[4] = MPI_DOUBLE;
	return kind >= 0 && kind < 5 ? &t[kind] : NULL;
}

/* ints reads n numbers of the program into an int array (freed by the
 * caller); NULL when the program ends early or a number passes an int. */
static int *ints(const int64_t **pc, const int64_t *end, int64_t n) {
	if (n < 0 || n > end - *pc) return NULL;
	int *out = malloc(sizeof(int) * (n > 0 ? n : 1));
	for (int64_t i = 0; out && i < n; i++) {
		if ((*pc)[i] < 0 || (*pc)[i] > INT_MAX) {
			free(out);
			return NULL;
		}
		out[i] = (int)(*pc)[i];
	}
	*pc += n;
	return out;
}

/* type_struct builds a struct node: n, lb, extent, counts, byte
 * displacements, then n inner types; it is resized to lb and extent. */
static int type_struct(const int64_t **pc, const int64_t *end, MPI_Datatype *t, int depth) {
	if (end - *pc < 3) return MPI_ERR_TYPE;
	int64_t n = (*pc)[0], lb = (*pc)[1], ext = (*pc)[2];
	*pc += 3;
	int *bl = ints(pc, end, n), *d = ints(pc, end, n), rc = 0, made = 0;
	MPI_Aint *disp = calloc(n > 0 ? n : 1, sizeof(MPI_Aint));
	MPI_Datatype *in = calloc(n > 0 ? n : 1, sizeof(MPI_Datatype)), raw;
	if (!bl || !d || !disp || !in) rc = MPI_ERR_TYPE;
	for (int64_t i = 0; i < n && !rc; i++, made++) {
		disp[i] = d[i];
		rc = type_build(pc, end, &in[i], depth + 1);
	}
	if (!rc) rc = MPI_Type_create_struct((int)n, bl, disp, in, &raw);
	if (!rc) rc = MPI_Type_create_resized(raw, lb, ext, t);
	if (!rc) rc = MPI_Type_free(&raw);
	for (int i = 0; i < made; i++)
		if (!base_of(in[i])) MPI_Type_free(&in[i]);
	free(bl), free(d), free(disp), free(in);
	return rc;
}

/* type_build builds (not commits) the type whose program starts at *pc
 * (skampi.Program), advancing *pc past it. */
static int type_build(const int64_t **pc, const int64_t *end, MPI_Datatype *t, int depth) {
	if (depth > 64 || end - *pc < 2) return MPI_ERR_TYPE;
	int64_t ctor = *(*pc)++;
	if (ctor == 0) {
		const MPI_Datatype *b = base_type(*(*pc)++);
		if (!b) return MPI_ERR_TYPE;
		*t = *b;
		return 0;
	}
	if (ctor == 6) return type_struct(pc, end, t, depth);
	int64_t nargs = ctor == 1 ? 1 : ctor <= 3 ? 3 : ctor == 8 ? 2 : 1;
	if (end - *pc < nargs) return MPI_ERR_TYPE;
	const int64_t *a = *pc;
	*pc += nargs;
	int *x = NULL, *y = NULL, *z = NULL, rc = 0;
	int64_t n = a[0];
	switch (ctor) { /* the lists of indexed, indexed-block and subarray */
	case 4: x = ints(pc, end, n), y = ints(pc, end, n); break;
	case 5: x = ints(pc, end, 1), y = ints(pc, end, n); break;
	case 7: x = ints(pc, end, n), y = ints(pc, end, n), z = ints(pc, end, n); break;
	}
	MPI_Datatype in;
	rc = type_build(pc, end, &in, depth + 1);
	if (!rc) switch (ctor) {
		case 1: rc = MPI_Type_contiguous((int)a[0], in, t); break;
		case 2: rc = MPI_Type_vector((int)a[0], (int)a[1], (int)a[2], in, t); break;
		case 3: rc = MPI_Type_create_hvector((int)a[0], (int)a[1], (MPI_Aint)a[2], in, t); break;
		case 4: rc = x && y ? MPI_Type_indexed((int)n, x, y, in, t) : MPI_ERR_TYPE; break;
		case 5: rc = x && y ? MPI_Type_create_indexed_block((int)n, x[0], y, in, t) : MPI_ERR_TYPE; break;
		case 7: rc = x && y && z ? MPI_Type_create_subarray((int)n, x, y, z, MPI_ORDER_C, in, t) : MPI_ERR_TYPE; break;
		case 8: rc = MPI_Type_create_resized(in, (MPI_Aint)a[0], (MPI_Aint)a[1], t); break;
		default: rc = MPI_ERR_TYPE;
		}
	if (!rc && !base_of(in)) MPI_Type_free(&in);
	free(x), free(y), free(z);
	return rc;
}

static int build_side(skampi_side *s, const int64_t *prog, int64_t nprog, const int64_t *runs,
                      int64_t nruns, int64_t count, int64_t ext) {
	s->prog = malloc(sizeof(int64_t) * (nprog > 0 ? nprog : 1));
	s->runs = malloc(sizeof(int64_t) * 2 * (nruns > 0 ? nruns : 1));
	if (!s->prog || !s->runs || nruns < 1) return MPI_ERR_NO_MEM;
	memcpy(s->prog, prog, sizeof(int64_t) * nprog);
	memcpy(s->runs, runs, sizeof(int64_t) * 2 * nruns);
	s->nprog = nprog;
	s->nruns = nruns;
	s->count = count;
	s->ext = ext;
	const int64_t *pc = s->prog;
	int rc = type_build(&pc, pc + nprog, &s->type, 0);
	if (!rc && pc != s->prog + nprog) rc = MPI_ERR_TYPE;
	if (!rc && base_of(s->type)) rc = MPI_Type_dup(s->type, &s->type); /* freed like the rest */
	return rc ? rc : MPI_Type_commit(&s->type);
}

int skampi_types_new(const int64_t *prog[2], const int64_t nprog[2], const int64_t *runs[2],
                     const int64_t nruns[2], const int64_t count[2], const int64_t ext[2],
                     skampi_types **out) {
	skampi_types *t = calloc(1, sizeof *t);
	if (!t) return MPI_ERR_NO_MEM;
	t->s.type = t->r.type = MPI_DATATYPE_NULL;
	int rc = build_side(&t->s, prog[0], nprog[0], runs[0], nruns[0], count[0], ext[0]);
	if (!rc) rc = build_side(&t->r, prog[1], nprog[1], runs[1], nruns[1], count[1], ext[1]);
	if (rc) {
		skampi_types_free(t);
		t = NULL;
	}
	*out = t;
	return rc;
}

void skampi_types_free(skampi_types *t) {
	if (!t) return;
	skampi_side *sides[2] = {&t->s, &t->r};
	for (int i = 0; i < 2; i++) {
		if (sides[i]->type != MPI_DATATYPE_NULL) MPI_Type_free(&sides[i]->type);
		free(sides[i]->prog);
		free(sides[i]->runs);
	}
	free(t);
}

int skampi_type_info(const skampi_types *t, int side, int64_t info[5]) {
	MPI_Datatype d = side ? t->r.type : t->s.type;
	MPI_Aint lb, ext, tlb, text;
	int size;
	int rc = MPI_Type_size(d, &size);
	if (!rc) rc = MPI_Type_get_extent(d, &lb, &ext);
	if (!rc) rc = MPI_Type_get_true_extent(d, &tlb, &text);
	info[0] = size, info[1] = lb, info[2] = ext, info[3] = tlb, info[4] = text;
	return rc;
}

/* ---- preparing a run ---- */

int skampi_rtt(MPI_Fint comm, int partner, int initiator, int rounds, double *best) {
	MPI_Comm c = MPI_Comm_f2c(comm);
	unsigned char s = 1, r;
	int rc = 0;
	*best = 0;
	for (int i = 0; i < rounds && !rc; i++) {
		if (initiator) {
			double t = MPI_Wtime();
			rc = MPI_Send(&s, 1, MPI_BYTE, partner, TAG, c);
			if (!rc) rc = MPI_Recv(&r, 1, MPI_BYTE, partner, TAG, c, MPI_STATUS_IGNORE);
			t = MPI_Wtime() - t;
			if (i == 0 || t < *best) *best = t;
		} else {
			rc = MPI_Recv(&r, 1, MPI_BYTE, partner, TAG, c, MPI_STATUS_IGNORE);
			if (!rc) rc = MPI_Send(&s, 1, MPI_BYTE, partner, TAG, c);
		}
	}
	return rc;
}

int skampi_offset(MPI_Fint comm, int me, int peer, int rounds, double *offset, double *rtt) {
	MPI_Comm c = MPI_Comm_f2c(comm);
	double t = 0;
	int rc = 0;
	*offset = 0;
	*rtt = 0;
	for (int i = 0; i < rounds && !rc; i++) {
		if (me != 0) {
			rc = MPI_Recv(&t, 1, MPI_DOUBLE, peer, TAG, c, MPI_STATUS_IGNORE);
			t = MPI_Wtime();
			if (!rc) rc = MPI_Send(&t, 1, MPI_DOUBLE, peer, TAG, c);
			continue;
		}
		double t1 = MPI_Wtime();
		rc = MPI_Send(&t1, 1, MPI_DOUBLE, peer, TAG, c);
		if (!rc) rc = MPI_Recv(&t, 1, MPI_DOUBLE, peer, TAG, c, MPI_STATUS_IGNORE);
		double t2 = MPI_Wtime();
		if (i == 0 || t2 - t1 < *rtt) {
			*rtt = t2 - t1;
			*offset = t - (t1 + t2) / 2;
		}
	}
	return rc;
}

void skampi_timer(double *d, int n) {
	for (int i = 0; i < n; i++) {
		double a = MPI_Wtime();
		double b = MPI_Wtime();
		d[i] = b - a;
	}
}

int skampi_rma_probe(MPI_Fint comm, int allocate, int *ok, int *rc) {
	MPI_Comm c = MPI_Comm_f2c(comm);
	MPI_Win win = MPI_WIN_NULL;
	void *base = NULL;
	if (allocate) *rc = MPI_Win_allocate(4096, 1, MPI_INFO_NULL, c, &base, &win);
	else {
		base = malloc(4096);
		*rc = base ? MPI_Win_create(base, 4096, 1, MPI_INFO_NULL, c, &win) : MPI_ERR_NO_MEM;
	}
	int mine = *rc == 0;
	if (mine) MPI_Win_free(&win);
	if (!allocate) free(base);
	return MPI_Allreduce(&mine, ok, 1, MPI_INT, MPI_MIN, c);
}

int skampi_wtime_is_global(int *global) {
	int *v, flag;
	int rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v, &flag);
	*global = !rc && flag && *v;
	return rc;
}
