//go:build mpi

package mpi

/*
#include "clock.h"
*/
import "C"

// ClockLearn times rounds ping-pongs of this process with teacher on c,
// its clock MPI_Wtime mapped by local (at, offset, drift), and returns
// the one with the shortest round trip as a sample (local mid time,
// teacher's clock minus this one's, half the round trip) and what the
// teacher sent after them (clocks.Wire).
func ClockLearn(c Comm, teacher, rounds int, local [3]float64) (sample [3]float64, wire [5]float64, err error) {
	rc := OnMain(func() C.int {
		return C.clk_learn(C.MPI_Fint(c), C.int(teacher), C.int(rounds), (*C.double)(&local[0]), (*C.double)(&sample[0]), (*C.double)(&wire[0]))
	})
	return sample, wire, mpiErr("the clock ping-pongs", rc)
}

// ClockTeach is the teacher's side of ClockLearn: it answers with its
// clock mapped by local, then sends wire.
func ClockTeach(c Comm, learner, rounds int, local [3]float64, wire [5]float64) error {
	rc := OnMain(func() C.int {
		return C.clk_teach(C.MPI_Fint(c), C.int(learner), C.int(rounds), (*C.double)(&local[0]), (*C.double)(&wire[0]))
	})
	return mpiErr("the clock ping-pongs", rc)
}
