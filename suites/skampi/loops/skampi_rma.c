//go:build mpi

/* skampi_rma.c: one-sided operations: an origin reaches into a target's
 * window under fence, post-start-complete-wait or lock epochs; the window
 * of a batch, its roles and its check at the close. */
#include "skampi_ctx.h"

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
	sk_sput(c, c->sb, c->rank);
	if (c->inject == 3 && c->full) return 0; /* a lost put */
	rc = sk_out_wire(c, c->sb, NULL, &w);
	int n = c->method == SKAMPI_DATATYPE ? (int)c->ty->r.count : sk_nb(c);
	MPI_Datatype t = c->method == SKAMPI_DATATYPE ? c->ty->r.type : MPI_BYTE;
	for (int j = 0; j < burst && !rc; j++) rc = MPI_Put(w.p, w.n, w.t, r->target, at(c, c->rank), n, t, r->win);
	return rc;
}

/* rma_check_target checks, on a target that took part in the epoch, what
 * reached its window. */
static void rma_check_target(ctx *c, int sync) {
	rma *r = R(c);
	if (!r->exposed || !between(sync) || c->full) return;
	if (r->source >= 0) sk_rchk(c, r->base + at(c, r->source), r->source);
	else
		for (int s = 0; s < c->size; s++) sk_rchk(c, r->base + at(c, s), s);
}

int sk_op_put(ctx *c) {
	int sync = R(c)->sync, rc = rma_begin(c, sync);
	R(c)->last = c->call;
	if (!rc && R(c)->origin) rc = rma_put(c, 1);
	if (!rc) rc = rma_end(c, sync);
	if (!rc) rma_check_target(c, sync);
	return rc;
}

int sk_op_put_bw(ctx *c) {
	int sync = R(c)->sync, rc = rma_begin(c, sync);
	R(c)->last = c->call;
	if (!rc && R(c)->origin) rc = rma_put(c, SKAMPI_RMA_BURST);
	if (!rc) rc = rma_end(c, sync);
	if (!rc) rma_check_target(c, sync);
	return rc;
}

int sk_op_put_all(ctx *c) { return sk_op_put(c); }

/* rma_get gets the target's stamped window burst times; the origin checks
 * the result. */
static int rma_get(ctx *c, int burst) {
	rma *r = R(c);
	int sync = r->sync, rc = rma_begin(c, sync);
	for (int j = 0; j < burst && r->origin && !rc; j++)
		rc = MPI_Get(r->res, sk_nb(c), MPI_BYTE, r->target, 0, sk_nb(c), MPI_BYTE, r->win);
	if (!rc) rc = rma_end(c, sync);
	if (!rc && r->origin) {
		int64_t call = c->call;
		c->call = GET_CALL;
		sk_chk(c, &c->rl, r->res, r->target);
		c->call = call;
	}
	return rc;
}

int sk_op_get(ctx *c) { return rma_get(c, 1); }

int sk_op_get_bw(ctx *c) { return rma_get(c, SKAMPI_RMA_BURST); }

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
			sk_fault(c, sender, 4 * (int64_t)i, expect, x[i]);
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

int sk_op_acc_sum(ctx *c) { return acc(c, MPI_SUM, 1, (int)R(c)->k + 1); }

int sk_op_acc_replace(ctx *c) {
	int v = (int)(c->call % 100000) + 1;
	return acc(c, MPI_REPLACE, v, v);
}

int sk_op_acc_max(ctx *c) { return acc(c, MPI_MAX, (int)R(c)->k + 1, (int)R(c)->k + 1); }

int sk_op_get_acc(ctx *c) {
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
	if (!rc && r->origin && *old != r->k) sk_fault(c, r->target, 0, (int)r->k, (int)*old);
	r->k++;
	return rc;
}

int sk_op_fetch_and_op(ctx *c) { return atomic(c, 0); }

int sk_op_compare_and_swap(ctx *c) { return atomic(c, 1); }

/* The synchronisations alone, in empty epochs; delayed: the partner
 * spins SKAMPI_RMA_DELAY outside MPI before its part. */
static int sync_alone(ctx *c, int sync, int delayed) {
	int rc;
	if (delayed && !R(c)->origin) rma_delay();
	if ((rc = rma_begin(c, sync))) return rc;
	return rma_end(c, sync);
}

int sk_op_win_fence(ctx *c) { return sync_alone(c, SKAMPI_FENCE, 0); }

int sk_op_win_pscw(ctx *c) { return sync_alone(c, SKAMPI_PSCW, 0); }

int sk_op_win_lock(ctx *c) { return sync_alone(c, SKAMPI_LOCK, 0); }

int sk_op_win_fence_delayed(ctx *c) { return sync_alone(c, SKAMPI_FENCE, 1); }

int sk_op_win_pscw_delayed(ctx *c) { return sync_alone(c, SKAMPI_PSCW, 1); }

int sk_op_win_lock_delayed(ctx *c) { return sync_alone(c, SKAMPI_LOCK, 1); }

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
static void rma_init(ctx *c, rma *r, opfn f) {
	int64_t call = c->call;
	if (f == sk_op_get || f == sk_op_get_bw) {
		c->call = GET_CALL;
		lay plain = {c->plain, 1, 1, c->len, c->len, c->len, 0, c->len > 0 ? c->len - 1 : 0};
		sk_put(c, &plain, r->base, c->rank);
		c->call = call;
	} else
		memset(r->base, c->full && (f == sk_op_put || f == sk_op_put_all) ? HOLE : 0, r->len);
}

/* op_sync is the epochs of operation f: its own for the window
 * operations, sync (the batch's) for the others. */
static int op_sync(opfn f, int sync) {
	if (f == sk_op_win_fence || f == sk_op_win_fence_delayed) return SKAMPI_FENCE;
	if (f == sk_op_win_pscw || f == sk_op_win_pscw_delayed) return SKAMPI_PSCW;
	if (f == sk_op_win_lock || f == sk_op_win_lock_delayed) return SKAMPI_LOCK;
	return sync;
}

/* sk_rma_open makes the batch's window of len bytes for operation o and
 * opens its first epoch, outside the timed repetitions. */
int sk_rma_open(const skampi_batch_t *b, ctx *c, const optab *o, int64_t len) {
	rma *r = calloc(1, sizeof *r);
	if (!r) return MPI_ERR_NO_MEM;
	c->rma = r;
	r->to = r->from = MPI_GROUP_NULL;
	r->win = MPI_WIN_NULL;
	r->sync = op_sync(o->fn, b->rma_sync);
	r->nocheck = b->rma_nocheck;
	c->rma_blocks = o->fn == sk_op_put_all && o->blocks;
	roles(c, r, c->rma_blocks, o->fn == sk_op_put_all && !o->blocks);
	r->len = len;
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
	rma_init(c, r, o->fn);
	if (r->sync == SKAMPI_PSCW) rc = groups(c, r);
	if (!rc) rc = MPI_Barrier(c->comm); /* every window written before anyone reaches it */
	if (!rc && r->sync == SKAMPI_FENCE) rc = MPI_Win_fence(0, r->win);
	if (!rc && (r->sync == SKAMPI_FLUSH || r->sync == SKAMPI_FLUSH_LOCAL) && r->origin) {
		rc = MPI_Win_lock_all(r->nocheck ? MPI_MODE_NOCHECK : 0, r->win);
		r->lockall = !rc;
	}
	return rc;
}

/* sk_rma_close ends the batch's epochs, checks in a full check what reached
 * the targets (every byte, and the holes), and frees the window. */
int sk_rma_close(ctx *c, opfn f) {
	rma *r = R(c);
	int rc = 0;
	if (!r) return 0;
	if (r->lockall) rc = MPI_Win_unlock_all(r->win);
	if (c->full && !rc) rc = MPI_Barrier(c->comm); /* every operation complete at its target */
	if (c->full && !rc && r->exposed) {
		int64_t call = c->call;
		c->call = r->last;
		if (f == sk_op_put || f == sk_op_put_bw || f == sk_op_put_all) {
			if (r->source >= 0) sk_rchk(c, r->base + at(c, r->source), r->source);
			else
				for (int s = 0; s < c->size; s++) sk_rchk(c, r->base + at(c, s), s);
		} else if (f == sk_op_acc_sum || f == sk_op_acc_replace || f == sk_op_acc_max)
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
