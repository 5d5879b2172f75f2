package driver

import (
	"strings"
	"testing"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/suites/congestion"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// job6 is a job of 3 nodes × 2 processes.
func job6() *harness.Job {
	return &harness.Job{Hosts: []string{"a", "a", "b", "b", "c", "c"}, MemMiB: 1024, ProcsNode: 2}
}

// TestSetupRefuses: every bad flag is one message that names it.
func TestSetupRefuses(t *testing.T) {
	for _, tc := range []struct {
		flags map[string]string
		hosts []string
		want  string
	}{
		{map[string]string{"congestion.time": "0"}, nil, "-congestion.time"},
		{map[string]string{"congestion.reps": "1001"}, nil, "-congestion.reps"},
		{map[string]string{"congestion.canary-share": "1"}, nil, "-congestion.canary-share"},
		{map[string]string{"congestion.len": "0"}, nil, "-congestion.len"},
		{map[string]string{"congestion.min-load": "2"}, nil, "-congestion.min-load"},
		{map[string]string{"congestion.canaries": "ping"}, nil, `-congestion.canaries: unknown name "ping"`},
		{map[string]string{"congestion.congestors": "incast,incast"}, nil, `"incast" twice`},
		{map[string]string{"congestion.split": "leaves"}, nil, `split "leaves": want auto, nodes or procs`},
		{map[string]string{"congestion.mix": "both"}, nil, `mix "both"`},
		{map[string]string{"congestion.mix": "together"}, nil, "4 congestors together need 2 processes each: there are 3 congestor processes"},
		{map[string]string{"congestion.split": "nodes"}, nil, "a split by nodes needs 2 canary nodes and 2 congestor nodes: the job has 3 nodes"},
		{map[string]string{"congestion.canary-nodes": "x"}, nil, `canary node "x" runs none of the job's processes (its nodes: a,b,c)`},
		{map[string]string{"congestion.canary-nodes": "a", "congestion.congestors-only": "true"}, nil, "there are no canaries"},
		{map[string]string{"congestion.seed": "-1"}, nil, "unsigned integer"},
		{nil, []string{"a", "a"}, "congestion on 2 processes: 0 congestor processes"},
		{map[string]string{"congestion.resume": "/nonexistent"}, nil, "-congestion.resume: open /nonexistent"},
	} {
		t.Run(strings.TrimSpace(strings.Join(append(keys(tc.flags), tc.want), " ")), func(t *testing.T) {
			harnesstest.SetFlags(t, td.f.fs, tc.flags)
			job := job6()
			if tc.hosts != nil {
				job.Hosts = tc.hosts
			}
			_, err := td.f.setup(job)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, "-"+k+"="+v)
	}
	return out
}

// TestSetupDecides: the default run on 3 nodes × 2, and its lines.
func TestSetupDecides(t *testing.T) {
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"congestion.seed": "9"})
	v, err := td.f.setup(job6())
	require.NoError(t, err)
	st := v
	assert.Equal(t, congestion.MixEach, st.Plan.Mix)
	assert.Equal(t, congestion.SplitProcs, st.Described.By)
	assert.Equal(t, 3, st.Described.CanaryProcs)
	lines := strings.Join(st.lines(), "\n")
	for _, want := range []string{"congestion-mode: canaries", "congestion-mix: each", "congestion-split: procs",
		"congestion-canary-procs: 3", "congestion-set-procs: 3", "congestion-seed: 9", "congestion-plan-s: 60",
		"congestion-split-details: canaries on "} {
		assert.Contains(t, lines, want)
	}
	assert.InDelta(t, 57*(1+congestion.PhaseSlack), st.Plan.Seconds(), 1e-9, "3 repetitions of 3 + 4 + 3·4 phases")
}
