//go:build mpi

package loops_test

import (
	"fmt"
	"testing"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/mpi/mpitest"
	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beff/loops"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run as a singleton MPI process (no mpirun): the timed loop is
// exercised on a ring of one process, which sends to itself.

func TestValidationBytes(t *testing.T) {
	for it := int64(0); it < 600; it += 7 {
		for s := 0; s < loops.MaxSteps; s++ {
			f, l := loops.FirstByte(it, s, 3, 1), loops.LastByte(it, s, 3, 1)
			assert.NotZero(t, f)
			assert.NotZero(t, l)
		}
	}
	assert.NotEqual(t, loops.FirstByte(1, 0, 3, 1), loops.FirstByte(2, 0, 3, 1), "consecutive iterations differ")
}

// TestMeasureSelfRing runs every method on a one-process ring and checks,
// from the receive buffer, that the C loop placed the messages cyclically as
// beff.NextOffset says and stamped them as FirstByte/LastByte say.
func TestMeasureSelfRing(t *testing.T) {
	const lmax = 8192
	send, recv := mpitest.Buffers(t, beff.BufferSize(lmax))
	for _, m := range loops.Exchanges {
		for _, l := range []int{1, 8, 1000, lmax} {
			t.Run(fmt.Sprintf("method=%d/L=%d", m, l), func(t *testing.T) {
				clear(recv.Bytes())
				const warm, loop = 1, 9
				el, f, err := loops.Measure(&loops.BeffTiming{Barrier: mpi.World, Comm: mpi.World,
					Plan: loops.BeffPlan{Dest: []int{0}, Src: []int{0}}, Method: m, Len: l, SizeIndex: 5,
					LoopLen: loop, Warm: warm, Send: send, Recv: recv})
				require.NoError(t, err)
				assert.Greater(t, el, 0.0)
				assert.Zero(t, f.Count, "no validation failure expected: %+v", f)
				// Replay the placement: the last message to land in each slot wins.
				want := map[int64][2]byte{}
				off := int64(0)
				for it := int64(0); it < warm+loop; it++ {
					want[off] = [2]byte{loops.FirstByte(it, 0, 5, 0), loops.LastByte(it, 0, 5, 0)}
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
func selfLoop(m loops.Exchange, l, looplen, warm int, send, recv *mpi.Buffer) *loops.BeffTiming {
	return &loops.BeffTiming{Barrier: mpi.World, Comm: mpi.World, Plan: loops.BeffPlan{Dest: []int{0}, Src: []int{0}},
		Method: m, Len: l, SizeIndex: 4, LoopLen: looplen, Warm: warm, Send: send, Recv: recv}
}

// TestMeasureCarry: with Carry a loop goes on where the last one left the
// offsets and stores where it stopped; a message that would not fit
// starts from 0.
func TestMeasureCarry(t *testing.T) {
	const lmax = 8192
	send, recv := mpitest.Buffers(t, beff.BufferSize(lmax))
	for _, m := range []loops.Exchange{loops.ExchangeSendrecv, loops.ExchangeNonblocking} {
		var carry [2]int64
		off := int64(0)
		for round := range 3 {
			clear(recv.Bytes())
			ml := selfLoop(m, 1000, 4, 1, send, recv)
			ml.Carry = &carry
			_, f, err := loops.Measure(ml)
			require.NoError(t, err)
			require.Zero(t, f.Count)
			first := off
			for range 5 {
				off = beff.NextOffset(off, 1000, recv.Len())
			}
			assert.Equal(t, [2]int64{off, off}, carry, "method %d, round %d: where the loop stopped", m, round)
			assert.Equal(t, loops.FirstByte(0, 0, 4, 0), recv.Bytes()[first], "method %d, round %d: the first message at %d", m, round, first)
		}
	}
	// an 8192-byte message after an offset that leaves less room starts at
	// 0; the next one goes at 8192
	end := send.Len() - 8000
	carry := [2]int64{end, end}
	ml := selfLoop(loops.ExchangeSendrecv, 8192, 1, 0, send, recv)
	ml.Carry = &carry
	_, _, err := loops.Measure(ml)
	require.NoError(t, err)
	assert.Equal(t, [2]int64{8192, 8192}, carry, "one message from 0")
}

// TestMeasureRefBase: the reference code's placement puts each step's
// message at one offset of both buffers and carries it on.
func TestMeasureRefBase(t *testing.T) {
	const lmax = 8192
	send, recv := mpitest.Buffers(t, beff.BufferSize(lmax))
	for _, m := range loops.Exchanges {
		base := int64(0)
		clear(recv.Bytes())
		ml := selfLoop(m, 1001, 3, 1, send, recv)
		ml.RefBase = &base
		_, f, err := loops.Measure(ml)
		require.NoError(t, err)
		require.Zero(t, f.Count)
		// 4 steps of 1008 bytes (1001 rounded up to 8)
		assert.Equal(t, int64(4*1008), base, "method %d", m)
		for it := int64(0); it < 4; it++ {
			assert.Equal(t, loops.FirstByte(it, 0, 4, 0), recv.Bytes()[it*1008], "method %d, iteration %d", m, it)
		}
	}
}

func TestMeasureInjectedFault(t *testing.T) {
	send, recv := mpitest.Buffers(t, beff.BufferSize(8192))
	for _, m := range loops.Exchanges {
		_, f, err := loops.Measure(&loops.BeffTiming{Barrier: mpi.World, Comm: mpi.World,
			Plan: loops.BeffPlan{Dest: []int{0}, Src: []int{0}}, Method: m, Len: 64, SizeIndex: 2,
			LoopLen: 5, Warm: 1, Send: send, Recv: recv, Inject: true})
		require.NoError(t, err)
		assert.Equal(t, int64(1), f.Count, "method %d", m)
		assert.Equal(t, int64(0), f.Iter)
		assert.Equal(t, int(loops.FirstByte(0, 0, 2, 0)), f.ExpectFirst)
		assert.Equal(t, f.ExpectFirst^0xff, f.GotFirst)
		assert.Equal(t, f.ExpectLast, f.GotLast)
	}
}

func TestMeasureRejectsBadPlans(t *testing.T) {
	send, recv := mpitest.Buffers(t, beff.BufferSize(8192))
	_, _, err := loops.Measure(&loops.BeffTiming{Barrier: mpi.World, Comm: mpi.World,
		Plan: loops.BeffPlan{Dest: make([]int, loops.MaxSteps+1), Src: make([]int, loops.MaxSteps+1)},
		Len:  8, LoopLen: 1, Send: send, Recv: recv})
	assert.Error(t, err)
	_, _, err = loops.Measure(&loops.BeffTiming{Barrier: mpi.World, Comm: mpi.World,
		Plan: loops.BeffPlan{Dest: []int{0}, Src: []int{0}}, Len: int(send.Len()) + 1, LoopLen: 1, Send: send, Recv: recv})
	assert.Error(t, err)
}
