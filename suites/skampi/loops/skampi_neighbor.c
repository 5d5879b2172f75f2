//go:build mpi

/* skampi_neighbor.c: the neighborhood collectives on the batch's topology
 * (a Cartesian grid or a stencil), their references built by hand, and the
 * topology's making and freeing. */
#include "skampi_ctx.h"

/* Every process stamps its blocks with its rank; block i of the receive
 * buffer comes from neighbor i (none from MPI_PROC_NULL). */
static void chk_nbrs(ctx *c) {
	for (int i = 0; i < c->deg; i++)
		if (c->nbr[i] != MPI_PROC_NULL) sk_rchk(c, sk_rblk(c, i), c->nbr[i]);
}

static void even_nbrs(ctx *c) {
	for (int i = 0; i < c->deg; i++) {
		c->counts[i] = sk_nb(c);
		c->displs[i] = i * sk_nb(c);
	}
}

int sk_op_neighbor_allgather(ctx *c) {
	sk_sput(c, c->sb, c->rank);
	int rc = COLL(c, MPI_Neighbor_allgather(c->sb, sk_nb(c), MPI_BYTE, c->rb, sk_nb(c), MPI_BYTE, c->comm),
	              MPI_Ineighbor_allgather(c->sb, sk_nb(c), MPI_BYTE, c->rb, sk_nb(c), MPI_BYTE, c->comm, &c->rq),
	              MPI_ERR_OTHER);
	if (!rc) chk_nbrs(c);
	return rc;
}

int sk_op_neighbor_allgatherv(ctx *c) {
	sk_sput(c, c->sb, c->rank);
	even_nbrs(c);
	int rc = COLL(c, MPI_Neighbor_allgatherv(c->sb, sk_nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, c->comm),
	              MPI_Ineighbor_allgatherv(c->sb, sk_nb(c), MPI_BYTE, c->rb, c->counts, c->displs, MPI_BYTE, c->comm,
	                                       &c->rq),
	              MPI_ERR_OTHER);
	if (!rc) chk_nbrs(c);
	return rc;
}

static void put_nbr_blocks(ctx *c) {
	for (int i = 0; i < c->deg; i++) sk_sput(c, sk_sblk(c, i), c->rank);
}

int sk_op_neighbor_alltoall(ctx *c) {
	put_nbr_blocks(c);
	int rc = COLL(c, MPI_Neighbor_alltoall(c->sb, sk_nb(c), MPI_BYTE, c->rb, sk_nb(c), MPI_BYTE, c->comm),
	              MPI_Ineighbor_alltoall(c->sb, sk_nb(c), MPI_BYTE, c->rb, sk_nb(c), MPI_BYTE, c->comm, &c->rq),
	              MPI_ERR_OTHER);
	if (!rc) chk_nbrs(c);
	return rc;
}

int sk_op_neighbor_alltoallv(ctx *c) {
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
int sk_op_neighbor_alltoallw(ctx *c) {
	put_nbr_blocks(c);
	MPI_Aint *d = c->adispls;
	for (int i = 0; i < c->deg; i++) {
		c->counts[i] = sk_nb(c);
		d[i] = (MPI_Aint)i * sk_nb(c);
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
	if (one) sk_sput(c, c->sb, c->rank);
	else put_nbr_blocks(c);
	/* tagged with the direction the receiver sees the sender in, so that a neighbor met in two
	 * directions (a periodic dimension of 1 or 2 processes) gets each block where MPI puts it */
	for (int i = 0; i < c->deg && !rc; i++)
		if (c->nbr[i] != MPI_PROC_NULL)
			rc = MPI_Irecv(sk_rblk(c, i), sk_nb(c), MPI_BYTE, c->nbr[i], TAG_NBR + c->code[i], c->comm, &c->reqs[n++]);
	for (int i = 0; i < c->deg && !rc; i++)
		if (c->nbr[i] != MPI_PROC_NULL)
			rc = MPI_Isend(one ? c->sb : sk_sblk(c, i), sk_nb(c), MPI_BYTE, c->nbr[i], TAG_NBR + c->back[i], c->comm,
			               &c->reqs[n++]);
	if (!rc) rc = MPI_Waitall(n, c->reqs, MPI_STATUSES_IGNORE);
	if (!rc) chk_nbrs(c);
	return rc;
}

int sk_op_neighbor_allgather_isend_irecv(ctx *c) { return nbr_exchange(c, 1); }

int sk_op_neighbor_alltoall_isend_irecv(ctx *c) { return nbr_exchange(c, 0); }

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

/* sk_topo_open makes the batch's topology on its communicator (the
 * neighborhood collectives' comm from then on): Cartesian, or the full
 * stencil as a distributed graph, on the grid b->dims. */
int sk_topo_open(const skampi_batch_t *b, ctx *c) {
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

int sk_topo_close(ctx *c) {
	int rc = 0;
	if (c->base != MPI_COMM_NULL && c->comm != c->base) rc = MPI_Comm_free(&c->comm);
	if (c->base != MPI_COMM_NULL) c->comm = c->base;
	free(c->nbr), free(c->code), free(c->back);
	return rc;
}
