package driver

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/suites/skampi"
)

// TestProbeWindows: a kind of window the job cannot make leaves its
// one-sided suites unmeasured, with rank 0's reason; a kind no suite
// uses is not probed.
func TestProbeWindows(t *testing.T) {
	old := rmaProbe
	t.Cleanup(func() { rmaProbe = old })
	var mu sync.Mutex
	probed := map[bool]int{}
	rmaProbe = func(s *harness.Session, allocate bool) (bool, error, error) {
		mu.Lock()
		probed[allocate]++
		mu.Unlock()
		if allocate {
			return false, errors.New("MPI_Win_allocate: not supported"), nil
		}
		return true, nil, nil
	}
	su := testSuite(t, "suites:\n  - name: p\n    ops: put,get\n    rma-window: allocate\n", 2)
	probe := func(library string) map[string]string {
		got := make([]map[string]string, 2)
		harnesstest.Fine(t, harnesstest.Run(t, 2, harness.Job{Library: library}, func(s *harness.Session) {
			nw := probeWindows(s, &Settings{Suites: []*skampi.Setup{su}})
			mu.Lock()
			got[s.Rank] = nw
			mu.Unlock()
		}))
		return got[0]
	}
	assert.Equal(t, map[string]string{skampi.WindowAllocate: "MPI_Win_allocate: not supported"}, probe("MPICH Version: 4.0.2"))
	assert.Equal(t, map[bool]int{true: 2}, probed, "each rank probed the allocated window once, the created one not at all")
	assert.Equal(t, map[string]string{skampi.WindowAllocate: "MPI_Win_allocate: not supported; Open MPI 4 makes windows across nodes over TCP with --mca osc pt2pt"},
		probe("Open MPI v4.1.4, package: Debian OpenMPI"), "the remedy under Open MPI 4")
}

// TestConfigLinesOfARun: the suite file and each suite, the clock, the
// offsets, the pairs with their hosts, the search, the windows that
// could not be made, and a matrix's lines.
func TestConfigLinesOfARun(t *testing.T) {
	su := testSuite(t, "suites:\n  - name: pp\n    ops: send-recv\n    lengths: 1:64\n    step: 8\n", 4)
	st := Settings{File: "my.yaml", FileSum: "0123456789abcdef", Suites: []*skampi.Setup{su}, Prep: Prepared{Wtick: 1e-9, Timer: 3e-8,
		OffsetStats: "-1.000 0.000 2.000", OffsetErr: 0.4e-6, Max: skampi.Pair{A: 0, B: 3}, MaxRTT: 12e-6, Min: skampi.Pair{A: 0, B: 1}, MinRTT: 1e-6,
		PairRounds: 3, Drift: true, NoWindow: map[string]string{skampi.WindowCreate: "it failed on another process"}}}
	raw, err := json.Marshal(st)
	require.NoError(t, err)
	job := &harness.Job{Hosts: []string{"a", "a", "b", "b"}, SuiteState: map[string]json.RawMessage{name: raw}}
	rttMatrix = skampi.NewMatrix(4)
	for r, h := range job.Hosts {
		rttMatrix.Places[r] = skampi.Place{Host: h}
	}
	t.Cleanup(func() { rttMatrix = nil })
	text := strings.Join(td.settings.Lines(job), "\n")
	for _, want := range []string{
		"skampi-suites: my.yaml sha256:0123456789abcdef",
		"skampi-suite-pp: ops=send-recv vary=length lengths=1:64 step=8",
		"skampi-rma-windows: not measured: create: it failed on another process",
		"skampi-wtick-s: 1e-09", "skampi-timer-s: 3e-08", "skampi-clock: model: offset and drift per process, re-estimated as the error needs (a binomial tree of best-of-20 ping-pongs)",
		"skampi-offsets-us: -1.000 0.000 2.000", "skampi-offset-err-us: 0.400",
		"skampi-pair-max: 0 3 a b 12.000", "skampi-pair-min: 0 1 a a 1.000", "skampi-pair-search: all 3 rounds of disjoint pairs",
		"skampi-place-3: b -",
	} {
		assert.Contains(t, text, want)
	}
}

// TestRankStats: the spread of the ranks' means over the ranks that had
// a valid repetition.
func TestRankStats(t *testing.T) {
	rec := func(v float64) []int64 { return []int64{int64(math.Float64bits(v))} }
	assert.Equal(t, []float64{1, 2, 5}, rankStats([][]int64{rec(5), rec(math.NaN()), rec(1), rec(2)}))
	assert.Nil(t, rankStats([][]int64{rec(math.NaN())}), "no rank had one")
	assert.Equal(t, []float64{3, 3, 3}, rankStats([][]int64{rec(3)}), "one rank: min, median and max alike")
	assert.Equal(t, []float64{1, 2, 3}, rankStats([][]int64{rec(3), rec(1), rec(2), rec(math.NaN())}), "the median of the ranks that had one")
	assert.Equal(t, []float64{0, 0, 0}, rankStats([][]int64{rec(0), rec(0)}), "the cheapest local calls take no time")
}
