//go:build mpi

/* skampi_local.c: operations that stay on the process: MPI_Wtime,
 * MPI_Comm_rank and _size, an empty MPI_Iprobe and MPI_Improbe, attaching a buffer, making a
 * datatype. */
#include "skampi_ctx.h"

int sk_op_wtime(ctx *c) {
	volatile double t = MPI_Wtime();
	(void)t;
	return 0;
}

int sk_op_comm_rank(ctx *c) {
	int r;
	return MPI_Comm_rank(c->comm, &r);
}

int sk_op_comm_size(ctx *c) {
	int s;
	return MPI_Comm_size(c->comm, &s);
}

int sk_op_iprobe(ctx *c) {
	int flag;
	int rc = MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP + 100, c->comm, &flag, MPI_STATUS_IGNORE);
	return rc ? rc : (flag ? MPI_ERR_OTHER : 0);
}

int sk_op_improbe(ctx *c) {
	int flag;
	MPI_Message msg;
	int rc = MPI_Improbe(MPI_ANY_SOURCE, TAG_STOP + 100, c->comm, &flag, &msg, MPI_STATUS_IGNORE);
	return rc ? rc : (flag ? MPI_ERR_OTHER : 0);
}

int sk_op_buffer_attach(ctx *c) {
	static char buf[MPI_BSEND_OVERHEAD + 64];
	void *p;
	int n;
	int rc = MPI_Buffer_attach(buf, sizeof buf);
	return rc ? rc : MPI_Buffer_detach(&p, &n);
}

/* type-create: build the send type from its program, commit it, free it. */
int sk_op_type_create(ctx *c) {
	MPI_Datatype t;
	const int64_t *pc = c->ty->s.prog;
	int rc = sk_type_build(&pc, pc + c->ty->s.nprog, &t, 0);
	if (!rc) rc = MPI_Type_commit(&t);
	if (!rc) rc = MPI_Type_free(&t);
	return rc;
}
