// Package mpitest helps the tests of the timed loops: message buffers
// that live as long as the test.
package mpitest

import (
	"testing"

	"github.com/beff-suite/beff/internal/mpi"
)

// Buffer is a message buffer of n bytes, freed when the test ends.
func Buffer(t testing.TB, n int64) *mpi.Buffer {
	t.Helper()
	b, err := mpi.NewBuffer(n)
	if err != nil {
		t.Fatalf("a message buffer of %d bytes: %v", n, err)
	}
	t.Cleanup(b.Free)
	return b
}

// Buffers are a send and a receive buffer of n bytes each, freed when the
// test ends.
func Buffers(t testing.TB, n int64) (send, recv *mpi.Buffer) {
	t.Helper()
	return Buffer(t, n), Buffer(t, n)
}
