/* congestion.h: the loops of the congestion suite: a canary samples one
 * measurement of its kind for a while, a congestor loads the network with
 * its kind of traffic for a while or until the canaries are done. One call
 * per measurement; every sample lands in a histogram of fixed size, so the
 * memory of a measurement does not grow with its length. */
#ifndef BEFF_CONGESTION_H
#define BEFF_CONGESTION_H

#include "control.h"

/* The histogram of samples: bin k holds the samples in
 * [CONG_HIST_MIN·CONG_HIST_RATIO^k, CONG_HIST_MIN·CONG_HIST_RATIO^(k+1)) s;
 * the first and last bins also hold what falls below and above. */
#define CONG_HIST_BINS 2560
#define CONG_HIST_MIN 1e-9
#define CONG_HIST_RATIO 1.01

/* Canaries and congestors, in the order of mpi.Canaries and mpi.Congestors
 * (a Go test checks the names). */
enum cong_canary { CONG_RR_LAT, CONG_RR_BW, CONG_ALLREDUCE, CONG_NCANARIES };
enum cong_congestor { CONG_INCAST, CONG_RMA_INCAST, CONG_BCAST, CONG_ALLTOALL, CONG_WORST_CYCLE, CONG_NCONGESTORS };
extern const char *const cong_canary_names[CONG_NCANARIES];
extern const double cong_hist_min, cong_hist_ratio; /* the two macros, for Go's test */
extern const char *const cong_congestor_names[CONG_NCONGESTORS];

/* Messages each way per iteration of the ring bandwidth canary, and the
 * most messages an incast's or a broadcast's root has outstanding. */
#define CONG_BW_OUTSTANDING 8
#define CONG_WINDOW 64

/* What a canary measured on this rank. */
typedef struct {
	int64_t hist[CONG_HIST_BINS]; /* allreduce: every call's slowest process, on rank 0 of comm only */
	int64_t n;                    /* samples in hist */
	double sum, max;              /* of the samples, s */
	double elapsed;               /* seconds from the first to the last timed iteration */
	int64_t iters, faults;        /* timed iterations; received data that was wrong */
} cong_samples;

/* What a congestor delivered on this rank. */
typedef struct {
	int64_t calls, bytes; /* calls made while loading, bytes this rank received (its puts, for RMA) */
	double elapsed;       /* seconds of loading */
} cong_load;

/* cong_canary runs canary kind on comm (this rank between left and right in
 * a ring) for at least duration seconds after one untimed burst; the ranks
 * of comm stop together. With world != MPI_COMM_NULL the canary runs under
 * load: it starts when the congestors do (the first MPI_Ibarrier on world)
 * and tells them it is done (the second). sbuf and rbuf hold
 * 2·CONG_BW_OUTSTANDING·len bytes each. Every burst advances progress,
 * the process's progress counter (ctl_advance), as every call of a
 * congestor does. */
int cong_canary(MPI_Fint comm, MPI_Fint world, int kind, int left, int right, int64_t len,
                double duration, unsigned char *sbuf, unsigned char *rbuf, int64_t *progress, cong_samples *out);

/* cong_congestor loads the network with congestor kind on comm, len bytes
 * per message, until duration seconds have passed (world == MPI_COMM_NULL)
 * or, under a canary (world set), until the canaries are done: it first
 * makes one call, then enters both MPI_Ibarriers on world. sbuf and rbuf
 * hold CONG_WINDOW·len bytes each. The ranks of comm stop together. left
 * and right are this process's neighbours in comm for the worst-case cycle
 * (ring.WorstNeighbors on the Go side); the other kinds ignore them. */
int cong_congestor(MPI_Fint comm, MPI_Fint world, int kind, int left, int right, int64_t len, double duration,
                   unsigned char *sbuf, unsigned char *rbuf, int64_t *progress, cong_load *out);

#endif
