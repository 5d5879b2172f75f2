/* mpi4.h: the calls of MPI 4.0 that a library may lack (Open MPI 4.1 has
 * none of them; Open MPI 5 has them with MPI_VERSION still 3). None is
 * called by its name: each is found in the running library by its symbol
 * (mpi4_sym) and called through a pointer of its C binding's type, so
 * that the same build runs on every MPI 3.1 library and measures these
 * operations where the library provides them. */
#ifndef BEFF_MPI4_H
#define BEFF_MPI4_H

#include "control.h"

/* The calls looked up, in the order of mpi4_names. */
enum mpi4_id {
	MPI4_BARRIER_INIT,
	MPI4_BCAST_INIT,
	MPI4_REDUCE_INIT,
	MPI4_ALLREDUCE_INIT,
	MPI4_REDUCE_SCATTER_BLOCK_INIT,
	MPI4_REDUCE_SCATTER_INIT,
	MPI4_SCAN_INIT,
	MPI4_EXSCAN_INIT,
	MPI4_GATHER_INIT,
	MPI4_GATHERV_INIT,
	MPI4_SCATTER_INIT,
	MPI4_SCATTERV_INIT,
	MPI4_ALLGATHER_INIT,
	MPI4_ALLGATHERV_INIT,
	MPI4_ALLTOALL_INIT,
	MPI4_ALLTOALLV_INIT,
	MPI4_ALLTOALLW_INIT,
	MPI4_ISENDRECV,
	MPI4_ISENDRECV_REPLACE,
	MPI4_PSEND_INIT,
	MPI4_PRECV_INIT,
	MPI4_PREADY,
	MPI4_PARRIVED,
	MPI4_SEND_C,
	MPI4_RECV_C,
	MPI4_NCALLS
};

/* mpi4_name is the MPI name of call id ("" out of range). */
const char *mpi4_name(int id);
/* mpi4_sym is the library's function of call id, NULL where it has none. */
void *mpi4_sym(int id);

/* The C bindings of MPI 4.0 (the names end in _fn so that they never
 * clash with a library's own declarations). */
typedef int (*mpi4_barrier_init_fn)(MPI_Comm, MPI_Info, MPI_Request *);
typedef int (*mpi4_bcast_init_fn)(void *, int, MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request *);
typedef int (*mpi4_reduce_init_fn)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm, MPI_Info,
                                   MPI_Request *);
typedef int (*mpi4_allreduce_init_fn)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info,
                                      MPI_Request *);
typedef int (*mpi4_reduce_scatter_init_fn)(const void *, void *, const int[], MPI_Datatype, MPI_Op, MPI_Comm,
                                           MPI_Info, MPI_Request *);
typedef int (*mpi4_gather_init_fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm,
                                   MPI_Info, MPI_Request *);
typedef int (*mpi4_gatherv_init_fn)(const void *, int, MPI_Datatype, void *, const int[], const int[],
                                    MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request *);
typedef int (*mpi4_scatterv_init_fn)(const void *, const int[], const int[], MPI_Datatype, void *, int,
                                     MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request *);
typedef int (*mpi4_allgather_init_fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm,
                                      MPI_Info, MPI_Request *);
typedef int (*mpi4_allgatherv_init_fn)(const void *, int, MPI_Datatype, void *, const int[], const int[],
                                       MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request *);
typedef int (*mpi4_alltoallv_init_fn)(const void *, const int[], const int[], MPI_Datatype, void *, const int[],
                                      const int[], MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request *);
typedef int (*mpi4_alltoallw_init_fn)(const void *, const int[], const int[], const MPI_Datatype[], void *,
                                      const int[], const int[], const MPI_Datatype[], MPI_Comm, MPI_Info,
                                      MPI_Request *);
typedef int (*mpi4_isendrecv_fn)(const void *, int, MPI_Datatype, int, int, void *, int, MPI_Datatype, int, int,
                                 MPI_Comm, MPI_Request *);
typedef int (*mpi4_isendrecv_replace_fn)(void *, int, MPI_Datatype, int, int, int, int, MPI_Comm, MPI_Request *);
typedef int (*mpi4_psend_init_fn)(const void *, int, MPI_Count, MPI_Datatype, int, int, MPI_Comm, MPI_Info,
                                  MPI_Request *);
typedef int (*mpi4_precv_init_fn)(void *, int, MPI_Count, MPI_Datatype, int, int, MPI_Comm, MPI_Info, MPI_Request *);
typedef int (*mpi4_pready_fn)(int, MPI_Request);
typedef int (*mpi4_parrived_fn)(MPI_Request, int, int *);
typedef int (*mpi4_send_c_fn)(const void *, MPI_Count, MPI_Datatype, int, int, MPI_Comm);
typedef int (*mpi4_recv_c_fn)(void *, MPI_Count, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);

/* MPI4(id, type) is call id as a function of type mpi4_<type>_fn; callers
 * check mpi4_sym(id) first. */
#define MPI4(id, type) ((mpi4_##type##_fn)mpi4_sym(MPI4_##id))

#endif
