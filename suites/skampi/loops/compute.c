//go:build mpi

/* compute.c: the calibrated computation of overlap points (compute.h). */
#include "compute.h"
#include <mpi.h>

static volatile double sink; /* keeps the chain from being optimised away */

void compute_run(int64_t steps) {
	double x = sink + 1.0;
	for (int64_t i = 0; i < steps; i++) x = x * 0.9999999 + 1e-7;
	sink = x;
}

/* rate is the steps per second of the chain: the fastest of three runs
 * of at least a millisecond each. */
static double rate(void) {
	double best = 0;
	for (int k = 0; k < 3; k++) {
		int64_t n = 1024;
		double t;
		for (;;) {
			double t0 = MPI_Wtime();
			compute_run(n);
			t = MPI_Wtime() - t0;
			if (t >= 1e-3 || n > ((int64_t)1 << 40)) break;
			n *= 2;
		}
		if (t > 0 && n / t > best) best = n / t;
	}
	return best;
}

int64_t compute_steps(double seconds) {
	if (!(seconds > 0)) return 0;
	double n = seconds * rate();
	if (n > 9e18) n = 9e18;
	return n < 1 ? 1 : (int64_t)n;
}
