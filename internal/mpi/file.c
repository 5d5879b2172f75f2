//go:build mpi

/* file.c: MPI-IO files for package mpi (see control.h). */
#include "control.h"
#include <stdio.h>

const char *const ctl_open_mode_names[CTL_NOPENMODES] = {"create", "write", "read"};

MPI_Fint ctl_info_null(void) { return MPI_Info_c2f(MPI_INFO_NULL); }

int ctl_file_open(MPI_Fint comm, const char *path, int mode, int flags, MPI_Fint info, MPI_Fint *fh) {
	int wr = flags & CTL_OPEN_RDWR ? MPI_MODE_RDWR : MPI_MODE_WRONLY;
	int amode = mode == CTL_OPEN_CREATE ? (MPI_MODE_CREATE | wr)
	          : mode == CTL_OPEN_WRITE  ? wr : MPI_MODE_RDONLY;
	if (flags & CTL_OPEN_UNIQUE) amode |= MPI_MODE_UNIQUE_OPEN;
	if (flags & CTL_OPEN_DELETE_ON_CLOSE) amode |= MPI_MODE_DELETE_ON_CLOSE;
	MPI_File f;
	int rc = MPI_File_open(MPI_Comm_f2c(comm), path, amode, MPI_Info_f2c(info), &f);
	if (rc == MPI_SUCCESS) *fh = MPI_File_c2f(f);
	return rc;
}
int ctl_file_close(MPI_Fint *fh) {
	MPI_File f = MPI_File_f2c(*fh);
	if (f == MPI_FILE_NULL) return MPI_SUCCESS;
	int rc = MPI_File_close(&f);
	*fh = MPI_File_c2f(f);
	return rc;
}
int ctl_file_delete(const char *path) { return MPI_File_delete(path, MPI_INFO_NULL); }
int ctl_file_sync(MPI_Fint fh) { return MPI_File_sync(MPI_File_f2c(fh)); }
int ctl_file_set_view_scatter(MPI_Fint fh, int64_t disp, int64_t l, int n, MPI_Fint info) {
	MPI_Datatype block, strided;
	int rc = MPI_Type_contiguous((int)l, MPI_BYTE, &block);
	if (rc != MPI_SUCCESS) return rc;
	rc = MPI_Type_create_resized(block, 0, (MPI_Aint)l * n, &strided);
	MPI_Type_free(&block);
	if (rc != MPI_SUCCESS) return rc;
	if ((rc = MPI_Type_commit(&strided)) == MPI_SUCCESS)
		rc = MPI_File_set_view(MPI_File_f2c(fh), (MPI_Offset)disp, MPI_BYTE, strided, "native", MPI_Info_f2c(info));
	MPI_Type_free(&strided);
	return rc;
}
int ctl_file_seek(MPI_Fint fh, int64_t off) { return MPI_File_seek(MPI_File_f2c(fh), (MPI_Offset)off, MPI_SEEK_SET); }
int ctl_file_seek_shared(MPI_Fint fh, int64_t off) {
	return MPI_File_seek_shared(MPI_File_f2c(fh), (MPI_Offset)off, MPI_SEEK_SET);
}
int ctl_info_create(MPI_Fint *info) {
	MPI_Info i;
	int rc = MPI_Info_create(&i);
	if (rc == MPI_SUCCESS) *info = MPI_Info_c2f(i);
	return rc;
}
int ctl_info_set(MPI_Fint info, const char *key, const char *val) {
	return MPI_Info_set(MPI_Info_f2c(info), key, val);
}
int ctl_info_free(MPI_Fint *info) {
	MPI_Info i = MPI_Info_f2c(*info);
	if (i == MPI_INFO_NULL) return MPI_SUCCESS;
	int rc = MPI_Info_free(&i);
	*info = MPI_Info_c2f(i);
	return rc;
}
int ctl_file_set_info(MPI_Fint fh, MPI_Fint info) {
	return MPI_File_set_info(MPI_File_f2c(fh), MPI_Info_f2c(info));
}
int ctl_file_hints(MPI_Fint fh, char *buf, int len) {
	MPI_Info info;
	int rc = MPI_File_get_info(MPI_File_f2c(fh), &info), nkeys = 0, pos = 0;
	if (rc != MPI_SUCCESS) return rc;
	buf[0] = 0;
	MPI_Info_get_nkeys(info, &nkeys);
	for (int i = 0; i < nkeys && pos < len - 1; i++) {
		char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
		int flag = 0;
		MPI_Info_get_nthkey(info, i, key);
		MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
		if (flag) pos += snprintf(buf + pos, len - pos, "%s=%s\n", key, val);
	}
	MPI_Info_free(&info);
	return MPI_SUCCESS;
}
