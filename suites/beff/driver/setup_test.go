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

func TestSetup(t *testing.T) {
	job := &harness.Job{MemMiB: 6000, ProcsNode: 4, Hosts: []string{"a", "a", "a", "a"}}
	cases := []harnesstest.SetupCase[Settings]{
		{Name: "default", Check: func(t *testing.T, st Settings) {
			assert.Equal(t, int64(6000), st.MemMiB)
			assert.Equal(t, beff.LmaxFromMem(6000), st.Lmax)
			assert.Len(t, st.Measured, 21)
			assert.Equal(t, 30, st.Random)
			assert.Equal(t, beff.TargetLoopTime, st.Target)
			assert.Equal(t, beff.ShortcutLimit, st.Shortcut)
		}},
		{Name: "short", Short: true, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, int64(8), st.MemMiB)
			assert.Equal(t, beff.ShortSizeIndexes, st.Measured)
			assert.Equal(t, 3, st.Random)
		}},
		{Name: "mem", Flags: map[string]string{"beff.mem": "1024"}, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, int64(8<<20), st.Lmax)
		}},
		{Name: "lmax", Flags: map[string]string{"beff.lmax": "2000000"}, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, int64(2000000), st.Lmax)
			assert.Equal(t, int64(2000000), st.Sizes[20])
		}},
		{Name: "seed", Flags: map[string]string{"beff.seed": "18446744073709551615"}, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, uint64(math.MaxUint64), st.Seed)
		}},
		{Name: "patterns", Flags: map[string]string{"beff.patterns": "ring2, random30,acyclic-3dim-all"}, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, []string{"ring2", "random30", "acyclic-3dim-all"}, st.Patterns)
		}},
		{Name: "negative mem", Flags: map[string]string{"beff.mem": "-1"}, Err: "-beff.mem=-1: out of range; want a number of MiB from 1 to 1073741824"},
		{Name: "mem above node", Flags: map[string]string{"beff.mem": "6001"}, Err: "more than the 6000 MiB"},
		{Name: "lmax and mem", Flags: map[string]string{"beff.mem": "100", "beff.lmax": "100000"}, Err: "both set"},
		{Name: "lmax too large for int", Flags: map[string]string{"beff.lmax": "400000000"}, Err: "too large"},
		{Name: "lmax above memory", Flags: map[string]string{"beff.lmax": "1000000000"}, Err: "too large"},
		{Name: "lmax small", Flags: map[string]string{"beff.lmax": "4096"}, Err: "too small"},
		{Name: "rmax", Flags: map[string]string{"beff.rmax": "NaN"}, Err: "-beff.rmax=NaN: out of range; want a number of GFlop/s"},
		{Name: "seed text", Flags: map[string]string{"beff.seed": "-3"}, Err: "unsigned integer"},
		{Name: "unknown pattern", Flags: map[string]string{"beff.patterns": "ring2,ring3"}, Err: `unknown pattern "ring3"`},
		{Name: "random beyond short count", Flags: map[string]string{"beff.patterns": "random04"}, Short: true, Err: `unknown pattern "random04"`},
		{Name: "shortcut", Flags: map[string]string{"beff.shortcut-limit": "-2"}, Err: "-beff.shortcut-limit=-2: out of range; want a number of s from 0 to 86400"},
	}
	harnesstest.CheckSetup(t, td.f.fs, job, td.f.setup, cases)
	one := *job
	one.Hosts = []string{"a"}
	_, err := td.f.setup(&one)
	assert.EqualError(t, err, "b_eff on 1 process: every message would stay inside the process, nothing crosses a network; start it with at least 2 (mpirun -np 2 …)")
}

func TestSetupUnknownMemory(t *testing.T) {
	_, err := td.f.setup(&harness.Job{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-beff.mem")
}

// TestConfig checks the configuration lines the fold reads back.
func TestConfig(t *testing.T) {
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"beff.seed": "7", "beff.rmax": "12.5", "beff.patterns": "ring2,pingpong"})
	job := &harness.Job{MemMiB: 64, Short: true, Hosts: []string{"a", "a"}}
	st, err := td.f.setup(job)
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
	}, td.settings.Lines(job))
	assert.Nil(t, td.settings.Lines(&harness.Job{}), "not set up: no lines")
}
