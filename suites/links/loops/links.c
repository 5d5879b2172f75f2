//go:build mpi

/* links.c: one measurement of a pair of processes: a ping-pong latency,
 * a one-way bandwidth either way, or both ways at once. The member that
 * decides (the lower one, or the sender of LINKS_BACK) marks its last
 * message with TAG_LAST, so that the pair stops together without a
 * message of its own; every message carries stamps of its sender and
 * number in its first and last byte, checked on receipt. */
#include "links.h"

#include <stdlib.h>

const char *const links_meas_names[LINKS_NMEAS] = {"lat", "forth", "back", "both"};

enum { TAG_MORE = 21, TAG_LAST = 22, TAG_ACK = 23, TAG_TIME = 24, TAG_SHARE = 25 };

static unsigned char first(int k, int sender) { return (unsigned char)(1 + (k * 31 + sender * 7) % 251); }
static unsigned char last(int k, int sender) { return (unsigned char)(2 + (k * 17 + sender * 13) % 249); }

static void stamp(unsigned char *b, int64_t len, int k, int me) {
	b[0] = first(k, me);
	if (len > 1) b[len - 1] = last(k, me);
}

static void check(const unsigned char *b, int64_t len, int k, int from, int64_t *faults) {
	if (b[0] != first(k, from) || (len > 1 && b[len - 1] != last(k, from))) (*faults)++;
}

/* done says whether bandwidth message k is the last: reps made, or the
 * cap passed. */
static int done(int k, int reps, double t0, double cap) { return k + 1 >= reps || MPI_Wtime() - t0 >= cap; }

/* Ping-pongs are timed in blocks of at least MIN_BLOCK (a bandwidth
 * message is long enough that reading the clock after each costs
 * nothing). */
enum { MIN_BLOCK = 16 };

static int cmp_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* median of the n > 0 values of v (sorted in place) */
static double median(double *v, int n) {
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* pingpong: the lower member pings, the higher answers. The lower one
 * reads the clock after every block of ping-pongs (a ping-pong of 8
 * bytes takes about as long as a clock read on some systems) and keeps
 * each whole block's time per ping-pong. */
static int pingpong(MPI_Comm c, int me, int p, int lower, int64_t len, int reps, double cap, unsigned char *s,
                    unsigned char *r, double *sec, int *count, double *typical, int64_t *faults) {
	int rc = MPI_SUCCESS, n = (int)len;
	if (lower) {
		/* blocks of a multiple of MIN_BLOCK, at most LINKS_BLOCKS of reps;
		 * the clock is read every MIN_BLOCK ping-pongs for the cap */
		int block = (reps / LINKS_BLOCKS / MIN_BLOCK + 1) * MIN_BLOCK, nb = 0, k = 0;
		double per[LINKS_BLOCKS + 1];
		double t0 = MPI_Wtime(), tb = t0;
		for (;; k++) {
			int end = k + 1 >= reps;
			if ((k + 1) % MIN_BLOCK == 0) {
				double now = MPI_Wtime();
				if ((k + 1) % block == 0) {
					if (nb <= LINKS_BLOCKS) per[nb++] = (now - tb) / block;
					tb = now;
				}
				end = end || now - t0 >= cap;
			}
			stamp(s, len, k, me);
			rc = MPI_Send(s, n, MPI_BYTE, p, end ? TAG_LAST : TAG_MORE, c);
			if (rc == MPI_SUCCESS) rc = MPI_Recv(r, n, MPI_BYTE, p, TAG_MORE, c, MPI_STATUS_IGNORE);
			if (rc != MPI_SUCCESS) return rc;
			check(r, len, k, p, faults);
			if (end) break;
		}
		*sec = MPI_Wtime() - t0;
		*count = k + 1;
		*typical = nb > 0 ? median(per, nb) : *sec / *count;
		return rc;
	}
	for (int k = 0;; k++) {
		MPI_Status st;
		rc = MPI_Recv(r, n, MPI_BYTE, p, MPI_ANY_TAG, c, &st);
		if (rc != MPI_SUCCESS) return rc;
		check(r, len, k, p, faults);
		stamp(s, len, k, me);
		rc = MPI_Send(s, n, MPI_BYTE, p, TAG_MORE, c);
		if (rc != MPI_SUCCESS || st.MPI_TAG == TAG_LAST) return rc;
	}
}

/* stream: the sender sends until its last message, the receiver acks it;
 * the sender's time runs from its first message to the ack. */
static int stream(MPI_Comm c, int me, int p, int sender, int64_t len, int reps, double cap, unsigned char *s,
                  unsigned char *r, double *sec, int *count, int64_t *faults) {
	int rc = MPI_SUCCESS, n = (int)len;
	char ack = 0;
	if (sender) {
		double t0 = MPI_Wtime();
		int k = 0;
		for (;; k++) {
			int end = done(k, reps, t0, cap);
			stamp(s, len, k, me);
			rc = MPI_Send(s, n, MPI_BYTE, p, end ? TAG_LAST : TAG_MORE, c);
			if (rc != MPI_SUCCESS) return rc;
			if (end) break;
		}
		rc = MPI_Recv(&ack, 1, MPI_CHAR, p, TAG_ACK, c, MPI_STATUS_IGNORE);
		*sec = MPI_Wtime() - t0;
		*count = k + 1;
		return rc;
	}
	int k = 0;
	for (;; k++) {
		MPI_Status st;
		rc = MPI_Recv(r, n, MPI_BYTE, p, MPI_ANY_TAG, c, &st);
		if (rc != MPI_SUCCESS) return rc;
		check(r, len, k, p, faults);
		if (st.MPI_TAG == TAG_LAST) break;
	}
	*count = k + 1;
	return MPI_Send(&ack, 1, MPI_CHAR, p, TAG_ACK, c);
}

/* both: each message of the lower member crosses one of the higher's. */
static int both(MPI_Comm c, int me, int p, int lower, int64_t len, int reps, double cap, unsigned char *s,
                unsigned char *r, double *sec, int *count, int64_t *faults) {
	int rc = MPI_SUCCESS, n = (int)len, k = 0;
	double t0 = MPI_Wtime();
	for (;; k++) {
		int end = lower && done(k, reps, t0, cap);
		MPI_Status st;
		stamp(s, len, k, me);
		rc = MPI_Sendrecv(s, n, MPI_BYTE, p, end ? TAG_LAST : TAG_MORE, r, n, MPI_BYTE, p, MPI_ANY_TAG, c, &st);
		if (rc != MPI_SUCCESS) return rc;
		check(r, len, k, p, faults);
		if (lower ? end : st.MPI_TAG == TAG_LAST) break;
	}
	*sec = MPI_Wtime() - t0;
	*count = k + 1;
	return rc;
}

int links_pair(MPI_Fint comm, int partner, int lower, int meas, int64_t len, int reps, double cap,
               unsigned char *sbuf, unsigned char *rbuf, double *seconds, int *count, double *typical, int64_t *faults) {
	MPI_Comm c = MPI_Comm_f2c(comm);
	int me, rc = MPI_Comm_rank(c, &me);
	*seconds = 0;
	*count = 0;
	*typical = 0;
	*faults = 0;
	if (rc != MPI_SUCCESS) return rc;
	if (len < 1 || len > INT32_MAX || reps < 1 || partner == me) return MPI_ERR_ARG;
	switch (meas) {
	case LINKS_LAT: return pingpong(c, me, partner, lower, len, reps, cap, sbuf, rbuf, seconds, count, typical, faults);
	case LINKS_FORTH: return stream(c, me, partner, lower, len, reps, cap, sbuf, rbuf, seconds, count, faults);
	case LINKS_BACK: {
		double sent = 0;
		rc = stream(c, me, partner, !lower, len, reps, cap, sbuf, rbuf, &sent, count, faults);
		if (rc != MPI_SUCCESS) return rc;
		if (!lower) return MPI_Send(&sent, 1, MPI_DOUBLE, partner, TAG_TIME, c);
		return MPI_Recv(seconds, 1, MPI_DOUBLE, partner, TAG_TIME, c, MPI_STATUS_IGNORE);
	}
	case LINKS_BOTH: return both(c, me, partner, lower, len, reps, cap, sbuf, rbuf, seconds, count, faults);
	}
	return MPI_ERR_ARG;
}

int links_share(MPI_Fint comm, int partner, int lower, double *v, int n) {
	MPI_Comm c = MPI_Comm_f2c(comm);
	if (lower) return MPI_Send(v, n, MPI_DOUBLE, partner, TAG_SHARE, c);
	return MPI_Recv(v, n, MPI_DOUBLE, partner, TAG_SHARE, c, MPI_STATUS_IGNORE);
}

/* post_window starts a window: the sends of this process (stamped with
 * window k's message numbers, the last one TAG_LAST when last), the
 * receives of the partner's, each into its own slot of rbuf. */
static int post_window(MPI_Comm c, int me, int p, int send, int recv, int64_t len, int window, int k, int last,
                       unsigned char *s, unsigned char *r, MPI_Request *req, int *n) {
	int rc = MPI_SUCCESS, m = (int)len;
	*n = 0;
	for (int i = 0; recv && i < window && rc == MPI_SUCCESS; i++)
		rc = MPI_Irecv(r + (int64_t)i * len, m, MPI_BYTE, p, MPI_ANY_TAG, c, &req[(*n)++]);
	if (send) stamp(s, len, k, me); /* one send buffer for the window: its stamps are the window's */
	for (int i = 0; send && i < window && rc == MPI_SUCCESS; i++) {
		rc = MPI_Isend(s, m, MPI_BYTE, p, last && i == window - 1 ? TAG_LAST : TAG_MORE, c, &req[(*n)++]);
	}
	return rc;
}

int links_multi(MPI_Fint comm, int partner, int lower, int both, int64_t len, int window, int reps, double cap,
                unsigned char *sbuf, unsigned char *rbuf, double *seconds, int *count, int64_t *faults) {
	MPI_Comm c = MPI_Comm_f2c(comm);
	int me, rc = MPI_Comm_rank(c, &me);
	MPI_Request req[2 * LINKS_WINDOW];
	MPI_Status st[2 * LINKS_WINDOW];
	*seconds = 0;
	*count = 0;
	*faults = 0;
	if (rc != MPI_SUCCESS) return rc;
	if (len < 1 || len > INT32_MAX || window < 1 || window > LINKS_WINDOW || reps < 1 || partner == me) return MPI_ERR_ARG;
	int send = both || lower, recv = both || !lower, k = 0;
	char ack = 0;
	double t0 = MPI_Wtime();
	for (;; k++) {
		/* the lower process decides before it posts: the window's end */
		int last = lower && (k + 1 >= reps || MPI_Wtime() - t0 >= cap), n, end = last;
		rc = post_window(c, me, partner, send, recv, len, window, k, last, sbuf, rbuf, req, &n);
		if (rc == MPI_SUCCESS) rc = MPI_Waitall(n, req, st);
		if (rc != MPI_SUCCESS) return rc;
		for (int i = 0; recv && i < window; i++) {
			check(rbuf + (int64_t)i * len, len, k, partner, faults);
			if (!lower && st[i].MPI_TAG == TAG_LAST) end = 1;
		}
		if (!both) { /* the receiver acknowledges the window */
			if (lower) rc = MPI_Recv(&ack, 0, MPI_CHAR, partner, TAG_ACK, c, MPI_STATUS_IGNORE);
			else rc = MPI_Send(&ack, 0, MPI_CHAR, partner, TAG_ACK, c);
			if (rc != MPI_SUCCESS) return rc;
		}
		if (end) break;
	}
	*seconds = MPI_Wtime() - t0;
	*count = k + 1;
	return rc;
}
