//go:build mpi

#include "beffmpi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int beff_thread_level(const char *name) {
	if (!strcmp(name, "single")) return MPI_THREAD_SINGLE;
	if (!strcmp(name, "funneled")) return MPI_THREAD_FUNNELED;
	if (!strcmp(name, "serialized")) return MPI_THREAD_SERIALIZED;
	if (!strcmp(name, "multiple")) return MPI_THREAD_MULTIPLE;
	return -1;
}

int beff_init(int required, int *provided) {
	int flag = 0, rc;
	MPI_Initialized(&flag);
	if (flag) {
		rc = MPI_Query_thread(provided);
	} else {
		rc = MPI_Init_thread(NULL, NULL, required, provided);
	}
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}
int beff_finalize(void) { return MPI_Finalize(); }
int beff_initialized(void) { int f = 0; MPI_Initialized(&f); return f; }
int beff_finalized(void) { int f = 0; MPI_Finalized(&f); return f; }
MPI_Fint beff_comm_world(void) { return MPI_Comm_c2f(MPI_COMM_WORLD); }
MPI_Fint beff_comm_null(void) { return MPI_Comm_c2f(MPI_COMM_NULL); }
int beff_proc_null(void) { return MPI_PROC_NULL; }
int beff_undefined(void) { return MPI_UNDEFINED; }
int beff_rank(MPI_Fint c, int *r) { return MPI_Comm_rank(MPI_Comm_f2c(c), r); }
int beff_size(MPI_Fint c, int *s) { return MPI_Comm_size(MPI_Comm_f2c(c), s); }
int beff_barrier(MPI_Fint c) { return MPI_Barrier(MPI_Comm_f2c(c)); }
int beff_bcast_bytes(MPI_Fint c, void *buf, int n, int root) {
	return MPI_Bcast(buf, n, MPI_BYTE, root, MPI_Comm_f2c(c));
}
static MPI_Op op_of(int op) { return op == 0 ? MPI_MAX : op == 1 ? MPI_MIN : MPI_SUM; }
int beff_reduce_f64(MPI_Fint c, const double *in, double *out, int n, int op, int root) {
	return MPI_Reduce(in, out, n, MPI_DOUBLE, op_of(op), root, MPI_Comm_f2c(c));
}
int beff_allreduce_f64(MPI_Fint c, const double *in, double *out, int n, int op) {
	return MPI_Allreduce(in, out, n, MPI_DOUBLE, op_of(op), MPI_Comm_f2c(c));
}
int beff_reduce_i64(MPI_Fint c, const int64_t *in, int64_t *out, int n, int op, int root) {
	return MPI_Reduce(in, out, n, MPI_INT64_T, op_of(op), root, MPI_Comm_f2c(c));
}
int beff_allreduce_i64(MPI_Fint c, const int64_t *in, int64_t *out, int n, int op) {
	return MPI_Allreduce(in, out, n, MPI_INT64_T, op_of(op), MPI_Comm_f2c(c));
}
int beff_gather_bytes(MPI_Fint c, const void *in, int n, void *out, int root) {
	return MPI_Gather(in, n, MPI_BYTE, out, n, MPI_BYTE, root, MPI_Comm_f2c(c));
}
int beff_comm_split(MPI_Fint c, int color, int key, MPI_Fint *out) {
	MPI_Comm nc;
	int rc = MPI_Comm_split(MPI_Comm_f2c(c), color, key, &nc);
	if (rc == MPI_SUCCESS) *out = MPI_Comm_c2f(nc);
	return rc;
}
int beff_comm_split_shared(MPI_Fint c, MPI_Fint *out) {
	MPI_Comm nc;
	int rc = MPI_Comm_split_type(MPI_Comm_f2c(c), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &nc);
	if (rc == MPI_SUCCESS) *out = MPI_Comm_c2f(nc);
	return rc;
}
int beff_comm_free(MPI_Fint *c) {
	MPI_Comm cc = MPI_Comm_f2c(*c);
	if (cc == MPI_COMM_NULL) return MPI_SUCCESS;
	int rc = MPI_Comm_free(&cc);
	*c = MPI_Comm_c2f(cc);
	return rc;
}
int beff_dims_create(int n, int nd, int *dims) {
	for (int i = 0; i < nd; i++) dims[i] = 0;
	return MPI_Dims_create(n, nd, dims);
}
int beff_cart_create(MPI_Fint c, int nd, const int *dims, const int *periods, int reorder, MPI_Fint *out) {
	MPI_Comm nc;
	int rc = MPI_Cart_create(MPI_Comm_f2c(c), nd, (int *)dims, (int *)periods, reorder, &nc);
	if (rc == MPI_SUCCESS) *out = MPI_Comm_c2f(nc);
	return rc;
}
int beff_cart_shift(MPI_Fint c, int dir, int disp, int *src, int *dest) {
	return MPI_Cart_shift(MPI_Comm_f2c(c), dir, disp, src, dest);
}
int beff_abort(MPI_Fint c, int code) { return MPI_Abort(MPI_Comm_f2c(c), code); }
void beff_error_string(int code, char *buf, int len) {
	char s[MPI_MAX_ERROR_STRING];
	int n = 0;
	if (MPI_Error_string(code, s, &n) != MPI_SUCCESS) n = 0;
	if (n >= len) n = len - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
}
int beff_library_version(char *buf, int len) {
	char s[MPI_MAX_LIBRARY_VERSION_STRING];
	int n = 0;
	int rc = MPI_Get_library_version(s, &n);
	if (n >= len) n = len - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	return rc;
}
int beff_processor_name(char *buf, int len) {
	char s[MPI_MAX_PROCESSOR_NAME];
	int n = 0;
	int rc = MPI_Get_processor_name(s, &n);
	if (n >= len) n = len - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	return rc;
}
double beff_wtime(void) { return MPI_Wtime(); }
double beff_wtick(void) { return MPI_Wtick(); }

/* ---- the timed b_eff loop ---- */

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

/* ---- MPI-IO (b_eff_io) ---- */

MPI_Fint beffio_file_null(void) { return MPI_File_c2f(MPI_FILE_NULL); }
MPI_Fint beffio_info_null(void) { return MPI_Info_c2f(MPI_INFO_NULL); }

int beffio_open(MPI_Fint comm, const char *path, int mode, MPI_Fint info, MPI_Fint *fh) {
	/* never MPI_MODE_UNIQUE_OPEN: it would let MPI-IO defer syncs to close */
	int amode = mode == BEFFIO_OPEN_CREATE ? (MPI_MODE_CREATE | MPI_MODE_WRONLY)
	          : mode == BEFFIO_OPEN_WRITE  ? MPI_MODE_WRONLY : MPI_MODE_RDONLY;
	MPI_File f;
	int rc = MPI_File_open(MPI_Comm_f2c(comm), path, amode, MPI_Info_f2c(info), &f);
	if (rc == MPI_SUCCESS) *fh = MPI_File_c2f(f);
	return rc;
}
int beffio_close(MPI_Fint *fh) {
	MPI_File f = MPI_File_f2c(*fh);
	if (f == MPI_FILE_NULL) return MPI_SUCCESS;
	int rc = MPI_File_close(&f);
	*fh = MPI_File_c2f(f);
	return rc;
}
int beffio_delete(const char *path) { return MPI_File_delete(path, MPI_INFO_NULL); }
int beffio_sync(MPI_Fint fh) { return MPI_File_sync(MPI_File_f2c(fh)); }
int beffio_set_view_scatter(MPI_Fint fh, int64_t disp, int64_t l, int n, MPI_Fint info) {
	MPI_Datatype block, strided;
	int rc = MPI_Type_contiguous((int)l, MPI_BYTE, &block);
	if (rc != MPI_SUCCESS) return rc;
	rc = MPI_Type_create_resized(block, 0, (MPI_Aint)l * n, &strided);
	MPI_Type_free(&block);
	if (rc != MPI_SUCCESS) return rc;
	if ((rc = MPI_Type_commit(&strided)) == MPI_SUCCESS)
		rc = MPI_File_set_view(MPI_File_f2c(fh), (MPI_Offset)disp, MPI_BYTE, strided, "native", MPI_Info_f2c(info));
	MPI_Type_free(&strided);
	return rc;
}
int beffio_set_view_bytes(MPI_Fint fh, int64_t disp, MPI_Fint info) {
	return MPI_File_set_view(MPI_File_f2c(fh), (MPI_Offset)disp, MPI_BYTE, MPI_BYTE, "native", MPI_Info_f2c(info));
}
int beffio_seek(MPI_Fint fh, int64_t off) { return MPI_File_seek(MPI_File_f2c(fh), (MPI_Offset)off, MPI_SEEK_SET); }
int beffio_seek_shared(MPI_Fint fh, int64_t off) {
	return MPI_File_seek_shared(MPI_File_f2c(fh), (MPI_Offset)off, MPI_SEEK_SET);
}
int beffio_info_create(MPI_Fint *info) {
	MPI_Info i;
	int rc = MPI_Info_create(&i);
	if (rc == MPI_SUCCESS) *info = MPI_Info_c2f(i);
	return rc;
}
int beffio_info_set(MPI_Fint info, const char *key, const char *val) {
	return MPI_Info_set(MPI_Info_f2c(info), key, val);
}
int beffio_info_free(MPI_Fint *info) {
	MPI_Info i = MPI_Info_f2c(*info);
	if (i == MPI_INFO_NULL) return MPI_SUCCESS;
	int rc = MPI_Info_free(&i);
	*info = MPI_Info_c2f(i);
	return rc;
}
int beffio_set_info(MPI_Fint fh, MPI_Fint info) {
	return MPI_File_set_info(MPI_File_f2c(fh), MPI_Info_f2c(info));
}
int beffio_hints(MPI_Fint fh, char *buf, int len) {
	MPI_Info info;
	int rc = MPI_File_get_info(MPI_File_f2c(fh), &info), nkeys = 0, pos = 0;
	if (rc != MPI_SUCCESS) return rc;
	buf[0] = 0;
	MPI_Info_get_nkeys(info, &nkeys);
	for (int i = 0; i < nkeys && pos < len - 1; i++) {
		char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
		int flag = 0;
		MPI_Info_get_nthkey(info, i, key);
		MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
		if (flag) pos += snprintf(buf + pos, len - pos, "%s=%s\n", key, val);
	}
	MPI_Info_free(&info);
	return MPI_SUCCESS;
}

uint64_t beffio_value(int64_t rep, int64_t offset, int pattern, int access, int last) {
	uint64_t x = (uint64_t)rep * 0x9E3779B97F4A7C15ULL ^ (uint64_t)offset * 0xC2B2AE3D27D4EB4FULL ^
	             (uint64_t)pattern << 48 ^ (uint64_t)access << 56;
	if (last) x ^= 0xA5A5A5A5A5A5A5A5ULL;
	x ^= x >> 30; x *= 0xBF58476D1CE4E5B9ULL;
	x ^= x >> 27; x *= 0x94D049BB133111EBULL;
	x ^= x >> 31;
	return x ? x : 1;
}

int64_t beffio_offset(const beffio_calls_t *p, int64_t c, int64_t j) {
	int64_t chunks = p->len / p->l;
	switch (p->type) {
	case BEFFIO_SCATTER: return p->base + ((c * chunks + j) * p->n + p->rank) * p->l;
	case BEFFIO_SHARED: return p->base + (c * p->n + p->rank) * p->l;
	case BEFFIO_SEPARATED: return p->base + c * p->l;
	}
	return (int64_t)p->rank * p->lseg + p->base + c * p->l;
}

int beffio_calls(const beffio_calls_t *p, int64_t c0, int64_t k, unsigned char *buf,
                 int64_t *errors, beffio_fault *fault) {
	MPI_File fh = MPI_File_f2c(p->fh);
	int count = (int)p->len, rc = MPI_SUCCESS;
	int64_t chunks = p->len / p->l;
	for (int64_t c = c0; c < c0 + k; c++) {
		if (!p->read) {
			for (int64_t j = 0; j < chunks; j++) {
				int64_t off = beffio_offset(p, c, j);
				uint64_t v0 = beffio_value(c, off, p->pattern, p->access, 0);
				uint64_t v1 = beffio_value(c, off, p->pattern, p->access, 1);
				memcpy(buf + j * p->l, &v0, 8);
				if (p->l >= 16) memcpy(buf + (j + 1) * p->l - 8, &v1, 8);
			}
		}
		switch (p->type) {
		case BEFFIO_SCATTER:
		case BEFFIO_SEGCOLL:
			rc = p->read ? MPI_File_read_all(fh, buf, count, MPI_BYTE, MPI_STATUS_IGNORE)
			             : MPI_File_write_all(fh, buf, count, MPI_BYTE, MPI_STATUS_IGNORE);
			break;
		case BEFFIO_SHARED:
			if (p->explicit_offsets) {
				MPI_Offset o = (MPI_Offset)beffio_offset(p, c, 0);
				rc = p->read ? MPI_File_read_at_all(fh, o, buf, count, MPI_BYTE, MPI_STATUS_IGNORE)
				             : MPI_File_write_at_all(fh, o, buf, count, MPI_BYTE, MPI_STATUS_IGNORE);
			} else {
				rc = p->read ? MPI_File_read_ordered(fh, buf, count, MPI_BYTE, MPI_STATUS_IGNORE)
				             : MPI_File_write_ordered(fh, buf, count, MPI_BYTE, MPI_STATUS_IGNORE);
			}
			break;
		default:
			rc = p->read ? MPI_File_read(fh, buf, count, MPI_BYTE, MPI_STATUS_IGNORE)
			             : MPI_File_write(fh, buf, count, MPI_BYTE, MPI_STATUS_IGNORE);
		}
		if (rc != MPI_SUCCESS) return rc;
		if (p->read) {
			for (int64_t j = 0; j < chunks; j++) {
				int64_t off = beffio_offset(p, c, j);
				uint64_t e0 = beffio_value(c, off, p->pattern, p->access, 0), g0, g1 = 0, e1 = 0;
				memcpy(&g0, buf + j * p->l, 8);
				int bad = g0 != e0;
				if (p->l >= 16) {
					e1 = beffio_value(c, off, p->pattern, p->access, 1);
					memcpy(&g1, buf + (j + 1) * p->l - 8, 8);
					bad |= g1 != e1;
				}
				if (bad && (*errors)++ == 0) {
					fault->rep = c; fault->offset = off;
					fault->expect_first = e0; fault->got_first = g0;
					fault->expect_last = e1; fault->got_last = g1;
				}
			}
		}
	}
	return rc;
}
