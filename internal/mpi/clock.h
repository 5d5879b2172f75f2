/* clock.h: the ping-pongs behind the model of the processes' clocks
 * (package clocks; Session.Clock drives them along a binomial tree). A
 * clock is MPI_Wtime mapped by a model m = {at, offset, drift}:
 * m(t) = t + offset + drift·(t − at); the identity is {0, 0, 0}. */
#ifndef BEFF_CLOCK_H
#define BEFF_CLOCK_H

#include <mpi.h>

/* clk_learn: this process times rounds ping-pongs with its teacher on
 * comm, its clock mapped by local, and keeps the one with the shortest
 * round trip: sample = {local mid time, teacher's clock minus this one's
 * there, half the round trip}; then it receives the teacher's model and
 * bound (five doubles, clocks.Wire). */
int clk_learn(MPI_Fint comm, int teacher, int rounds, const double local[3], double sample[3], double wire[5]);

/* clk_teach is the teacher's side: it answers rounds ping-pongs with its
 * clock mapped by local, then sends wire. */
int clk_teach(MPI_Fint comm, int learner, int rounds, const double local[3], const double wire[5]);

#endif
