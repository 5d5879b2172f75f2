//go:build mpi

package mpi

/*
#include <stdlib.h>
#include "control.h"
*/
import "C"

import (
	"strings"
	"unsafe"
)

// InfoNull is MPI_INFO_NULL.
func InfoNull() Info { return Info(C.ctl_info_null()) }

// InfoLimits are the longest key and value (bytes) MPI_Info_set takes:
// MPI_MAX_INFO_KEY and MPI_MAX_INFO_VAL of the library (36 and 256 in
// Open MPI, 255 and 1024 in MPICH).
func InfoLimits() (key, value int) { return int(C.MPI_MAX_INFO_KEY), int(C.MPI_MAX_INFO_VAL) }

// OpenFile is MPI_File_open on c (collective) with the mode's access flags
// and the further flags given.
func OpenFile(c Comm, path string, mode OpenMode, flags OpenFlags, info Info) (File, error) {
	cp := C.CString(path)
	defer C.free(unsafe.Pointer(cp))
	var fh C.MPI_Fint
	err := mpiErr("MPI_File_open("+path+")", OnMain(func() C.int {
		return C.ctl_file_open(C.MPI_Fint(c), cp, C.int(mode), C.int(flags), C.MPI_Fint(info), &fh)
	}))
	return File(fh), err
}

// Close is MPI_File_close (collective); closing FileNull does nothing.
func (f *File) Close() error {
	h := C.MPI_Fint(*f)
	err := mpiErr("MPI_File_close", OnMain(func() C.int { return C.ctl_file_close(&h) }))
	*f = File(h)
	return err
}

// DeleteFile is MPI_File_delete.
func DeleteFile(path string) error {
	cp := C.CString(path)
	defer C.free(unsafe.Pointer(cp))
	return mpiErr("MPI_File_delete("+path+")", OnMain(func() C.int { return C.ctl_file_delete(cp) }))
}

// Sync is MPI_File_sync (collective).
func (f File) Sync() error {
	return mpiErr("MPI_File_sync", OnMain(func() C.int { return C.ctl_file_sync(C.MPI_Fint(f)) }))
}

// SetViewScatter sets a fileview of l-byte blocks dealt round-robin to the n
// processes, starting at disp (the caller's first block): the scatter type.
func (f File) SetViewScatter(disp, l int64, n int, info Info) error {
	return mpiErr("MPI_File_set_view", OnMain(func() C.int {
		return C.ctl_file_set_view_scatter(C.MPI_Fint(f), C.int64_t(disp), C.int64_t(l), C.int(n), C.MPI_Fint(info))
	}))
}

// SeekSet is MPI_File_seek(MPI_SEEK_SET); SeekShared is MPI_File_seek_shared (collective).
func (f File) SeekSet(off int64) error {
	return mpiErr("MPI_File_seek", OnMain(func() C.int { return C.ctl_file_seek(C.MPI_Fint(f), C.int64_t(off)) }))
}
func (f File) SeekShared(off int64) error {
	return mpiErr("MPI_File_seek_shared", OnMain(func() C.int { return C.ctl_file_seek_shared(C.MPI_Fint(f), C.int64_t(off)) }))
}

// NewInfo creates an MPI_Info holding the given hints (InfoNull for none).
func NewInfo(hints map[string]string) (Info, error) {
	if len(hints) == 0 {
		return InfoNull(), nil
	}
	var h C.MPI_Fint
	if err := mpiErr("MPI_Info_create", OnMain(func() C.int { return C.ctl_info_create(&h) })); err != nil {
		return InfoNull(), err
	}
	for k, v := range hints {
		ck, cv := C.CString(k), C.CString(v)
		err := mpiErr("MPI_Info_set("+k+")", OnMain(func() C.int { return C.ctl_info_set(h, ck, cv) }))
		C.free(unsafe.Pointer(ck))
		C.free(unsafe.Pointer(cv))
		if err != nil {
			return InfoNull(), err
		}
	}
	return Info(h), nil
}

// Free is MPI_Info_free; freeing InfoNull does nothing.
func (i *Info) Free() error {
	h := C.MPI_Fint(*i)
	err := mpiErr("MPI_Info_free", OnMain(func() C.int { return C.ctl_info_free(&h) }))
	*i = Info(h)
	return err
}

// SetInfo is MPI_File_set_info (collective).
func (f File) SetInfo(i Info) error {
	return mpiErr("MPI_File_set_info", OnMain(func() C.int { return C.ctl_file_set_info(C.MPI_Fint(f), C.MPI_Fint(i)) }))
}

// Hints returns the hints the MPI library reports in effect for f
// (MPI_File_get_info), as "key=value" strings.
func (f File) Hints() ([]string, error) {
	buf := make([]C.char, 1<<16)
	if err := mpiErr("MPI_File_get_info", OnMain(func() C.int { return C.ctl_file_hints(C.MPI_Fint(f), &buf[0], C.int(len(buf))) })); err != nil {
		return nil, err
	}
	s := strings.TrimSpace(C.GoString(&buf[0]))
	if s == "" {
		return nil, nil
	}
	return strings.Split(s, "\n"), nil
}

// cOpenFlags are the C values of the open flags, in the order of OpenFlags' bits.
func cOpenFlags() []OpenFlags {
	return []OpenFlags{OpenFlags(C.CTL_OPEN_UNIQUE), OpenFlags(C.CTL_OPEN_DELETE_ON_CLOSE), OpenFlags(C.CTL_OPEN_RDWR)}
}

// cOpenModes are the names of the C table of access modes, in enum order.
func cOpenModes() []string {
	out := make([]string, C.CTL_NOPENMODES)
	for i := range out {
		out[i] = C.GoString(C.ctl_open_mode_names[i])
	}
	return out
}
