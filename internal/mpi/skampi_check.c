//go:build mpi

/* skampi_check.c: the stamps that check every message of the SKaMPI loop:
 * its first and last payload byte (or every byte, and the holes between,
 * in a full check), the sums of a reduction, and the first fault kept. */
#include "skampi_ctx.h"

unsigned char skampi_byte1(int64_t call, int sender) {
	return (unsigned char)(1 + (call * 37 + (int64_t)sender * 13) % 251);
}

unsigned char skampi_byte2(int64_t call, int sender) {
	return (unsigned char)(2 + (call * 17 + (int64_t)sender * 3 + 101) % 253);
}

float skampi_float1(int64_t call, int sender) { return (float)(1 + call % 61 + sender); }

float skampi_float2(int64_t call, int sender) { return (float)(2 + call % 59 + 2 * sender); }

void sk_fault(ctx *c, int sender, int64_t at, int expect, int got) {
	if (c->f->count++ == 0) {
		c->f->call = c->call;
		c->f->sender = sender;
		c->f->at = at;
		c->f->expect = expect;
		c->f->got = got;
	}
}

/* The value of payload byte i from sender in call (full checks). */
static unsigned char full_byte(int64_t call, int sender, int64_t i) {
	return (unsigned char)(1 + (uint64_t)(call * 37 + (int64_t)sender * 13 + i * 7 + (i >> 8)) % 251);
}

/* fill stamps every payload byte of the message at m. */
static void fill(ctx *c, const lay *l, unsigned char *m, int sender) {
	int64_t i = 0;
	for (int64_t k = 0; k < l->count; k++)
		for (int64_t r = 0; r < l->nruns; r++) {
			unsigned char *p = m + k * l->ext + l->runs[2 * r];
			for (int64_t j = 0; j < l->runs[2 * r + 1]; j++) p[j] = full_byte(c->call, sender, i++);
		}
}

/* verify checks every payload byte of the message at m; in the receive
 * buffer it then checks that the rest of the message's span kept HOLE. */
static void verify(ctx *c, const lay *l, unsigned char *m, int sender) {
	int64_t i = 0;
	for (int64_t k = 0; k < l->count; k++)
		for (int64_t r = 0; r < l->nruns; r++) {
			unsigned char *p = m + k * l->ext + l->runs[2 * r];
			for (int64_t j = 0; j < l->runs[2 * r + 1]; j++, i++) {
				unsigned char e = full_byte(c->call, sender, i);
				if (p[j] != e) sk_fault(c, sender, p + j - m, e, p[j]);
				p[j] = HOLE;
			}
		}
	if (m < c->rb || m >= c->rb + c->rfoot) return;
	for (int64_t j = 0; j < l->span; j++)
		if (m[j] != HOLE) { /* a byte outside the layout was written */
			sk_fault(c, sender, j, HOLE, m[j]);
			break;
		}
}

/* sk_put stamps the message at m from sender: its first and last payload
 * byte, or every byte in a full check; sk_chk checks one received. */
void sk_put(ctx *c, const lay *l, unsigned char *m, int sender) {
	if (c->len <= 0) return;
	if (c->full) return fill(c, l, m, sender);
	m[l->first] = skampi_byte1(c->call, sender);
	if (c->len > 1) m[l->last] = skampi_byte2(c->call, sender);
}

void sk_chk(ctx *c, const lay *l, unsigned char *m, int sender) {
	if (c->len <= 0) return;
	if (c->inject == 1) {
		m[l->first] ^= 0xff;
		c->inject = 0;
	}
	if (c->full) return verify(c, l, m, sender);
	int e1 = skampi_byte1(c->call, sender), e2 = c->len > 1 ? skampi_byte2(c->call, sender) : e1;
	if (m[l->first] != e1) sk_fault(c, sender, l->first, e1, m[l->first]);
	else if (m[l->last] != e2) sk_fault(c, sender, l->last, e2, m[l->last]);
}

/* sk_sput, sk_rchk: a message in the send layout, one in the receive layout. */
void sk_sput(ctx *c, unsigned char *m, int sender) { sk_put(c, &c->sl, m, sender); }

void sk_rchk(ctx *c, unsigned char *m, int sender) { sk_chk(c, &c->rl, m, sender); }

/* Reductions run over MPI_FLOAT with MPI_SUM: the first and the last
 * element carry small integers whose sums are exact. */
void sk_putf(unsigned char *m, int64_t n, int64_t call, int sender) {
	float *x = (float *)m;
	int64_t k = n / 4;
	if (k <= 0) return;
	x[0] = skampi_float1(call, sender);
	x[k - 1] = k > 1 ? skampi_float2(call, sender) : x[0];
}

/* sk_chkf checks the sum over the senders lo..hi-1. */
void sk_chkf(ctx *c, unsigned char *m, int64_t n, int lo, int hi) {
	float *x = (float *)m;
	int64_t k = n / 4;
	if (k <= 0 || hi <= lo) return;
	if (c->inject) {
		x[0] += 1000;
		c->inject = 0;
	}
	float e1 = 0, e2 = 0;
	for (int s = lo; s < hi; s++) {
		e1 += skampi_float1(c->call, s);
		e2 += k > 1 ? skampi_float2(c->call, s) : skampi_float1(c->call, s);
	}
	if (x[0] != e1) sk_fault(c, lo, 0, (int)e1, (int)x[0]);
	else if (x[k - 1] != e2) sk_fault(c, lo, n - 4, (int)e2, (int)x[k - 1]);
}

int sk_n4(ctx *c) { return (int)(c->len / 4); }

int sk_nb(ctx *c) { return (int)c->len; }

unsigned char *sk_sblk(ctx *c, int i) { return c->sb + (int64_t)i * c->sl.stride; }

unsigned char *sk_rblk(ctx *c, int i) { return c->rb + (int64_t)i * c->rl.stride; }
