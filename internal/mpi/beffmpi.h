/* beffmpi.h: the C side of package mpi. Communicators cross the cgo
 * boundary as Fortran handles (MPI_Fint), so Go never sees an MPI_Comm,
 * whose type differs between MPI libraries. Every function returns an MPI
 * error code (MPI_SUCCESS on success); the error handlers are set to
 * MPI_ERRORS_RETURN by beff_init. */
#ifndef BEFFMPI_H
#define BEFFMPI_H

#include <mpi.h>
#include <stdint.h>

#define BEFF_MAXSTEPS 8

/* Control plane. */
int beff_init(int required, int *provided);
int beff_thread_level(const char *name); /* -1 if unknown */
int beff_finalize(void);
int beff_initialized(void);
int beff_finalized(void);
MPI_Fint beff_comm_world(void);
MPI_Fint beff_comm_null(void);
int beff_proc_null(void);
int beff_undefined(void);
int beff_rank(MPI_Fint c, int *rank);
int beff_size(MPI_Fint c, int *size);
int beff_barrier(MPI_Fint c);
int beff_bcast_bytes(MPI_Fint c, void *buf, int n, int root);
/* op: 0 max, 1 min, 2 sum */
int beff_reduce_f64(MPI_Fint c, const double *in, double *out, int n, int op, int root);
int beff_allreduce_f64(MPI_Fint c, const double *in, double *out, int n, int op);
int beff_reduce_i64(MPI_Fint c, const int64_t *in, int64_t *out, int n, int op, int root);
int beff_allreduce_i64(MPI_Fint c, const int64_t *in, int64_t *out, int n, int op);
int beff_gather_bytes(MPI_Fint c, const void *in, int n, void *out, int root);
int beff_comm_split(MPI_Fint c, int color, int key, MPI_Fint *out);
int beff_comm_split_shared(MPI_Fint c, MPI_Fint *out);
int beff_comm_free(MPI_Fint *c);
int beff_dims_create(int n, int nd, int *dims);
int beff_cart_create(MPI_Fint c, int nd, const int *dims, const int *periods, int reorder, MPI_Fint *out);
int beff_cart_shift(MPI_Fint c, int dir, int disp, int *src, int *dest);
int beff_abort(MPI_Fint c, int code);
void beff_error_string(int code, char *buf, int len);
int beff_library_version(char *buf, int len);
int beff_processor_name(char *buf, int len);
double beff_wtime(void);
double beff_wtick(void);

/* One b_eff exchange plan: what this rank does in one iteration. */
typedef struct {
	int nsteps;
	int dest[BEFF_MAXSTEPS]; /* MPI_PROC_NULL where nothing is sent */
	int src[BEFF_MAXSTEPS];  /* MPI_PROC_NULL where nothing is received */
} beff_plan;

/* The first validation failure a rank saw in a measurement. */
typedef struct {
	int64_t iter;
	int step, partner;
	int64_t offset;
	int expect_first, got_first, expect_last, got_last;
	int64_t count; /* failures in this measurement */
} beff_fault;

enum { BEFF_SENDRECV = 0, BEFF_ALLTOALLV = 1, BEFF_NONBLOCKING = 2 };

/* beff_measure runs one b_eff measurement on this rank: a barrier on
 * barrier_comm, `warm` untimed iterations, then `looplen` timed iterations
 * of the plan on comm (MPI_COMM_NULL when the rank is not in the pattern's
 * communicator: it then only takes part in the barrier). The elapsed time of
 * the timed loop goes to *elapsed. Messages sit cyclically in sbuf/rbuf.
 * inject != 0 corrupts the first received message (tests only). */
int beff_measure(MPI_Fint barrier_comm, MPI_Fint comm, const beff_plan *p, int method,
                 int len, int sizeidx, int looplen, int warm, unsigned char *sbuf,
                 unsigned char *rbuf, int64_t buflen, int inject, double *elapsed,
                 beff_fault *fault);

/* The validation bytes (also computed by Go tests). */
unsigned char beff_first_byte(int64_t iter, int step, int sizeidx, int sender);
unsigned char beff_last_byte(int64_t iter, int step, int sizeidx, int sender);

#endif

/* ---- MPI-IO (b_eff_io) ---- */
enum { BEFFIO_OPEN_CREATE = 0, BEFFIO_OPEN_WRITE = 1, BEFFIO_OPEN_READ = 2 };
enum { BEFFIO_SCATTER = 0, BEFFIO_SHARED = 1, BEFFIO_SEPARATED = 2, BEFFIO_SEGMENTED = 3, BEFFIO_SEGCOLL = 4 };

MPI_Fint beffio_file_null(void);
MPI_Fint beffio_info_null(void);
int beffio_open(MPI_Fint comm, const char *path, int mode, MPI_Fint info, MPI_Fint *fh);
int beffio_close(MPI_Fint *fh);
int beffio_delete(const char *path);
int beffio_sync(MPI_Fint fh);
int beffio_set_view_scatter(MPI_Fint fh, int64_t disp, int64_t l, int n, MPI_Fint info);
int beffio_set_view_bytes(MPI_Fint fh, int64_t disp, MPI_Fint info);
int beffio_seek(MPI_Fint fh, int64_t off);
int beffio_seek_shared(MPI_Fint fh, int64_t off);
int beffio_info_create(MPI_Fint *info);
int beffio_info_set(MPI_Fint info, const char *key, const char *val);
int beffio_info_free(MPI_Fint *info);
int beffio_set_info(MPI_Fint fh, MPI_Fint info);
/* the hints in effect, as "key=value\n" lines */
int beffio_hints(MPI_Fint fh, char *buf, int len);

/* One pattern's calls on this rank. */
typedef struct {
	MPI_Fint fh;
	int read;      /* 0 write, 1 read */
	int type;      /* BEFFIO_* */
	int64_t len;   /* memory chunk per call (bytes) */
	int64_t l;     /* disk chunk (bytes) */
	int n, rank;   /* partition size, rank in it */
	int64_t base;  /* start of the pattern's region (file, own file or segment) */
	int64_t lseg;  /* segment size (types 3, 4) */
	int pattern;   /* pattern number, enters the values */
	int access;    /* access method whose values are written / expected */
	int explicit_offsets; /* shared type: write_at_all/read_at_all instead of the shared pointer */
} beffio_calls_t;

typedef struct {
	int64_t rep, offset;
	uint64_t expect_first, got_first, expect_last, got_last;
} beffio_fault;

uint64_t beffio_value(int64_t rep, int64_t offset, int pattern, int access, int last);
int64_t beffio_offset(const beffio_calls_t *p, int64_t c, int64_t j);
/* Runs calls c0 .. c0+k-1; on reads counts the chunks whose first or last
 * 8-byte element is wrong (*errors) and keeps the first in *fault. */
int beffio_calls(const beffio_calls_t *p, int64_t c0, int64_t k, unsigned char *buf,
                 int64_t *errors, beffio_fault *fault);
