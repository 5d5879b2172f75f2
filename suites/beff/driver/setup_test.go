package driver

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/suites/beff"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withFlags sets command-line flags for one test and restores them after.
func withFlags(t *testing.T, kv map[string]string) { harnesstest.SetFlags(t, kv) }

func TestSetup(t *testing.T) {
	job := &harness.Job{MemMiB: 6000, ProcsNode: 4, Hosts: []string{"a", "a", "a", "a"}}
	cases := []struct {
		name  string
		flags map[string]string
		short bool
		err   string
		check func(t *testing.T, st Settings)
	}{
		{name: "default", check: func(t *testing.T, st Settings) {
			assert.Equal(t, int64(6000), st.MemMiB)
			assert.Equal(t, beff.LmaxFromMem(6000), st.Lmax)
			assert.Len(t, st.Measured, 21)
			assert.Equal(t, 30, st.Random)
			assert.Equal(t, beff.TargetLoopTime, st.Target)
			assert.Equal(t, beff.ShortcutLimit, st.Shortcut)
		}},
		{name: "short", short: true, check: func(t *testing.T, st Settings) {
			assert.Equal(t, int64(8), st.MemMiB)
			assert.Equal(t, beff.ShortSizeIndexes, st.Measured)
			assert.Equal(t, 3, st.Random)
		}},
		{name: "mem", flags: map[string]string{"beff.mem": "1024"}, check: func(t *testing.T, st Settings) {
			assert.Equal(t, int64(8<<20), st.Lmax)
		}},
		{name: "lmax", flags: map[string]string{"beff.lmax": "2000000"}, check: func(t *testing.T, st Settings) {
			assert.Equal(t, int64(2000000), st.Lmax)
			assert.Equal(t, int64(2000000), st.Sizes[20])
		}},
		{name: "seed", flags: map[string]string{"beff.seed": "18446744073709551615"}, check: func(t *testing.T, st Settings) {
			assert.Equal(t, uint64(math.MaxUint64), st.Seed)
		}},
		{name: "patterns", flags: map[string]string{"beff.patterns": "ring2, random30,acyclic-3dim-all"}, check: func(t *testing.T, st Settings) {
			assert.Equal(t, []string{"ring2", "random30", "acyclic-3dim-all"}, st.Patterns)
		}},
		{name: "negative mem", flags: map[string]string{"beff.mem": "-1"}, err: "-beff.mem=-1: out of range; want a number of MiB from 1 to 1073741824"},
		{name: "mem above node", flags: map[string]string{"beff.mem": "6001"}, err: "more than the 6000 MiB"},
		{name: "lmax and mem", flags: map[string]string{"beff.mem": "100", "beff.lmax": "100000"}, err: "both set"},
		{name: "lmax too large for int", flags: map[string]string{"beff.lmax": "400000000"}, err: "too large"},
		{name: "lmax above memory", flags: map[string]string{"beff.lmax": "1000000000"}, err: "too large"},
		{name: "lmax small", flags: map[string]string{"beff.lmax": "4096"}, err: "too small"},
		{name: "rmax", flags: map[string]string{"beff.rmax": "NaN"}, err: "-beff.rmax=NaN: out of range; want a number of GFlop/s"},
		{name: "seed text", flags: map[string]string{"beff.seed": "-3"}, err: "unsigned integer"},
		{name: "unknown pattern", flags: map[string]string{"beff.patterns": "ring2,ring3"}, err: `unknown pattern "ring3"`},
		{name: "random beyond short count", flags: map[string]string{"beff.patterns": "random04"}, short: true, err: `unknown pattern "random04"`},
		{name: "shortcut", flags: map[string]string{"beff.shortcut-limit": "-2"}, err: "-beff.shortcut-limit=-2: out of range; want a number of s from 0 to 86400"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			withFlags(t, c.flags)
			in := *job
			in.Short = c.short
			got, err := setup(&in)
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			c.check(t, got.(Settings))
		})
	}
	one := *job
	one.Hosts = []string{"a"}
	_, err := setup(&one)
	assert.EqualError(t, err, "b_eff on 1 process: every message would stay inside the process, nothing crosses a network; start it with at least 2 (mpirun -np 2 …)")
}

func TestSetupUnknownMemory(t *testing.T) {
	_, err := setup(&harness.Job{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-beff.mem")
}

// TestConfig checks the configuration lines the fold reads back.
func TestConfig(t *testing.T) {
	withFlags(t, map[string]string{"beff.seed": "7", "beff.rmax": "12.5", "beff.patterns": "ring2,pingpong"})
	job := &harness.Job{MemMiB: 64, Short: true, Hosts: []string{"a", "a"}}
	st, err := setup(job)
	require.NoError(t, err)
	raw, err := json.Marshal(st)
	require.NoError(t, err)
	job.SuiteState = map[string]json.RawMessage{name: raw}
	assert.Equal(t, []string{
		beff.KeyMem + ": 8",
		beff.KeyLmax + ": 65536",
		beff.KeySizes + ": 1,64,4096,16384,65536",
		beff.KeyRandom + ": 3",
		beff.KeySeed + ": 7",
		beff.KeyTarget + ": 1",
		beff.KeyRmax + ": 12.5",
		beff.KeyPatterns + ": ring2,pingpong",
	}, config(job))
	assert.Nil(t, config(&harness.Job{}), "not set up: no lines")
}
