/* tools/pingpong.c: the plain-C reference for the harness overhead figure.
 * It does what beff's "pingpong" pattern does with the sendrecv method at
 * 1 byte — rank 0 sends then receives, rank 1 receives then sends — in a
 * loop of the same length, timed with MPI_Wtime around the loop after a
 * barrier and one untimed iteration, and prints the half round-trip time of
 * the best of REPS loops (beff also keeps the best of its repetitions).
 * Build: mpicc -O2 -o pingpong tools/pingpong.c
 * Run:   mpirun -np 2 ./pingpong [looplen] [reps]                       */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
	int rank, size, loop = argc > 1 ? atoi(argv[1]) : 10000, reps = argc > 2 ? atoi(argv[2]) : 3;
	char sbuf[8] = {0}, rbuf[8] = {0};
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2) {
		if (rank == 0) fprintf(stderr, "pingpong: needs 2 processes\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	double best = 1e30;
	for (int r = 0; r < reps; r++) {
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = 0;
		for (int it = 0; it <= loop; it++) {
			if (it == 1) t0 = MPI_Wtime(); /* iteration 0 is untimed */
			if (rank == 0) {
				MPI_Send(sbuf, 1, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
				MPI_Recv(rbuf, 1, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else if (rank == 1) {
				MPI_Recv(rbuf, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(sbuf, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
			}
		}
		double t = MPI_Wtime() - t0, tmax;
		MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
		if (rank == 0 && tmax < best) best = tmax;
	}
	if (rank == 0)
		printf("pingpong-c: looplen %d, best of %d: %.4f us per message (half round trip), %.2f MB/s\n",
		       loop, reps, best / loop / 2 * 1e6, 2.0 * loop / best / 1e6);
	MPI_Finalize();
	return 0;
}
