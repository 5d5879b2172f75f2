//go:build mpi

package mpi

/*
#include <stdlib.h>
#include "beffmpi.h"
*/
import "C"

import (
	"strings"
	"unsafe"
)

// FileNull and InfoNull are MPI_FILE_NULL and MPI_INFO_NULL.
func FileNull() File { return File(C.beffio_file_null()) }
func InfoNull() Info { return Info(C.beffio_info_null()) }

// OpenFile is MPI_File_open on c (collective) with the mode's access flags,
// never MPI_MODE_UNIQUE_OPEN.
func OpenFile(c Comm, path string, mode OpenMode, info Info) (File, error) {
	cp := C.CString(path)
	defer C.free(unsafe.Pointer(cp))
	var fh C.MPI_Fint
	err := mpiErr("MPI_File_open("+path+")", C.beffio_open(C.MPI_Fint(c), cp, C.int(mode), C.MPI_Fint(info), &fh))
	return File(fh), err
}

// Close is MPI_File_close (collective); closing FileNull does nothing.
func (f *File) Close() error {
	h := C.MPI_Fint(*f)
	err := mpiErr("MPI_File_close", C.beffio_close(&h))
	*f = File(h)
	return err
}

// DeleteFile is MPI_File_delete.
func DeleteFile(path string) error {
	cp := C.CString(path)
	defer C.free(unsafe.Pointer(cp))
	return mpiErr("MPI_File_delete("+path+")", C.beffio_delete(cp))
}

// Sync is MPI_File_sync (collective).
func (f File) Sync() error { return mpiErr("MPI_File_sync", C.beffio_sync(C.MPI_Fint(f))) }

// SetViewScatter sets a fileview of l-byte blocks dealt round-robin to the n
// processes, starting at disp (the caller's first block): the scatter type.
func (f File) SetViewScatter(disp, l int64, n int, info Info) error {
	return mpiErr("MPI_File_set_view", C.beffio_set_view_scatter(C.MPI_Fint(f), C.int64_t(disp), C.int64_t(l), C.int(n), C.MPI_Fint(info)))
}

// SetViewBytes sets a plain byte view starting at disp.
func (f File) SetViewBytes(disp int64, info Info) error {
	return mpiErr("MPI_File_set_view", C.beffio_set_view_bytes(C.MPI_Fint(f), C.int64_t(disp), C.MPI_Fint(info)))
}

// SeekSet is MPI_File_seek(MPI_SEEK_SET); SeekShared is MPI_File_seek_shared (collective).
func (f File) SeekSet(off int64) error {
	return mpiErr("MPI_File_seek", C.beffio_seek(C.MPI_Fint(f), C.int64_t(off)))
}
func (f File) SeekShared(off int64) error {
	return mpiErr("MPI_File_seek_shared", C.beffio_seek_shared(C.MPI_Fint(f), C.int64_t(off)))
}

// NewInfo creates an MPI_Info holding the given hints (InfoNull for none).
func NewInfo(hints map[string]string) (Info, error) {
	if len(hints) == 0 {
		return InfoNull(), nil
	}
	var h C.MPI_Fint
	if err := mpiErr("MPI_Info_create", C.beffio_info_create(&h)); err != nil {
		return InfoNull(), err
	}
	for k, v := range hints {
		ck, cv := C.CString(k), C.CString(v)
		err := mpiErr("MPI_Info_set("+k+")", C.beffio_info_set(h, ck, cv))
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
	err := mpiErr("MPI_Info_free", C.beffio_info_free(&h))
	*i = Info(h)
	return err
}

// SetInfo is MPI_File_set_info (collective).
func (f File) SetInfo(i Info) error {
	return mpiErr("MPI_File_set_info", C.beffio_set_info(C.MPI_Fint(f), C.MPI_Fint(i)))
}

// Hints returns the hints the MPI library reports in effect for f
// (MPI_File_get_info), as "key=value" strings.
func (f File) Hints() ([]string, error) {
	buf := make([]C.char, 1<<16)
	if err := mpiErr("MPI_File_get_info", C.beffio_hints(C.MPI_Fint(f), &buf[0], C.int(len(buf)))); err != nil {
		return nil, err
	}
	s := strings.TrimSpace(C.GoString(&buf[0]))
	if s == "" {
		return nil, nil
	}
	return strings.Split(s, "\n"), nil
}

func (p *IOCalls) c() C.beffio_calls_t {
	var c C.beffio_calls_t
	c.fh = C.MPI_Fint(p.File)
	if p.Read {
		c.read = 1
	}
	c._type = C.int(p.Type)
	c.len, c.l = C.int64_t(p.Len), C.int64_t(p.L)
	c.n, c.rank = C.int(p.N), C.int(p.Rank)
	c.base, c.lseg = C.int64_t(p.Base), C.int64_t(p.Lseg)
	c.pattern, c.access = C.int(p.Pattern), C.int(p.Access)
	if p.ExplicitOffsets {
		c.explicit_offsets = 1
	}
	return c
}

// RunIOCalls runs calls c0 … c0+k-1 of a pattern in C over buf (at least
// Len bytes). On reads it returns the number of chunks that failed
// validation and the first failure.
func RunIOCalls(p *IOCalls, c0, k int64, buf *Buffer) (int64, IOFault, error) {
	if p.L <= 0 || p.Len < p.L || p.Len%p.L != 0 || p.Len > buf.n || p.Len > MaxInt32 {
		return 0, IOFault{}, &Error{Call: "b_eff_io calls", Msg: "bad chunk sizes for the buffer"}
	}
	c := p.c()
	var errs C.int64_t
	var f C.beffio_fault
	rc := C.beffio_calls(&c, C.int64_t(c0), C.int64_t(k), (*C.uchar)(buf.p), &errs, &f)
	fault := IOFault{Rep: int64(f.rep), Offset: int64(f.offset), ExpectFirst: uint64(f.expect_first),
		GotFirst: uint64(f.got_first), ExpectLast: uint64(f.expect_last), GotLast: uint64(f.got_last)}
	return int64(errs), fault, mpiErr(ioCall(p), rc)
}

func ioCall(p *IOCalls) string {
	verb := "write"
	if p.Read {
		verb = "read"
	}
	switch p.Type {
	case IOScatter, IOSegColl:
		return "MPI_File_" + verb + "_all"
	case IOShared:
		if p.ExplicitOffsets {
			return "MPI_File_" + verb + "_at_all"
		}
		return "MPI_File_" + verb + "_ordered"
	}
	return "MPI_File_" + verb
}
