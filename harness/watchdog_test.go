package harness

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestWatchLimit(t *testing.T) {
	for _, c := range []struct {
		predicted, bound, want time.Duration
	}{
		{time.Millisecond, 10 * time.Minute, WatchdogFloor},     // short measurements: the floor
		{10 * time.Second, 10 * time.Minute, 100 * time.Second}, // 10× the prediction
		{5 * time.Minute, 10 * time.Minute, 10 * time.Minute},   // at most the flag
		{time.Millisecond, 20 * time.Second, 20 * time.Second},  // a flag below the floor wins
		{time.Hour, 0, 0},               // off
		{0, time.Minute, WatchdogFloor}, // unknown prediction
	} {
		assert.Equal(t, c.want, watchLimit(c.predicted, c.bound), "%v, at most %v", c.predicted, c.bound)
	}
}
