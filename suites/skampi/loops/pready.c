//go:build mpi

/* pready.c: the threads that mark partitions ready (pready.h). */
#include "pready.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef struct {
	pready_pool *pool;
	int id;
	pthread_t t;
} worker;

struct pready_pool {
	int threads, parts;
	pready_fn ready;
	MPI_Request rq;
	atomic_uint round; /* a new round starts when it changes */
	atomic_int done;   /* the workers that finished the round */
	atomic_int rc;     /* the round's first error */
	atomic_int stop;
	worker *w; /* threads−1 of them */
	int started;
};

/* mark marks thread id's partitions of the round. */
static int mark(pready_pool *p, int id) {
	int rc = 0;
	for (int k = id; k < p->parts && !rc; k += p->threads) rc = p->ready(k, p->rq);
	return rc;
}

static void *work(void *arg) {
	worker *w = arg;
	pready_pool *p = w->pool;
	unsigned seen = 0;
	for (;;) {
		unsigned r;
		while ((r = atomic_load_explicit(&p->round, memory_order_acquire)) == seen) sched_yield();
		seen = r;
		if (atomic_load(&p->stop)) return NULL;
		int rc = mark(p, w->id), none = 0;
		if (rc) atomic_compare_exchange_strong(&p->rc, &none, rc);
		atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
	}
}

int pready_pool_new(int threads, pready_fn ready, pready_pool **out) {
	pready_pool *p = calloc(1, sizeof *p);
	*out = p;
	if (!p || threads < 1) return MPI_ERR_NO_MEM;
	p->threads = threads;
	p->ready = ready;
	p->w = calloc(threads, sizeof *p->w);
	if (!p->w) return MPI_ERR_NO_MEM;
	for (int i = 1; i < threads; i++, p->started++) {
		p->w[i].pool = p, p->w[i].id = i;
		if (pthread_create(&p->w[i].t, NULL, work, &p->w[i])) return MPI_ERR_OTHER;
	}
	return 0;
}

int pready_all(pready_pool *p, MPI_Request rq, int parts) {
	p->rq = rq;
	p->parts = parts;
	atomic_store(&p->done, 0);
	atomic_store(&p->rc, 0);
	atomic_fetch_add_explicit(&p->round, 1, memory_order_release);
	int rc = mark(p, 0), none = 0;
	if (rc) atomic_compare_exchange_strong(&p->rc, &none, rc);
	while (atomic_load_explicit(&p->done, memory_order_acquire) < p->threads - 1) sched_yield();
	return atomic_load(&p->rc);
}

void pready_pool_free(pready_pool *p) {
	if (!p) return;
	atomic_store(&p->stop, 1);
	atomic_fetch_add_explicit(&p->round, 1, memory_order_release);
	for (int i = 1; i <= p->started; i++) pthread_join(p->w[i].t, NULL);
	free(p->w);
	free(p);
}
