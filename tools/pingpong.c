/* tools/pingpong.c: the plain-C reference for the harness overhead figure.
 * Rank 0 sends then receives, rank 1 receives then sends, 1-byte messages,
 * timed with MPI_Wtime around a loop of `looplen` iterations after a barrier
 * and one untimed iteration; it prints the half round-trip time of the best
 * of `reps` loops (beff also keeps the best of its repetitions).
 *
 * With a third argument LMAX it does what beff's loop does besides the
 * messages: messages placed cyclically in two buffers of 6*(LMAX+16) bytes
 * (offset advancing by the length rounded up to 8) and the first byte of
 * every message stamped before sending and checked after receiving. The
 * difference between beff and this mode is then the cost of the harness
 * (Go process, cgo), the difference between the two modes that of the
 * b_eff definition.
 * Build: mpicc -O2 -o pingpong tools/pingpong.c
 * Run:   mpirun -np 2 ./pingpong [looplen] [reps] [lmax]                   */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
	int rank, size, loop = argc > 1 ? atoi(argv[1]) : 10000, reps = argc > 2 ? atoi(argv[2]) : 3;
	int64_t lmax = argc > 3 ? atoll(argv[3]) : 0, buflen = lmax > 0 ? 6 * (lmax + 16) : 8;
	long bad = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2) {
		if (rank == 0) fprintf(stderr, "pingpong: needs 2 processes\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	unsigned char *sbuf = malloc(buflen), *rbuf = malloc(buflen);
	memset(sbuf, 0, buflen);
	memset(rbuf, 0, buflen);
	double best = 1e30;
	for (int r = 0; r < reps; r++) {
		int64_t so = 0, ro = 0;
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = 0;
		for (int it = 0; it <= loop; it++) {
			if (it == 1) t0 = MPI_Wtime(); /* iteration 0 is untimed */
			unsigned char v = (unsigned char)(1 + it % 251);
			if (rank < 2) {
				int peer = 1 - rank;
				for (int step = 0; step < 2; step++) {
					if ((step == 0) == (rank == 0)) {
						if (lmax) sbuf[so] = v;
						MPI_Send(sbuf + so, 1, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
						if (lmax && (so += 8) + 1 > buflen) so = 0;
					} else {
						MPI_Recv(rbuf + ro, 1, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
						if (lmax) {
							bad += rbuf[ro] != v;
							if ((ro += 8) + 1 > buflen) ro = 0;
						}
					}
				}
			}
		}
		double t = MPI_Wtime() - t0, tmax;
		MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
		if (rank == 0 && tmax < best) best = tmax;
	}
	if (rank == 0)
		printf("pingpong-c%s: looplen %d, best of %d: %.4f us per message (half round trip), %.2f MB/s\n",
		       lmax ? " (cyclic buffers + validation)" : "", loop, reps, best / loop / 2 * 1e6,
		       2.0 * loop / best / 1e6);
	if (bad) fprintf(stderr, "pingpong: rank %d: %ld bad messages\n", rank, bad);
	MPI_Finalize();
	return bad != 0;
}
