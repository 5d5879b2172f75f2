/* compute.h: the computation an overlap point places between the start of
 * a non-blocking operation and its wait: a chain of dependent
 * floating-point steps that touches no memory and calls no MPI (so MPI
 * progresses only as the library itself makes it), calibrated on each
 * process to last a given time. */
#ifndef BEFF_COMPUTE_H
#define BEFF_COMPUTE_H

#include <stdint.h>

/* compute_steps is the steps that last about seconds on this process
 * (0 for seconds <= 0), from runs of the chain timed with MPI_Wtime. */
int64_t compute_steps(double seconds);
/* compute_run runs steps steps of the chain. */
void compute_run(int64_t steps);

#endif
