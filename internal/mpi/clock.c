//go:build mpi

/* clock.c: the ping-pongs of the clock model (clock.h). */
#include "clock.h"

/* CLK_TAG keeps the exchanges apart from any other traffic on comm. */
#define CLK_TAG 0x6c6b

static double clk_now(const double m[3]) {
	double t = MPI_Wtime();
	return t + m[1] + m[2] * (t - m[0]);
}

int clk_learn(MPI_Fint comm, int teacher, int rounds, const double local[3], double sample[3], double wire[5]) {
	MPI_Comm c = MPI_Comm_f2c(comm);
	double theirs = 0, best = -1;
	int rc = MPI_SUCCESS;
	for (int i = 0; i < rounds && rc == MPI_SUCCESS; i++) {
		double t1 = clk_now(local);
		rc = MPI_Send(&t1, 1, MPI_DOUBLE, teacher, CLK_TAG, c);
		if (rc == MPI_SUCCESS) rc = MPI_Recv(&theirs, 1, MPI_DOUBLE, teacher, CLK_TAG, c, MPI_STATUS_IGNORE);
		double t2 = clk_now(local);
		if (rc == MPI_SUCCESS && (best < 0 || t2 - t1 < best)) {
			best = t2 - t1;
			sample[0] = (t1 + t2) / 2;
			sample[1] = theirs - sample[0];
			sample[2] = best / 2;
		}
	}
	if (rc == MPI_SUCCESS) rc = MPI_Recv(wire, 5, MPI_DOUBLE, teacher, CLK_TAG, c, MPI_STATUS_IGNORE);
	return rc;
}

int clk_teach(MPI_Fint comm, int learner, int rounds, const double local[3], const double wire[5]) {
	MPI_Comm c = MPI_Comm_f2c(comm);
	double t = 0;
	int rc = MPI_SUCCESS;
	for (int i = 0; i < rounds && rc == MPI_SUCCESS; i++) {
		rc = MPI_Recv(&t, 1, MPI_DOUBLE, learner, CLK_TAG, c, MPI_STATUS_IGNORE);
		t = clk_now(local);
		if (rc == MPI_SUCCESS) rc = MPI_Send(&t, 1, MPI_DOUBLE, learner, CLK_TAG, c);
	}
	if (rc == MPI_SUCCESS) rc = MPI_Send((void *)wire, 5, MPI_DOUBLE, learner, CLK_TAG, c);
	return rc;
}
