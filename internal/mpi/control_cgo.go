//go:build mpi

package mpi

/*
#include <stdlib.h>
#include <string.h>
#include "control.h"
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

var (
	// World is MPI_COMM_WORLD, Self MPI_COMM_SELF, CommNull
	// MPI_COMM_NULL; set by Init.
	World, Self, CommNull Comm
	// ProcNull is MPI_PROC_NULL.
	ProcNull int
)

// CallError is the error of the MPI call named call that returned the
// MPI error code rc: nil for MPI_SUCCESS, else an *Error with the
// library's error string. The suites' cgo loops report through it.
func CallError(call string, rc int) error { return mpiErr(call, C.int(rc)) }

func mpiErr(call string, rc C.int) error {
	if rc == 0 {
		return nil
	}
	var buf [512]C.char
	C.ctl_error_string(rc, &buf[0], C.int(len(buf)))
	return &Error{Call: call, Code: int(rc), Msg: C.GoString(&buf[0])}
}

// Init initialises MPI with the thread level named by level ("single",
// "funneled", "serialized" or "multiple") and sets the error handler of
// MPI_COMM_WORLD to MPI_ERRORS_RETURN. It returns the level provided.
//
// The harness asks for "serialized": benchmarks run on goroutines, so MPI
// calls come from several OS threads, one at a time. "single" matches what
// a plain C program gets from MPI_Init; some libraries (Open MPI 4.1 on
// shared memory) are measurably slower above it. beff serialises every MPI
// call either way.
func Init(level string) (string, error) {
	cl := C.CString(level)
	defer C.free(unsafe.Pointer(cl))
	req := C.ctl_thread_level(cl)
	if req < 0 {
		return "", fmt.Errorf("MPI thread level %q: want single, funneled, serialized or multiple", level)
	}
	var provided C.int
	if err := mpiErr("MPI_Init_thread", OnMain(func() C.int { return C.ctl_init(req, &provided) })); err != nil {
		return "", err
	}
	World, Self, CommNull = Comm(C.ctl_comm_world()), Comm(C.ctl_comm_self()), Comm(C.ctl_comm_null())
	ProcNull = int(C.ctl_proc_null())
	levels := map[C.int]string{C.MPI_THREAD_SINGLE: "single", C.MPI_THREAD_FUNNELED: "funneled",
		C.MPI_THREAD_SERIALIZED: "serialized", C.MPI_THREAD_MULTIPLE: "multiple"}
	if provided < req {
		return levels[provided], fmt.Errorf("MPI_Init_thread: asked for thread level %q, the library provides only %q", level, levels[provided])
	}
	return levels[provided], nil
}

// Finalize calls MPI_Finalize once, if MPI is initialised and not finalised.
func Finalize() error {
	if C.ctl_initialized() == 0 || C.ctl_finalized() != 0 {
		return nil
	}
	return mpiErr("MPI_Finalize", OnMain(func() C.int { return C.ctl_finalize() }))
}

// Exit ends the process with code through the C library's exit, which
// runs the handlers the MPI library registered with atexit: MPICH 4.2
// tells its launcher there that the process finalized (Go's os.Exit
// skips them, and Hydra then takes a process that ends with a code other
// than 0 for one that died, and kills the others).
func Exit(code int) {
	C.exit(C.int(code))
}

// Abort calls MPI_Abort on c; it does not return when MPI is up.
func Abort(c Comm, code int) {
	OnMain(func() C.int { C.ctl_abort(C.MPI_Fint(c), C.int(code)); return 0 })
}

// Rank returns the rank of the calling process in c.
func (c Comm) Rank() (int, error) {
	var r C.int
	err := mpiErr("MPI_Comm_rank", OnMain(func() C.int { return C.ctl_rank(C.MPI_Fint(c), &r) }))
	return int(r), err
}

// Size returns the number of processes in c.
func (c Comm) Size() (int, error) {
	var s C.int
	err := mpiErr("MPI_Comm_size", OnMain(func() C.int { return C.ctl_size(C.MPI_Fint(c), &s) }))
	return int(s), err
}

// Barrier is MPI_Barrier.
func (c Comm) Barrier() error {
	return mpiErr("MPI_Barrier", OnMain(func() C.int { return C.ctl_barrier(C.MPI_Fint(c)) }))
}

// QuietBarrier is a barrier that waits asleep: MPI_Ibarrier, tested every
// poll (at most 1 s) with the process sleeping between, so that a process
// with nothing to do leaves its core to those measuring. The last process
// to arrive leaves up to poll later than it would from MPI_Barrier.
func (c Comm) QuietBarrier(poll time.Duration) error {
	us := C.int(min(max(poll, time.Microsecond), time.Second) / time.Microsecond)
	return mpiErr("MPI_Ibarrier", OnMain(func() C.int { return C.ctl_quiet_barrier(C.MPI_Fint(c), us) }))
}

// BcastBytes broadcasts buf from root; every rank passes a buffer of the
// same length.
func (c Comm) BcastBytes(buf []byte, root int) error {
	if err := countCheck("MPI_Bcast", len(buf)); err != nil || len(buf) == 0 {
		return err
	}
	p := C.CBytes(buf)
	defer C.free(p)
	if err := mpiErr("MPI_Bcast", OnMain(func() C.int { return C.ctl_bcast_bytes(C.MPI_Fint(c), p, C.int(len(buf)), C.int(root)) })); err != nil {
		return err
	}
	copy(buf, unsafe.Slice((*byte)(p), len(buf)))
	return nil
}

func cF64(v []float64) (*C.double, func()) {
	p := C.malloc(C.size_t(8 * max(1, len(v))))
	copy(unsafe.Slice((*float64)(p), len(v)), v)
	return (*C.double)(p), func() { C.free(p) }
}

func cI64(v []int64) (*C.int64_t, func()) {
	p := C.malloc(C.size_t(8 * max(1, len(v))))
	copy(unsafe.Slice((*int64)(p), len(v)), v)
	return (*C.int64_t)(p), func() { C.free(p) }
}

// reduceCheck refuses a reduction of n elements (a C int) into out of
// nOut: out must have n on every rank of an allreduce (root < 0) and on
// root; the other ranks of a reduce may pass none.
func (c Comm) reduceCheck(call string, n, nOut, root int) error {
	if err := countCheck(call, n); err != nil || nOut == n {
		return err
	}
	if rank, err := c.Rank(); err != nil || root < 0 || rank == root || nOut != 0 {
		return &Error{Call: call, Code: -1, Msg: fmt.Sprintf("out has %d elements, in %d", nOut, n)}
	}
	return nil
}

// ReduceFloat64 reduces in element-wise with op into out on root, which
// passes out of len(in); the other ranks pass nil (or as much, left alone).
func (c Comm) ReduceFloat64(in, out []float64, op ReduceOp, root int) error {
	const call = "MPI_Reduce"
	if err := c.reduceCheck(call, len(in), len(out), root); err != nil {
		return err
	}
	pi, fi := cF64(in)
	defer fi()
	po, fo := cF64(out)
	defer fo()
	rc := OnMain(func() C.int { return C.ctl_reduce_f64(C.MPI_Fint(c), pi, po, C.int(len(in)), C.int(op), C.int(root)) })
	if err := mpiErr(call, rc); err != nil {
		return err
	}
	copy(out, unsafe.Slice((*float64)(unsafe.Pointer(po)), len(out)))
	return nil
}

// ReduceInt64 reduces in element-wise with op into out on root, which
// passes out of len(in); the other ranks pass nil (or as much, left alone).
func (c Comm) ReduceInt64(in, out []int64, op ReduceOp, root int) error {
	return c.i64("MPI_Reduce", in, out, op, root)
}

// AllreduceInt64 reduces in element-wise with op into out on every rank.
func (c Comm) AllreduceInt64(in, out []int64, op ReduceOp) error {
	return c.i64("MPI_Allreduce", in, out, op, -1)
}

func (c Comm) i64(call string, in, out []int64, op ReduceOp, root int) error {
	if err := c.reduceCheck(call, len(in), len(out), root); err != nil {
		return err
	}
	pi, fi := cI64(in)
	defer fi()
	po, fo := cI64(out)
	defer fo()
	var rc C.int
	if root < 0 {
		rc = OnMain(func() C.int { return C.ctl_allreduce_i64(C.MPI_Fint(c), pi, po, C.int(len(in)), C.int(op)) })
	} else {
		rc = OnMain(func() C.int { return C.ctl_reduce_i64(C.MPI_Fint(c), pi, po, C.int(len(in)), C.int(op), C.int(root)) })
	}
	if err := mpiErr(call, rc); err != nil {
		return err
	}
	copy(out, unsafe.Slice((*int64)(unsafe.Pointer(po)), len(out)))
	return nil
}

// GatherBytes gathers len(in) bytes from every rank into out on root (out
// needs size·len(in) bytes on root; it is ignored elsewhere, where nothing
// of that size is allocated).
func (c Comm) GatherBytes(in, out []byte, root int) error {
	return c.rootBytes("MPI_Gather", in, out, len(in), root, func(pi, po unsafe.Pointer) C.int {
		return C.ctl_gather_bytes(C.MPI_Fint(c), pi, C.int(len(in)), po, C.int(root))
	})
}

// ScatterBytes scatters len(out) bytes to every rank from in on root (in
// holds size·len(out) bytes on root; it is ignored elsewhere).
func (c Comm) ScatterBytes(in, out []byte, root int) error {
	return c.rootBytes("MPI_Scatter", out, in, len(out), root, func(po, pi unsafe.Pointer) C.int {
		return C.ctl_scatter_bytes(C.MPI_Fint(c), pi, C.int(len(out)), po, C.int(root))
	})
}

// rootBytes runs a gather or a scatter of n bytes per rank: own is this
// rank's n bytes, all the size·n bytes of root (checked there, nil
// elsewhere). The slices are handed to MPI as they are.
func (c Comm) rootBytes(call string, own, all []byte, n, root int, f func(own, all unsafe.Pointer) C.int) error {
	rank, err := c.Rank()
	if err != nil {
		return err
	}
	size, err := c.Size()
	if err != nil {
		return err
	}
	if err := countCheck(call, n); err != nil {
		return err
	}
	if len(own) < n || rank == root && len(all) < n*size {
		return &Error{Call: call, Code: -1, Msg: fmt.Sprintf("buffers of %d and %d bytes for %d bytes from each of %d processes", len(own), len(all), n, size)}
	}
	var po, pa unsafe.Pointer
	if n > 0 {
		po = unsafe.Pointer(&own[0])
		if rank == root {
			pa = unsafe.Pointer(&all[0])
		}
	}
	return mpiErr(call, OnMain(func() C.int { return f(po, pa) }))
}

// Split is MPI_Comm_split; a negative color means MPI_UNDEFINED (the result
// is CommNull).
func (c Comm) Split(color, key int) (Comm, error) {
	var out C.MPI_Fint
	col := C.int(color)
	if color < 0 {
		col = C.ctl_undefined()
	}
	err := mpiErr("MPI_Comm_split", OnMain(func() C.int { return C.ctl_comm_split(C.MPI_Fint(c), col, C.int(key), &out) }))
	return Comm(out), err
}

// CreateRanges is MPI_Comm_create_group over the ranks of c in ranges, in
// their order: only those ranks call it (all with the same ranges and
// tag), the others take no part, so a point's communicator costs the
// processes outside it nothing.
func (c Comm) CreateRanges(ranges []RankRange, tag int) (Comm, error) {
	if len(ranges) == 0 {
		return CommNull, &Error{Call: "MPI_Comm_create_group", Code: -1, Msg: "a group of no ranges"}
	}
	r := make([]C.int, 3*len(ranges))
	for i, x := range ranges {
		r[3*i], r[3*i+1], r[3*i+2] = C.int(x.First), C.int(x.Last), C.int(x.Stride)
	}
	var out C.MPI_Fint
	err := mpiErr("MPI_Comm_create_group", OnMain(func() C.int {
		return C.ctl_comm_create_ranges(C.MPI_Fint(c), C.int(len(ranges)), (*[3]C.int)(unsafe.Pointer(&r[0])), C.int(tag), &out)
	}))
	return Comm(out), err
}

// SplitShared is MPI_Comm_split_type(MPI_COMM_TYPE_SHARED): the processes of
// c that share this node's memory.
func (c Comm) SplitShared() (Comm, error) {
	var out C.MPI_Fint
	err := mpiErr("MPI_Comm_split_type", OnMain(func() C.int { return C.ctl_comm_split_shared(C.MPI_Fint(c), &out) }))
	return Comm(out), err
}

// Free is MPI_Comm_free; freeing CommNull does nothing.
func (c *Comm) Free() error {
	h := C.MPI_Fint(*c)
	err := mpiErr("MPI_Comm_free", OnMain(func() C.int { return C.ctl_comm_free(&h) }))
	*c = Comm(h)
	return err
}

// DimsCreate is MPI_Dims_create(n, nd, dims) with dims all zero.
func DimsCreate(n, nd int) ([]int, error) {
	d := make([]C.int, nd)
	if err := mpiErr("MPI_Dims_create", OnMain(func() C.int { return C.ctl_dims_create(C.int(n), C.int(nd), &d[0]) })); err != nil {
		return nil, err
	}
	out := make([]int, nd)
	for i := range d {
		out[i] = int(d[i])
	}
	return out, nil
}

// CartCreate is MPI_Cart_create.
func (c Comm) CartCreate(dims []int, periodic []bool, reorder bool) (Comm, error) {
	nd := len(dims)
	d := make([]C.int, nd)
	p := make([]C.int, nd)
	for i := range dims {
		d[i] = C.int(dims[i])
		if periodic[i] {
			p[i] = 1
		}
	}
	r := C.int(0)
	if reorder {
		r = 1
	}
	var out C.MPI_Fint
	err := mpiErr("MPI_Cart_create", OnMain(func() C.int { return C.ctl_cart_create(C.MPI_Fint(c), C.int(nd), &d[0], &p[0], r, &out) }))
	return Comm(out), err
}

// CartShift is MPI_Cart_shift: the source and destination ranks at
// displacement disp along dimension dir (ProcNull past a non-periodic edge).
func (c Comm) CartShift(dir, disp int) (src, dest int, err error) {
	var s, d C.int
	err = mpiErr("MPI_Cart_shift", OnMain(func() C.int { return C.ctl_cart_shift(C.MPI_Fint(c), C.int(dir), C.int(disp), &s, &d) }))
	return int(s), int(d), err
}

// Wtime is MPI_Wtime; Wtick is MPI_Wtick.
func Wtime() float64 { return float64(OnMain(func() C.double { return C.ctl_wtime() })) }
func Wtick() float64 { return float64(OnMain(func() C.double { return C.ctl_wtick() })) }

// LibraryVersion is MPI_Get_library_version.
func LibraryVersion() string {
	var buf [8192]C.char
	OnMain(func() C.int { C.ctl_library_version(&buf[0], C.int(len(buf))); return 0 })
	return C.GoString(&buf[0])
}

// HeaderVersion names the MPI library the binary was compiled against,
// from its mpi.h ("Open MPI 4.1.4", "MPICH 4.0.2"): a constant, known
// before Init.
func HeaderVersion() string { return C.GoString(C.ctl_header_version()) }

// ProcessorName is MPI_Get_processor_name.
func ProcessorName() string {
	var buf [1024]C.char
	OnMain(func() C.int { C.ctl_processor_name(&buf[0], C.int(len(buf))); return 0 })
	return C.GoString(&buf[0])
}

// Buffer is C memory for messages: MPI may keep its pointer after a call
// returns, and the timed loops read and write it from C.
type Buffer struct {
	p unsafe.Pointer
	n int64
}

// NewBuffer allocates n bytes aligned to a page and touches every page.
func NewBuffer(n int64) (*Buffer, error) {
	if n < 0 {
		return nil, fmt.Errorf("a message buffer of %d bytes", n)
	}
	var p unsafe.Pointer
	if C.posix_memalign(&p, 4096, C.size_t(max(n, 1))) != 0 {
		return nil, fmt.Errorf("allocating a message buffer of %d bytes: out of memory", n)
	}
	C.memset(p, 0, C.size_t(max(n, 1)))
	return &Buffer{p: p, n: n}, nil
}

// Len is the buffer's size in bytes.
func (b *Buffer) Len() int64 { return b.n }

// Pointer is the buffer's C memory, for the timed loops' cgo calls.
func (b *Buffer) Pointer() unsafe.Pointer { return b.p }

// Bytes views the buffer as a Go slice (valid until Free).
func (b *Buffer) Bytes() []byte { return unsafe.Slice((*byte)(b.p), b.n) }

// Free releases the buffer.
func (b *Buffer) Free() {
	if b != nil && b.p != nil {
		C.free(b.p)
		b.p = nil
	}
}

// cOps are the names of the C table of reductions, in enum order.
func cOps() []string {
	out := make([]string, C.CTL_NOPS)
	for i := range out {
		out[i] = C.GoString(C.ctl_op_names[i])
	}
	return out
}

// Singleton runs a test binary's tests (run) as a singleton MPI process,
// without mpirun: MPI initialised at level on the calling thread, locked
// to it, and finalised after. It returns run's exit code, or 1 when MPI
// cannot be initialised.
func Singleton(level string, run func() int) int {
	runtime.LockOSThread()
	if _, err := Init(level); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	code := run()
	Finalize()
	return code
}

// RMAProbe makes and frees a window of a page on c (collective), from
// MPI_Win_allocate or MPI_Win_create: ok says whether every rank could,
// why is this rank's error; err is an error of the probe itself.
func RMAProbe(c Comm, allocate bool) (ok bool, why, err error) {
	var cok, cwhy, alloc C.int
	if allocate {
		alloc = 1
	}
	rc := OnMain(func() C.int { return C.ctl_rma_probe(C.MPI_Fint(c), alloc, &cok, &cwhy) })
	call := "MPI_Win_create"
	if allocate {
		call = "MPI_Win_allocate"
	}
	return cok != 0, mpiErr(call, cwhy), mpiErr("MPI_Allreduce", rc)
}

// progress is the process's progress counter, in C memory (ProgressCounter).
var progress = sync.OnceValue(func() unsafe.Pointer { return C.calloc(1, 8) })

// ProgressCounter is the process's progress counter, an int64 in C
// memory that the suites' timed loops advance by one for every step they
// complete (ctl_advance: an iteration, a repetition, a burst), handed to
// their C calls. The watchdog reads it (Progress): a loop that advances
// is making progress, however long its measurement takes.
func ProgressCounter() unsafe.Pointer { return progress() }

// Progress is the progress counter's value.
func Progress() int64 { return atomic.LoadInt64((*int64)(progress())) }

// Advance marks a step that Go completed (a measurement of its own C
// call, say) on the progress counter.
func Advance() { atomic.AddInt64((*int64)(progress()), 1) }

// WtimeIsGlobal is the attribute MPI_WTIME_IS_GLOBAL of MPI_COMM_WORLD.
func WtimeIsGlobal() (bool, error) {
	var g C.int
	rc := OnMain(func() C.int { return C.ctl_wtime_is_global(&g) })
	return g != 0, mpiErr("MPI_Comm_get_attr(MPI_WTIME_IS_GLOBAL)", rc)
}
