//go:build mpi

/* control.c: the control plane of package mpi (see control.h). */
#include "control.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

int ctl_thread_level(const char *name) {
	if (!strcmp(name, "single")) return MPI_THREAD_SINGLE;
	if (!strcmp(name, "funneled")) return MPI_THREAD_FUNNELED;
	if (!strcmp(name, "serialized")) return MPI_THREAD_SERIALIZED;
	if (!strcmp(name, "multiple")) return MPI_THREAD_MULTIPLE;
	return -1;
}

int ctl_init(int required, int *provided) {
	int flag = 0, rc;
	MPI_Initialized(&flag);
	if (flag) {
		rc = MPI_Query_thread(provided);
	} else {
		rc = MPI_Init_thread(NULL, NULL, required, provided);
	}
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}
int ctl_finalize(void) { return MPI_Finalize(); }
int ctl_initialized(void) { int f = 0; MPI_Initialized(&f); return f; }
int ctl_finalized(void) { int f = 0; MPI_Finalized(&f); return f; }
MPI_Fint ctl_comm_world(void) { return MPI_Comm_c2f(MPI_COMM_WORLD); }
MPI_Fint ctl_comm_null(void) { return MPI_Comm_c2f(MPI_COMM_NULL); }
MPI_Fint ctl_comm_self(void) { return MPI_Comm_c2f(MPI_COMM_SELF); }
int ctl_proc_null(void) { return MPI_PROC_NULL; }
int ctl_undefined(void) { return MPI_UNDEFINED; }
int ctl_rank(MPI_Fint c, int *r) { return MPI_Comm_rank(MPI_Comm_f2c(c), r); }
int ctl_size(MPI_Fint c, int *s) { return MPI_Comm_size(MPI_Comm_f2c(c), s); }
int ctl_barrier(MPI_Fint c) { return MPI_Barrier(MPI_Comm_f2c(c)); }
int ctl_quiet_wait(MPI_Request *req, int poll_us) {
	int rc, done = 0;
	long nap_us = 50; /* the naps double up to poll_us: a short wait ends soon, a long one wakes rarely */
	while (!(rc = MPI_Test(req, &done, MPI_STATUS_IGNORE)) && !done) {
		struct timespec nap = {nap_us / 1000000, (nap_us % 1000000) * 1000};
		nanosleep(&nap, NULL);
		if (nap_us < poll_us) nap_us = 2 * nap_us < poll_us ? 2 * nap_us : poll_us;
	}
	return rc;
}
int ctl_quiet_barrier(MPI_Fint c, int poll_us) {
	MPI_Request req;
	int rc = MPI_Ibarrier(MPI_Comm_f2c(c), &req);
	return rc ? rc : ctl_quiet_wait(&req, poll_us);
}
int ctl_bcast_bytes(MPI_Fint c, void *buf, int n, int root) {
	return MPI_Bcast(buf, n, MPI_BYTE, root, MPI_Comm_f2c(c));
}
const char *const ctl_op_names[CTL_NOPS] = {"max", "min", "sum"};
static MPI_Op op_of(int op) { return op == CTL_MAX ? MPI_MAX : op == CTL_MIN ? MPI_MIN : MPI_SUM; }
int ctl_reduce_f64(MPI_Fint c, const double *in, double *out, int n, int op, int root) {
	return MPI_Reduce(in, out, n, MPI_DOUBLE, op_of(op), root, MPI_Comm_f2c(c));
}
int ctl_reduce_i64(MPI_Fint c, const int64_t *in, int64_t *out, int n, int op, int root) {
	return MPI_Reduce(in, out, n, MPI_INT64_T, op_of(op), root, MPI_Comm_f2c(c));
}
int ctl_allreduce_i64(MPI_Fint c, const int64_t *in, int64_t *out, int n, int op) {
	return MPI_Allreduce(in, out, n, MPI_INT64_T, op_of(op), MPI_Comm_f2c(c));
}
int ctl_gather_bytes(MPI_Fint c, const void *in, int n, void *out, int root) {
	return MPI_Gather(in, n, MPI_BYTE, out, n, MPI_BYTE, root, MPI_Comm_f2c(c));
}
int ctl_scatter_bytes(MPI_Fint c, const void *in, int n, void *out, int root) {
	return MPI_Scatter(in, n, MPI_BYTE, out, n, MPI_BYTE, root, MPI_Comm_f2c(c));
}
int ctl_comm_split(MPI_Fint c, int color, int key, MPI_Fint *out) {
	MPI_Comm nc;
	int rc = MPI_Comm_split(MPI_Comm_f2c(c), color, key, &nc);
	if (rc == MPI_SUCCESS) *out = MPI_Comm_c2f(nc);
	return rc;
}
int ctl_comm_create_ranges(MPI_Fint c, int n, int ranges[][3], int tag, MPI_Fint *out) {
	MPI_Comm comm = MPI_Comm_f2c(c), nc;
	MPI_Group all, part;
	int rc = MPI_Comm_group(comm, &all);
	if (rc) return rc;
	rc = MPI_Group_range_incl(all, n, ranges, &part);
	MPI_Group_free(&all);
	if (rc) return rc;
	rc = MPI_Comm_create_group(comm, part, tag, &nc);
	MPI_Group_free(&part);
	if (rc == MPI_SUCCESS) *out = MPI_Comm_c2f(nc);
	return rc;
}
int ctl_comm_split_shared(MPI_Fint c, MPI_Fint *out) {
	MPI_Comm nc;
	int rc = MPI_Comm_split_type(MPI_Comm_f2c(c), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &nc);
	if (rc == MPI_SUCCESS) *out = MPI_Comm_c2f(nc);
	return rc;
}
int ctl_comm_free(MPI_Fint *c) {
	MPI_Comm cc = MPI_Comm_f2c(*c);
	if (cc == MPI_COMM_NULL) return MPI_SUCCESS;
	int rc = MPI_Comm_free(&cc);
	*c = MPI_Comm_c2f(cc);
	return rc;
}
int ctl_dims_create(int n, int nd, int *dims) {
	for (int i = 0; i < nd; i++) dims[i] = 0;
	return MPI_Dims_create(n, nd, dims);
}
int ctl_cart_create(MPI_Fint c, int nd, const int *dims, const int *periods, int reorder, MPI_Fint *out) {
	MPI_Comm nc;
	int rc = MPI_Cart_create(MPI_Comm_f2c(c), nd, (int *)dims, (int *)periods, reorder, &nc);
	if (rc == MPI_SUCCESS) *out = MPI_Comm_c2f(nc);
	return rc;
}
int ctl_cart_shift(MPI_Fint c, int dir, int disp, int *src, int *dest) {
	return MPI_Cart_shift(MPI_Comm_f2c(c), dir, disp, src, dest);
}
int ctl_abort(MPI_Fint c, int code) { return MPI_Abort(MPI_Comm_f2c(c), code); }
/* copy_out copies the n bytes of s into buf of len bytes, cut to fit, and
 * ends it with a NUL. */
static void copy_out(const char *s, int n, char *buf, int len) {
	if (n >= len) n = len - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
}
void ctl_error_string(int code, char *buf, int len) {
	char s[MPI_MAX_ERROR_STRING];
	int n = 0;
	if (MPI_Error_string(code, s, &n) != MPI_SUCCESS) n = 0;
	copy_out(s, n, buf, len);
}
int ctl_library_version(char *buf, int len) {
	char s[MPI_MAX_LIBRARY_VERSION_STRING];
	int n = 0;
	int rc = MPI_Get_library_version(s, &n);
	copy_out(s, n, buf, len);
	return rc;
}
/* The MPI library this binary was compiled against, from the version
 * macros of the mpi.h it found: a string constant, readable before
 * MPI_Init. The libraries built on MPICH define MPICH_VERSION too, so
 * their own macros come first. */
#define CTL_STR(x) #x
#define CTL_XSTR(x) CTL_STR(x)
const char *ctl_header_version(void) {
#if defined(OPEN_MPI) && defined(OMPI_MAJOR_VERSION)
	return "Open MPI " CTL_XSTR(OMPI_MAJOR_VERSION) "." CTL_XSTR(OMPI_MINOR_VERSION) "." CTL_XSTR(OMPI_RELEASE_VERSION);
#elif defined(I_MPI_VERSION)
	return "Intel MPI " I_MPI_VERSION;
#elif defined(MVAPICH2_VERSION)
	return "MVAPICH2 " MVAPICH2_VERSION;
#elif defined(MVAPICH_VERSION)
	return "MVAPICH " MVAPICH_VERSION;
#elif defined(MPICH_VERSION)
	return "MPICH " MPICH_VERSION;
#else
	return "MPI " CTL_XSTR(MPI_VERSION) "." CTL_XSTR(MPI_SUBVERSION);
#endif
}
int ctl_processor_name(char *buf, int len) {
	char s[MPI_MAX_PROCESSOR_NAME];
	int n = 0;
	int rc = MPI_Get_processor_name(s, &n);
	copy_out(s, n, buf, len);
	return rc;
}
double ctl_wtime(void) { return MPI_Wtime(); }
double ctl_wtick(void) { return MPI_Wtick(); }

int ctl_rma_probe(MPI_Fint comm, int allocate, int *ok, int *rc) {
	MPI_Comm c = MPI_Comm_f2c(comm);
	MPI_Win win = MPI_WIN_NULL;
	void *base = NULL;
	if (allocate) *rc = MPI_Win_allocate(4096, 1, MPI_INFO_NULL, c, &base, &win);
	else {
		base = malloc(4096);
		*rc = base ? MPI_Win_create(base, 4096, 1, MPI_INFO_NULL, c, &win) : MPI_ERR_NO_MEM;
	}
	int mine = *rc == 0;
	if (mine) MPI_Win_free(&win);
	if (!allocate) free(base);
	return MPI_Allreduce(&mine, ok, 1, MPI_INT, MPI_MIN, c);
}

int ctl_wtime_is_global(int *global) {
	int *v, flag;
	int rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v, &flag);
	*global = !rc && flag && *v;
	return rc;
}
