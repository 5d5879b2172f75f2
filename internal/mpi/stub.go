//go:build !mpi

package mpi

import (
	"fmt"
	"os"
	"time"
	"unsafe"
)

// This file is what the control plane of package mpi is without the mpi
// build tag: every call fails with ErrNoMPI, so nothing is ever measured
// by a build without MPI. The timed loops (beff.go, beffio.go, skampi.go)
// fail the same way, since no cgo file sets their C functions.

var (
	World, CommNull Comm = 0, -1
	Self            Comm = -3
	ProcNull             = -2
)

func Init(level string) (string, error)   { return "", ErrNoMPI }
func Finalize() error                     { return nil }
func Exit(code int)                       { os.Exit(code) }
func Abort(c Comm, code int)              {}
func Wtime() float64                      { return 0 }
func Wtick() float64                      { return 0 }
func LibraryVersion() string              { return "" }
func HeaderVersion() string               { return "" }
func ProcessorName() string               { return "" }
func DimsCreate(n, nd int) ([]int, error) { return nil, ErrNoMPI }

func (c Comm) Rank() (int, error)                                           { return 0, ErrNoMPI }
func (c Comm) Size() (int, error)                                           { return 1, ErrNoMPI }
func (c Comm) Barrier() error                                               { return ErrNoMPI }
func (c Comm) QuietBarrier(poll time.Duration) error                        { return ErrNoMPI }
func (c Comm) BcastBytes(buf []byte, root int) error                        { return ErrNoMPI }
func (c Comm) ReduceFloat64(in, out []float64, op ReduceOp, root int) error { return ErrNoMPI }
func (c Comm) ReduceInt64(in, out []int64, op ReduceOp, root int) error     { return ErrNoMPI }
func (c Comm) AllreduceInt64(in, out []int64, op ReduceOp) error            { return ErrNoMPI }
func (c Comm) GatherBytes(in, out []byte, root int) error                   { return ErrNoMPI }
func (c Comm) ScatterBytes(in, out []byte, root int) error                  { return ErrNoMPI }
func (c Comm) Split(color, key int) (Comm, error)                           { return CommNull, ErrNoMPI }
func (c Comm) SplitShared() (Comm, error)                                   { return CommNull, ErrNoMPI }
func (c Comm) CreateRanges(ranges []RankRange, tag int) (Comm, error)       { return CommNull, ErrNoMPI }
func (c *Comm) Free() error                                                 { return nil }
func (c Comm) CartCreate(dims []int, periodic []bool, reorder bool) (Comm, error) {
	return CommNull, ErrNoMPI
}
func (c Comm) CartShift(dir, disp int) (int, int, error) { return 0, 0, ErrNoMPI }

// Buffer is C memory for messages (plain Go memory in this stub).
type Buffer struct{ b []byte }

func NewBuffer(n int64) (*Buffer, error) {
	if n < 0 {
		return nil, fmt.Errorf("a message buffer of %d bytes", n)
	}
	return &Buffer{b: make([]byte, n)}, nil
}
func (b *Buffer) Len() int64    { return int64(len(b.b)) }
func (b *Buffer) Bytes() []byte { return b.b }
func (b *Buffer) Free()         {}

func InfoNull() Info { return -1 }

// InfoLimits without MPI: no limit known (0).
func InfoLimits() (key, value int) { return 0, 0 }
func OpenFile(c Comm, path string, mode OpenMode, flags OpenFlags, info Info) (File, error) {
	return -1, ErrNoMPI
}
func (f *File) Close() error                                        { return nil }
func DeleteFile(path string) error                                  { return ErrNoMPI }
func (f File) Sync() error                                          { return ErrNoMPI }
func (f File) SetViewScatter(disp, l int64, n int, info Info) error { return ErrNoMPI }
func (f File) SeekSet(off int64) error                              { return ErrNoMPI }
func (f File) SeekShared(off int64) error                           { return ErrNoMPI }
func NewInfo(hints map[string]string) (Info, error)                 { return -1, ErrNoMPI }
func (i *Info) Free() error                                         { return nil }
func (f File) Hints() ([]string, error)                             { return nil, ErrNoMPI }

func (f File) SetInfo(i Info) error { return ErrNoMPI }

func RMAProbe(c Comm, allocate bool) (ok bool, why, err error) { return false, nil, ErrNoMPI }
func WtimeIsGlobal() (bool, error)                             { return false, ErrNoMPI }
func Provides() map[string]bool                                { return map[string]bool{} }

func ClockLearn(c Comm, teacher, rounds int, local [3]float64) ([3]float64, [5]float64, error) {
	return [3]float64{}, [5]float64{}, ErrNoMPI
}
func ClockTeach(c Comm, learner, rounds int, local [3]float64, wire [5]float64) error {
	return ErrNoMPI
}

func ProgressCounter() unsafe.Pointer { return nil }
func Progress() int64                 { return 0 }
func Advance()                        {}
