//go:build mpi

/* skampi.c: the operations of the SKaMPI suite and the loop that times
 * them (see skampi.h). An operation is one function over a context; the
 * table at the end maps the names of skampi.Ops to them. */
#include "skampi.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>

enum { TAG = 1, TAG_STOP = 2, TAG_ITEM = 3 };

unsigned char skampi_byte1(int64_t call, int sender) {
	return (unsigned char)(1 + (call * 37 + (int64_t)sender * 13) % 251);
}
unsigned char skampi_byte2(int64_t call, int sender) {
	return (unsigned char)(2 + (call * 17 + (int64_t)sender * 3 + 101) % 253);
}
float skampi_float1(int64_t call, int sender) { return (float)(1 + call % 61 + sender); }
float skampi_float2(int64_t call, int sender) { return (float)(2 + call % 59 + 2 * sender); }

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

/* put stamps a message of n bytes from sender; chk checks one. */
static void put(unsigned char *m, int64_t n, int64_t call, int sender) {
	if (n <= 0) return;
	m[0] = skampi_byte1(call, sender);
	if (n > 1) m[n - 1] = skampi_byte2(call, sender);
}
static void chk(ctx *c, unsigned char *m, int64_t n, int sender) {
	if (n <= 0) return;
	if (c->inject) {
		m[0] ^= 0xff;
		c->inject = 0;
	}
	int e1 = skampi_byte1(c->call, sender), e2 = n > 1 ? skampi_byte2(c->call, sender) : e1;
	if (m[0] != e1) fault(c, sender, 0, e1, m[0]);
	else if (m[n - 1] != e2) fault(c, sender, n - 1, e2, m[n - 1]);
}

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
static unsigned char *blk(unsigned char *b, ctx *c, int i) { return b + (int64_t)i * c->len; }

/* ---- ping-pong: rank 0 starts, rank 1 answers ---- */

typedef enum { S_SEND, S_SSEND, S_ISEND, S_ISSEND, S_BSEND } smode;
typedef enum { R_RECV, R_ANYTAG, R_IRECV, R_IPROBE } rmode;

static int psend(ctx *c, smode m, int to) {
	MPI_Request rq;
	int rc;
	switch (m) {
	case S_SSEND: return MPI_Ssend(c->sb, nb(c), MPI_BYTE, to, TAG, c->comm);
	case S_BSEND: return MPI_Bsend(c->sb, nb(c), MPI_BYTE, to, TAG, c->comm);
	case S_ISEND:
	case S_ISSEND:
		rc = m == S_ISEND ? MPI_Isend(c->sb, nb(c), MPI_BYTE, to, TAG, c->comm, &rq)
		                  : MPI_Issend(c->sb, nb(c), MPI_BYTE, to, TAG, c->comm, &rq);
		return rc ? rc : MPI_Wait(&rq, MPI_STATUS_IGNORE);
	default: return MPI_Send(c->sb, nb(c), MPI_BYTE, to, TAG, c->comm);
	}
}

static int precv(ctx *c, rmode m, int from) {
	int flag = 0, rc;
	switch (m) {
	case R_ANYTAG: return MPI_Recv(c->rb, nb(c), MPI_BYTE, from, MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
	case R_IPROBE:
		while (!flag)
			if ((rc = MPI_Iprobe(from, TAG, c->comm, &flag, MPI_STATUS_IGNORE))) return rc;
		return MPI_Recv(c->rb, nb(c), MPI_BYTE, from, TAG, c->comm, MPI_STATUS_IGNORE);
	default: return MPI_Recv(c->rb, nb(c), MPI_BYTE, from, TAG, c->comm, MPI_STATUS_IGNORE);
	}
}

static int pingpong(ctx *c, smode s, rmode r) {
	int other = 1 - c->rank, rc;
	MPI_Request rq;
	if (r == R_IRECV) { /* the receive is posted before anything is sent */
		if ((rc = MPI_Irecv(c->rb, nb(c), MPI_BYTE, other, TAG, c->comm, &rq))) return rc;
		if (c->rank == 0) {
			put(c->sb, c->len, c->call, 0);
			if ((rc = psend(c, s, other)) || (rc = MPI_Wait(&rq, MPI_STATUS_IGNORE))) return rc;
			chk(c, c->rb, c->len, 1);
			return 0;
		}
		if ((rc = MPI_Wait(&rq, MPI_STATUS_IGNORE))) return rc;
		chk(c, c->rb, c->len, 0);
		put(c->sb, c->len, c->call, 1);
		return psend(c, s, other);
	}
	if (c->rank == 0) {
		put(c->sb, c->len, c->call, 0);
		if ((rc = psend(c, s, other)) || (rc = precv(c, r, other))) return rc;
		chk(c, c->rb, c->len, 1);
		return 0;
	}
	if ((rc = precv(c, r, other))) return rc;
	chk(c, c->rb, c->len, 0);
	put(c->sb, c->len, c->call, 1);
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
	put(c->sb, c->len, c->call, c->rank);
	int rc = MPI_Sendrecv(c->sb, nb(c), MPI_BYTE, other, TAG, c->rb, nb(c), MPI_BYTE, other, TAG,
	                      c->comm, MPI_STATUS_IGNORE);
	if (!rc) chk(c, c->rb, c->len, other);
	return rc;
}

static int op_sendrecv_replace(ctx *c) {
	int other = 1 - c->rank;
	put(c->sb, c->len, c->call, c->rank);
	int rc = MPI_Sendrecv_replace(c->sb, nb(c), MPI_BYTE, other, TAG, other, TAG, c->comm,
	                              MPI_STATUS_IGNORE);
	if (!rc) chk(c, c->sb, c->len, other);
	return rc;
}

/* ---- collectives on every rank of the communicator; rank 0 is the root ---- */

static int op_barrier(ctx *c) { return MPI_Barrier(c->comm); }

static int op_bcast(ctx *c) {
	unsigned char *b = c->rank == 0 ? c->sb : c->rb;
	if (c->rank == 0) put(b, c->len, c->call, 0);
	int rc = MPI_Bcast(b, nb(c), MPI_BYTE, 0, c->comm);
	if (!rc && c->rank) chk(c, b, c->len, 0);
	return rc;
}

static int op_reduce(ctx *c) {
	putf(c->sb, c->len, c->call, c->rank);
	int rc = MPI_Reduce(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, 0, c->comm);
	if (!rc && c->rank == 0) chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

static int op_allreduce(ctx *c) {
	putf(c->sb, c->len, c->call, c->rank);
	int rc = MPI_Allreduce(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm);
	if (!rc) chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

static int op_reduce_scatter_block(ctx *c) {
	for (int i = 0; i < c->size; i++) putf(blk(c->sb, c, i), c->len, c->call, c->rank);
	int rc = MPI_Reduce_scatter_block(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm);
	if (!rc) chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

static int op_scan(ctx *c) {
	putf(c->sb, c->len, c->call, c->rank);
	int rc = MPI_Scan(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm);
	if (!rc) chkf(c, c->rb, c->len, 0, c->rank + 1);
	return rc;
}

static int op_exscan(ctx *c) {
	putf(c->sb, c->len, c->call, c->rank);
	int rc = MPI_Exscan(c->sb, c->rb, n4(c), MPI_FLOAT, MPI_SUM, c->comm);
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

static void chk_blocks(ctx *c, unsigned char *b, int to) {
	for (int i = 0; i < c->size; i++) chk(c, blk(b, c, i), c->len, to < 0 ? i : i * c->size + to);
}

static int op_gather(ctx *c) {
	put(c->sb, c->len, c->call, c->rank);
	int rc = MPI_Gather(c->sb, nb(c), MPI_BYTE, c->rb, nb(c), MPI_BYTE, 0, c->comm);
	if (!rc && c->rank == 0) chk_blocks(c, c->rb, -1);
	return rc;
}

static int op_gatherv(ctx *c) {
	put(c->sb, c->len, c->call, c->rank);
	even(c);
	int rc = MPI_Gatherv(c->sb, nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, 0, c->comm);
	if (!rc && c->rank == 0) chk_blocks(c, c->rb, -1);
	return rc;
}

static int op_scatter(ctx *c) {
	if (c->rank == 0)
		for (int i = 0; i < c->size; i++) put(blk(c->sb, c, i), c->len, c->call, i);
	int rc = MPI_Scatter(c->sb, nb(c), MPI_BYTE, c->rb, nb(c), MPI_BYTE, 0, c->comm);
	if (!rc) chk(c, c->rb, c->len, c->rank);
	return rc;
}

static int op_scatterv(ctx *c) {
	if (c->rank == 0)
		for (int i = 0; i < c->size; i++) put(blk(c->sb, c, i), c->len, c->call, i);
	even(c);
	int rc = MPI_Scatterv(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, nb(c), MPI_BYTE, 0, c->comm);
	if (!rc) chk(c, c->rb, c->len, c->rank);
	return rc;
}

static int op_allgather(ctx *c) {
	put(c->sb, c->len, c->call, c->rank);
	int rc = MPI_Allgather(c->sb, nb(c), MPI_BYTE, c->rb, nb(c), MPI_BYTE, c->comm);
	if (!rc) chk_blocks(c, c->rb, -1);
	return rc;
}

static int op_allgatherv(ctx *c) {
	put(c->sb, c->len, c->call, c->rank);
	even(c);
	int rc = MPI_Allgatherv(c->sb, nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, c->comm);
	if (!rc) chk_blocks(c, c->rb, -1);
	return rc;
}

/* The block from s to d carries sender id s·size + d. */
static void put_blocks(ctx *c) {
	for (int d = 0; d < c->size; d++) put(blk(c->sb, c, d), c->len, c->call, c->rank * c->size + d);
}

static int op_alltoall(ctx *c) {
	put_blocks(c);
	int rc = MPI_Alltoall(c->sb, nb(c), MPI_BYTE, c->rb, nb(c), MPI_BYTE, c->comm);
	if (!rc) chk_blocks(c, c->rb, c->rank);
	return rc;
}

static int op_alltoallv(ctx *c) {
	put_blocks(c);
	even(c);
	int rc = MPI_Alltoallv(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, c->counts, c->displs,
	                       MPI_BYTE, c->comm);
	if (!rc) chk_blocks(c, c->rb, c->rank);
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
	put(c->sb, c->len, c->call, c->rank);
	memcpy(c->rb, c->sb, c->len);
	chk(c, c->rb, c->len, c->rank);
	return 0;
}

/* ---- hand-built references ---- */

static int op_bcast_sendrecv(ctx *c) {
	int rc = 0;
	if (c->rank == 0) {
		put(c->sb, c->len, c->call, 0);
		for (int i = 1; i < c->size && !rc; i++) rc = MPI_Send(c->sb, nb(c), MPI_BYTE, i, TAG, c->comm);
		return rc;
	}
	rc = MPI_Recv(c->rb, nb(c), MPI_BYTE, 0, TAG, c->comm, MPI_STATUS_IGNORE);
	if (!rc) chk(c, c->rb, c->len, 0);
	return rc;
}

static int op_gather_sendrecv(ctx *c) {
	int rc = 0;
	if (c->rank) {
		put(c->sb, c->len, c->call, c->rank);
		return MPI_Send(c->sb, nb(c), MPI_BYTE, 0, TAG, c->comm);
	}
	put(c->rb, c->len, c->call, 0); /* rank 0's own block */
	for (int i = 1; i < c->size && !rc; i++)
		rc = MPI_Recv(blk(c->rb, c, i), nb(c), MPI_BYTE, i, TAG, c->comm, MPI_STATUS_IGNORE);
	if (!rc) chk_blocks(c, c->rb, -1);
	return rc;
}

static int op_gather_irecv(ctx *c) {
	int rc = 0;
	if (c->rank) {
		put(c->sb, c->len, c->call, c->rank);
		return MPI_Send(c->sb, nb(c), MPI_BYTE, 0, TAG, c->comm);
	}
	put(c->rb, c->len, c->call, 0);
	for (int i = 1; i < c->size && !rc; i++)
		rc = MPI_Irecv(blk(c->rb, c, i), nb(c), MPI_BYTE, i, TAG, c->comm, &c->reqs[i - 1]);
	if (!rc) rc = MPI_Waitall(c->size - 1, c->reqs, MPI_STATUSES_IGNORE);
	if (!rc) chk_blocks(c, c->rb, -1);
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
		if (i != c->rank) rc = MPI_Irecv(blk(c->rb, c, i), nb(c), MPI_BYTE, i, TAG, c->comm, &c->reqs[n++]);
	for (int i = 0; i < c->size && !rc; i++)
		if (i != c->rank) rc = MPI_Isend(blk(c->sb, c, i), nb(c), MPI_BYTE, i, TAG, c->comm, &c->reqs[n++]);
	memcpy(blk(c->rb, c, c->rank), blk(c->sb, c, c->rank), c->len);
	if (!rc) rc = MPI_Waitall(n, c->reqs, MPI_STATUSES_IGNORE);
	if (!rc) chk_blocks(c, c->rb, c->rank);
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
		chk(c, c->rb, c->len, item);
		put(c->sb, c->len, c->call, item + SKAMPI_MAXCHUNKS);
		if ((rc = MPI_Send(c->sb, nb(c), MPI_BYTE, 0, st.MPI_TAG, c->comm))) return rc;
	}
}

/* give sends item to worker w in mode m. */
static int give(ctx *c, smode m, int item, int w) {
	MPI_Request rq;
	int rc;
	put(c->sb, c->len, c->call, item);
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
static void got(ctx *c, int w, unsigned char *m) { chk(c, m, c->len, c->widx[w] + SKAMPI_MAXCHUNKS); }

/* static_rr deals item k to worker 1 + k mod W and collects in the same
 * order: with MPI_Recv from that worker (send modes), or with MPI_Wait on
 * a receive posted per worker (wait). */
static int static_rr(ctx *c, smode m, int waits) {
	int W = c->size - 1, rc = 0;
	for (int k = 0; k < c->chunks && k < W && !rc; k++) {
		int w = 1 + k;
		if (waits) rc = MPI_Irecv(blk(c->rb, c, w), nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, &c->reqs[w]);
		if (!rc) rc = give(c, m, k, w);
	}
	for (int k = 0; k < c->chunks && !rc; k++) {
		int w = 1 + k % W;
		rc = waits ? MPI_Wait(&c->reqs[w], MPI_STATUS_IGNORE)
		           : MPI_Recv(blk(c->rb, c, w), nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
		if (rc) break;
		got(c, w, blk(c->rb, c, w));
		if (k + W < c->chunks) {
			if (waits) rc = MPI_Irecv(blk(c->rb, c, w), nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, &c->reqs[w]);
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
		if (waitany) rc = MPI_Irecv(blk(c->rb, c, w), nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, &c->reqs[w - 1]);
		if (!rc) rc = give(c, S_SEND, next, w);
	}
	while (out > 0 && !rc) {
		int w;
		if (waitany) {
			rc = MPI_Waitany(W, c->reqs, &w, MPI_STATUS_IGNORE);
			w++;
		} else {
			MPI_Status st;
			rc = MPI_Recv(blk(c->rb, c, 0), nb(c), MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, c->comm, &st);
			w = st.MPI_SOURCE;
		}
		if (rc) break;
		got(c, w, blk(c->rb, c, waitany ? w : 0));
		out--;
		if (next < c->chunks) {
			if (waitany) rc = MPI_Irecv(blk(c->rb, c, w), nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, &c->reqs[w - 1]);
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

/* ---- the table and the timed loop ---- */

typedef int (*opfn)(ctx *);
typedef struct {
	const char *name;
	opfn fn;
	int bsend;  /* needs an attached buffer */
	int blocks; /* uses one block of the length per process of the communicator */
} optab;

#define OP(n, f) {n, f, 0, 0}
#define OPB(n, f) {n, f, 0, 1}
static const optab ops[SKAMPI_NOPS] = {
	OP("send-recv", op_send_recv), OP("send-recv-anytag", op_send_recv_anytag),
	OP("send-irecv", op_send_irecv), OP("send-iprobe-recv", op_send_iprobe_recv),
	OP("ssend-recv", op_ssend_recv), OP("isend-recv", op_isend_recv),
	OP("issend-recv", op_issend_recv), {"bsend-recv", op_bsend_recv, 1, 0},
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
	{"mw-bsend", op_mw_bsend, 1, 1},
	OP("wtime", op_wtime), OP("comm-rank", op_comm_rank), OP("comm-size", op_comm_size),
	OP("iprobe", op_iprobe), OP("buffer-attach", op_buffer_attach),
};

const char *skampi_op_name(int i) { return i >= 0 && i < SKAMPI_NOPS ? ops[i].name : ""; }

int skampi_op_blocks(int i) { return i >= 0 && i < SKAMPI_NOPS ? ops[i].blocks : 0; }

/* The bytes one call of operation op uses of each buffer on any rank: the
 * message, or one block per process of the communicator. */
static int64_t footprint(int op, int64_t len, int size) {
	return ops[op].blocks && size > 1 ? len * size : len;
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
                double *end, double *window, double *first) {
	/* cycled calls use slots of whole cache lines (one for empty messages) */
	int64_t foot = (footprint(b->op, b->len, c->size) + 63) & ~(int64_t)63;
	if (foot == 0) foot = 64;
	int64_t cyc = b->span > 0 && b->span < b->buflen ? b->span : b->buflen;
	int64_t slots = cyc / foot > 0 ? cyc / foot : 1, slot = c->call % slots;
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
		double s = MPI_Wtime();
		for (int i = 0; i < b->calls && !rc; i++, c->call++) {
			if (b->cycle) { /* call n of the point uses slot n mod slots */
				c->sb = b->sbuf + slot * foot;
				c->rb = b->rbuf + slot * foot;
				if (++slot == slots) slot = 0;
			}
			rc = fn(c);
		}
		double e = MPI_Wtime();
		free_made(c);
		start[k] = s - b->offset;
		end[k] = e - b->offset;
	}
	return rc;
}

int skampi_batch(const skampi_batch_t *b, double *arrive, double *start, double *end,
                 double *window, double *first, skampi_fault *f) {
	if (b->op < 0 || b->op >= SKAMPI_NOPS || b->chunks > SKAMPI_MAXCHUNKS) return MPI_ERR_ARG;
	ctx c = {.comm = MPI_Comm_f2c(b->comm), .len = b->len, .chunks = b->chunks, .sb = b->sbuf,
	         .rb = b->rbuf, .call = b->seq, .f = f, .inject = b->inject};
	int rc = MPI_Comm_rank(c.comm, &c.rank);
	if (!rc) rc = MPI_Comm_size(c.comm, &c.size);
	if (rc) return rc;
	if (footprint(b->op, b->len, c.size) > b->buflen) return MPI_ERR_BUFFER;
	/* the v-variants' displacements, i·len, are ints */
	if (ops[b->op].blocks && (int64_t)(c.size - 1) * b->len > INT_MAX) return MPI_ERR_COUNT;
	c.counts = malloc(sizeof(int) * c.size);
	c.displs = malloc(sizeof(int) * c.size);
	c.widx = malloc(sizeof(int) * c.size);
	c.reqs = malloc(sizeof(MPI_Request) * 2 * c.size);
	void *att = NULL;
	int64_t attlen = 2 * (b->len + MPI_BSEND_OVERHEAD) * (int64_t)c.size;
	if (ops[b->op].bsend && attlen > 0x7fffffff) rc = MPI_ERR_BUFFER;
	else if (ops[b->op].bsend) {
		att = malloc(attlen);
		rc = MPI_Buffer_attach(att, (int)attlen);
	}
	if (!rc) rc = reps(b, &c, ops[b->op].fn, arrive, start, end, window, first);
	if (att) {
		void *p;
		int n;
		int rc2 = MPI_Buffer_detach(&p, &n);
		if (!rc) rc = rc2;
		free(att);
	}
	free(c.counts);
	free(c.displs);
	free(c.widx);
	free(c.reqs);
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

int skampi_wtime_is_global(int *global) {
	int *v, flag;
	int rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v, &flag);
	*global = !rc && flag && *v;
	return rc;
}
