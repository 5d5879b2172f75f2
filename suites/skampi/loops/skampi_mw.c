//go:build mpi

/* skampi_mw.c: master-worker: rank 0 hands out chunks of items, the
 * workers return them, statically in turn or to whoever is free. */
#include "skampi_ctx.h"

/* worker answers items until the master says stop. An item's number
 * travels in its tag. */
static int worker(ctx *c) {
	MPI_Status st;
	for (;;) {
		int rc = MPI_Recv(c->rb, sk_nb(c), MPI_BYTE, 0, MPI_ANY_TAG, c->comm, &st);
		if (rc || st.MPI_TAG == TAG_STOP) return rc;
		int item = st.MPI_TAG - TAG_ITEM;
		sk_rchk(c, c->rb, item);
		sk_sput(c, c->sb, item + SKAMPI_MAXCHUNKS);
		if ((rc = MPI_Send(c->sb, sk_nb(c), MPI_BYTE, 0, st.MPI_TAG, c->comm))) return rc;
	}
}

/* give sends item to worker w in mode m. */
static int give(ctx *c, smode m, int item, int w) {
	MPI_Request rq;
	int rc;
	sk_sput(c, c->sb, item);
	c->widx[w] = item;
	switch (m) {
	case S_SSEND: return MPI_Ssend(c->sb, sk_nb(c), MPI_BYTE, w, TAG_ITEM + item, c->comm);
	case S_BSEND: return MPI_Bsend(c->sb, sk_nb(c), MPI_BYTE, w, TAG_ITEM + item, c->comm);
	case S_ISEND:
		rc = MPI_Isend(c->sb, sk_nb(c), MPI_BYTE, w, TAG_ITEM + item, c->comm, &rq);
		return rc ? rc : MPI_Wait(&rq, MPI_STATUS_IGNORE);
	default: return MPI_Send(c->sb, sk_nb(c), MPI_BYTE, w, TAG_ITEM + item, c->comm);
	}
}

static int stop_workers(ctx *c) {
	int rc = 0;
	for (int w = 1; w < c->size && !rc; w++) rc = MPI_Send(c->sb, 0, MPI_BYTE, w, TAG_STOP, c->comm);
	return rc;
}

/* got checks the result of worker w's item. */
static void got(ctx *c, int w, unsigned char *m) { sk_rchk(c, m, c->widx[w] + SKAMPI_MAXCHUNKS); }

/* static_rr deals item k to worker 1 + k mod W and collects in the same
 * order: with MPI_Recv from that worker (send modes), or with MPI_Wait on
 * a receive posted per worker (wait). */
static int static_rr(ctx *c, smode m, int waits) {
	int W = c->size - 1, rc = 0;
	for (int k = 0; k < c->chunks && k < W && !rc; k++) {
		int w = 1 + k;
		if (waits) rc = MPI_Irecv(sk_rblk(c, w), sk_nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, &c->reqs[w]);
		if (!rc) rc = give(c, m, k, w);
	}
	for (int k = 0; k < c->chunks && !rc; k++) {
		int w = 1 + k % W;
		rc = waits ? MPI_Wait(&c->reqs[w], MPI_STATUS_IGNORE)
		           : MPI_Recv(sk_rblk(c, w), sk_nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
		if (rc) break;
		got(c, w, sk_rblk(c, w));
		if (k + W < c->chunks) {
			if (waits) rc = MPI_Irecv(sk_rblk(c, w), sk_nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, &c->reqs[w]);
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
		if (waitany) rc = MPI_Irecv(sk_rblk(c, w), sk_nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, &c->reqs[w - 1]);
		if (!rc) rc = give(c, S_SEND, next, w);
	}
	while (out > 0 && !rc) {
		int w;
		if (waitany) {
			rc = MPI_Waitany(W, c->reqs, &w, MPI_STATUS_IGNORE);
			w++;
		} else {
			MPI_Status st;
			rc = MPI_Recv(sk_rblk(c, 0), sk_nb(c), MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, c->comm, &st);
			w = st.MPI_SOURCE;
		}
		if (rc) break;
		got(c, w, sk_rblk(c, waitany ? w : 0));
		out--;
		if (next < c->chunks) {
			if (waitany) rc = MPI_Irecv(sk_rblk(c, w), sk_nb(c), MPI_BYTE, w, MPI_ANY_TAG, c->comm, &c->reqs[w - 1]);
			if (!rc) rc = give(c, S_SEND, next++, w);
			out++;
		}
	}
	return rc ? rc : stop_workers(c);
}

#define MW(name, master) \
	int name(ctx *c) { return c->rank ? worker(c) : (master); }

MW(sk_op_mw_wait, static_rr(c, S_SEND, 1))
MW(sk_op_mw_waitany, dynamic(c, 1))
MW(sk_op_mw_recv_any, dynamic(c, 0))
MW(sk_op_mw_send, static_rr(c, S_SEND, 0))
MW(sk_op_mw_ssend, static_rr(c, S_SSEND, 0))
MW(sk_op_mw_isend, static_rr(c, S_ISEND, 0))
MW(sk_op_mw_bsend, static_rr(c, S_BSEND, 0))
