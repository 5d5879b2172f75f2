//go:build mpi

/* skampi.c: the names of the SKaMPI suite's operations (mpi.LoopOps names
 * them by their index in sk_ops, the table skampi_optab.c written from
 * suites/skampi/ops.go), the timed loop that runs a batch of them, and the
 * preparing of a run. The operations live in the files of their family
 * (skampi_*.c); what they share is skampi_ctx.h; the public face skampi.h. */
#include "skampi_ctx.h"

const char *skampi_op_name(int i) { return i >= 0 && i < SKAMPI_NOPS ? sk_ops[i].name : ""; }

int skampi_op_blocks(int i) { return i >= 0 && i < SKAMPI_NOPS ? sk_ops[i].blocks : 0; }

/* sk_foot is the bytes one call uses of a buffer whose messages lie as l:
 * the message, or one block per process of the communicator (per
 * neighbor for the neighborhood collectives: n is that count). */
int64_t sk_foot(int op, const lay *l, int n) {
	return sk_ops[op].blocks && n > 1 ? (n - 1) * l->stride + l->span : l->span;
}

/* blocks is the blocks of a block operation: per neighbor or per process. */
static int blocks(ctx *c, int op) {
	return sk_ops[op].per == PER_NBR ? c->deg : sk_ops[op].per == PER_PART ? c->chunks : c->size;
}

/* sk_ref is rank 0's time now, by the batch's model of this clock. */
static double sk_ref(const skampi_batch_t *b) {
	double t = MPI_Wtime();
	return t + b->clk_off + b->clk_drift * (t - b->clk_at);
}

/* wait_until spins until the corrected clock reaches t, yielding the
 * processor while it waits when the node is oversubscribed. Until the
 * last microsecond it lets MPI progress (an Iprobe that finds nothing):
 * a buffered or nonblocking send of the last repetition completes while
 * its process waits, as it would in an application that goes on calling
 * MPI, instead of stalling its partner until the next repetition. */
static void wait_until(double t, const skampi_batch_t *b, int yield, MPI_Comm c) {
	double now;
	int flag;
	while ((now = sk_ref(b)) < t) {
		if (t - now > 1e-6) MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP + 100, c, &flag, MPI_STATUS_IGNORE);
		if (yield) sched_yield();
	}
}

void sk_free_made(ctx *c) {
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
	double sw[2] = {sk_ref(b) + b->lead, b->window};
	rc = MPI_Bcast(sw, 2, MPI_DOUBLE, 0, c->comm);
	*t0 = sw[0];
	*w = sw[1];
	return rc;
}

/* reps runs the repetitions of the batch. */
static int reps(const skampi_batch_t *b, ctx *c, opfn fn, double *arrive, double *start,
                double *end, double *busy, double *window, double *first) {
	/* cycled calls use slots of whole cache lines (one for empty messages) */
	int64_t fp = sk_foot(b->op, &c->sl, blocks(c, b->op)), fr = sk_foot(b->op, &c->rl, blocks(c, b->op));
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
			arrive[k] = sk_ref(b);
			if (!b->passive) wait_until(t, b, b->yield, c->comm);
		} else if (!b->nosync && (rc = MPI_Barrier(c->comm))) {
			break;
		}
		c->busy = 0;
		double s = MPI_Wtime();
		for (int i = 0; i < b->calls && !rc; i++, c->call++) {
			if (b->cycle && !sk_ops[b->op].rma && sk_ops[b->op].mode != M_PERSIST) { /* call n of the point uses slot n mod slots */
				c->sb = b->sbuf + slot * slot_len;
				c->rb = b->rbuf + slot * slot_len;
				if (++slot == slots) slot = 0;
			}
			if (c->full && !sk_ops[b->op].rma) memset(c->rb, HOLE, c->rfoot);
			rc = fn(c);
		}
		double e = MPI_Wtime();
		sk_free_made(c);
		start[k] = s + b->clk_off + b->clk_drift * (s - b->clk_at);
		end[k] = e + b->clk_off + b->clk_drift * (e - b->clk_at);
		busy[k] = c->busy;
		ctl_advance(b->progress);
	}
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
	int64_t blocks = sk_ops[b->op].blocks ? c->size : 1;
	c->stmp = malloc(blocks * c->wlen + 1);
	c->rtmp = malloc(blocks * c->wlen + 1);
	return rc ? rc : c->stmp && c->rtmp ? 0 : MPI_ERR_NO_MEM;
}

/* attach attaches the buffer of a buffered-send operation. */
static int attach(const skampi_batch_t *b, ctx *c, void **att) {
	int64_t attlen = 2 * (c->wlen + MPI_BSEND_OVERHEAD) * (int64_t)c->size;
	*att = NULL;
	if (!sk_ops[b->op].bsend) return 0;
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
	if (sk_ops[b->op].fn == sk_op_type_create && !b->types) return MPI_ERR_TYPE;
	if (sk_ops[b->op].needs >= 0 && !mpi4_sym(sk_ops[b->op].needs)) return MPI_ERR_OTHER; /* not in this library */
	if (b->steps > 0 && sk_ops[b->op].mode != M_NB) return MPI_ERR_ARG;
	/* every length goes to MPI as an int but the large-count operations' */
	if (b->len > INT_MAX && !sk_ops[b->op].count64) return MPI_ERR_COUNT;
	ctx c = {.comm = MPI_Comm_f2c(b->comm), .len = b->len, .chunks = b->chunks, .sb = b->sbuf,
	         .rb = b->rbuf, .call = b->seq, .f = f, .inject = b->inject, .full = b->full,
	         .mode = sk_ops[b->op].mode, .rq = MPI_REQUEST_NULL, .rq2 = MPI_REQUEST_NULL, .steps = b->steps,
	         .base = MPI_COMM_NULL, .threads = b->threads};
	int rc = MPI_Comm_rank(c.comm, &c.rank);
	if (!rc) rc = MPI_Comm_size(c.comm, &c.size);
	if (!rc && sk_ops[b->op].per == PER_NBR) rc = sk_topo_open(b, &c);
	if (!rc) rc = layouts(b, &c);
	c.rfoot = sk_foot(b->op, &c.rl, blocks(&c, b->op));
	if (!rc && (sk_foot(b->op, &c.sl, blocks(&c, b->op)) > b->buflen || c.rfoot > b->buflen)) rc = MPI_ERR_BUFFER;
	/* the v-variants' displacements, i·len, are ints */
	if (!rc && sk_ops[b->op].blocks && (int64_t)(blocks(&c, b->op) - 1) * b->len > INT_MAX) rc = MPI_ERR_COUNT;
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
	if (!rc && sk_ops[b->op].rma && c.method != SKAMPI_CONTIG && c.method != SKAMPI_DATATYPE) rc = MPI_ERR_ARG;
	if (!rc) rc = attach(b, &c, &att);
	if (!rc && sk_ops[b->op].rma) rc = sk_rma_open(b, &c, &sk_ops[b->op], sk_foot(b->op, &c.rl, c.size));
	if (!rc && c.mode == M_PERSIST) rc = persistent_open(&c, sk_ops[b->op].fn);
	*init = c.init;
	if (!rc) rc = reps(b, &c, sk_ops[b->op].fn, arrive, start, end, busy, window, first);
	int rc2 = persistent_close(&c);
	if (!rc) rc = rc2;
	rc2 = sk_topo_close(&c);
	if (!rc) rc = rc2;
	rc2 = sk_rma_close(&c, sk_ops[b->op].fn);
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

void skampi_timer(double *d, int n) {
	for (int i = 0; i < n; i++) {
		double a = MPI_Wtime();
		double b = MPI_Wtime();
		d[i] = b - a;
	}
}


