//go:build mpi

/* skampi_p2p.c: the ping-pongs (rank 0 starts, rank 1 answers) by send
 * and receive mode, how an operation runs (blocking, non-blocking with its
 * overlap, persistent), and the persistent, partitioned and MPI 4
 * ping-pongs. */
#include "skampi_ctx.h"

typedef enum { R_RECV, R_ANYTAG, R_IRECV, R_IPROBE } rmode;

static int psend(ctx *c, smode m, int to) {
	MPI_Request rq;
	wire w;
	int rc = sk_out_wire(c, c->sb, c->stmp, &w);
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
	wire w = sk_in_wire(c, c->rb, c->rtmp);
	switch (m) {
	case R_ANYTAG: rc = MPI_Recv(w.p, w.n, w.t, from, MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE); break;
	case R_IPROBE:
		while (!flag && !rc) rc = MPI_Iprobe(from, TAG, c->comm, &flag, MPI_STATUS_IGNORE);
		if (!rc) rc = MPI_Recv(w.p, w.n, w.t, from, TAG, c->comm, MPI_STATUS_IGNORE);
		break;
	default: rc = MPI_Recv(w.p, w.n, w.t, from, TAG, c->comm, MPI_STATUS_IGNORE);
	}
	return rc ? rc : sk_in_done(c, c->rb, c->rtmp);
}

/* pirecv receives with a receive posted before anything is sent. */
static int pirecv_post(ctx *c, int from, MPI_Request *rq) {
	wire w = sk_in_wire(c, c->rb, c->rtmp);
	return MPI_Irecv(w.p, w.n, w.t, from, TAG, c->comm, rq);
}

static int pirecv_wait(ctx *c, MPI_Request *rq) {
	int rc = MPI_Wait(rq, MPI_STATUS_IGNORE);
	return rc ? rc : sk_in_done(c, c->rb, c->rtmp);
}

static int pingpong(ctx *c, smode s, rmode r) {
	int other = 1 - c->rank, rc;
	MPI_Request rq;
	if (r == R_IRECV) {
		if ((rc = pirecv_post(c, other, &rq))) return rc;
		if (c->rank == 0) {
			sk_sput(c, c->sb, 0);
			if ((rc = psend(c, s, other)) || (rc = pirecv_wait(c, &rq))) return rc;
			sk_rchk(c, c->rb, 1);
			return 0;
		}
		if ((rc = pirecv_wait(c, &rq))) return rc;
		sk_rchk(c, c->rb, 0);
		sk_sput(c, c->sb, 1);
		return psend(c, s, other);
	}
	if (c->rank == 0) {
		sk_sput(c, c->sb, 0);
		if ((rc = psend(c, s, other)) || (rc = precv(c, r, other))) return rc;
		sk_rchk(c, c->rb, 1);
		return 0;
	}
	if ((rc = precv(c, r, other))) return rc;
	sk_rchk(c, c->rb, 0);
	sk_sput(c, c->sb, 1);
	return psend(c, s, other);
}

int sk_op_send_recv(ctx *c) { return pingpong(c, S_SEND, R_RECV); }

int sk_op_send_recv_anytag(ctx *c) { return pingpong(c, S_SEND, R_ANYTAG); }

int sk_op_send_irecv(ctx *c) { return pingpong(c, S_SEND, R_IRECV); }

int sk_op_send_iprobe_recv(ctx *c) { return pingpong(c, S_SEND, R_IPROBE); }

int sk_op_ssend_recv(ctx *c) { return pingpong(c, S_SSEND, R_RECV); }

int sk_op_isend_recv(ctx *c) { return pingpong(c, S_ISEND, R_RECV); }

int sk_op_issend_recv(ctx *c) { return pingpong(c, S_ISSEND, R_RECV); }

int sk_op_bsend_recv(ctx *c) { return pingpong(c, S_BSEND, R_RECV); }

int sk_op_sendrecv(ctx *c) {
	int other = 1 - c->rank;
	wire o, i = sk_in_wire(c, c->rb, c->rtmp);
	sk_sput(c, c->sb, c->rank);
	int rc = sk_out_wire(c, c->sb, c->stmp, &o);
	if (!rc) rc = MPI_Sendrecv(o.p, o.n, o.t, other, TAG, i.p, i.n, i.t, other, TAG, c->comm, MPI_STATUS_IGNORE);
	if (!rc) rc = sk_in_done(c, c->rb, c->rtmp);
	if (!rc) sk_rchk(c, c->rb, other);
	return rc;
}

/* sendrecv-replace: one buffer and one datatype (a typed point's send and
 * receive types are the same); pack and manual replace the contiguous
 * copy and unpack it into the buffer. */
int sk_op_sendrecv_replace(ctx *c) {
	int other = 1 - c->rank;
	wire w;
	sk_sput(c, c->sb, c->rank);
	int rc = sk_out_wire(c, c->sb, c->stmp, &w);
	if (!rc) rc = MPI_Sendrecv_replace(w.p, w.n, w.t, other, TAG, other, TAG, c->comm, MPI_STATUS_IGNORE);
	if (!rc) rc = sk_in_done(c, c->sb, c->stmp);
	if (!rc) sk_rchk(c, c->sb, other);
	return rc;
}

int sk_nb_wait(ctx *c, int rc) {
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
int sk_persist(ctx *c, int rc) {
	if (!c->setup) return start_wait(&c->rq);
	c->init += MPI_Wtime() - c->t0;
	return rc ? rc : SETUP_DONE;
}

/* send-recv-persistent: the ping-pong of send-recv through persistent
 * requests (MPI_Send_init, MPI_Recv_init) made by the setup pass. */
int sk_op_send_recv_persistent(ctx *c) {
	int other = 1 - c->rank, rc;
	if (c->setup) {
		c->t0 = MPI_Wtime();
		rc = MPI_Send_init(c->sb, sk_nb(c), MPI_BYTE, other, TAG, c->comm, &c->rq);
		if (!rc) rc = MPI_Recv_init(c->rb, sk_nb(c), MPI_BYTE, other, TAG, c->comm, &c->rq2);
		c->init += MPI_Wtime() - c->t0;
		return rc ? rc : SETUP_DONE;
	}
	if (c->rank == 0) {
		sk_sput(c, c->sb, 0);
		if ((rc = start_wait(&c->rq)) || (rc = start_wait(&c->rq2))) return rc;
		sk_rchk(c, c->rb, 1);
		return 0;
	}
	if ((rc = start_wait(&c->rq2))) return rc;
	sk_rchk(c, c->rb, 0);
	sk_sput(c, c->sb, 1);
	return start_wait(&c->rq);
}

/* isendrecv and isendrecv-replace: sendrecv's exchange started with the
 * MPI 4 call and completed by MPI_Wait. */
int sk_op_isendrecv(ctx *c) {
	int other = 1 - c->rank;
	sk_sput(c, c->sb, c->rank);
	int rc = MPI4(ISENDRECV, isendrecv)(c->sb, sk_nb(c), MPI_BYTE, other, TAG, c->rb, sk_nb(c), MPI_BYTE, other, TAG,
	                                    c->comm, &c->rq);
	if (!rc) rc = MPI_Wait(&c->rq, MPI_STATUS_IGNORE);
	if (!rc) sk_rchk(c, c->rb, other);
	return rc;
}

int sk_op_isendrecv_replace(ctx *c) {
	int other = 1 - c->rank;
	sk_sput(c, c->sb, c->rank);
	int rc = MPI4(ISENDRECV_REPLACE, isendrecv_replace)(c->sb, sk_nb(c), MPI_BYTE, other, TAG, other, TAG, c->comm,
	                                                    &c->rq);
	if (!rc) rc = MPI_Wait(&c->rq, MPI_STATUS_IGNORE);
	if (!rc) sk_rchk(c, c->sb, other);
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
	for (int k = 0; k < c->chunks && !rc; k++) sk_rchk(c, sk_rblk(c, k), from);
	return rc;
}

int sk_op_psend_precv(ctx *c) {
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
		for (int k = 0; k < c->chunks; k++) sk_sput(c, sk_sblk(c, k), 0);
		return (rc = parts_ready(c)) ? rc : parts_arrived(c, 1);
	}
	if ((rc = parts_arrived(c, 0))) return rc;
	for (int k = 0; k < c->chunks; k++) sk_sput(c, sk_sblk(c, k), 1);
	return parts_ready(c);
}

/* send-recv-c: send-recv's ping-pong through the large-count calls, the
 * length an MPI_Count (the only operation whose length may pass INT_MAX). */
int sk_op_send_recv_c(ctx *c) {
	int other = 1 - c->rank, rc;
	MPI_Count n = (MPI_Count)c->len;
	if (c->rank == 0) {
		sk_sput(c, c->sb, 0);
		rc = MPI4(SEND_C, send_c)(c->sb, n, MPI_BYTE, other, TAG, c->comm);
		if (!rc) rc = MPI4(RECV_C, recv_c)(c->rb, n, MPI_BYTE, other, TAG, c->comm, MPI_STATUS_IGNORE);
		if (!rc) sk_rchk(c, c->rb, 1);
		return rc;
	}
	rc = MPI4(RECV_C, recv_c)(c->rb, n, MPI_BYTE, other, TAG, c->comm, MPI_STATUS_IGNORE);
	if (rc) return rc;
	sk_rchk(c, c->rb, 0);
	sk_sput(c, c->sb, 1);
	return MPI4(SEND_C, send_c)(c->sb, n, MPI_BYTE, other, TAG, c->comm);
}
