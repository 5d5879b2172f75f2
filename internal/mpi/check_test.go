package mpi

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Go side of the binding: what it refuses before any C runs (with MPI
// or without), its names, its errors, the launcher's environment and the
// funnel of calls to the thread that initialised MPI. These tests need no
// MPI; with the mpi tag they run too.

func buffers(t *testing.T, n int64) (*Buffer, *Buffer) {
	t.Helper()
	s, err := NewBuffer(n)
	require.NoError(t, err)
	r, err := NewBuffer(n)
	require.NoError(t, err)
	t.Cleanup(func() { s.Free(); r.Free() })
	return s, r
}

// TestMeasureRefuses: a b_eff loop the C code cannot run is refused with
// what is wrong, before it reaches C.
func TestMeasureRefuses(t *testing.T) {
	send, recv := buffers(t, 1024)
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
		{"loop beyond a C int", func(m *BeffTiming) { m.LoopLen = MaxInt32 + 1 }, "loop of 2147483648 iterations"},
		{"size beyond a C int", func(m *BeffTiming) { m.SizeIndex = MaxInt32 + 1 }, "beyond an MPI count"},
		{"unknown exchange", func(m *BeffTiming) { m.Method = Exchange(7) }, "exchange 7"},
	} {
		m := ok
		tt.edit(&m)
		_, _, err := Measure(&m)
		assert.ErrorContains(t, err, tt.want, tt.name)
	}
}

// TestRunCallsRefuses: b_eff_io's calls whose chunks do not fit the
// buffer or an MPI count, or a time-driven read, are refused before C.
func TestRunCallsRefuses(t *testing.T) {
	buf, _ := buffers(t, 4<<20)
	good := PatternCalls{Layout: IOStrided, Len: 2 << 20, L: 1 << 20}
	assert.True(t, good.fits(buf))
	for name, p := range map[string]PatternCalls{
		"no disk chunk":           {Layout: IOStrided, Len: 1 << 20},
		"memory below disk chunk": {Layout: IOStrided, Len: 1 << 10, L: 1 << 20},
		"not whole chunks":        {Layout: IOStrided, Len: 3 << 19, L: 1 << 20},
		"larger than the buffer":  {Layout: IOStrided, Len: 8 << 20, L: 1 << 20},
		"unknown layout":          {Layout: IOLayout(9), Len: 1 << 20, L: 1 << 20},
	} {
		_, _, err := RunCalls(&p, 0, 1, buf)
		var e *Error
		require.True(t, errors.As(err, &e), name)
		assert.Equal(t, "bad chunk sizes for the buffer", e.Msg, name)
		_, err = RunCallsUntil(&p, World, 0, 1, 0, buf)
		assert.Error(t, err, name)
	}
	assert.False(t, good.fits(nil), "no buffer")
	read := good
	read.Read = true
	_, err := RunCallsUntil(&read, World, 0, 1, 0, buf)
	assert.ErrorContains(t, err, "or a read", "the time-driven loop writes only")
}

// TestCountCheck: a count an MPI call takes as a C int is refused outside
// 0 … 2^31−1, with the call named.
func TestCountCheck(t *testing.T) {
	assert.NoError(t, countCheck("MPI_Bcast", 0))
	assert.NoError(t, countCheck("MPI_Bcast", MaxInt32))
	for _, n := range []int{-1, MaxInt32 + 1} {
		err := countCheck("MPI_Gather", n)
		var e *Error
		require.True(t, errors.As(err, &e), "%d", n)
		assert.Equal(t, "MPI_Gather", e.Call)
		assert.Contains(t, e.Msg, "an MPI count is 0 to 2147483647")
	}
}

// TestCallNames: the MPI-IO function each layout's calls use.
func TestCallNames(t *testing.T) {
	for _, tt := range []struct {
		layout   IOLayout
		read     bool
		explicit bool
		want     string
	}{
		{IOStrided, false, false, "MPI_File_write_all"},
		{IOStrided, true, false, "MPI_File_read_all"},
		{IOOrdered, false, false, "MPI_File_write_ordered"},
		{IOOrdered, true, true, "MPI_File_read_at_all"},
		{IOOwnFile, false, false, "MPI_File_write"},
		{IOSegment, true, false, "MPI_File_read"},
		{IOSegmentAll, false, false, "MPI_File_write_all"},
	} {
		p := PatternCalls{Layout: tt.layout, Read: tt.read, ExplicitOffsets: tt.explicit}
		assert.Equal(t, tt.want, p.callName(), "%s read=%v explicit=%v", tt.layout, tt.read, tt.explicit)
	}
}

// TestBatchAndTypesRefused: a SKaMPI batch or typed point the C code
// cannot run is refused before C.
func TestBatchAndTypesRefused(t *testing.T) {
	for name, b := range map[string]Batch{
		"no repetitions":  {Op: 0, Reps: 0, Calls: 1},
		"no calls":        {Op: 0, Reps: 1, Calls: 0},
		"too many chunks": {Op: 0, Reps: 1, Calls: 1, Chunks: MaxChunks + 1},
		"unknown op":      {Op: -1, Reps: 1, Calls: 1},
		"negative length": {Op: 0, Reps: 1, Calls: 1, Len: -8},
		"length too big":  {Op: 0, Reps: 1, Calls: 1, Len: MaxMessage + 1},
		"grid of 1":       {Op: 0, Reps: 1, Calls: 1, Topo: TopoCart, Dims: []int{4}},
		"grid of 0":       {Op: 0, Reps: 1, Calls: 1, Topo: TopoStencil, Dims: []int{2, 0}},
		"grid, no topo":   {Op: 0, Reps: 1, Calls: 1, Dims: []int{2, 2}},
		"grid past int":   {Op: 0, Reps: 1, Calls: 1, Topo: TopoCart, Dims: []int{1 << 16, 1 << 16}},
		"calls too many":  {Op: 0, Reps: 1, Calls: MaxInt32 + 1},
	} {
		_, _, err := RunBatch(&b)
		assert.ErrorContains(t, err, "skampi batch:", name)
	}
	side := TypeSide{Prog: []int64{0, 1}, Runs: []int64{0, 8}, Count: 1, Extent: 8}
	for name, bad := range map[string]TypeSide{
		"odd runs":      {Prog: side.Prog, Runs: []int64{0}, Count: 1, Extent: 8},
		"no program":    {Runs: side.Runs, Count: 1, Extent: 8},
		"no instances":  {Prog: side.Prog, Runs: side.Runs, Count: 0, Extent: 8},
		"count too big": {Prog: side.Prog, Runs: side.Runs, Count: MaxInt32 + 1, Extent: 8},
		"no extent":     {Prog: side.Prog, Runs: side.Runs, Count: 1},
	} {
		_, err := NewTypes(side, bad)
		assert.ErrorContains(t, err, "skampi types:", name)
	}
	var none *Types
	none.Free() // nil is fine
}

// TestNames: the enums' names, and an MPI error's text.
func TestNames(t *testing.T) {
	assert.Equal(t, []string{"sendrecv", "alltoallv", "nonblocking"}, names(Exchanges))
	assert.Equal(t, []string{"strided", "ordered", "ownfile", "segment", "segment-all"}, names(IOLayouts))
	assert.Equal(t, []string{"fence", "pscw", "lock", "lock-all-flush", "lock-all-flush-local"}, names(RMASyncs))
	assert.Equal(t, "create", OpenCreate.String())
	assert.Equal(t, "MPI_File_open: No such file or directory (MPI error 27)", (&Error{Call: "MPI_File_open", Code: 27, Msg: "No such file or directory"}).Error())
	_, err := NewBuffer(-1)
	assert.ErrorContains(t, err, "a message buffer of -1 bytes")
}

func names[T interface{ String() string }](v []T) []string {
	var out []string
	for _, x := range v {
		out = append(out, x.String())
	}
	return out
}

// TestServeFunnels: while Serve runs, calls from other goroutines run on
// the serving goroutine one at a time, and Serve returns work's code;
// without Serve a call runs where it is made.
func TestServeFunnels(t *testing.T) {
	assert.Equal(t, 7, onMain(func() int { return 7 }), "no serving thread")
	var inFlight, most int
	var mu sync.Mutex
	code := Serve(func() int {
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				onMain(func() int {
					mu.Lock()
					inFlight++
					most = max(most, inFlight)
					mu.Unlock()
					mu.Lock()
					inFlight--
					mu.Unlock()
					return 0
				})
			}()
		}
		wg.Wait()
		return 3
	})
	assert.Equal(t, 3, code)
	assert.Equal(t, 1, most, "one call at a time")
	assert.Nil(t, mainCalls, "Serve cleans up")
}

// TestBuffer: a buffer of n bytes, zeroed, that Go can see and write, and
// an empty one.
func TestBuffer(t *testing.T) {
	b, err := NewBuffer(16)
	require.NoError(t, err)
	defer b.Free()
	assert.Equal(t, int64(16), b.Len())
	view := b.Bytes()
	require.Len(t, view, 16)
	assert.Equal(t, make([]byte, 16), view, "zeroed")
	view[15] = 7
	assert.Equal(t, byte(7), b.Bytes()[15], "one memory")
	empty, err := NewBuffer(0)
	require.NoError(t, err)
	assert.Zero(t, empty.Len())
	empty.Free()
}
