//go:build mpi

/* skampi_wire.c: the copies of a message by hand into contiguous blocks
 * and back, for a datatype built by hand (SKAMPI_MANUAL). How a message
 * reaches MPI, its wire, is inline in skampi_ctx.h. */
#include "skampi_ctx.h"

/* sk_gather_runs copies the payload of the message at m into the
 * contiguous dst; sk_scatter_runs copies it back out of src (skew, a test's
 * fault: the middle run of the middle instance lands a byte too far, the
 * off-by-one of a hand-written unpacking loop that only a check of every
 * byte finds). */
void sk_gather_runs(unsigned char *dst, const unsigned char *m, const lay *l) {
	for (int64_t k = 0; k < l->count; k++) {
		const unsigned char *b = m + k * l->ext;
		for (int64_t r = 0; r < l->nruns; r++) {
			int64_t n = l->runs[2 * r + 1];
			const unsigned char *from = b + l->runs[2 * r];
			switch (n) { /* the short runs of applications: copies the compiler inlines */
			case 4: memcpy(dst, from, 4); break;
			case 8: memcpy(dst, from, 8); break;
			case 16: memcpy(dst, from, 16); break;
			default: memcpy(dst, from, n);
			}
			dst += n;
		}
	}
}

void sk_scatter_runs(unsigned char *m, const unsigned char *src, const lay *l, int skew) {
	for (int64_t k = 0; k < l->count; k++) {
		unsigned char *b = m + k * l->ext;
		for (int64_t r = 0; r < l->nruns; r++) {
			int64_t n = l->runs[2 * r + 1];
			unsigned char *to = b + l->runs[2 * r];
			if (skew && k == l->count / 2 && r == l->nruns / 2) to++;
			switch (n) {
			case 4: memcpy(to, src, 4); break;
			case 8: memcpy(to, src, 8); break;
			case 16: memcpy(to, src, 16); break;
			default: memcpy(to, src, n);
			}
			src += n;
		}
	}
}





