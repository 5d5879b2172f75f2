//go:build mpi

package mpi_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/beff"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run as a singleton MPI process (no mpirun): the timed loop is
// exercised on a ring of one process, which sends to itself.
func TestMain(m *testing.M) { os.Exit(mpi.Singleton("serialized", m.Run)) }

func TestWorld(t *testing.T) {
	r, err := mpi.World.Rank()
	require.NoError(t, err)
	s, err := mpi.World.Size()
	require.NoError(t, err)
	assert.Equal(t, 0, r)
	assert.Equal(t, 1, s)
	assert.Greater(t, mpi.Wtick(), 0.0)
	assert.NotEmpty(t, mpi.LibraryVersion())
}

func TestControlPlane(t *testing.T) {
	buf := []byte("decision")
	require.NoError(t, mpi.World.BcastBytes(buf, 0))
	assert.Equal(t, "decision", string(buf))
	out := make([]float64, 2)
	require.NoError(t, mpi.World.ReduceFloat64([]float64{1.5, -2}, out, mpi.Max, 0))
	assert.Equal(t, []float64{1.5, -2}, out)
	io := make([]int64, 1)
	require.NoError(t, mpi.World.AllreduceInt64([]int64{7}, io, mpi.Sum))
	assert.Equal(t, int64(7), io[0])
	assert.Error(t, mpi.World.ReduceFloat64([]float64{1}, nil, mpi.Max, 0), "a nil out must be refused, not crash")
	assert.Error(t, mpi.World.ReduceInt64([]int64{1}, nil, mpi.Min, 0), "on the root too")
	assert.Error(t, mpi.World.AllreduceInt64([]int64{1}, nil, mpi.Sum), "an allreduce's out is everywhere")
	big := make([]byte, mpi.MaxInt32+1) // not touched: the count is refused first
	assert.ErrorContains(t, mpi.World.BcastBytes(big, 0), "an MPI count is 0 to 2147483647")
	assert.ErrorContains(t, mpi.World.GatherBytes(big, nil, 0), "an MPI count")
	dims, err := mpi.DimsCreate(12, 2)
	require.NoError(t, err)
	assert.Equal(t, beff.DimsCreate(12, 2), dims)
	c, err := mpi.World.CartCreate([]int{1}, []bool{true}, false)
	require.NoError(t, err)
	src, dst, err := c.CartShift(0, 1)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 0}, []int{src, dst})
	require.NoError(t, c.Free())
	_, err = mpi.World.Split(-1, 0)
	require.NoError(t, err)
	require.NoError(t, mpi.World.QuietBarrier(time.Millisecond))
	require.NoError(t, mpi.Self.QuietBarrier(0), "a poll below 1 µs is taken as 1 µs")
	assert.NotEqual(t, mpi.World, mpi.Self)
}

func TestValidationBytes(t *testing.T) {
	for it := int64(0); it < 600; it += 7 {
		for s := 0; s < mpi.MaxSteps; s++ {
			f, l := mpi.FirstByte(it, s, 3, 1), mpi.LastByte(it, s, 3, 1)
			assert.NotZero(t, f)
			assert.NotZero(t, l)
		}
	}
	assert.NotEqual(t, mpi.FirstByte(1, 0, 3, 1), mpi.FirstByte(2, 0, 3, 1), "consecutive iterations differ")
}

func newBuffers(t *testing.T, lmax int64) (*mpi.Buffer, *mpi.Buffer) {
	s, err := mpi.NewBuffer(beff.BufferSize(lmax))
	require.NoError(t, err)
	r, err := mpi.NewBuffer(beff.BufferSize(lmax))
	require.NoError(t, err)
	t.Cleanup(func() { s.Free(); r.Free() })
	return s, r
}

// TestMeasureSelfRing runs every method on a one-process ring and checks,
// from the receive buffer, that the C loop placed the messages cyclically as
// beff.NextOffset says and stamped them as FirstByte/LastByte say.
func TestMeasureSelfRing(t *testing.T) {
	const lmax = 8192
	send, recv := newBuffers(t, lmax)
	for _, m := range mpi.Exchanges {
		for _, l := range []int{1, 8, 1000, lmax} {
			t.Run(fmt.Sprintf("method=%d/L=%d", m, l), func(t *testing.T) {
				clear(recv.Bytes())
				const warm, loop = 1, 9
				el, f, err := mpi.Measure(&mpi.BeffTiming{Barrier: mpi.World, Comm: mpi.World,
					Plan: mpi.BeffPlan{Dest: []int{0}, Src: []int{0}}, Method: m, Len: l, SizeIndex: 5,
					LoopLen: loop, Warm: warm, Send: send, Recv: recv})
				require.NoError(t, err)
				assert.Greater(t, el, 0.0)
				assert.Zero(t, f.Count, "no validation failure expected: %+v", f)
				// Replay the placement: the last message to land in each slot wins.
				want := map[int64][2]byte{}
				off := int64(0)
				for it := int64(0); it < warm+loop; it++ {
					want[off] = [2]byte{mpi.FirstByte(it, 0, 5, 0), mpi.LastByte(it, 0, 5, 0)}
					off = beff.NextOffset(off, int64(l), recv.Len())
				}
				rb := recv.Bytes()
				for o, v := range want {
					assert.Equal(t, v[0], rb[o], "first byte at offset %d", o)
					if l > 1 {
						assert.Equal(t, v[1], rb[o+int64(l)-1], "last byte at offset %d", o)
					}
				}
			})
		}
	}
}

// selfLoop is a loop of method m on the ring of this process alone (size
// index 4), messages of l bytes.
func selfLoop(m mpi.Exchange, l, looplen, warm int, send, recv *mpi.Buffer) *mpi.BeffTiming {
	return &mpi.BeffTiming{Barrier: mpi.World, Comm: mpi.World, Plan: mpi.BeffPlan{Dest: []int{0}, Src: []int{0}},
		Method: m, Len: l, SizeIndex: 4, LoopLen: looplen, Warm: warm, Send: send, Recv: recv}
}

// TestMeasureCarry: with Carry a loop goes on where the last one left the
// offsets and stores where it stopped; a message that would not fit
// starts from 0.
func TestMeasureCarry(t *testing.T) {
	const lmax = 8192
	send, recv := newBuffers(t, lmax)
	for _, m := range []mpi.Exchange{mpi.ExchangeSendrecv, mpi.ExchangeNonblocking} {
		var carry [2]int64
		off := int64(0)
		for round := range 3 {
			clear(recv.Bytes())
			ml := selfLoop(m, 1000, 4, 1, send, recv)
			ml.Carry = &carry
			_, f, err := mpi.Measure(ml)
			require.NoError(t, err)
			require.Zero(t, f.Count)
			first := off
			for range 5 {
				off = beff.NextOffset(off, 1000, recv.Len())
			}
			assert.Equal(t, [2]int64{off, off}, carry, "method %d, round %d: where the loop stopped", m, round)
			assert.Equal(t, mpi.FirstByte(0, 0, 4, 0), recv.Bytes()[first], "method %d, round %d: the first message at %d", m, round, first)
		}
	}
	// an 8192-byte message after an offset that leaves less room starts at
	// 0; the next one goes at 8192
	end := send.Len() - 8000
	carry := [2]int64{end, end}
	ml := selfLoop(mpi.ExchangeSendrecv, 8192, 1, 0, send, recv)
	ml.Carry = &carry
	_, _, err := mpi.Measure(ml)
	require.NoError(t, err)
	assert.Equal(t, [2]int64{8192, 8192}, carry, "one message from 0")
}

// TestMeasureRefBase: the reference code's placement puts each step's
// message at one offset of both buffers and carries it on.
func TestMeasureRefBase(t *testing.T) {
	const lmax = 8192
	send, recv := newBuffers(t, lmax)
	for _, m := range mpi.Exchanges {
		base := int64(0)
		clear(recv.Bytes())
		ml := selfLoop(m, 1001, 3, 1, send, recv)
		ml.RefBase = &base
		_, f, err := mpi.Measure(ml)
		require.NoError(t, err)
		require.Zero(t, f.Count)
		// 4 steps of 1008 bytes (1001 rounded up to 8)
		assert.Equal(t, int64(4*1008), base, "method %d", m)
		for it := int64(0); it < 4; it++ {
			assert.Equal(t, mpi.FirstByte(it, 0, 4, 0), recv.Bytes()[it*1008], "method %d, iteration %d", m, it)
		}
	}
}

func TestMeasureInjectedFault(t *testing.T) {
	send, recv := newBuffers(t, 8192)
	for _, m := range mpi.Exchanges {
		_, f, err := mpi.Measure(&mpi.BeffTiming{Barrier: mpi.World, Comm: mpi.World,
			Plan: mpi.BeffPlan{Dest: []int{0}, Src: []int{0}}, Method: m, Len: 64, SizeIndex: 2,
			LoopLen: 5, Warm: 1, Send: send, Recv: recv, Inject: true})
		require.NoError(t, err)
		assert.Equal(t, int64(1), f.Count, "method %d", m)
		assert.Equal(t, int64(0), f.Iter)
		assert.Equal(t, int(mpi.FirstByte(0, 0, 2, 0)), f.ExpectFirst)
		assert.Equal(t, f.ExpectFirst^0xff, f.GotFirst)
		assert.Equal(t, f.ExpectLast, f.GotLast)
	}
}

func TestMeasureRejectsBadPlans(t *testing.T) {
	send, recv := newBuffers(t, 8192)
	_, _, err := mpi.Measure(&mpi.BeffTiming{Barrier: mpi.World, Comm: mpi.World,
		Plan: mpi.BeffPlan{Dest: make([]int, mpi.MaxSteps+1), Src: make([]int, mpi.MaxSteps+1)},
		Len:  8, LoopLen: 1, Send: send, Recv: recv})
	assert.Error(t, err)
	_, _, err = mpi.Measure(&mpi.BeffTiming{Barrier: mpi.World, Comm: mpi.World,
		Plan: mpi.BeffPlan{Dest: []int{0}, Src: []int{0}}, Len: int(send.Len()) + 1, LoopLen: 1, Send: send, Recv: recv})
	assert.Error(t, err)
}
