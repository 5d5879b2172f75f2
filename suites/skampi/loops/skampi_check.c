//go:build mpi

/* skampi_check.c: the stamps' slow paths: every byte of a message, and the
 * holes between, in a full check; the sums of a reduction; the first fault
 * kept. The per-message stamps are inline in skampi_ctx.h. */
#include "skampi_ctx.h"

/* The public stamps (skampi.h, for the Go side's tests) are the inline
 * ones the operations use. */
unsigned char skampi_byte1(int64_t call, int sender) { return sk_byte1(call, sender); }

unsigned char skampi_byte2(int64_t call, int sender) { return sk_byte2(call, sender); }

float skampi_float1(int64_t call, int sender) { return sk_float1(call, sender); }

float skampi_float2(int64_t call, int sender) { return sk_float2(call, sender); }

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

/* sk_fill stamps every payload byte of the message at m. */
void sk_fill(ctx *c, const lay *l, unsigned char *m, int sender) {
	int64_t i = 0;
	for (int64_t k = 0; k < l->count; k++)
		for (int64_t r = 0; r < l->nruns; r++) {
			unsigned char *p = m + k * l->ext + l->runs[2 * r];
			for (int64_t j = 0; j < l->runs[2 * r + 1]; j++) p[j] = full_byte(c->call, sender, i++);
		}
}

/* sk_verify checks every payload byte of the message at m; in the receive
 * buffer it then checks that the rest of the message's span kept HOLE. */
void sk_verify(ctx *c, const lay *l, unsigned char *m, int sender) {
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




