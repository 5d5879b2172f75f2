package harness

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestWatchLimit(t *testing.T) {
	for _, c := range []struct {
		predicted, bound time.Duration
		share            int
		want             time.Duration
	}{
		{time.Millisecond, 10 * time.Minute, 1, WatchdogFloor},     // short measurements: the floor
		{10 * time.Second, 10 * time.Minute, 1, 100 * time.Second}, // 10× the prediction
		{5 * time.Minute, 10 * time.Minute, 1, 10 * time.Minute},   // at most the flag
		{time.Millisecond, 20 * time.Second, 1, 20 * time.Second},  // a flag below the floor wins
		{time.Hour, 0, 1, 0},                                              // off
		{0, time.Minute, 0, WatchdogFloor},                                // unknown prediction, unknown share
		{time.Millisecond, 10 * time.Minute, 4, 4 * WatchdogFloor},        // 4 processes a CPU: 4 times as long
		{time.Millisecond, 10 * time.Minute, 128, 10 * time.Minute},       // at most the flag
		{time.Millisecond, time.Duration(1 << 62), 128, 64 * time.Minute}, // no overflow
		{time.Millisecond, 20 * time.Second, 4, 20 * time.Second},         // a flag below the floor wins
	} {
		assert.Equal(t, c.want, watchLimit(c.predicted, c.bound, c.share), "%v, at most %v, %d a CPU", c.predicted, c.bound, c.share)
	}
}

// TestWatchdogFollowsProgress: a measurement whose loop advances is never
// ended, however long it takes; once the loop stops advancing, the
// watchdog fires after the limit, as it does for one that never
// advanced; between measurements the clock goes on.
func TestWatchdogFollowsProgress(t *testing.T) {
	var d watch
	t0 := time.Unix(1000, 0)
	d.current = watched{what: "ring2", base: "ring2", flag: "beff.watchdog", bound: time.Minute, start: t0, limit: 30 * time.Second}
	count := int64(0)
	for s := 1; s <= 600; s++ { // ten minutes, a step every second
		count++
		assert.Empty(t, d.check(t0.Add(time.Duration(s)*time.Second), count), "at %d s the loop advanced", s)
	}
	stuck := t0.Add(600 * time.Second)
	assert.Empty(t, d.check(stuck.Add(30*time.Second), count), "at the limit")
	msg := d.check(stuck.Add(31*time.Second), count)
	assert.Equal(t, "watchdog: ring2 has made no progress for 31s (limit 30s, -beff.watchdog=1m0s); ending the job", msg)

	var never watch
	never.current = watched{what: "ring2", flag: "beff.watchdog", bound: time.Minute, start: t0, limit: 30 * time.Second}
	assert.NotEmpty(t, never.check(t0.Add(31*time.Second), 0), "a loop that never advanced")
	var idle watch
	assert.Empty(t, idle.check(t0.Add(time.Hour), 0), "nothing watched")
}
