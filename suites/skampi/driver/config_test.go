package driver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/suites/skampi"
)

// TestConfigAtAMillion writes SKaMPI's configuration lines for the default
// file on a synthesized job of 2^20 processes: no line grows with p, and
// the pair search says it sampled.
func TestConfigAtAMillion(t *testing.T) {
	const p = 1 << 20
	l := skampi.Layers{Procs: p, Base: map[string]skampi.Given{}}
	for _, f := range fieldFlags {
		l.Base[f.field] = skampi.Given{Value: f.def, At: "-" + f.flag}
	}
	suites, _, err := skampi.ParseSuites(skampi.DefaultSuitesName, skampi.DefaultSuites, l)
	require.NoError(t, err)
	st := Settings{File: skampi.DefaultSuitesName, Suites: suites, Prep: Prepared{Wtick: 1e-9, Timer: 3e-8,
		OffsetStats: "-1.000 0.000 1.000", OffsetErr: 1e-6, Max: skampi.Pair{A: 3, B: 999999}, Min: skampi.Pair{A: 0, B: 1},
		PairRounds: skampi.SampledRounds, Sampled: true, PairSeed: 42}}
	raw, err := json.Marshal(st)
	require.NoError(t, err)
	job := &harness.Job{SuiteState: map[string]json.RawMessage{name: raw}}
	for r := range p {
		job.Hosts = append(job.Hosts, fmt.Sprintf("n%05d", r/64))
	}
	lines := td.settings.Lines(job)
	longest := ""
	for _, line := range lines {
		if len(line) > len(longest) {
			longest = line
		}
	}
	t.Logf("%d lines, the longest %d bytes: %.120s…", len(lines), len(longest), longest)
	assert.Less(t, len(longest), 1024)
	assert.Contains(t, strings.Join(lines, "\n"), "skampi-pair-search: sampled 1023 of 1048575 rounds of disjoint pairs, seed 42")
	assert.Contains(t, strings.Join(lines, "\n"), "procs=1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576")
}
