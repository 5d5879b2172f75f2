/* control.h: the C side of package mpi's control plane and MPI-IO file
 * calls. Communicators, files and infos cross the cgo boundary as Fortran
 * handles (MPI_Fint), so Go never sees an MPI_Comm, whose type differs
 * between MPI libraries. Every function returns an MPI error code
 * (MPI_SUCCESS on success); the error handlers are set to
 * MPI_ERRORS_RETURN by ctl_init. Each suite's timed loops have a header of
 * their own (beff.h, beffio.h). */
#ifndef BEFF_CONTROL_H
#define BEFF_CONTROL_H

#include <mpi.h>
#include <stdint.h>

/* MPICH defines MPI_STATUSES_IGNORE as the address 1, which GCC 12 takes
 * for an array of size 0 handed to MPI_Waitall: a false positive, silenced
 * for every file that includes this header (clang has no such warning). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
/* Open MPI's MPI_UNWEIGHTED is the address of an array of size 0, which
 * GCC 11 and later take for one read from (MPI_Dist_graph_create_adjacent):
 * the same kind of false positive. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

/* Reduction operations, in the order of mpi.Op (a Go test checks the
 * names). */
enum ctl_op { CTL_MAX, CTL_MIN, CTL_SUM, CTL_NOPS };
extern const char *const ctl_op_names[CTL_NOPS];

int ctl_init(int required, int *provided);
int ctl_thread_level(const char *name); /* -1 if unknown */
int ctl_finalize(void);
int ctl_initialized(void);
int ctl_finalized(void);
MPI_Fint ctl_comm_world(void);
MPI_Fint ctl_comm_null(void);
MPI_Fint ctl_comm_self(void);
/* ctl_quiet_wait tests req after naps of 50 µs doubling up to poll_us,
 * asleep between the tests; ctl_quiet_barrier waits so for MPI_Ibarrier. */
int ctl_quiet_wait(MPI_Request *req, int poll_us);
int ctl_quiet_barrier(MPI_Fint c, int poll_us);
int ctl_proc_null(void);
int ctl_undefined(void);
int ctl_rank(MPI_Fint c, int *rank);
int ctl_size(MPI_Fint c, int *size);
int ctl_barrier(MPI_Fint c);
int ctl_bcast_bytes(MPI_Fint c, void *buf, int n, int root);
int ctl_reduce_f64(MPI_Fint c, const double *in, double *out, int n, int op, int root);
int ctl_reduce_i64(MPI_Fint c, const int64_t *in, int64_t *out, int n, int op, int root);
int ctl_allreduce_i64(MPI_Fint c, const int64_t *in, int64_t *out, int n, int op);
int ctl_gather_bytes(MPI_Fint c, const void *in, int n, void *out, int root);
int ctl_scatter_bytes(MPI_Fint c, const void *in, int n, void *out, int root);
int ctl_comm_split(MPI_Fint c, int color, int key, MPI_Fint *out);
int ctl_comm_split_shared(MPI_Fint c, MPI_Fint *out);
/* ctl_comm_create_ranges is MPI_Comm_create_group over the ranks of c in
 * the n ranges (first, last, stride): collective over those ranks only. */
int ctl_comm_create_ranges(MPI_Fint c, int n, int ranges[][3], int tag, MPI_Fint *out);
int ctl_comm_free(MPI_Fint *c);
int ctl_dims_create(int n, int nd, int *dims);
int ctl_cart_create(MPI_Fint c, int nd, const int *dims, const int *periods, int reorder, MPI_Fint *out);
int ctl_cart_shift(MPI_Fint c, int dir, int disp, int *src, int *dest);
int ctl_abort(MPI_Fint c, int code);
void ctl_error_string(int code, char *buf, int len);
int ctl_library_version(char *buf, int len);
const char *ctl_header_version(void);
int ctl_processor_name(char *buf, int len);
double ctl_wtime(void);
/* ctl_rma_probe makes and frees a window of a page on comm, from
 * MPI_Win_allocate or MPI_Win_create, and sets *ok on every rank to
 * whether every rank could; *rc is this rank's error (0 if none). */
int ctl_rma_probe(MPI_Fint comm, int allocate, int *ok, int *rc);

/* ctl_wtime_is_global sets *global to MPI_WTIME_IS_GLOBAL of MPI_COMM_WORLD. */
int ctl_wtime_is_global(int *global);
double ctl_wtick(void);

/* ---- MPI-IO files ---- */

/* Access modes of ctl_file_open, in the order of mpi.OpenMode (a Go test
 * checks the names). */
enum ctl_open_mode { CTL_OPEN_CREATE, CTL_OPEN_WRITE, CTL_OPEN_READ, CTL_NOPENMODES };
extern const char *const ctl_open_mode_names[CTL_NOPENMODES];
/* Further flags of ctl_file_open (mpi.OpenFlags): MPI_MODE_UNIQUE_OPEN,
 * MPI_MODE_DELETE_ON_CLOSE, and MPI_MODE_RDWR instead of MPI_MODE_WRONLY
 * for the writing modes. */
enum ctl_open_flag { CTL_OPEN_UNIQUE = 1, CTL_OPEN_DELETE_ON_CLOSE = 2, CTL_OPEN_RDWR = 4 };

/* ctl_advance marks one step of a timed loop (an iteration, a
 * repetition, a burst) on the process's progress counter (mpi.Progress;
 * NULL: none), which the watchdog reads from another thread: a relaxed
 * store, as cheap as a plain one, by the one thread that runs the loops. */
static inline void ctl_advance(int64_t *progress) {
	if (progress) __atomic_store_n(progress, *progress + 1, __ATOMIC_RELAXED);
}

MPI_Fint ctl_info_null(void);
int ctl_file_open(MPI_Fint comm, const char *path, int mode, int flags, MPI_Fint info, MPI_Fint *fh);
int ctl_file_close(MPI_Fint *fh);
int ctl_file_delete(const char *path);
int ctl_file_sync(MPI_Fint fh);
int ctl_file_set_view_scatter(MPI_Fint fh, int64_t disp, int64_t l, int n, MPI_Fint info);
int ctl_file_seek(MPI_Fint fh, int64_t off);
int ctl_file_seek_shared(MPI_Fint fh, int64_t off);
int ctl_file_set_info(MPI_Fint fh, MPI_Fint info);
/* the hints in effect, as "key=value\n" lines */
int ctl_file_hints(MPI_Fint fh, char *buf, int len);
int ctl_info_create(MPI_Fint *info);
int ctl_info_set(MPI_Fint info, const char *key, const char *val);
int ctl_info_free(MPI_Fint *info);

#endif
