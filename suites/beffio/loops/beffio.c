//go:build mpi

/* beffio.c: the calls of a b_eff_io pattern (see beffio.h). */
#include "beffio.h"
#include <string.h>

const char *const beffio_layout_names[BEFFIO_NLAYOUTS] = {"strided", "ordered", "ownfile", "segment", "segment-all"};

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
	switch (p->layout) {
	case BEFFIO_STRIDED: return p->base + ((c * chunks + j) * p->n + p->rank) * p->l;
	case BEFFIO_ORDERED: return p->base + (c * p->n + p->rank) * p->l;
	case BEFFIO_OWNFILE: return p->base + c * p->l;
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
		switch (p->layout) {
		case BEFFIO_STRIDED:
		case BEFFIO_SEGMENT_ALL:
			rc = p->read ? MPI_File_read_all(fh, buf, count, MPI_BYTE, MPI_STATUS_IGNORE)
			             : MPI_File_write_all(fh, buf, count, MPI_BYTE, MPI_STATUS_IGNORE);
			break;
		case BEFFIO_ORDERED:
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
		ctl_advance(p->progress);
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

int beffio_ref_continue(int64_t done, double elapsed, double target) {
	return elapsed * (double)(done + 1) / (double)done <= target;
}

int beffio_calls_until(const beffio_calls_t *p, MPI_Fint commf, double t0, double target, int64_t limit,
                       unsigned char *buf, beffio_until *u) {
	MPI_Comm comm = MPI_Comm_f2c(commf);
	int rank, rc, first = MPI_SUCCESS;
	char go_on = 0;
	if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS) return rc;
	do {
		int64_t errs = 0;
		beffio_fault f;
		rc = beffio_calls(p, u->done, 1, buf, &errs, &f);
		if (rc != MPI_SUCCESS && first == MPI_SUCCESS) first = rc;
		u->done++;
		double t = MPI_Wtime();
		if ((rc = MPI_Barrier(comm)) != MPI_SUCCESS) return rc;
		if (rank == 0) {
			double now = MPI_Wtime();
			go_on = (char)beffio_ref_continue(u->done, now - t0, target);
			if (go_on && limit > 0 && u->done >= limit) go_on = 0, u->capped = 1;
		}
		if ((rc = MPI_Bcast(&go_on, 1, MPI_CHAR, 0, comm)) != MPI_SUCCESS) return rc;
		u->decisions++;
		u->seconds += MPI_Wtime() - t;
	} while (go_on);
	return first;
}
