package beff_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/beff"
)

func TestProbeBound(t *testing.T) {
	tests := []struct {
		name          string
		probe, target float64
		want          int
	}{
		// 10 iterations in 1/1024 s: 1/10240 s each; 1/128 s holds 80 of them.
		{"exact", 1.0 / 1024, 1.0 / 128, 80},
		{"fraction floored", 3.0 / 1024, 1.0 / 128, 26}, // 80/3 = 26.7
		{"10 µs per iteration, 5 ms", 1e-4, beff.TargetLoopTime, 500},
		{"slow probe", 1, beff.TargetLoopTime, 1},       // 0.05 → at least 1
		{"probe longer than the target", 1e-1, 1e-3, 1}, // 0.1 → 1
		{"fast probe capped", 1e-12, 5e-3, 1 << 20},     // 5e10 → the cap
		{"zero time", 0, 5e-3, 1 << 20},                 // clock did not advance
		{"negative time", -1e-6, 5e-3, 1 << 20},
		{"NaN", math.NaN(), 5e-3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, beff.ProbeBound(tt.probe, tt.target))
		})
	}
	assert.Equal(t, 10, beff.ProbeIterations)
}

func TestNextLoopLength(t *testing.T) {
	const target = 1.0 / 256 // exact in binary
	sqrt2 := math.Sqrt2
	tests := []struct {
		name     string
		prev     int
		prevTime float64
		ratio    float64
		bound    int
		want     int
	}{
		{"on target: halve", 1000, target, 2, 1 << 20, 500},
		{"half the target: keep", 1000, target / 2, 2, 1 << 20, 1000},
		{"quarter of the target: double", 1000, target / 4, 2, 1 << 20, 2000},
		{"over the target: only the size ratio", 1000, 2 * target, 2, 1 << 20, 500},
		{"far over the target", 1000, 100 * target, 2, 1 << 20, 500},
		{"geometric ratio", 100, target, sqrt2, 1 << 20, 70},             // 70.7
		{"geometric ratio, short", 100, target / 2, sqrt2, 1 << 20, 141}, // 141.4
		{"ratio 4", 1000, target, 4, 1 << 20, 250},
		{"clamped to the bound", 1000, target / 100, 2, 4000, 4000}, // 50000
		{"bound reached exactly", 1000, target / 8, 2, 4000, 4000},
		{"at least 1", 1, 2 * target, 2, 1 << 20, 1},    // 0.5
		{"at least 1 from 3", 3, target, 4, 1 << 20, 1}, // 0.75
		{"1 stays 1 on target", 2, target, 2, 1 << 20, 1},
		{"bound 1", 1000, target / 10, 2, 1, 1},
		{"zero time: bound", 10, 0, 2, 777, 777},
		{"negative time: bound", 10, -1, 2, 777, 777},
		{"truncated, not rounded", 3, target, 2, 100, 1}, // 1.5
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, beff.NextLoopLength(tt.prev, tt.prevTime, tt.ratio, target, tt.bound))
		})
	}
}

// The controller over a whole run of sizes on a model machine: the time of
// one iteration is α + L/β. Each loop after the first takes between
// target/2 (latency-bound sizes settle there) and the target, with 10%
// slack for the integer loop lengths, unless the loop length is already 1.
func TestLoopLengthSimulation(t *testing.T) {
	type machine struct{ alpha, beta float64 }
	for _, m := range []machine{{1e-6, 1e9}, {1e-5, 1e8}, {5e-7, 1e10}, {2e-6, 3e9}} {
		for _, lmax := range []int64{1 << 20, 8192, 65536, 50331648} {
			for _, target := range []float64{beff.TargetLoopTime, beff.ShortTargetLoopTime} {
				t.Run(fmt.Sprintf("α=%g/β=%g/Lmax=%d/target=%g", m.alpha, m.beta, lmax, target), func(t *testing.T) {
					iter := func(l int64) float64 { return m.alpha + float64(l)/m.beta }
					bound := beff.ProbeBound(beff.ProbeIterations*iter(1), target)
					sizes := beff.Sizes(lmax)
					ll := bound // the first size runs at the bound
					tm := float64(ll) * iter(sizes[0])
					assert.InEpsilon(t, target, tm, 0.01, "the bound fills the target at 1 byte")
					var settled []float64
					for i := 1; i < len(sizes); i++ {
						ll = beff.NextLoopLength(ll, tm, float64(sizes[i])/float64(sizes[i-1]), target, bound)
						require.GreaterOrEqual(t, ll, 1)
						require.LessOrEqual(t, ll, bound)
						tm = float64(ll) * iter(sizes[i])
						if ll > 1 {
							assert.GreaterOrEqual(t, tm, target/2*0.9, "L=%d ll=%d", sizes[i], ll)
							assert.LessOrEqual(t, tm, target*1.1, "L=%d ll=%d", sizes[i], ll)
						}
						if float64(sizes[i])/m.beta < m.alpha/100 {
							settled = append(settled, tm)
						}
					}
					// Latency-bound sizes settle at about target/2.
					for _, s := range settled {
						assert.InEpsilon(t, target/2, s, 0.05)
					}
				})
			}
		}
	}
}

func TestLoopLengthSimulationSpec(t *testing.T) {
	// The case the issue names: α = 1 µs, β = 1 GB/s, Lmax = 1 MiB, 5 ms.
	const alpha, beta, target = 1e-6, 1e9, beff.TargetLoopTime
	iter := func(l int64) float64 { return alpha + float64(l)/beta }
	sizes := beff.Sizes(1 << 20)
	bound := beff.ProbeBound(10*iter(1), target)
	assert.Equal(t, 4995, bound) // 10·5 ms / (10·1.001 µs) = 4995.005
	ll, tm := bound, float64(bound)*iter(1)
	lls := []int{ll}
	for i := 1; i < len(sizes); i++ {
		ll = beff.NextLoopLength(ll, tm, float64(sizes[i])/float64(sizes[i-1]), target, bound)
		tm = float64(ll) * iter(sizes[i])
		lls = append(lls, ll)
		if ll > 1 {
			assert.True(t, tm >= target/2*0.9 && tm <= target*1.1, "L=%d: ll=%d, loop time %g", sizes[i], ll, tm)
		}
	}
	// 4995 at 1 B (5 ms), then ~2.5 ms while the latency dominates:
	// 2: 4995/2·(5/5.0) = 2497; 4: 2497/2·(5/2.502) = 2495; 8: 2495/2·(5/2.505) = 2490.
	assert.Equal(t, []int{4995, 2497, 2495, 2490}, lls[:4])
	// 1 MiB takes 1.049576 ms per iteration: 4 iterations, 4.2 ms.
	assert.Equal(t, 4, lls[20])
}

func TestPredictTime(t *testing.T) {
	// 10 iterations of 1000 B took 10 ms: 1 ms each; 2000 B: 2 ms each;
	// 3 repetitions of 5 iterations: 30 ms.
	assert.InDelta(t, 0.03, beff.PredictTime(0.01, 10, 1000, 2000, 5, 3), 1e-15)
	// Same size, same loop length, one repetition: the same time.
	assert.InDelta(t, 0.25, beff.PredictTime(0.25, 7, 4096, 4096, 7, 1), 1e-15)
	// Doubling size, halved loop length: same time per repetition.
	assert.InDelta(t, 2*0.004, beff.PredictTime(0.004, 100, 1<<19, 1<<20, 50, 2), 1e-15)
}

func TestBandwidth(t *testing.T) {
	tests := []struct {
		name     string
		l        int64
		msgs, ll int
		sec      float64
		want     float64
	}{
		// 1e6 B × 4 messages × 10 iterations / 2 s = 2e7 B/s = 20 MB/s (MB = 1e6 B).
		{"MB is 1e6 bytes", 1e6, 4, 10, 2, 20},
		{"MiB message", 1 << 20, 1, 1, 1, 1.048576},
		{"ring of 8", 1 << 20, 16, 100, 0.5, 1048576 * 16 * 100 / 0.5 / 1e6},
		{"1 byte", 1, 2, 1000, 1e-3, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InEpsilon(t, tt.want, beff.Bandwidth(tt.l, tt.msgs, tt.ll, tt.sec), 1e-12)
		})
	}
	assert.True(t, math.IsInf(beff.Bandwidth(8, 1, 1, 0), 1), "zero time")
	assert.True(t, math.IsInf(beff.Bandwidth(8, 1, 1, -1), 1), "negative time")
}

func TestLoopStateNext(t *testing.T) {
	const target = 1.0 / 256
	s := beff.LoopState{Bound: 4000}
	assert.Equal(t, 4000, s.Next(1, target), "the first measurement takes the bound")
	s = beff.LoopState{Bound: 4000, Len: 1000, Time: target / 2, L: 512}
	assert.Equal(t, 1000, s.Next(1024, target), "doubling size at half the target: keep")
	assert.Equal(t, 4000, s.Next(512, target/100*200), "capped at the bound")
}

func TestLoopStatePredict(t *testing.T) {
	// 10 iterations of 1000 B in 10 ms (1 ms each, on target 10 ms): the
	// next size 2000 B gets 5 iterations (2 ms each, 10 ms a repetition),
	// 4000 B gets 2 (4 ms each: 8 ms, 8/10 of the target keeps the ratio
	// alone: 5/2 = 2.5 → 2).
	s := beff.LoopState{Bound: 1 << 20, Len: 10, Time: 0.01, L: 1000}
	got := s.Predict([]int64{2000, 4000}, 0.01, 3)
	assert.InDelta(t, 3*0.01+3*0.008, got, 1e-12)
	assert.Equal(t, 10, s.Len, "Predict works on a copy")
}

func TestPlanShortcut(t *testing.T) {
	set := beff.PureSet(4, 1, 1)
	var pats []*beff.Pattern
	for _, name := range []string{"ring2", "pingpong"} {
		pats = append(pats, set.Lookup(name))
	}
	// Every method ran 100 iterations of 1 MB in 5 ms at size 1 MB; the
	// alltoallv of ring2 was fastest.
	states := map[string]*beff.LoopState{}
	for _, p := range pats {
		for _, m := range p.Methods() {
			states[p.Name+m.String()] = &beff.LoopState{Bound: 1 << 20, Len: 100, Time: 5e-3, L: 1e6, MBps: 100}
		}
	}
	states["ring2alltoallv"].MBps = 200
	state := func(p string, m beff.Method) *beff.LoopState { return states[p+m.String()] }
	// Each method: 2 MB then 4 MB at 5 ms per repetition (the loop length
	// halves with the size): 3·5 ms + 3·5 ms = 30 ms; 4 methods: 120 ms.
	largest := []int64{2e6, 4e6}
	plan := beff.PlanShortcut(pats, state, 1e6, largest, 5e-3, 0.119)
	assert.True(t, plan.On)
	assert.Equal(t, map[string]beff.Method{"ring2": beff.Alltoallv, "pingpong": beff.Sendrecv}, plan.Best)
	assert.False(t, beff.PlanShortcut(pats, state, 1e6, largest, 5e-3, 0.121).On)
	// States at another size are passed over.
	assert.False(t, beff.PlanShortcut(pats, state, 2e6, largest, 5e-3, 0).On)

	// Before size 1 MB is measured, the states at 1 kB where one
	// iteration took 10 ms (processes sharing a core: the latency rules)
	// are carried to it at 10 ms an iteration, a loop of one: then 2 MB
	// and 4 MB take 3·20 ms + 3·40 ms, 180 ms a method, 720 ms in all.
	for _, s := range states {
		s.Len, s.Time, s.L, s.First = 1, 10e-3, 1e3, 10e-3
	}
	assert.False(t, beff.PlanShortcut(pats, state, 1e6, largest, 5e-3, 0).On, "not measured at 1 MB yet")
	plan = beff.ExpectShortcut(pats, state, 1e6, largest, 5e-3, 0.719)
	assert.True(t, plan.On)
	assert.Equal(t, beff.Alltoallv, plan.Best["ring2"])
	assert.False(t, beff.ExpectShortcut(pats, state, 1e6, largest, 5e-3, 0.721).On)
}

// TestTimeModel: one iteration's time beyond the last size once the
// bandwidth shows, and not too far; a measurement's time from its loops.
func TestTimeModel(t *testing.T) {
	var none *beff.LoopState
	_, ok := none.IterTime(1000)
	assert.False(t, ok)
	assert.InDelta(t, 3*5e-3, none.MeasureTime(1000, 5e-3, 3, 1, 0), 1e-15, "before a measurement: the loop time")

	s := &beff.LoopState{}
	s.Took(1, 5000, 5e-3, 1) // 1 µs per iteration at 1 byte
	it, ok := s.IterTime(1)
	assert.True(t, ok)
	assert.InDelta(t, 1e-6, it, 1e-15)
	it, ok = s.IterTime(2)
	assert.True(t, ok)
	assert.InDelta(t, 1e-6, it, 1e-15, "the latency rules: no growth known, no less than the last size's")
	s.Took(4096, 1250, 1250*3e-6, 1) // 3 µs: under four times the latency
	it, _ = s.IterTime(8192)
	assert.InDelta(t, 3e-6, it, 1e-15)
	s.Took(16384, 312, 312*16e-6, 1) // 16 µs: the bandwidth shows
	it, ok = s.IterTime(65536)
	assert.True(t, ok)
	assert.InDelta(t, 64e-6, it, 1e-12, "in proportion to the size")
	assert.InDelta(t, 1e-6, s.First, 1e-15)
	it, ok = s.IterTime(16384 * beff.ModelReach * 32)
	assert.True(t, ok)
	assert.InDelta(t, 16e-6*beff.ModelReach*math.Pow(32, beff.ModelGrowth), it, 1e-12, "beyond the reach, as the size to the power 0.8")

	s = &beff.LoopState{}
	s.Took(1<<10, 1000, 1000*1e-6, 1)
	s.Took(4<<20, 2, 2*4e-3, 1) // 4 ms an iteration
	// 8 MB: 8 ms an iteration, over a loop of 3.5 ms: 3 loops of one iteration
	assert.InDelta(t, 3*8e-3, s.MeasureTime(8<<20, 3.5e-3, 3, 0, 0), 1e-12)
	// 16 MB: 16 ms, each after an untimed one
	assert.InDelta(t, 3*2*16e-3, s.MeasureTime(16<<20, 3.5e-3, 3, 1, 0), 1e-12)
	assert.InDelta(t, 2*16e-3, s.MeasureTime(16<<20, 3.5e-3, 2, 0, 1), 1e-12, "the shortcut's loop length 1")
	assert.InDelta(t, 3*4e-3*beff.ModelReach*math.Pow(4, beff.ModelGrowth), s.MeasureTime(4<<26, 3.5e-3, 3, 0, 0), 1e-12, "beyond the reach: one iteration as the size to the power 0.8")
	small := &beff.LoopState{}
	small.Took(1024, 1000, 1000*1e-6, 1)
	assert.InDelta(t, 3*3.5e-3, small.MeasureTime(2048, 3.5e-3, 3, 0, 0), 1e-12, "a loop of the target's where an iteration is shorter")
	slow := &beff.LoopState{}
	slow.Took(1, 1, 0.4, 1) // one iteration over the target: processes sharing a core
	assert.InDelta(t, 3*2*0.4, slow.MeasureTime(64, 3.5e-3, 3, 1, 0), 1e-12, "at the latency, no shorter at a larger size")
}

// TestTypical: a pattern and method not measured yet stand in as the
// median iteration of those measured, at any size.
func TestTypical(t *testing.T) {
	assert.Nil(t, beff.Typical(nil))
	assert.Nil(t, beff.Typical([]*beff.LoopState{nil, {}}))
	a, b, c := &beff.LoopState{}, &beff.LoopState{}, &beff.LoopState{}
	a.Took(1, 1000, 1e-3, 1) // 1 µs
	b.Took(64, 10, 1e-3, 1)  // 100 µs
	c.Took(4096, 1, 0.4, 1)  // 0.4 s: processes sharing a core
	s := beff.Typical([]*beff.LoopState{c, nil, a, b})
	assert.InDelta(t, 3*(5e-3+100e-6), s.MeasureTime(1<<20, 5e-3, 3, 1, 0), 1e-12, "a loop of the target's, after one iteration")
	s = beff.Typical([]*beff.LoopState{c, c, a})
	assert.InDelta(t, 2*0.4, s.MeasureTime(1, 5e-3, 2, 0, 0), 1e-12, "one iteration longer than the target")
}
