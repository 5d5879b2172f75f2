package driver

import (
	"flag"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/harness/harnesstest"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/links"
	"github.com/beff-suite/beff/suites/links/loops"
)

// td is the driver the tests use, its flags on a flag set of their own.
var td = New(flag.NewFlagSet("links", flag.ContinueOnError))

// TestMemberRanks: at the level of nodes each host's first rank, in the
// order of the hosts' first ranks; at the level of processes every rank.
func TestMemberRanks(t *testing.T) {
	hosts := []string{"a", "a", "b", "c", "b", "c", "d"}
	assert.Equal(t, []int{0, -1, 1, 2, -1, -1, 3}, memberRanks(hosts, links.LevelNodes))
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6}, memberRanks(hosts, links.LevelProcs))
}

// TestSetup: the settings from the flags and the job, and what is
// refused with one message.
func TestSetup(t *testing.T) {
	job := &harness.Job{Hosts: []string{"n0", "n0", "n1", "n1", "n2", "n2"}}
	harnesstest.CheckSetup(t, td.f.fs, job, td.f.setup, []harnesstest.SetupCase[Settings]{
		{Name: "defaults", Check: func(t *testing.T, st Settings) {
			assert.Equal(t, links.LevelNodes, st.Level)
			assert.Equal(t, 3, st.Members)
			assert.Equal(t, 3, st.Idle)
			assert.True(t, st.Full)
			want := links.DefaultSettings
			want.MultiKs = []int{1, 2}
			assert.Equal(t, want, st.Meas, "multi-pair with 1 and 2 processes of each node")
			assert.Equal(t, links.NewPlan(3, want), st.Plan)
		}},
		{Name: "multi off", Flags: map[string]string{"links.multi": "off"}, Check: func(t *testing.T, st Settings) {
			assert.Empty(t, st.Meas.MultiKs)
		}},
		{Name: "multi bad", Flags: map[string]string{"links.multi": "4"}, Err: "-links.multi=4: want auto or off"},
		{Name: "processes", Flags: map[string]string{"links.level": "procs", "links.matrix": "members"}, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, 6, st.Members)
			assert.Zero(t, st.Idle)
			assert.False(t, st.Full)
			assert.Empty(t, st.Meas.MultiKs, "processes: no multi-pair")
		}},
		{Name: "settings", Flags: map[string]string{"links.len": "4096", "links.reps": "3", "links.lat-reps": "7", "links.cap": "10ms"}, Check: func(t *testing.T, st Settings) {
			assert.Equal(t, links.Settings{LatReps: 7, BwLen: 4096, BwReps: 3, Cap: 0.01, MultiKs: []int{1, 2}}, st.Meas)
		}},
		{Name: "level", Flags: map[string]string{"links.level": "racks"}, Err: "-links.level=racks: want nodes, procs or auto"},
		{Name: "matrix", Flags: map[string]string{"links.matrix": "half"}, Err: "-links.matrix=half: want full, members or auto"},
		{Name: "no reps", Flags: map[string]string{"links.reps": "0"}, Err: "-links.reps=0: out of range"},
		{Name: "no cap", Flags: map[string]string{"links.cap": "0s"}, Err: "-links.cap=0s: out of range"},
		{Name: "huge message", Flags: map[string]string{"links.len": "4294967296"}, Err: "-links.len=4294967296: out of range"},
	})
	one := &harness.Job{Hosts: []string{"n0", "n0"}}
	st, err := td.f.setup(one)
	require.NoError(t, err)
	assert.Equal(t, links.LevelProcs, st.Level, "one node: its processes")
	assert.Equal(t, 2, st.Members)
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"links.level": "nodes"})
	_, err = td.f.setup(one)
	assert.EqualError(t, err, "links on 1 nodes: a link needs two; run on at least 2 nodes, or give -links.level=procs")
}

// TestConfig: the configuration lines say the level, the members, the
// measurements and the plan.
func TestConfig(t *testing.T) {
	st := Settings{Level: links.LevelNodes, Members: 6, Idle: 6, Full: true, Meas: links.DefaultSettings, Plan: links.NewPlan(6, links.DefaultSettings)}
	assert.Equal(t, []string{"links-level: nodes", "links-members: 6", "links-idle-procs: 6", "links-lat-reps: 1000", "links-len: 1048576",
		"links-reps: 16", "links-cap-s: 0.05", "links-rounds: 5", "links-plan-s: 15", "links-matrix: full", "links-pairs: at-once", "links-multi-k: off"}, config(nil, st), "5 rounds of 0.202 s and the suspects' 13.568 s at most")
	serial := links.DefaultSettings
	serial.Serial = true
	st.Meas, st.Plan = serial, links.NewPlan(6, serial)
	assert.Contains(t, config(nil, st), "links-pairs: serial")
	assert.Contains(t, config(nil, st), "links-plan-s: 17", "5 rounds of 3 pairs one after the other, 5·(3·(4·0.05 + 0.012) + 0.002) = 3.19 s, and the suspects' 13.568 s")
}

// fakeNet is a network of n members whose link a–b has latency 1 + a + b
// µs and bandwidth 1000 MB/s each way (full duplex), but the links of
// member slow at a quarter.
type fakeNet struct {
	mu     sync.Mutex
	shared map[[2]int]chan loops.Values // what the lower members hand over
	calls  int
	slow   int
	// slowLink's latency is 10 times its due
	slowLink [2]int
	// active and most: pairs measuring now, and the most at once
	active, most int
}

// pipe is the channel of the pair a < b.
func (f *fakeNet) pipe(a, b int) chan loops.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.shared[[2]int{a, b}]
	if !ok {
		c = make(chan loops.Values, 1)
		f.shared[[2]int{a, b}] = c
	}
	return c
}

// testRun is a run of every process as a member, on fake loops.
func testRun(s *harness.Session, st Settings, f *fakeNet) *run {
	r := &run{f: td.f, s: s, st: st}
	r.split = func(color, key int) (mpi.Comm, error) { return mpi.CommNull, nil }
	r.newGroup = func(mpi.Comm) *harness.Group { return s.World() }
	r.pair = func(p *loops.Pair) (loops.Result, error) {
		f.mu.Lock()
		f.calls++
		f.mu.Unlock()
		if !p.Lower {
			return loops.Result{}, nil
		}
		f.mu.Lock()
		f.active++
		f.most = max(f.most, f.active)
		f.mu.Unlock()
		time.Sleep(time.Millisecond) // long enough for another pair to start, if it may
		defer func() {
			f.mu.Lock()
			f.active--
			f.mu.Unlock()
		}()
		a, b := s.Rank, p.Partner
		bw := 1000.0
		if a == f.slow || b == f.slow {
			bw = 250
		}
		n := float64(p.Reps)
		switch p.Measure {
		case loops.Latency:
			us := float64(1 + a + b)
			if [2]int{min(a, b), max(a, b)} == f.slowLink {
				us *= 10
			}
			return loops.Result{Seconds: 2 * n * us * 1e-6, Count: p.Reps}, nil
		}
		return loops.Result{Seconds: float64(p.Len) * n / (bw * 1e6), Count: p.Reps}, nil
	}
	r.share = func(c mpi.Comm, partner int, lower bool, v *loops.Values) error {
		a, b := s.Rank, partner
		if !lower {
			a, b = b, a
		}
		if lower {
			f.pipe(a, b) <- *v
		} else {
			*v = <-f.pipe(a, b)
		}
		return nil
	}
	return r
}

// TestRoundsAndMembers: 4 members (processes) measure their 3 rounds of 2
// pairs, at once and serially; rank 0 gets a line per pair, 6 in all,
// each pair once, with its values; every member then summarizes its 3
// links, the slow member's links at a quarter.
func TestRoundsAndMembers(t *testing.T) {
	for _, serial := range []bool{false, true} {
		t.Run(map[bool]string{false: "at-once", true: "serial"}[serial], func(t *testing.T) { roundsAndMembers(t, serial) })
	}
}

func roundsAndMembers(t *testing.T, serial bool) {
	meas := links.Settings{LatReps: 10, BwLen: 1 << 20, BwReps: 4, Cap: 1, Serial: serial}
	st := Settings{Level: links.LevelProcs, Members: 4, Full: true, Meas: meas, Plan: links.NewPlan(4, meas)}
	f := &fakeNet{shared: map[[2]int]chan loops.Values{}, slow: 3, slowLink: [2]int{0, 1}}
	harnesstest.SetFlags(t, td.f.fs, map[string]string{"links.watchdog": "0"}) // no watchdog left running in the test binary
	var pairs, again []pairLine
	var members []memberLine
	var mu sync.Mutex
	harnesstest.Fine(t, harnesstest.Run(t, 4, harness.Job{Hosts: []string{"a", "b", "c", "d"}}, func(s *harness.Session) {
		r := testRun(s, st, f)
		r.prepare()
		defer r.close()
		for k := range st.Plan.Rounds {
			if l := r.round(k); l != nil {
				mu.Lock()
				pairs = append(pairs, l...)
				mu.Unlock()
			}
		}
		if l := r.recheck(); l != nil {
			again = l
		}
		if m := r.members(); m != nil {
			members = m
		}
	}))
	require.Len(t, again, 1, "the slow link, measured again")
	assert.Equal(t, [2]int{0, 1}, [2]int{again[0].a, again[0].b})
	assert.InDelta(t, 20, again[0].v[loops.Latency], 1e-9)
	require.Len(t, pairs, 6)
	seen := map[[2]int]bool{}
	for _, p := range pairs {
		assert.Less(t, p.a, p.b)
		assert.False(t, seen[[2]int{p.a, p.b}], "each pair once")
		seen[[2]int{p.a, p.b}] = true
		lat := float64(1 + p.a + p.b)
		if p.a == 0 && p.b == 1 {
			lat *= 10
		}
		assert.InDelta(t, lat, p.v[loops.Latency], 1e-9, "latency of %d–%d", p.a, p.b)
		want := 1000.0
		if p.b == 3 {
			want = 250
		}
		assert.InDelta(t, want, p.v[loops.Forth], 1e-6)
		assert.InDelta(t, want, p.v[loops.Back], 1e-6)
		assert.InDelta(t, 2*want, p.v[loops.Both], 1e-6, "both ways count the bytes of both")
	}
	assert.Equal(t, 7*2*len(loops.Measures), f.calls, "both members of every pair ran every measurement, the suspect's twice")
	if serial {
		assert.Equal(t, 1, f.most, "serial: one pair measures at a time")
	}
	require.Len(t, members, 4)
	for i, m := range members {
		assert.Equal(t, []string{"a", "b", "c", "d"}[i], m.host)
		assert.Equal(t, 3, m.Links)
		if i == 3 {
			assert.InDelta(t, 250, m.Bw, 1e-6, "the slow member's links")
		} else {
			assert.InDelta(t, 1000, m.Bw, 1e-6)
			assert.Equal(t, 3, m.MinBwTo, "member %d: its slowest link leads to the slow member", i)
			assert.InDelta(t, 250, m.MinBw, 1e-6)
		}
	}
	assert.InDelta(t, 20, members[0].WorstLat, 1e-9, "member 0's slowest latency is to 1, the slow link")
	assert.Equal(t, 1, members[0].WorstLatTo)
	assert.InDelta(t, 1+2+3.0, members[2].WorstLat, 1e-9, "member 2's slowest latency is to 3")
	assert.Equal(t, 3, members[2].WorstLatTo)
}

// TestValue: a measurement's figure from its seconds and count.
func TestValue(t *testing.T) {
	assert.InDelta(t, 5.0, value(loops.Latency, 8, loops.Result{Seconds: 1e-3, Count: 100}), 1e-12, "half a round trip, µs")
	assert.InDelta(t, 100.0, value(loops.Forth, 1e6, loops.Result{Seconds: 1, Count: 100}), 1e-9)
	assert.InDelta(t, 200.0, value(loops.Both, 1e6, loops.Result{Seconds: 1, Count: 100}), 1e-9)
	assert.True(t, math.IsNaN(value(loops.Back, 1e6, loops.Result{})), "nothing measured")
}

// TestMultiPlaces: nodes pair as the round robin's first round, each
// process with the one at its place on the other node; a node's extra
// processes, and the odd node out, have no partner.
func TestMultiPlaces(t *testing.T) {
	// 3 nodes: a (ranks 0, 3), b (1, 4, 5), c (2)
	hosts := []string{"a", "b", "c", "a", "b", "b"}
	size := map[int]int{0: 2, 1: 3, 2: 1}
	got := multiPlaces(hosts)
	require.Len(t, got, 6)
	for r, p := range got {
		i := map[string]int{"a": 0, "b": 1, "c": 2}[hosts[r]]
		q := links.Partner(3, 0, i)
		if q < 0 || p.j >= size[q] {
			assert.Equal(t, -1, p.pair, "rank %d: its node sits out, or the other node has no process at its place", r)
			assert.Equal(t, -1, p.partner)
			continue
		}
		assert.Equal(t, min(i, q), p.pair, "rank %d", r)
		assert.Equal(t, i < q, p.lower, "rank %d", r)
		if p.partner >= 0 {
			assert.Equal(t, p.j, got[p.partner].j, "rank %d: partner at the same place", r)
			assert.Equal(t, r, got[p.partner].partner, "rank %d: partners of each other", r)
		}
	}
	four := multiPlaces([]string{"a", "a", "b", "b", "c", "c", "d", "d"})
	for r, p := range four {
		assert.GreaterOrEqual(t, p.partner, 0, "rank %d: 4 nodes of 2 all pair", r)
		assert.Equal(t, r%2, p.j)
	}
	assert.Equal(t, []int{1, 2, 4, 6}, links.MultiKs(6))
	assert.Equal(t, []int{1}, links.MultiKs(1))
	assert.Equal(t, 1, fewestPerHost(hosts))
}

// TestMultiLines: a node pair's aggregate is the bytes and messages of
// its lower processes (both ways: twice) over the longest time of any of
// its processes at that k; places beyond k do not count.
func TestMultiLines(t *testing.T) {
	ms := [links.PerMulti]multiMeas{{len: 1000, window: 4}, {both: true, len: 1000, window: 4}, {len: 8, window: 64}, {both: true, len: 8, window: 64}}
	rec := func(pair int, lower bool, j int, sec float64, count int64) []int64 {
		out := []int64{int64(pair), 0, int64(j)}
		if lower {
			out[1] = 1
		}
		for range ms {
			out = append(out, int64(math.Float64bits(sec)), count)
		}
		return out
	}
	all := [][]int64{rec(0, true, 0, 1, 10), rec(0, false, 0, 1, 10), rec(0, true, 1, 2, 10), rec(0, false, 1, 2, 10), rec(0, true, 2, 9, 99), rec(-1, false, 0, 0, 0)}
	// members 0 and 1 pair in round 0 of 2
	lines := multiLines(all, 2, 2, ms)
	require.Len(t, lines, 1)
	l := lines[0]
	assert.Equal(t, [2]int{0, 1}, [2]int{l.a, l.b})
	assert.InDelta(t, 2*10*4*1000/2.0/1e6, l.mbps, 1e-12, "2 senders of 10 windows of 4 kB over 2 s")
	assert.InDelta(t, 2*l.mbps, l.both, 1e-12)
	assert.InDelta(t, 2*10*64/2.0, l.rate, 1e-9)
	assert.InDelta(t, 2*l.rate, l.bothRate, 1e-9)
}
