//go:build mpi

/* skampi_wire.c: how a message laid out in a buffer reaches MPI: as its
 * datatype, packed (MPI_Pack), or copied by hand into contiguous blocks. */
#include "skampi_ctx.h"

/* gather_runs copies the payload of the message at m into the
 * contiguous dst; scatter_runs copies it back out of src (skew, a test's
 * fault: the middle run of the middle instance lands a byte too far, the
 * off-by-one of a hand-written unpacking loop that only a check of every
 * byte finds). */
static void gather_runs(unsigned char *dst, const unsigned char *m, const lay *l) {
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

static void scatter_runs(unsigned char *m, const unsigned char *src, const lay *l, int skew) {
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

/* sk_out_wire makes the wire that sends the message laid out at m, packing
 * or copying it into tmp where the method says so. */
int sk_out_wire(ctx *c, unsigned char *m, unsigned char *tmp, wire *w) {
	int pos = 0;
	switch (c->method) {
	case SKAMPI_DATATYPE:
		*w = (wire){m, (int)c->ty->s.count, c->ty->s.type};
		return 0;
	case SKAMPI_PACK:
		*w = (wire){tmp, (int)c->wlen, MPI_PACKED};
		return MPI_Pack(m, (int)c->ty->s.count, c->ty->s.type, tmp, (int)c->wlen, &pos, c->comm);
	case SKAMPI_MANUAL:
		gather_runs(tmp, m, &c->sl);
		*w = (wire){tmp, sk_nb(c), MPI_BYTE};
		return 0;
	}
	*w = (wire){m, sk_nb(c), MPI_BYTE};
	return 0;
}

/* sk_in_wire is the wire that receives a message for m (into tmp where the
 * method unpacks); sk_in_done unpacks it into m. */
wire sk_in_wire(ctx *c, unsigned char *m, unsigned char *tmp) {
	switch (c->method) {
	case SKAMPI_DATATYPE: return (wire){m, (int)c->ty->r.count, c->ty->r.type};
	case SKAMPI_PACK: return (wire){tmp, (int)c->wlen, MPI_PACKED};
	case SKAMPI_MANUAL: return (wire){tmp, sk_nb(c), MPI_BYTE};
	}
	return (wire){m, sk_nb(c), MPI_BYTE};
}

int sk_in_done(ctx *c, unsigned char *m, unsigned char *tmp) {
	int pos = 0;
	switch (c->method) {
	case SKAMPI_PACK:
		return MPI_Unpack(tmp, (int)c->wlen, &pos, m, (int)c->ty->r.count, c->ty->r.type, c->comm);
	case SKAMPI_MANUAL:
		scatter_runs(m, tmp, &c->rl, c->inject == 2);
	}
	return 0;
}

/* sk_stmp_at, sk_rtmp_at: the scratch of block i. */
unsigned char *sk_stmp_at(ctx *c, int i) { return c->stmp ? c->stmp + (int64_t)i * c->wlen : NULL; }

unsigned char *sk_rtmp_at(ctx *c, int i) { return c->rtmp ? c->rtmp + (int64_t)i * c->wlen : NULL; }
