package launch

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestJobEnvironment: the job's size and this process's rank as the
// launchers' environments give them, the first one set winning.
func TestJobEnvironment(t *testing.T) {
	for _, k := range append(SizeEnvs, RankEnvs...) {
		t.Setenv(k, "") // set, but not a number: passed over
	}
	_, ok := JobSize()
	assert.False(t, ok)
	assert.Equal(t, 0, Rank())
	t.Setenv("SLURM_NTASKS", "16")
	t.Setenv("SLURM_PROCID", "5")
	n, ok := JobSize()
	assert.True(t, ok)
	assert.Equal(t, 16, n)
	assert.Equal(t, 5, Rank())
	t.Setenv("PMI_SIZE", "4")
	t.Setenv("PMI_RANK", "3")
	n, _ = JobSize()
	assert.Equal(t, 4, n, "MPICH's before Slurm's")
	assert.Equal(t, 3, Rank())
}
