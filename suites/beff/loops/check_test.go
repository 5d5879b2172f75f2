package loops

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/mpi/mpitest"
)

// What the b_eff loop refuses before any C runs; no MPI needed.

// TestMeasureRefuses: a b_eff loop the C code cannot run is refused with
// what is wrong, before it reaches C.
func TestMeasureRefuses(t *testing.T) {
	send, recv := mpitest.Buffers(t, 1024)
	ok := BeffTiming{Plan: BeffPlan{Dest: []int{1}, Src: []int{1}}, Method: ExchangeSendrecv, Len: 1024, LoopLen: 10, Send: send, Recv: recv}
	require.NoError(t, ok.check())
	for _, tt := range []struct {
		name string
		edit func(m *BeffTiming)
		want string
	}{
		{"too many steps", func(m *BeffTiming) { m.Plan = BeffPlan{Dest: make([]int, MaxSteps+1), Src: make([]int, MaxSteps+1)} }, "plan with 9/9 steps (at most 8)"},
		{"steps unpaired", func(m *BeffTiming) { m.Plan.Src = nil }, "plan with 1/0 steps"},
		{"message too long", func(m *BeffTiming) { m.Len = 1025 }, "message of 1025 bytes does not fit the 1024-byte buffers"},
		{"negative length", func(m *BeffTiming) { m.Len = -1 }, "message of -1 bytes"},
		{"no buffers", func(m *BeffTiming) { m.Recv = nil }, "no buffers"},
		{"negative loop", func(m *BeffTiming) { m.LoopLen = -1 }, "loop of -1 iterations"},
		{"loop beyond a C int", func(m *BeffTiming) { m.LoopLen = mpi.MaxInt32 + 1 }, "loop of 2147483648 iterations"},
		{"size beyond a C int", func(m *BeffTiming) { m.SizeIndex = mpi.MaxInt32 + 1 }, "beyond an MPI count"},
		{"unknown exchange", func(m *BeffTiming) { m.Method = Exchange(7) }, "exchange 7"},
	} {
		m := ok
		tt.edit(&m)
		_, _, err := Measure(&m)
		assert.ErrorContains(t, err, tt.want, tt.name)
	}
}

// TestNames: the exchanges' names, in value order.
func TestNames(t *testing.T) {
	var got []string
	for _, e := range Exchanges {
		got = append(got, e.String())
	}
	assert.Equal(t, []string{"sendrecv", "alltoallv", "nonblocking"}, got)
}
