//go:build mpi

/* beff.c: the timed loop of b_eff (see beff.h). */
#include "beff.h"
#include "control.h"
#include <stdlib.h>
#include <string.h>

const char *const beff_method_names[BEFF_NMETHODS] = {"sendrecv", "alltoallv", "nonblocking"};

unsigned char beff_first_byte(int64_t iter, int step, int sizeidx, int sender) {
	return (unsigned char)(1 + (iter * 37 + step * 11 + sizeidx * 5 + (int64_t)sender * 13) % 251);
}
unsigned char beff_last_byte(int64_t iter, int step, int sizeidx, int sender) {
	return (unsigned char)(2 + (iter * 17 + step * 29 + sizeidx * 7 + (int64_t)sender * 3 + 101) % 253);
}

/* Cyclic placement: advance by len rounded up to 8 bytes, wrap to 0 when
 * the next message would not fit. */
static inline int64_t next_off(int64_t off, int64_t len, int64_t buflen) {
	off += (len + 7) & ~(int64_t)7;
	if (off + len > buflen) off = 0;
	return off;
}

typedef struct {
	int me, sizeidx, len;
	beff_fault *f;
} vctx;

static inline void stamp(unsigned char *m, int len, int64_t it, int step, const vctx *v) {
	m[0] = beff_first_byte(it, step, v->sizeidx, v->me);
	if (len > 1) m[len - 1] = beff_last_byte(it, step, v->sizeidx, v->me);
}

static inline void check(unsigned char *m, int len, int64_t it, int step, int sender,
                         int64_t off, const vctx *v) {
	int ef = beff_first_byte(it, step, v->sizeidx, sender);
	int el = len > 1 ? beff_last_byte(it, step, v->sizeidx, sender) : ef;
	int gf = m[0], gl = m[len - 1];
	if (gf != ef || gl != el) {
		beff_fault *f = v->f;
		if (f->count++ == 0) {
			f->iter = it; f->step = step; f->partner = sender; f->offset = off;
			f->expect_first = ef; f->got_first = gf; f->expect_last = el; f->got_last = gl;
		}
	}
}

/* The state of one measurement's loop on this rank. */
typedef struct {
	const beff_plan *p;
	MPI_Comm comm;
	unsigned char *sbuf, *rbuf;
	int64_t buflen;
	int64_t soff, roff; /* where the next message goes in the cyclic buffers */
	int len;
	int inject; /* corrupt the next received message (tests only) */
	int64_t *base; /* the reference code's offsets (see beff.h), or NULL */
	vctx v;
} loop_t;

/* ref_next is the reference code's placement: one offset for the send and
 * the receive buffer, taken by every step and advanced by the message
 * length rounded up to 8; it wraps to 0 when the message would not fit. */
static inline int64_t ref_next(loop_t *l) {
	int64_t len8 = ((int64_t)l->len + 7) & ~(int64_t)7;
	if (*l->base + len8 > l->buflen) *l->base = 0;
	int64_t off = *l->base;
	*l->base += len8;
	return off;
}

/* received checks a message that arrived at offset off of the receive
 * buffer (after corrupting it when asked to). */
static inline void received(loop_t *l, int64_t off, int64_t it, int s, int src) {
	if (l->inject) { l->rbuf[off] ^= 0xff; l->inject = 0; }
	check(l->rbuf + off, l->len, it, s, src, off, &l->v);
}

/* One iteration with MPI_Sendrecv per step (plain Send or Recv where one
 * side is MPI_PROC_NULL). */
static inline int iter_sendrecv(loop_t *l, int64_t it) {
	const beff_plan *p = l->p;
	int rc = MPI_SUCCESS, len = l->len;
	for (int s = 0; s < p->nsteps; s++) {
		int d = p->dest[s], src = p->src[s];
		if (l->base) l->soff = l->roff = ref_next(l);
		unsigned char *sm = l->sbuf + l->soff, *rm = l->rbuf + l->roff;
		if (d != MPI_PROC_NULL) stamp(sm, len, it, s, &l->v);
		if (d != MPI_PROC_NULL && src != MPI_PROC_NULL)
			rc = MPI_Sendrecv(sm, len, MPI_BYTE, d, 0, rm, len, MPI_BYTE, src, 0, l->comm, MPI_STATUS_IGNORE);
		else if (d != MPI_PROC_NULL)
			rc = MPI_Send(sm, len, MPI_BYTE, d, 0, l->comm);
		else if (src != MPI_PROC_NULL)
			rc = MPI_Recv(rm, len, MPI_BYTE, src, 0, l->comm, MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS) return rc;
		if (src != MPI_PROC_NULL) {
			received(l, l->roff, it, s, src);
			if (!l->base) l->roff = next_off(l->roff, len, l->buflen);
		}
		if (d != MPI_PROC_NULL && !l->base) l->soff = next_off(l->soff, len, l->buflen);
	}
	return rc;
}

/* One iteration with MPI_Irecv for every receive, MPI_Isend for every
 * send, then MPI_Waitall. */
static inline int iter_nonblocking(loop_t *l, int64_t it) {
	const beff_plan *p = l->p;
	MPI_Request req[2 * BEFF_MAXSTEPS];
	int64_t rofs[BEFF_MAXSTEPS];
	int rc, nr = 0, len = l->len;
	for (int s = 0; s < p->nsteps; s++)
		if (p->src[s] != MPI_PROC_NULL) {
			rofs[s] = l->roff;
			rc = MPI_Irecv(l->rbuf + l->roff, len, MPI_BYTE, p->src[s], s, l->comm, &req[nr++]);
			if (rc != MPI_SUCCESS) return rc;
			l->roff = next_off(l->roff, len, l->buflen);
		}
	for (int s = 0; s < p->nsteps; s++)
		if (p->dest[s] != MPI_PROC_NULL) {
			stamp(l->sbuf + l->soff, len, it, s, &l->v);
			rc = MPI_Isend(l->sbuf + l->soff, len, MPI_BYTE, p->dest[s], s, l->comm, &req[nr++]);
			if (rc != MPI_SUCCESS) return rc;
			l->soff = next_off(l->soff, len, l->buflen);
		}
	rc = MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
	if (rc != MPI_SUCCESS) return rc;
	for (int s = 0; s < p->nsteps; s++)
		if (p->src[s] != MPI_PROC_NULL) received(l, rofs[s], it, s, p->src[s]);
	return rc;
}

/* One iteration as the reference code posts it: per step an offset, its
 * MPI_Irecv, its MPI_Isend; then MPI_Waitall. */
static inline int iter_nonblocking_ref(loop_t *l, int64_t it) {
	const beff_plan *p = l->p;
	MPI_Request req[2 * BEFF_MAXSTEPS];
	int64_t ofs[BEFF_MAXSTEPS];
	int rc, nr = 0, len = l->len;
	for (int s = 0; s < p->nsteps; s++) {
		ofs[s] = ref_next(l);
		if (p->src[s] != MPI_PROC_NULL &&
		    (rc = MPI_Irecv(l->rbuf + ofs[s], len, MPI_BYTE, p->src[s], s, l->comm, &req[nr++])) != MPI_SUCCESS)
			return rc;
		if (p->dest[s] != MPI_PROC_NULL) {
			stamp(l->sbuf + ofs[s], len, it, s, &l->v);
			if ((rc = MPI_Isend(l->sbuf + ofs[s], len, MPI_BYTE, p->dest[s], s, l->comm, &req[nr++])) != MPI_SUCCESS)
				return rc;
		}
	}
	if ((rc = MPI_Waitall(nr, req, MPI_STATUSES_IGNORE)) != MPI_SUCCESS) return rc;
	for (int s = 0; s < p->nsteps; s++)
		if (p->src[s] != MPI_PROC_NULL) received(l, ofs[s], it, s, p->src[s]);
	return rc;
}

/* The layout of one MPI_Alltoallv iteration: per partner the messages of
 * the iteration are contiguous. */
typedef struct {
	int *scount, *sdisp, *rcount, *rdisp;        /* per rank of comm, bytes */
	int spos[BEFF_MAXSTEPS], rpos[BEFF_MAXSTEPS]; /* a step's place in its partner's run */
	int64_t srel[BEFF_MAXSTEPS], rrel[BEFF_MAXSTEPS]; /* start of that run in the iteration's block */
	int64_t sblock, rblock;                       /* bytes of one iteration */
} a2a_t;

/* a2a_setup computes the layout of the plan on comm for messages of len
 * bytes; a->scount is to be freed. With the reference's offsets (ref) a
 * partner may have one step only, as in the reference code. */
static int a2a_setup(const beff_plan *p, MPI_Comm comm, int len, int ref, a2a_t *a) {
	int rc, csize, n = p->nsteps;
	int sfirst[BEFF_MAXSTEPS], rfirst[BEFF_MAXSTEPS]; /* the first step with the same partner, -1 */
	if ((rc = MPI_Comm_size(comm, &csize)) != MPI_SUCCESS) return rc;
	a->scount = calloc(4 * (size_t)csize, sizeof(int));
	if (!a->scount) return MPI_ERR_NO_MEM;
	a->sdisp = a->scount + csize; a->rcount = a->sdisp + csize; a->rdisp = a->rcount + csize;
	for (int s = 0; s < n; s++) {
		sfirst[s] = rfirst[s] = -1;
		if (p->dest[s] != MPI_PROC_NULL) {
			for (int t = 0; t < s; t++)
				if (p->dest[t] == p->dest[s]) { sfirst[s] = t; break; }
			a->spos[s] = a->scount[p->dest[s]]++;
		}
		if (p->src[s] != MPI_PROC_NULL) {
			for (int t = 0; t < s; t++)
				if (p->src[t] == p->src[s]) { rfirst[s] = t; break; }
			a->rpos[s] = a->rcount[p->src[s]]++;
		}
	}
	for (int s = 0; s < n; s++) {
		if (p->dest[s] != MPI_PROC_NULL && sfirst[s] < 0) {
			a->srel[s] = a->sblock; a->sblock += (int64_t)a->scount[p->dest[s]] * len;
		}
		if (p->src[s] != MPI_PROC_NULL && rfirst[s] < 0) {
			a->rrel[s] = a->rblock; a->rblock += (int64_t)a->rcount[p->src[s]] * len;
		}
	}
	for (int s = 0; s < n; s++) {
		if (p->dest[s] != MPI_PROC_NULL && sfirst[s] >= 0) a->srel[s] = a->srel[sfirst[s]];
		if (p->src[s] != MPI_PROC_NULL && rfirst[s] >= 0) a->rrel[s] = a->rrel[rfirst[s]];
	}
	for (int r = 0; r < csize; r++) {
		if (ref && (a->scount[r] > 1 || a->rcount[r] > 1)) return MPI_ERR_ARG;
		a->scount[r] *= len; a->rcount[r] *= len;
	}
	return MPI_SUCCESS;
}

/* One iteration with one MPI_Alltoallv of layout a; with the reference's
 * offsets each step's message sits at its own offset (a partner has one
 * step: a2a_setup refuses others). */
static inline int iter_alltoallv(loop_t *l, a2a_t *a, int64_t it) {
	const beff_plan *p = l->p;
	int64_t rofs[BEFF_MAXSTEPS];
	int len = l->len;
	for (int s = 0; l->base && s < p->nsteps; s++) {
		int64_t off = ref_next(l);
		if (p->dest[s] != MPI_PROC_NULL) {
			a->sdisp[p->dest[s]] = (int)off;
			stamp(l->sbuf + off, len, it, s, &l->v);
		}
		if (p->src[s] != MPI_PROC_NULL) a->rdisp[p->src[s]] = (int)(rofs[s] = off);
	}
	for (int s = 0; !l->base && s < p->nsteps; s++) {
		if (p->dest[s] != MPI_PROC_NULL) {
			a->sdisp[p->dest[s]] = (int)(l->soff + a->srel[s]);
			stamp(l->sbuf + l->soff + a->srel[s] + (int64_t)a->spos[s] * len, len, it, s, &l->v);
		}
		if (p->src[s] != MPI_PROC_NULL) {
			rofs[s] = l->roff + a->rrel[s] + (int64_t)a->rpos[s] * len;
			a->rdisp[p->src[s]] = (int)(l->roff + a->rrel[s]);
		}
	}
	int rc = MPI_Alltoallv(l->sbuf, a->scount, a->sdisp, MPI_BYTE, l->rbuf, a->rcount, a->rdisp, MPI_BYTE, l->comm);
	if (rc != MPI_SUCCESS) return rc;
	for (int s = 0; s < p->nsteps; s++)
		if (p->src[s] != MPI_PROC_NULL) received(l, rofs[s], it, s, p->src[s]);
	if (l->base) return rc;
	if (a->sblock > 0) l->soff = next_off(l->soff, a->sblock, l->buflen);
	if (a->rblock > 0) l->roff = next_off(l->roff, a->rblock, l->buflen);
	return rc;
}

/* start_barrier is the barrier of every process before a loop. With
 * quiet (a pattern some processes take no part in) it is MPI_Ibarrier:
 * the processes with nothing to do in the loop wait for it asleep
 * (ctl_quiet_wait), the others with MPI_Wait, as in MPI_Barrier. */
static int start_barrier(MPI_Comm bc, MPI_Comm c, const beff_plan *p, int method, int quiet) {
	if (!quiet) return MPI_Barrier(bc);
	MPI_Request req;
	int rc = MPI_Ibarrier(bc, &req);
	if (rc != MPI_SUCCESS) return rc;
	int idle = c == MPI_COMM_NULL || (p->nsteps == 0 && method != BEFF_ALLTOALLV);
	return idle ? ctl_quiet_wait(&req, BEFF_QUIET_POLL_US) : MPI_Wait(&req, MPI_STATUS_IGNORE);
}

int beff_measure(MPI_Fint barrier_comm, MPI_Fint commf, const beff_plan *p, int method,
                 int len, int sizeidx, int looplen, int warm, unsigned char *sbuf,
                 unsigned char *rbuf, int64_t buflen, int64_t *carry, int64_t *base, int inject,
                 int quiet, int64_t *progress, double *elapsed, beff_fault *fault) {
	loop_t l = {p, MPI_Comm_f2c(commf), sbuf, rbuf, buflen, 0, 0, len, inject, base, {0, sizeidx, len, fault}};
	a2a_t a = {0};
	int rc;

	memset(fault, 0, sizeof *fault);
	*elapsed = 0;
	rc = start_barrier(MPI_Comm_f2c(barrier_comm), MPI_Comm_f2c(commf), p, method, quiet);
	if (rc != MPI_SUCCESS) return rc;
	if (l.comm == MPI_COMM_NULL) return MPI_SUCCESS;
	if ((rc = MPI_Comm_rank(l.comm, &l.v.me)) != MPI_SUCCESS) return rc;
	if (method == BEFF_ALLTOALLV && (rc = a2a_setup(p, l.comm, len, base != NULL, &a)) != MPI_SUCCESS) goto out;
	if (carry) { /* go on where the last measurement stopped, from 0 if this one's first message would not fit */
		int64_t sneed = method == BEFF_ALLTOALLV ? a.sblock : len, rneed = method == BEFF_ALLTOALLV ? a.rblock : len;
		l.soff = carry[0] + sneed > buflen ? 0 : carry[0];
		l.roff = carry[1] + rneed > buflen ? 0 : carry[1];
	}

	double t0 = 0;
	int64_t total = (int64_t)warm + looplen;
	for (int64_t it = 0; it < total; it++) {
		if (it == warm) t0 = MPI_Wtime();
		switch (method) {
		case BEFF_SENDRECV: rc = iter_sendrecv(&l, it); break;
		case BEFF_NONBLOCKING: rc = base ? iter_nonblocking_ref(&l, it) : iter_nonblocking(&l, it); break;
		case BEFF_ALLTOALLV: rc = iter_alltoallv(&l, &a, it); break;
		default: rc = MPI_ERR_ARG;
		}
		if (rc != MPI_SUCCESS) goto out;
		ctl_advance(progress);
	}
	*elapsed = MPI_Wtime() - t0;
	if (carry) carry[0] = l.soff, carry[1] = l.roff;
out:
	free(a.scount);
	return rc;
}
