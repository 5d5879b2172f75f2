//go:build mpi

/* mpi4.c: finding the calls of MPI 4.0 in the running library (mpi4.h). */
#define _GNU_SOURCE
#include "mpi4.h"
#include <dlfcn.h>
#include <stddef.h>

static const char *const names[MPI4_NCALLS] = {
	"MPI_Barrier_init",   "MPI_Bcast_init",      "MPI_Reduce_init",   "MPI_Allreduce_init",
	"MPI_Reduce_scatter_block_init", "MPI_Reduce_scatter_init", "MPI_Scan_init", "MPI_Exscan_init",
	"MPI_Gather_init",    "MPI_Gatherv_init",    "MPI_Scatter_init",  "MPI_Scatterv_init",
	"MPI_Allgather_init", "MPI_Allgatherv_init", "MPI_Alltoall_init", "MPI_Alltoallv_init",
	"MPI_Alltoallw_init", "MPI_Isendrecv",       "MPI_Isendrecv_replace",
	"MPI_Psend_init",     "MPI_Precv_init",      "MPI_Pready",        "MPI_Parrived",
	"MPI_Send_c",         "MPI_Recv_c",
};

/* Each call is looked up once: the first use settles it for the process. */
static void *found[MPI4_NCALLS];
static char looked[MPI4_NCALLS];

const char *mpi4_name(int id) { return id >= 0 && id < MPI4_NCALLS ? names[id] : ""; }

void *mpi4_sym(int id) {
	if (id < 0 || id >= MPI4_NCALLS) return NULL;
	if (!looked[id]) {
		found[id] = dlsym(RTLD_DEFAULT, names[id]);
		looked[id] = 1;
	}
	return found[id];
}
