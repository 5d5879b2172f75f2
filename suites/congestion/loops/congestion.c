//go:build mpi

/* congestion.c: the canaries and congestors of the congestion suite (see
 * congestion.h). */
#include "congestion.h"
#include <math.h>
#include <string.h>

const char *const cong_canary_names[CONG_NCANARIES] = {"rr-lat", "rr-bw", "allreduce"};
const double cong_hist_min = CONG_HIST_MIN, cong_hist_ratio = CONG_HIST_RATIO;
const char *const cong_congestor_names[CONG_NCONGESTORS] = {"incast", "rma-incast", "bcast", "alltoall", "worst-cycle"};

/* Iterations between two decisions whether to stop, per canary. */
static const int canary_burst[CONG_NCANARIES] = {64, 2, 32};

enum { TAG_RIGHT = 1, TAG_LEFT = 2, TAG_INCAST = 3, TAG_BCAST = 4, TAG_A2A = 5 };

static int bin_of(double t) {
	if (!(t > CONG_HIST_MIN)) return 0;
	int k = (int)floor(log(t / CONG_HIST_MIN) / log(CONG_HIST_RATIO));
	return k < 0 ? 0 : (k >= CONG_HIST_BINS ? CONG_HIST_BINS - 1 : k);
}

static void add_sample(cong_samples *o, double t) {
	o->hist[bin_of(t)]++;
	o->n++;
	o->sum += t;
	if (t > o->max) o->max = t;
}

/* The first byte of message k of iteration it from sender. */
static unsigned char stamp(int64_t it, int k, int sender) {
	return (unsigned char)(1 + (it * 31 + k * 7 + (int64_t)sender * 13) % 251);
}

typedef struct {
	MPI_Comm comm;
	int me, n, left, right;
	int64_t len;
	unsigned char *sbuf, *rbuf;
	cong_samples *o;
	double buf[64]; /* the allreduce canary's times of one burst, and the stop flag */
	int64_t *progress; /* the process's progress counter: one step a burst */
} canary;

/* ring_lat is one iteration of the ring latency: 8 bytes to the right and
 * from the left, then to the left and from the right; half its time. */
static int ring_lat(canary *c, int64_t it, double *t) {
	c->sbuf[0] = stamp(it, 0, c->me);
	double t0 = MPI_Wtime();
	int rc = MPI_Sendrecv(c->sbuf, (int)c->len, MPI_BYTE, c->right, TAG_RIGHT, c->rbuf, (int)c->len,
	                      MPI_BYTE, c->left, TAG_RIGHT, c->comm, MPI_STATUS_IGNORE);
	if (rc == MPI_SUCCESS)
		rc = MPI_Sendrecv(c->sbuf, (int)c->len, MPI_BYTE, c->left, TAG_LEFT, c->rbuf + c->len,
		                  (int)c->len, MPI_BYTE, c->right, TAG_LEFT, c->comm, MPI_STATUS_IGNORE);
	*t = (MPI_Wtime() - t0) / 2;
	c->o->faults += (c->rbuf[0] != stamp(it, 0, c->left)) + (c->rbuf[c->len] != stamp(it, 0, c->right));
	return rc;
}

/* ring_bw is one iteration of the ring bandwidth: CONG_BW_OUTSTANDING
 * messages to each neighbor and from each, all outstanding at once. */
static int ring_bw(canary *c, int64_t it, double *t) {
	enum { W = CONG_BW_OUTSTANDING };
	MPI_Request rq[4 * W];
	for (int k = 0; k < 2 * W; k++) c->sbuf[k * c->len] = stamp(it, k, c->me);
	double t0 = MPI_Wtime();
	int rc = MPI_SUCCESS;
	for (int k = 0; k < W && rc == MPI_SUCCESS; k++) {
		rc = MPI_Irecv(c->rbuf + k * c->len, (int)c->len, MPI_BYTE, c->left, TAG_RIGHT, c->comm, &rq[k]);
		if (rc == MPI_SUCCESS)
			rc = MPI_Irecv(c->rbuf + (W + k) * c->len, (int)c->len, MPI_BYTE, c->right, TAG_LEFT, c->comm, &rq[W + k]);
	}
	for (int k = 0; k < W && rc == MPI_SUCCESS; k++) {
		rc = MPI_Isend(c->sbuf + k * c->len, (int)c->len, MPI_BYTE, c->right, TAG_RIGHT, c->comm, &rq[2 * W + k]);
		if (rc == MPI_SUCCESS)
			rc = MPI_Isend(c->sbuf + (W + k) * c->len, (int)c->len, MPI_BYTE, c->left, TAG_LEFT, c->comm, &rq[3 * W + k]);
	}
	if (rc == MPI_SUCCESS) rc = MPI_Waitall(4 * W, rq, MPI_STATUSES_IGNORE);
	*t = MPI_Wtime() - t0;
	for (int k = 0; k < W; k++) {
		c->o->faults += c->rbuf[k * c->len] != stamp(it, k, c->left);
		c->o->faults += c->rbuf[(W + k) * c->len] != stamp(it, W + k, c->right);
	}
	return rc;
}

/* allreduce is one call of MPI_Allreduce of one double after a barrier:
 * this process's time of it. */
static int allreduce(canary *c, int64_t it, double *t) {
	(void)it;
	double in = c->me + 1, out = 0;
	int rc = MPI_Barrier(c->comm);
	double t0 = MPI_Wtime();
	if (rc == MPI_SUCCESS) rc = MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, c->comm);
	*t = MPI_Wtime() - t0;
	c->o->faults += out != 0.5 * c->n * (c->n + 1.0);
	return rc;
}

typedef int (*iteration)(canary *c, int64_t it, double *t);
static const iteration canary_iter[CONG_NCANARIES] = {ring_lat, ring_bw, allreduce};

/* burst runs one burst of iterations and decides with the other processes
 * whether to stop: when one of them has sampled for duration seconds. The
 * allreduce canary's sample of a call is its slowest process's time. */
static int burst(canary *c, int kind, int64_t *it, int timed, double t0, double duration, int *stop) {
	int b = canary_burst[kind], rc = MPI_SUCCESS;
	for (int i = 0; i < b && rc == MPI_SUCCESS; i++) {
		double t;
		rc = canary_iter[kind](c, (*it)++, &t);
		if (kind == CONG_ALLREDUCE) c->buf[i] = t;
		else if (timed) add_sample(c->o, t);
	}
	if (rc != MPI_SUCCESS) return rc;
	double done = timed && MPI_Wtime() - t0 >= duration;
	if (kind != CONG_ALLREDUCE) {
		rc = MPI_Allreduce(MPI_IN_PLACE, &done, 1, MPI_DOUBLE, MPI_MAX, c->comm);
	} else {
		c->buf[b] = done;
		rc = MPI_Allreduce(MPI_IN_PLACE, c->buf, b + 1, MPI_DOUBLE, MPI_MAX, c->comm);
		for (int i = 0; timed && c->me == 0 && i < b; i++) add_sample(c->o, c->buf[i]);
		done = c->buf[b];
	}
	if (timed) c->o->iters += b;
	ctl_advance(c->progress);
	*stop = done != 0;
	return rc;
}

int cong_canary(MPI_Fint comm, MPI_Fint world, int kind, int left, int right, int64_t len,
                double duration, unsigned char *sbuf, unsigned char *rbuf, int64_t *progress, cong_samples *out) {
	memset(out, 0, sizeof *out);
	if (kind < 0 || kind >= CONG_NCANARIES || len < 1 || len > INT32_MAX) return MPI_ERR_ARG;
	canary c = {.comm = MPI_Comm_f2c(comm), .left = left, .right = right, .len = len,
	            .sbuf = sbuf, .rbuf = rbuf, .o = out, .progress = progress};
	MPI_Comm w = MPI_Comm_f2c(world);
	MPI_Request start = MPI_REQUEST_NULL, done = MPI_REQUEST_NULL;
	int rc = MPI_Comm_rank(c.comm, &c.me), stop = 0;
	if (rc == MPI_SUCCESS) rc = MPI_Comm_size(c.comm, &c.n);
	if (rc == MPI_SUCCESS && w != MPI_COMM_NULL) { /* released when the congestors load */
		rc = MPI_Ibarrier(w, &start);
		if (rc == MPI_SUCCESS) rc = MPI_Wait(&start, MPI_STATUS_IGNORE);
	}
	if (rc == MPI_SUCCESS) rc = MPI_Barrier(c.comm);
	int64_t it = 0;
	if (rc == MPI_SUCCESS) rc = burst(&c, kind, &it, 0, 0, duration, &stop); /* untimed */
	double t0 = MPI_Wtime();
	for (stop = 0; rc == MPI_SUCCESS && !stop;) rc = burst(&c, kind, &it, 1, t0, duration, &stop);
	out->elapsed = MPI_Wtime() - t0;
	if (rc == MPI_SUCCESS && w != MPI_COMM_NULL) { /* tell the congestors */
		rc = MPI_Ibarrier(w, &done);
		if (rc == MPI_SUCCESS) rc = MPI_Wait(&done, MPI_STATUS_IGNORE);
	}
	return rc;
}

typedef struct {
	MPI_Comm comm;
	int me, n;
	int left, right; /* worst cycle: the neighbours of me */
	int64_t len;
	unsigned char *sbuf, *rbuf;
	MPI_Win win;
	MPI_Request rq[CONG_WINDOW];
	int shift; /* the all-to-all's next shift, 0 … n−2 (the partner is shift+1 away) */
	int64_t *progress; /* the process's progress counter: one step a call */
} congestor;

/* windowed posts n−1 operations (from or to every other process) with at
 * most CONG_WINDOW outstanding, slot k's buffer at k·len. */
static int windowed(congestor *g, int (*post)(congestor *g, int peer, int slot)) {
	int total = g->n - 1, posted = 0, done = 0, w = total < CONG_WINDOW ? total : CONG_WINDOW, rc = MPI_SUCCESS;
	for (; posted < w && rc == MPI_SUCCESS; posted++) rc = post(g, posted + 1, posted);
	for (; done < total && rc == MPI_SUCCESS; done++) {
		int slot;
		rc = MPI_Waitany(w, g->rq, &slot, MPI_STATUS_IGNORE);
		if (rc == MPI_SUCCESS && posted < total) rc = post(g, ++posted, slot);
	}
	return rc;
}

static int post_recv(congestor *g, int peer, int slot) {
	(void)peer;
	return MPI_Irecv(g->rbuf + slot * g->len, (int)g->len, MPI_BYTE, MPI_ANY_SOURCE, TAG_INCAST, g->comm, &g->rq[slot]);
}

static int post_send(congestor *g, int peer, int slot) {
	return MPI_Isend(g->sbuf + slot * g->len, (int)g->len, MPI_BYTE, peer, TAG_BCAST, g->comm, &g->rq[slot]);
}

/* One call of each congestor; *bytes grows by what this process received
 * (an RMA origin: what it put). */
static int incast(congestor *g, int64_t *bytes) {
	if (g->me != 0) return MPI_Send(g->sbuf, (int)g->len, MPI_BYTE, 0, TAG_INCAST, g->comm);
	*bytes += (g->n - 1) * g->len;
	return windowed(g, post_recv);
}

static int rma_incast(congestor *g, int64_t *bytes) {
	if (g->me == 0) return MPI_SUCCESS; /* the target: its window takes the puts */
	int rc = MPI_Put(g->sbuf, (int)g->len, MPI_BYTE, 0, (MPI_Aint)(g->me % CONG_WINDOW) * g->len,
	                 (int)g->len, MPI_BYTE, g->win);
	if (rc == MPI_SUCCESS) rc = MPI_Win_flush(0, g->win);
	*bytes += g->len;
	return rc;
}

static int bcast(congestor *g, int64_t *bytes) {
	if (g->me == 0) return windowed(g, post_send);
	*bytes += g->len;
	return MPI_Recv(g->rbuf, (int)g->len, MPI_BYTE, 0, TAG_BCAST, g->comm, MPI_STATUS_IGNORE);
}

/* One call of the all-to-all is at most CONG_WINDOW of its n−1 shifts,
 * the next ones each call (every process in step): a call stays short
 * on any number of processes, and the calls go through the whole
 * exchange in turn. */
static int alltoall(congestor *g, int64_t *bytes) {
	int rc = MPI_SUCCESS, steps = g->n - 1 < CONG_WINDOW ? g->n - 1 : CONG_WINDOW;
	for (int i = 0; i < steps && rc == MPI_SUCCESS; i++) {
		int k = 1 + g->shift;
		g->shift = (g->shift + 1) % (g->n - 1);
		rc = MPI_Sendrecv(g->sbuf, (int)g->len, MPI_BYTE, (g->me + k) % g->n, TAG_A2A, g->rbuf, (int)g->len,
		                  MPI_BYTE, (g->me - k + g->n) % g->n, TAG_A2A, g->comm, MPI_STATUS_IGNORE);
	}
	*bytes += (int64_t)steps * g->len;
	return rc;
}

/* One call of the worst cycle: len bytes to the right neighbour and from
 * the left, then to the left and from the right (a b_eff ring step). */
static int worst_cycle(congestor *g, int64_t *bytes) {
	int left = g->left, right = g->right;
	int rc = MPI_Sendrecv(g->sbuf, (int)g->len, MPI_BYTE, right, TAG_RIGHT, g->rbuf, (int)g->len, MPI_BYTE, left,
	                      TAG_RIGHT, g->comm, MPI_STATUS_IGNORE);
	if (rc == MPI_SUCCESS)
		rc = MPI_Sendrecv(g->sbuf, (int)g->len, MPI_BYTE, left, TAG_LEFT, g->rbuf, (int)g->len, MPI_BYTE, right,
		                  TAG_LEFT, g->comm, MPI_STATUS_IGNORE);
	*bytes += 2 * g->len;
	return rc;
}

typedef int (*congest_call)(congestor *g, int64_t *bytes);
static const congest_call congest[CONG_NCONGESTORS] = {incast, rma_incast, bcast, alltoall, worst_cycle};

/* load calls the congestor until the processes of comm agree to stop: each
 * call is followed by the wait for the previous call's vote and a new
 * vote (an MPI_Iallreduce that overlaps the next call). */
static int load(congestor *g, int kind, MPI_Comm w, MPI_Request *done, double duration, cong_load *o) {
	MPI_Request vote = MPI_REQUEST_NULL;
	int local = 0, all = 0, rc = MPI_SUCCESS;
	double t0 = MPI_Wtime();
	for (;;) {
		rc = congest[kind](g, &o->bytes);
		if (rc != MPI_SUCCESS) break;
		o->calls++;
		ctl_advance(g->progress);
		if (vote != MPI_REQUEST_NULL) {
			if ((rc = MPI_Wait(&vote, MPI_STATUS_IGNORE)) != MPI_SUCCESS || all) break;
		}
		if (w != MPI_COMM_NULL) {
			int flag = 0;
			if ((rc = MPI_Test(done, &flag, MPI_STATUS_IGNORE)) != MPI_SUCCESS) break;
			local = local || flag;
		} else {
			local = MPI_Wtime() - t0 >= duration;
		}
		if ((rc = MPI_Iallreduce(&local, &all, 1, MPI_INT, MPI_MAX, g->comm, &vote)) != MPI_SUCCESS) break;
	}
	o->elapsed = MPI_Wtime() - t0;
	return rc;
}

int cong_congestor(MPI_Fint comm, MPI_Fint world, int kind, int left, int right, int64_t len, double duration,
                   unsigned char *sbuf, unsigned char *rbuf, int64_t *progress, cong_load *out) {
	memset(out, 0, sizeof *out);
	if (kind < 0 || kind >= CONG_NCONGESTORS || len < 1 || len > INT32_MAX) return MPI_ERR_ARG;
	congestor g = {.comm = MPI_Comm_f2c(comm), .left = left, .right = right, .len = len, .sbuf = sbuf, .rbuf = rbuf,
	               .win = MPI_WIN_NULL, .progress = progress};
	MPI_Comm w = MPI_Comm_f2c(world);
	MPI_Request start = MPI_REQUEST_NULL, done = MPI_REQUEST_NULL;
	int rc = MPI_Comm_rank(g.comm, &g.me);
	if (rc == MPI_SUCCESS) rc = MPI_Comm_size(g.comm, &g.n);
	if (rc == MPI_SUCCESS && kind == CONG_RMA_INCAST) {
		rc = MPI_Win_create(rbuf, g.me == 0 ? (MPI_Aint)CONG_WINDOW * len : 0, 1, MPI_INFO_NULL, g.comm, &g.win);
		if (rc == MPI_SUCCESS) rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, g.win);
	}
	if (rc == MPI_SUCCESS) rc = MPI_Barrier(g.comm);
	int64_t warm = 0;
	if (rc == MPI_SUCCESS) rc = congest[kind](&g, &warm); /* untimed: the network is loaded from here */
	if (rc == MPI_SUCCESS && w != MPI_COMM_NULL) {
		rc = MPI_Ibarrier(w, &start); /* releases the canaries */
		if (rc == MPI_SUCCESS) rc = MPI_Ibarrier(w, &done); /* completes when they are done */
	}
	if (rc == MPI_SUCCESS) rc = load(&g, kind, w, &done, duration, out);
	if (rc == MPI_SUCCESS && w != MPI_COMM_NULL) {
		rc = MPI_Wait(&start, MPI_STATUS_IGNORE);
		if (rc == MPI_SUCCESS) rc = MPI_Wait(&done, MPI_STATUS_IGNORE);
	}
	if (g.win != MPI_WIN_NULL) {
		int rc2 = MPI_Win_unlock_all(g.win);
		if (rc2 == MPI_SUCCESS) rc2 = MPI_Win_free(&g.win);
		if (rc == MPI_SUCCESS) rc = rc2;
	}
	return rc;
}
