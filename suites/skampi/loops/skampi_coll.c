//go:build mpi

/* skampi_coll.c: the collectives on every rank of the communicator (rank 0
 * is the root), blocking, non-blocking or persistent, and the references
 * built by hand from point-to-point calls. */
#include "skampi_ctx.h"

int sk_op_barrier(ctx *c) {
	return COLL(c, MPI_Barrier(c->comm), MPI_Ibarrier(c->comm, &c->rq),
	            MPI4(BARRIER_INIT, barrier_init)(c->comm, MPI_INFO_NULL, &c->rq));
}

int sk_op_bcast(ctx *c) {
	wire w;
	int rc = 0;
	if (c->rank == 0) {
		sk_sput(c, c->sb, 0);
		rc = sk_out_wire(c, c->sb, c->stmp, &w);
	} else
		w = sk_in_wire(c, c->rb, c->rtmp);
	if (!rc)
		rc = COLL(c, MPI_Bcast(w.p, w.n, w.t, 0, c->comm), MPI_Ibcast(w.p, w.n, w.t, 0, c->comm, &c->rq),
		          MPI4(BCAST_INIT, bcast_init)(w.p, w.n, w.t, 0, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc && c->rank) rc = sk_in_done(c, c->rb, c->rtmp);
	if (!rc && c->rank) sk_rchk(c, c->rb, 0);
	return rc;
}

int sk_op_reduce(ctx *c) {
	sk_putf(c->sb, c->len, c->call, c->rank);
	int rc = COLL(c, MPI_Reduce(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, 0, c->comm),
	              MPI_Ireduce(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, 0, c->comm, &c->rq),
	              MPI4(REDUCE_INIT, reduce_init)(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, 0, c->comm,
	                                             MPI_INFO_NULL, &c->rq));
	if (!rc && c->rank == 0) sk_chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

int sk_op_allreduce(ctx *c) {
	sk_putf(c->sb, c->len, c->call, c->rank);
	int rc = COLL(c, MPI_Allreduce(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, c->comm),
	              MPI_Iallreduce(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, c->comm, &c->rq),
	              MPI4(ALLREDUCE_INIT, allreduce_init)(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, c->comm,
	                                                   MPI_INFO_NULL, &c->rq));
	if (!rc) sk_chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

int sk_op_reduce_scatter_block(ctx *c) {
	for (int i = 0; i < c->size; i++) sk_putf(sk_sblk(c, i), c->len, c->call, c->rank);
	int rc = COLL(c, MPI_Reduce_scatter_block(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, c->comm),
	              MPI_Ireduce_scatter_block(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, c->comm, &c->rq),
	              MPI4(REDUCE_SCATTER_BLOCK_INIT, allreduce_init)(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM,
	                                                              c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) sk_chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

/* reduce-scatter: the same blocks through the counts of MPI_Reduce_scatter. */
int sk_op_reduce_scatter(ctx *c) {
	for (int i = 0; i < c->size; i++) {
		sk_putf(sk_sblk(c, i), c->len, c->call, c->rank);
		c->counts[i] = sk_n4(c);
	}
	int rc = COLL(c, MPI_Reduce_scatter(c->sb, c->rb, c->counts, MPI_FLOAT, MPI_SUM, c->comm),
	              MPI_Ireduce_scatter(c->sb, c->rb, c->counts, MPI_FLOAT, MPI_SUM, c->comm, &c->rq),
	              MPI4(REDUCE_SCATTER_INIT, reduce_scatter_init)(c->sb, c->rb, c->counts, MPI_FLOAT, MPI_SUM,
	                                                             c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) sk_chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

int sk_op_scan(ctx *c) {
	sk_putf(c->sb, c->len, c->call, c->rank);
	int rc = COLL(c, MPI_Scan(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, c->comm),
	              MPI_Iscan(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, c->comm, &c->rq),
	              MPI4(SCAN_INIT, allreduce_init)(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, c->comm,
	                                              MPI_INFO_NULL, &c->rq));
	if (!rc) sk_chkf(c, c->rb, c->len, 0, c->rank + 1);
	return rc;
}

int sk_op_exscan(ctx *c) {
	sk_putf(c->sb, c->len, c->call, c->rank);
	int rc = COLL(c, MPI_Exscan(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, c->comm),
	              MPI_Iexscan(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, c->comm, &c->rq),
	              MPI4(EXSCAN_INIT, allreduce_init)(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, c->comm,
	                                                MPI_INFO_NULL, &c->rq));
	if (!rc && c->rank > 0) sk_chkf(c, c->rb, c->len, 0, c->rank);
	return rc;
}

/* even sets the v-variants' counts and displacements: len bytes each. */
static void even(ctx *c) {
	for (int i = 0; i < c->size; i++) {
		c->counts[i] = sk_nb(c);
		c->displs[i] = i * sk_nb(c);
	}
}

static void chk_blocks(ctx *c, int to) {
	for (int i = 0; i < c->size; i++) sk_rchk(c, sk_rblk(c, i), to < 0 ? i : i * c->size + to);
}

/* copies says whether the method packs or copies messages (pack, manual). */
static int copies(ctx *c) { return c->method == SKAMPI_PACK || c->method == SKAMPI_MANUAL; }

/* in_blocks unpacks the size blocks received into the scratch. */
static int in_blocks(ctx *c) {
	int rc = 0;
	if (!copies(c)) return 0; /* nothing to unpack: no loop over the processes in the timed call */
	for (int i = 0; i < c->size && !rc; i++) rc = sk_in_done(c, sk_rblk(c, i), sk_rtmp_at(c, i));
	return rc;
}

/* out_blocks packs the size blocks to send; w is the wire of the first. */
static int out_blocks(ctx *c, wire *w) {
	int rc = 0;
	wire b;
	if (!copies(c)) return sk_out_wire(c, c->sb, c->stmp, w); /* the blocks lie where MPI takes them */
	for (int i = c->size - 1; i >= 0 && !rc; i--) rc = sk_out_wire(c, sk_sblk(c, i), sk_stmp_at(c, i), i ? &b : w);
	return rc;
}

int sk_op_gather(ctx *c) {
	wire o, i = sk_in_wire(c, c->rb, c->rtmp);
	sk_sput(c, c->sb, c->rank);
	int rc = sk_out_wire(c, c->sb, c->stmp, &o);
	if (!rc)
		rc = COLL(c, MPI_Gather(o.p, o.n, o.t, i.p, i.n, i.t, 0, c->comm),
		          MPI_Igather(o.p, o.n, o.t, i.p, i.n, i.t, 0, c->comm, &c->rq),
		          MPI4(GATHER_INIT, gather_init)(o.p, o.n, o.t, i.p, i.n, i.t, 0, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc && c->rank == 0) rc = in_blocks(c);
	if (!rc && c->rank == 0) chk_blocks(c, -1);
	return rc;
}

int sk_op_gatherv(ctx *c) {
	sk_sput(c, c->sb, c->rank);
	even(c);
	int rc = COLL(c, MPI_Gatherv(c->sb, sk_nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, 0, c->comm),
	              MPI_Igatherv(c->sb, sk_nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, 0, c->comm, &c->rq),
	              MPI4(GATHERV_INIT, gatherv_init)(c->sb, sk_nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE,
	                                               0, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc && c->rank == 0) chk_blocks(c, -1);
	return rc;
}

int sk_op_scatter(ctx *c) {
	wire o = {c->sb, 0, MPI_BYTE}, i = sk_in_wire(c, c->rb, c->rtmp);
	int rc = 0;
	if (c->rank == 0) {
		for (int k = 0; k < c->size; k++) sk_sput(c, sk_sblk(c, k), k);
		rc = out_blocks(c, &o);
	}
	if (!rc)
		rc = COLL(c, MPI_Scatter(o.p, o.n, o.t, i.p, i.n, i.t, 0, c->comm),
		          MPI_Iscatter(o.p, o.n, o.t, i.p, i.n, i.t, 0, c->comm, &c->rq),
		          MPI4(SCATTER_INIT, gather_init)(o.p, o.n, o.t, i.p, i.n, i.t, 0, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) rc = sk_in_done(c, c->rb, c->rtmp);
	if (!rc) sk_rchk(c, c->rb, c->rank);
	return rc;
}

int sk_op_scatterv(ctx *c) {
	if (c->rank == 0)
		for (int i = 0; i < c->size; i++) sk_sput(c, sk_sblk(c, i), i);
	even(c);
	int rc = COLL(c, MPI_Scatterv(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, sk_nb(c), MPI_BYTE, 0, c->comm),
	              MPI_Iscatterv(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, sk_nb(c), MPI_BYTE, 0, c->comm, &c->rq),
	              MPI4(SCATTERV_INIT, scatterv_init)(c->sb, c->counts, c->displs, MPI_BYTE, c->rb, sk_nb(c), MPI_BYTE,
	                                                 0, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) sk_rchk(c, c->rb, c->rank);
	return rc;
}

int sk_op_allgather(ctx *c) {
	wire o, i = sk_in_wire(c, c->rb, c->rtmp);
	sk_sput(c, c->sb, c->rank);
	int rc = sk_out_wire(c, c->sb, c->stmp, &o);
	if (!rc)
		rc = COLL(c, MPI_Allgather(o.p, o.n, o.t, i.p, i.n, i.t, c->comm),
		          MPI_Iallgather(o.p, o.n, o.t, i.p, i.n, i.t, c->comm, &c->rq),
		          MPI4(ALLGATHER_INIT, allgather_init)(o.p, o.n, o.t, i.p, i.n, i.t, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) rc = in_blocks(c);
	if (!rc) chk_blocks(c, -1);
	return rc;
}

int sk_op_allgatherv(ctx *c) {
	sk_sput(c, c->sb, c->rank);
	even(c);
	int rc = COLL(c, MPI_Allgatherv(c->sb, sk_nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, c->comm),
	              MPI_Iallgatherv(c->sb, sk_nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, c->comm, &c->rq),
	              MPI4(ALLGATHERV_INIT, allgatherv_init)(c->sb, sk_nb(c), MPI_BYTE, c->rb, c->counts, c->displs,
	                                                     MPI_BYTE, c->comm, MPI_INFO_NULL, &c->rq));
	if (!rc) chk_blocks(c, -1);
	return rc;
}

/* The block from s to d carries sender id s·size + d. */
static void put_blocks(ctx *c) {
	for (int d = 0; d < c->size; d++) sk_sput(c, sk_sblk(c, d), c->rank * c->size + d);
}

int sk_op_alltoall(ctx *c) {
	wire o, i = sk_in_wire(c, c->rb, c->rtmp);
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

int sk_op_alltoallv(ctx *c) {
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
int sk_op_alltoallw(ctx *c) {
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

int sk_op_comm_split(ctx *c) {
	if (c->nmade >= 64) sk_free_made(c);
	return MPI_Comm_split(c->comm, 0, c->rank, &c->made[c->nmade++]);
}

int sk_op_comm_dup(ctx *c) {
	if (c->nmade >= 64) sk_free_made(c);
	return MPI_Comm_dup(c->comm, &c->made[c->nmade++]);
}

int sk_op_memcpy(ctx *c) {
	sk_sput(c, c->sb, c->rank);
	memcpy(c->rb, c->sb, c->len);
	sk_rchk(c, c->rb, c->rank);
	return 0;
}

int sk_op_bcast_sendrecv(ctx *c) {
	int rc = 0;
	if (c->rank == 0) {
		sk_sput(c, c->sb, 0);
		for (int i = 1; i < c->size && !rc; i++) rc = MPI_Send(c->sb, sk_nb(c), MPI_BYTE, i, TAG, c->comm);
		return rc;
	}
	rc = MPI_Recv(c->rb, sk_nb(c), MPI_BYTE, 0, TAG, c->comm, MPI_STATUS_IGNORE);
	if (!rc) sk_rchk(c, c->rb, 0);
	return rc;
}

int sk_op_gather_sendrecv(ctx *c) {
	int rc = 0;
	if (c->rank) {
		sk_sput(c, c->sb, c->rank);
		return MPI_Send(c->sb, sk_nb(c), MPI_BYTE, 0, TAG, c->comm);
	}
	sk_sput(c, c->rb, 0); /* rank 0's own block */
	for (int i = 1; i < c->size && !rc; i++)
		rc = MPI_Recv(sk_rblk(c, i), sk_nb(c), MPI_BYTE, i, TAG, c->comm, MPI_STATUS_IGNORE);
	if (!rc) chk_blocks(c, -1);
	return rc;
}

int sk_op_gather_irecv(ctx *c) {
	int rc = 0;
	if (c->rank) {
		sk_sput(c, c->sb, c->rank);
		return MPI_Send(c->sb, sk_nb(c), MPI_BYTE, 0, TAG, c->comm);
	}
	sk_sput(c, c->rb, 0);
	for (int i = 1; i < c->size && !rc; i++)
		rc = MPI_Irecv(sk_rblk(c, i), sk_nb(c), MPI_BYTE, i, TAG, c->comm, &c->reqs[i - 1]);
	if (!rc) rc = MPI_Waitall(c->size - 1, c->reqs, MPI_STATUSES_IGNORE);
	if (!rc) chk_blocks(c, -1);
	return rc;
}

int sk_op_allreduce_reduce_bcast(ctx *c) {
	sk_putf(c->sb, c->len, c->call, c->rank);
	int rc = MPI_Reduce(c->sb, c->rb, sk_n4(c), MPI_FLOAT, MPI_SUM, 0, c->comm);
	if (!rc) rc = MPI_Bcast(c->rb, sk_n4(c), MPI_FLOAT, 0, c->comm);
	if (!rc) sk_chkf(c, c->rb, c->len, 0, c->size);
	return rc;
}

int sk_op_alltoall_isend_irecv(ctx *c) {
	int rc = 0, n = 0;
	put_blocks(c);
	for (int i = 0; i < c->size && !rc; i++)
		if (i != c->rank) rc = MPI_Irecv(sk_rblk(c, i), sk_nb(c), MPI_BYTE, i, TAG, c->comm, &c->reqs[n++]);
	for (int i = 0; i < c->size && !rc; i++)
		if (i != c->rank) rc = MPI_Isend(sk_sblk(c, i), sk_nb(c), MPI_BYTE, i, TAG, c->comm, &c->reqs[n++]);
	memcpy(sk_rblk(c, c->rank), sk_sblk(c, c->rank), c->len);
	if (!rc) rc = MPI_Waitall(n, c->reqs, MPI_STATUSES_IGNORE);
	if (!rc) chk_blocks(c, c->rank);
	return rc;
}
