package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMemPerProc: the one memory decision of the suites: the flag, else
// the short run's, else the smallest node's share; refused above that
// share, or when the share is unknown and must be decided.
func TestMemPerProc(t *testing.T) {
	for _, tt := range []struct {
		name         string
		job          Job
		given, short int64
		want         int64
		err          string
	}{
		{"the node's share", Job{MemMiB: 4000, ProcsNode: 2}, 0, 8, 4000, ""},
		{"the flag", Job{MemMiB: 4000, ProcsNode: 2}, 1000, 8, 1000, ""},
		{"a short run", Job{MemMiB: 4000, ProcsNode: 2, Short: true}, 0, 8, 8, ""},
		{"the flag beats a short run", Job{MemMiB: 4000, Short: true}, 64, 8, 64, ""},
		{"above the share", Job{MemMiB: 4000, ProcsNode: 2}, 5000, 8, 0, "-x.mem=5000 MiB: more than the 4000 MiB of memory per process of the smallest node (its memory divided by the 2 processes on it)"},
		{"unknown memory", Job{MemMiB: -1}, 0, 8, 0, "cannot tell the node's memory (no /proc/meminfo): give -x.mem in MiB"},
		{"unknown memory, the flag", Job{MemMiB: -1}, 300, 8, 300, ""},
		{"unknown memory, a short run", Job{MemMiB: -1, Short: true}, 0, 8, 8, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.job.MemPerProc("x.mem", tt.given, tt.short)
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				return
			}
			assert.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
