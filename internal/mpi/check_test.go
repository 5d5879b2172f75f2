package mpi

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Go side of the binding: what it refuses before any C runs (with MPI
// or without), its names, its errors and the funnel of calls to the
// thread that initialised MPI. These tests need no MPI; with the mpi tag
// they run too.

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

// TestNames: the enums' names, and an MPI error's text.
func TestNames(t *testing.T) {
	assert.Equal(t, "create", OpenCreate.String())
	assert.Equal(t, []string{"max", "min", "sum"}, []string{Max.String(), Min.String(), Sum.String()})
	assert.Equal(t, "MPI_File_open: No such file or directory (MPI error 27)", (&Error{Call: "MPI_File_open", Code: 27, Msg: "No such file or directory"}).Error())
	_, err := NewBuffer(-1)
	assert.ErrorContains(t, err, "a message buffer of -1 bytes")
}

// TestServeFunnels: while Serve runs, calls from other goroutines run on
// the serving goroutine one at a time, and Serve returns work's code;
// without Serve a call runs where it is made.
func TestServeFunnels(t *testing.T) {
	assert.Equal(t, 7, OnMain(func() int { return 7 }), "no serving thread")
	var inFlight, most int
	var mu sync.Mutex
	code := Serve(func() int {
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				OnMain(func() int {
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
