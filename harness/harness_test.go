package harness

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/beff-suite/beff/internal/results"
)

func TestInt64Encoding(t *testing.T) {
	b := make([]byte, 8)
	for _, v := range []int64{0, 1, -1, math.MaxInt64, math.MinInt64, 123456789012} {
		putInt64(b, v)
		assert.Equal(t, v, getInt64(b))
	}
}

func TestHostSummary(t *testing.T) {
	assert.Equal(t, "a (2), b (1)", hostSummary([]string{"b", "a", "a"}))
	assert.Equal(t, "", hostSummary(nil))
}

func TestSplitPattern(t *testing.T) {
	tests := []struct {
		in   string
		want [][]string
	}{
		{"BenchmarkBeff", [][]string{{"BenchmarkBeff"}}},
		{"Beff/pat=ring2/L=1", [][]string{{"Beff", "pat=ring2", "L=1"}}},
		{"^A$|^B$/x", [][]string{{"^A$"}, {"^B$", "x"}}},
		{"(A|B)/x", [][]string{{"(A|B)", "x"}}},
		{"[/|]y", [][]string{{"[/|]y"}}},
		{`a\/b`, [][]string{{`a\/b`}}},
		{"a]/b", [][]string{{"a]", "b"}}},
		{"", [][]string{{""}}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, splitPattern(tt.in), tt.in)
	}
}

// TestBenchSelected checks the selection of suites against what testing
// runs: -test.bench matches the top-level name with the first element of
// an alternative, unanchored; -test.skip skips it only with a single
// element.
func TestBenchSelected(t *testing.T) {
	tests := []struct {
		bench, skip string
		beff, io    bool
	}{
		{"", "", false, false},
		{".", "", true, true},
		{"^BenchmarkBeff$", "", true, false},
		{"^BenchmarkBeffIO$", "", false, true},
		{"BenchmarkBeff", "", true, true},
		{"Beff$", "", true, false},
		{"IO/n=1", "", false, true},
		{"^BenchmarkBeff$|IO", "", true, true},
		{"(Beff|Nothing)$/pat=ring2", "", true, false},
		{".", "IO$", true, false},
		{".", "IO/n=2", true, true},
		{".", "Nothing|^BenchmarkBeff$", false, true},
		{"[", "", true, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.beff, benchSelected(tt.bench, tt.skip, "BenchmarkBeff"), "bench %q skip %q", tt.bench, tt.skip)
		assert.Equal(t, tt.io, benchSelected(tt.bench, tt.skip, "BenchmarkBeffIO"), "bench %q skip %q", tt.bench, tt.skip)
	}
}

func TestDescribeJob(t *testing.T) {
	job := describeJob("serialized", []node{
		{host: "b", memMiB: 8000, procsNode: 2, cpus: 2},
		{host: "b", memMiB: 8000, procsNode: 2, cpus: 2},
		{host: "a", memMiB: 6000, procsNode: 3, cpus: 2},
		{host: "a", memMiB: 6000, procsNode: 3, cpus: 2},
		{host: "a", memMiB: 6000, procsNode: 3, cpus: 2},
	})
	assert.Equal(t, 5, job.Procs())
	assert.Equal(t, int64(2000), job.MemMiB, "the smallest share of a node")
	assert.Equal(t, int64(2*4000+3*2000), job.TotalMiB)
	assert.Equal(t, int64(8000), job.RootMiB, "rank 0's node")
	assert.Equal(t, 3, job.ProcsNode)
	assert.Equal(t, "yes: 3 processes on a, which has 2 CPUs (figures check correctness, not speed)", job.Oversub)
	assert.Equal(t, "serialized", job.Thread)
}

func TestSetupSuites(t *testing.T) {
	type st struct{ X int }
	a := &Driver{ID: &results.Identity{Key: "a", Name: "A"}, Setup: func(job *Job) (any, error) { return st{len(job.Hosts)}, nil }}
	b := &Driver{ID: &results.Identity{Key: "b", Name: "B"}, Setup: func(job *Job) (any, error) { return nil, assert.AnError }}
	job := Job{Hosts: []string{"h", "h"}}
	assert.NoError(t, setupSuites(&job, []*Driver{a}))
	got, err := Settings[st]{key: "a"}.ofJob(&job)
	assert.NoError(t, err)
	assert.Equal(t, 2, got.X)
	_, err = Settings[st]{key: "b"}.ofJob(&job)
	assert.Error(t, err, "not set up")
	assert.ErrorIs(t, setupSuites(&job, []*Driver{a, b}), assert.AnError)
}

func TestPeakOf(t *testing.T) {
	p := peakOf([]int64{2048, 1024, 4096, 3072})
	assert.Equal(t, Peak{Min: 1, Median: 3, Max: 4, MaxRank: 2, Root: 2}, p)
	assert.Contains(t, p.String(), "max 4.0 MiB (rank 2); rank 0 2.0 MiB")
	assert.Positive(t, peakKiB(), "this machine has /proc/self/status")
}

// TestHostSummaryAtScale: many hosts become hostlist expressions per
// process count, and the line stays short whatever the job.
func TestHostSummaryAtScale(t *testing.T) {
	var hosts []string
	for n := 1; n <= 1024; n++ {
		for range 4 {
			hosts = append(hosts, fmt.Sprintf("n%04d", n))
		}
	}
	hosts = append(hosts, "login", "login", "n2000")
	assert.Equal(t, "login (2), n2000 (1), n[0001-1024] (4 each)", hostSummary(hosts))
	var xs []string
	for n := 1; n <= 17; n++ {
		xs = append(xs, fmt.Sprintf("x%d", n))
	}
	assert.Equal(t, "x[1-9] (1 each), x[10-17] (1 each)", hostSummary(xs), "17 hosts: more than are named one by one")
	assert.Equal(t, "x1 (1), x10 (1), x11 (1)", hostSummary([]string{"x11", "x1", "x10"}), "few hosts one by one")
	// 10^6 processes on 15,625 nodes of 64, every other node missing
	var big []string
	for n := 1; n <= 31250; n += 2 {
		for range 64 {
			big = append(big, fmt.Sprintf("node%05d", n))
		}
	}
	line := hostSummary(big)
	assert.LessOrEqual(t, len(line), hostLineMost)
	assert.Contains(t, line, "… 15283 more] (64 each)", "the runs past the bound are counted")
	assert.True(t, strings.HasPrefix(line, "node[00001,00003,"), line[:40])
}

func TestPollWarning(t *testing.T) {
	over := "yes: 3 processes on vm, which has 2 CPUs (figures check correctness, not speed)"
	for _, tc := range []struct {
		job  Job
		warn bool
	}{
		{Job{Library: "MPICH Version: 4.2.1 MPICH Release date: …", Oversub: over}, true},
		{Job{Library: "MPI VERSION : CRAY MPICH version 8.1.28", Oversub: over}, true},
		{Job{Library: "MPICH Version: 4.2.1", Oversub: over, Preload: "/home/u/beff/mpich-yield.so"}, false},
		{Job{Library: "MPICH Version: 4.2.1"}, false},
		{Job{Library: "Open MPI v5.0.7, package: Debian OpenMPI", Oversub: over}, false},
	} {
		assert.Equal(t, tc.warn, pollWarning(&tc.job) != "", "%+v", tc.job)
	}
}
