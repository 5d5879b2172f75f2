//go:build mpi

package loops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestReferenceContinue: the reference code's stop rule of b_eff_io's
// time-driven writes, as the C loop (beffio_calls_until) takes it.
func TestReferenceContinue(t *testing.T) {
	for _, c := range []struct {
		done            int64
		elapsed, target float64
		want            bool
	}{
		{1, 0.4, 1, true},    // 0.8 ≤ 1
		{1, 0.6, 1, false},   // 1.2 > 1
		{9, 0.9, 1, true},    // 1.0 ≤ 1: exactly at the target goes on
		{9, 0.91, 1, false},  // 1.0111 > 1
		{1, 0.001, 0, false}, // a warm-up pattern (U = 0) makes one call
	} {
		assert.Equal(t, c.want, refContinue(c.done, c.elapsed, c.target), "%+v", c)
	}
}
