//go:build mpi

/* beff.c: the timed loop of b_eff (see beff.h). */
#include "beff.h"
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

int beff_measure(MPI_Fint barrier_comm, MPI_Fint commf, const beff_plan *p, int method,
                 int len, int sizeidx, int looplen, int warm, unsigned char *sbuf,
                 unsigned char *rbuf, int64_t buflen, int inject, double *elapsed,
                 beff_fault *fault) {
	MPI_Comm comm = MPI_Comm_f2c(commf);
	int rc, n = p->nsteps, csize = 0;
	int64_t soff = 0, roff = 0;
	int64_t sofs[BEFF_MAXSTEPS], rofs[BEFF_MAXSTEPS];
	MPI_Request req[2 * BEFF_MAXSTEPS];
	int *sc = NULL, *sd = NULL, *rcn = NULL, *rd = NULL;
	/* Alltoallv: per partner the messages of one iteration are contiguous;
	 * spos/rpos is a step's place inside its partner's run. */
	int spart_first[BEFF_MAXSTEPS], rpart_first[BEFF_MAXSTEPS];
	int spos[BEFF_MAXSTEPS], rpos[BEFF_MAXSTEPS];
	int64_t srel[BEFF_MAXSTEPS], rrel[BEFF_MAXSTEPS], sblock = 0, rblock = 0;
	vctx v = {0, sizeidx, len, fault};

	memset(fault, 0, sizeof *fault);
	*elapsed = 0;
	rc = MPI_Barrier(MPI_Comm_f2c(barrier_comm));
	if (rc != MPI_SUCCESS) return rc;
	if (comm == MPI_COMM_NULL) return MPI_SUCCESS;
	if ((rc = MPI_Comm_rank(comm, &v.me)) != MPI_SUCCESS) return rc;

	if (method == BEFF_ALLTOALLV) {
		if ((rc = MPI_Comm_size(comm, &csize)) != MPI_SUCCESS) return rc;
		sc = calloc(4 * (size_t)csize, sizeof(int));
		if (!sc) return MPI_ERR_NO_MEM;
		sd = sc + csize; rcn = sd + csize; rd = rcn + csize;
		for (int s = 0; s < n; s++) {
			spart_first[s] = rpart_first[s] = -1;
			if (p->dest[s] != MPI_PROC_NULL) {
				for (int t = 0; t < s; t++)
					if (p->dest[t] == p->dest[s]) { spart_first[s] = t; break; }
				spos[s] = sc[p->dest[s]]++;
			}
			if (p->src[s] != MPI_PROC_NULL) {
				for (int t = 0; t < s; t++)
					if (p->src[t] == p->src[s]) { rpart_first[s] = t; break; }
				rpos[s] = rcn[p->src[s]]++;
			}
		}
		/* relative start of each partner's run inside the iteration block */
		for (int s = 0; s < n; s++) {
			if (p->dest[s] != MPI_PROC_NULL && spart_first[s] < 0) {
				srel[s] = sblock; sblock += (int64_t)sc[p->dest[s]] * len;
			}
			if (p->src[s] != MPI_PROC_NULL && rpart_first[s] < 0) {
				rrel[s] = rblock; rblock += (int64_t)rcn[p->src[s]] * len;
			}
		}
		for (int s = 0; s < n; s++) {
			if (p->dest[s] != MPI_PROC_NULL && spart_first[s] >= 0) srel[s] = srel[spart_first[s]];
			if (p->src[s] != MPI_PROC_NULL && rpart_first[s] >= 0) rrel[s] = rrel[rpart_first[s]];
		}
		for (int r = 0; r < csize; r++) { sc[r] *= len; rcn[r] *= len; }
	}

	double t0 = 0;
	int64_t total = (int64_t)warm + looplen;
	for (int64_t it = 0; it < total; it++) {
		if (it == warm) t0 = MPI_Wtime();
		switch (method) {
		case BEFF_SENDRECV:
			for (int s = 0; s < n; s++) {
				int d = p->dest[s], src = p->src[s];
				if (d != MPI_PROC_NULL) stamp(sbuf + soff, len, it, s, &v);
				if (d != MPI_PROC_NULL && src != MPI_PROC_NULL)
					rc = MPI_Sendrecv(sbuf + soff, len, MPI_BYTE, d, 0, rbuf + roff, len, MPI_BYTE,
					                  src, 0, comm, MPI_STATUS_IGNORE);
				else if (d != MPI_PROC_NULL)
					rc = MPI_Send(sbuf + soff, len, MPI_BYTE, d, 0, comm);
				else if (src != MPI_PROC_NULL)
					rc = MPI_Recv(rbuf + roff, len, MPI_BYTE, src, 0, comm, MPI_STATUS_IGNORE);
				if (rc != MPI_SUCCESS) goto out;
				if (src != MPI_PROC_NULL) {
					if (inject) { rbuf[roff] ^= 0xff; inject = 0; }
					check(rbuf + roff, len, it, s, src, roff, &v);
					roff = next_off(roff, len, buflen);
				}
				if (d != MPI_PROC_NULL) soff = next_off(soff, len, buflen);
			}
			break;
		case BEFF_NONBLOCKING: {
			int nr = 0;
			for (int s = 0; s < n; s++)
				if (p->src[s] != MPI_PROC_NULL) {
					rofs[s] = roff;
					rc = MPI_Irecv(rbuf + roff, len, MPI_BYTE, p->src[s], s, comm, &req[nr++]);
					if (rc != MPI_SUCCESS) goto out;
					roff = next_off(roff, len, buflen);
				}
			for (int s = 0; s < n; s++)
				if (p->dest[s] != MPI_PROC_NULL) {
					stamp(sbuf + soff, len, it, s, &v);
					rc = MPI_Isend(sbuf + soff, len, MPI_BYTE, p->dest[s], s, comm, &req[nr++]);
					if (rc != MPI_SUCCESS) goto out;
					soff = next_off(soff, len, buflen);
				}
			rc = MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
			if (rc != MPI_SUCCESS) goto out;
			for (int s = 0; s < n; s++)
				if (p->src[s] != MPI_PROC_NULL) {
					if (inject) { rbuf[rofs[s]] ^= 0xff; inject = 0; }
					check(rbuf + rofs[s], len, it, s, p->src[s], rofs[s], &v);
				}
			break;
		}
		case BEFF_ALLTOALLV:
			for (int s = 0; s < n; s++) {
				if (p->dest[s] != MPI_PROC_NULL) {
					sofs[s] = soff + srel[s] + (int64_t)spos[s] * len;
					sd[p->dest[s]] = (int)(soff + srel[s]);
					stamp(sbuf + sofs[s], len, it, s, &v);
				}
				if (p->src[s] != MPI_PROC_NULL) {
					rofs[s] = roff + rrel[s] + (int64_t)rpos[s] * len;
					rd[p->src[s]] = (int)(roff + rrel[s]);
				}
			}
			rc = MPI_Alltoallv(sbuf, sc, sd, MPI_BYTE, rbuf, rcn, rd, MPI_BYTE, comm);
			if (rc != MPI_SUCCESS) goto out;
			for (int s = 0; s < n; s++)
				if (p->src[s] != MPI_PROC_NULL) {
					if (inject) { rbuf[rofs[s]] ^= 0xff; inject = 0; }
					check(rbuf + rofs[s], len, it, s, p->src[s], rofs[s], &v);
				}
			if (sblock > 0) soff = next_off(soff, sblock, buflen);
			if (rblock > 0) roff = next_off(roff, rblock, buflen);
			break;
		default:
			rc = MPI_ERR_ARG;
			goto out;
		}
	}
	*elapsed = MPI_Wtime() - t0;
out:
	free(sc);
	return rc;
}
