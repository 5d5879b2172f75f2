package driver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/suites/beff"
)

// TestConfigLines: the configuration lines of the settings: the fixed
// ones in order, each optional one only when it applies, the ring paths
// when the job spans hosts.
func TestConfigLines(t *testing.T) {
	st := Settings{MemMiB: 8, Lmax: 65536, Sizes: []int64{1, 2, 4, 65536}, Measured: []int{0, 3}, Random: 3, Seed: 42,
		Target: 5e-3, Shortcut: beff.ShortcutLimit}
	assert.Equal(t, []string{"beff-mem-per-proc-mib: 8", "beff-lmax: 65536", "beff-sizes: 1,65536", "beff-random-patterns: 3",
		"beff-seed: 42", "beff-loop-target-ms: 5"}, st.lines())

	st.Reference, st.Rmax, st.Patterns, st.Shortcut, st.TestFault = true, 50, []string{"ring2", "pingpong"}, 10, true
	got := st.lines()
	assert.Equal(t, "beff-loop-target-ms: 500 (the loops of all patterns of a size, repetition and method together)", got[5])
	assert.Equal(t, []string{"beff-rules: reference", "beff-rmax-gflops: 50", "beff-patterns: ring2,pingpong",
		"beff-shortcut-limit-s: 10", "beff-testfault: on (a message is corrupted on purpose)"}, got[6:])

	raw, err := json.Marshal(Settings{MemMiB: 8, Lmax: 65536, Sizes: []int64{1}, Measured: []int{0}, Shortcut: beff.ShortcutLimit})
	require.NoError(t, err)
	one := &harness.Job{Hosts: []string{"a", "a"}, SuiteState: map[string]json.RawMessage{name: raw}}
	assert.NotContains(t, strings.Join(td.settings.Lines(one), "\n"), beff.KeyRingPaths, "one host: no paths")
	two := &harness.Job{Hosts: []string{"a", "a", "b", "b"}, TopoAddrs: []string{"s.l0.a", "s.l0.a", "s.l1.b", "s.l1.b"},
		SuiteState: map[string]json.RawMessage{name: raw}}
	lines := td.settings.Lines(two)
	last := lines[len(lines)-1]
	assert.True(t, strings.HasPrefix(last, beff.KeyRingPaths+": ring2 node=4; ring4 node=4 spine=4;"), "rings of 2 stay on a node, rings of 4 cross the spine: %s", last)
	assert.Nil(t, td.settings.Lines(&harness.Job{}), "no settings, no lines")
}

// TestJobPath: where two ranks' messages go, from their hosts and, under
// Slurm, their switches.
func TestJobPath(t *testing.T) {
	job := &harness.Job{Hosts: []string{"a", "a", "b", "c"}, TopoAddrs: []string{"s.l0.a", "s.l0.a", "s.l0.b", "s.l1.c"}}
	path := jobPath(job)
	assert.Equal(t, "node", path(0, 1))
	assert.Equal(t, "switch", path(0, 2))
	assert.Equal(t, "spine", path(1, 3))
	noSlurm := jobPath(&harness.Job{Hosts: job.Hosts})
	assert.Equal(t, "network", noSlurm(0, 3), "switches unknown")
	assert.False(t, multiHost([]string{"a", "a"}))
	assert.True(t, multiHost([]string{"a", "b"}))
}
