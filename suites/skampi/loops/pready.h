/* pready.h: marking the partitions of a partitioned send ready from
 * several threads (MPI_THREAD_MULTIPLE): a pool of threads made once per
 * batch that wait for a round, each marking the partitions k ≡ its
 * number (mod the threads), the caller being thread 0. */
#ifndef BEFF_PREADY_H
#define BEFF_PREADY_H

#include "control.h"

typedef struct pready_pool pready_pool;
typedef int (*pready_fn)(int, MPI_Request);

/* pready_pool_new starts threads−1 threads that mark with ready. */
int pready_pool_new(int threads, pready_fn ready, pready_pool **out);
/* pready_all marks partitions 0..parts−1 of rq ready, spread over the
 * pool's threads, and returns when all are marked (the first error). */
int pready_all(pready_pool *p, MPI_Request rq, int parts);
/* pready_pool_free stops and joins the threads (NULL is fine). */
void pready_pool_free(pready_pool *p);

#endif
