package fold

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beff"
)

// A synth describes a synthetic BenchmarkBeff output.
type synth struct {
	n        int
	sizes    []int64 // the last is Lmax
	random   int
	mode     string   // "" means a short run
	patterns []string // beff-patterns restriction, nil for none
	rmax     string   // beff-rmax-gflops, "" for none
	// reference marks a run by the reference code's rules: the line
	// beff-rules: reference, and the reference code's pattern set.
	reference bool
	// meas gives one measurement; ok = false leaves it out.
	meas func(pat string, l int64, m beff.Method) (v meas, ok bool)
}

// meas is the content of one synthetic line. min-MB/s and avg-MB/s are
// derived from mbps; ns/op is its repetitions' loops and 1 ms. The line's ms/loop is the one that
// gives mbps (its messages of l bytes, looplen times); with mbps 0, mbps
// is the one msLoop gives.
type meas struct {
	mbps    float64
	msLoop  float64
	looplen int
	reps    int
}

// config returns the configuration lines of s.
func (s synth) config() string {
	var b strings.Builder
	sizes := make([]string, len(s.sizes))
	for i, l := range s.sizes {
		sizes[i] = fmt.Sprint(l)
	}
	mode := s.mode
	if mode == "" {
		mode = "short (test)"
	}
	fmt.Fprintf(&b, "mpi-procs: %d\nbeff-mode: %s\nbeff-lmax: %d\nbeff-sizes: %s\nbeff-random-patterns: %d\n",
		s.n, mode, s.sizes[len(s.sizes)-1], strings.Join(sizes, ","), s.random)
	if s.rmax != "" {
		fmt.Fprintf(&b, "beff-rmax-gflops: %s\n", s.rmax)
	}
	if s.patterns != nil {
		fmt.Fprintf(&b, "beff-patterns: %s\n", strings.Join(s.patterns, ","))
	}
	if s.reference {
		b.WriteString("beff-rules: reference\n")
	}
	b.WriteString("Unit MB/s better=higher\n")
	return b.String()
}

// lines returns the benchmark lines of s in the harness's order (size,
// pattern, method).
func (s synth) lines() []string {
	var out []string
	set := beff.PureSet(s.n, s.random, 0)
	if s.reference {
		set = set.Reference()
	}
	for _, l := range s.sizes {
		for _, p := range set.Patterns {
			if s.patterns != nil && !slices.Contains(s.patterns, p.Name) {
				continue
			}
			for _, m := range p.Methods() {
				v, ok := s.meas(p.Name, l, m)
				if !ok {
					continue
				}
				if v.reps == 0 {
					v.reps = 3
				}
				// the figures of a line agree (the fold refuses a line
				// whose bandwidth its loop does not give): the loop time
				// follows from the bandwidth, or without one the
				// bandwidth from the loop time
				switch bytes := float64(l) * float64(p.Messages()) * float64(v.looplen); {
				case v.mbps > 0 && v.msLoop > 0 && v.looplen > 0:
					v.msLoop = bytes / (v.mbps * 1e3)
				case v.mbps == 0 && v.msLoop > 0:
					v.mbps = bytes / (v.msLoop * 1e3)
				}
				out = append(out, fmt.Sprintf("BenchmarkBeff/pat=%s/L=%d/mthd=%s \t 1\t%.0f ns/op\t%v MB/s\t%v min-MB/s\t%v avg-MB/s\t%v ms/loop\t%d looplen\t%d reps",
					p.Name, l, m, 1e6+float64(v.reps)*v.msLoop*1e6, v.mbps, v.mbps/2, v.mbps*3/4, v.msLoop, v.looplen, v.reps))
			}
		}
	}
	return out
}

func (s synth) text() string { return s.config() + strings.Join(s.lines(), "\n") + "\nPASS\n" }

// wall is the sum of the lines' wall times (ns/op).
func (s synth) wall() time.Duration {
	var ns float64
	for _, l := range s.lines() {
		f := strings.Fields(l)
		v, _ := strconv.ParseFloat(f[2], 64)
		ns += v
	}
	return time.Duration(ns)
}

// foldText reads text and folds every run.
func foldText(t *testing.T, text string) ([]*Folded, error) {
	t.Helper()
	f, err := readText((text), "in.txt")
	if err != nil {
		return nil, err
	}
	var ps []*Folded
	for _, r := range f.Runs {
		p, err := Fold(r)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

func mustFold(t *testing.T, text string) []*Folded {
	t.Helper()
	ps, err := foldText(t, text)
	require.NoError(t, err)
	return ps
}

var ringsAndRandom01 = append(slices.Clone(beff.RingNames[:]), "random01")

// handRun is a run on N = 2 with 2 sizes (1 byte and Lmax = 65536), one
// random pattern and the ping-pong pattern, with values chosen so that every
// figure can be computed by hand. Each pattern has one best method; the
// others get half its bandwidth and an absurd loop time, so that using them
// would show.
//
//	pattern                 best method  MB/s at 1 B, Lmax  avg_L  µs/iteration at 1 B
//	ring2, ring4, ring8     varies       2, 8               5      1     (2 B / 2 MB/s)
//	ringquarter/half/all    sendrecv     8, 32              20     0.25  (2 B / 8 MB/s)
//	random01                nonblocking  16, 64             40     0.125 (2 B / 16 MB/s)
//	pingpong                sendrecv     1, 50              -      2     (2 B / 1 MB/s)
//
// (every line's loop time is the one its bandwidth gives: synth.lines)
func handRun() synth {
	bestMethod := map[string]beff.Method{"ring4": beff.Alltoallv, "ring8": beff.Nonblocking, "random01": beff.Nonblocking}
	type vals struct{ small, large, ms float64 }
	v := map[string]vals{
		"ring2": {2, 8, 1}, "ring4": {2, 8, 1}, "ring8": {2, 8, 1},
		"ringquarter": {8, 32, 4}, "ringhalf": {8, 32, 4}, "ringall": {8, 32, 4},
		"random01": {16, 64, 8}, "pingpong": {1, 50, 3},
	}
	return synth{n: 2, sizes: []int64{1, 65536}, random: 1, rmax: "20",
		patterns: append(slices.Clone(ringsAndRandom01), "pingpong"),
		meas: func(pat string, l int64, m beff.Method) (meas, bool) {
			x := meas{mbps: v[pat].large, msLoop: 0.5, looplen: 100}
			if l == 1 {
				x.mbps, x.msLoop = v[pat].small, v[pat].ms
			}
			if m != bestMethod[pat] {
				x.mbps, x.msLoop = x.mbps/2, 1000
			}
			return x, true
		}}
}

func TestFoldByHand(t *testing.T) {
	s := handRun()
	ps := mustFold(t, s.text())
	require.Len(t, ps, 1)
	p := ps[0]
	// b_eff = logavg(logavg(5, 5, 5, 20, 20, 20), 40) = logavg(10, 40) = 20.
	assert.InEpsilon(t, 20, p.Beff, 1e-12, "b_eff")
	assert.InEpsilon(t, 10, p.BeffPerProc, 1e-12, "b_eff per process")
	// At Lmax: logavg(logavg(8, 8, 8, 32, 32, 32), 64) = logavg(16, 64) = 32.
	assert.InEpsilon(t, 32, p.BeffLmax, 1e-12, "b_eff at Lmax")
	assert.InEpsilon(t, 16, p.BeffLmaxPerProc, 1e-12, "b_eff at Lmax per process")
	// Rings only at Lmax: logavg(8, 8, 8, 32, 32, 32) / 2 = 16 / 2.
	assert.InEpsilon(t, 8, p.BeffLmaxRingsPerProc, 1e-12, "rings at Lmax per process")
	assert.Equal(t, 50.0, p.PingPongLmax, "ping-pong bandwidth at Lmax")
	// On 2 processes every ring has 2 participants and 2 messages, so the
	// latency is the time per iteration: logavg(1, 1, 1, 0.25, 0.25, 0.25)
	// = 0.5 for the rings, logavg(0.5, 0.125) = 0.25 with the random ring;
	// ping-pong is half its 2 µs round trip.
	assert.InEpsilon(t, 0.5, p.LatRings, 1e-12, "latency rings")
	assert.InEpsilon(t, 0.25, p.LatRingsRandom, 1e-12, "latency rings & random")
	assert.InEpsilon(t, 1, p.LatPingPong, 1e-12, "latency ping-pong")
	// 20 MB/s / (20 GFlop/s · 1000) = 0.001 byte/flop.
	assert.InEpsilon(t, 0.001, p.Balance, 1e-12, "balance")
	// 8 patterns (ping-pong with one method): 22 lines per size, 1 ms
	// each and their loops.
	assert.Equal(t, s.wall(), p.TotalTime)
	assert.Contains(t, p.Notes, NoteShort)
	assert.NotContains(t, p.Notes, NoteShortcut)

	require.Len(t, p.Patterns, 8)
	ring4 := p.Patterns[1]
	assert.Equal(t, "ring4", ring4.Name)
	assert.Equal(t, beff.Alltoallv, ring4.Rows[0].Best.Method)
	assert.Len(t, ring4.Rows[0].Measured, 3)
	assert.InEpsilon(t, 5, ring4.Avg, 1e-12)
	assert.InEpsilon(t, 1, ring4.Latency, 1e-12)

	var names []string
	for _, f := range p.Figures() {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"beff", "beff-per-proc", "beff-lmax", "beff-lmax-per-proc", "beff-lmax-rings-per-proc",
		"pingpong-bw-lmax", "lat-rings-random", "lat-rings", "lat-pingpong", "balance"}, names)
}

// TestValidity checks the reasons of a b_eff result that is not valid for
// comparison, each restated as a note.
func TestValidity(t *testing.T) {
	s := handRun()
	p := mustFold(t, s.text())[0]
	assert.False(t, p.Valid())
	assert.Equal(t, []string{"short run"}, p.Reasons)

	s.mode = "full"
	p = mustFold(t, s.text())[0]
	assert.False(t, p.Valid())
	want := "the sizes are not the 21 b_eff sizes of Lmax = 65536 bytes"
	assert.Equal(t, []string{want}, p.Reasons)
	assert.Contains(t, p.Notes, want+" (not valid for comparison)")

	s.sizes = beff.Sizes(65536)
	p = mustFold(t, s.text())[0]
	assert.True(t, p.Valid())
	assert.Empty(t, p.Reasons)
	assert.NotContains(t, strings.Join(p.Notes, "\n"), "not valid")
}

func TestRmaxOverride(t *testing.T) {
	f, err := readText((handRun().text()), "in.txt")
	require.NoError(t, err)
	f.Runs[0].Config.Rmax = 10
	p, err := Fold(f.Runs[0])
	require.NoError(t, err)
	assert.InEpsilon(t, 0.002, p.Balance, 1e-12)
}

// TestLatencyPerMessage checks the latency on 4 processes, where the
// patterns differ in messages per process. Every method takes 0.1 ms for
// 10 iterations at 1 byte: 10 µs per iteration.
//
//	ring2 = two rings of 2: 4 participants, 4 messages  → 10 µs · 4/4 = 10 µs
//	ring4 … ringall, random01 = one ring of 4: 4, 8   → 10 µs · 4/8 =  5 µs
//
// Rings: logavg(10, 5, 5, 5, 5, 5) = 5 · 2^(1/6); with the random ring:
// logavg(5 · 2^(1/6), 5) = 5 · 2^(1/12).
func TestLatencyPerMessage(t *testing.T) {
	s := synth{n: 4, sizes: []int64{1, 8192}, random: 1, patterns: ringsAndRandom01,
		meas: func(pat string, l int64, m beff.Method) (meas, bool) {
			return meas{msLoop: 0.1, looplen: 10}, true
		}}
	p := mustFold(t, s.text())[0]
	ring2, ring4 := p.Patterns[0], p.Patterns[1]
	assert.Equal(t, []int{4, 4}, []int{ring2.Participants, ring2.Messages})
	assert.Equal(t, []int{4, 8}, []int{ring4.Participants, ring4.Messages})
	assert.InEpsilon(t, 10, ring2.Latency, 1e-12)
	assert.InEpsilon(t, 5, ring4.Latency, 1e-12)
	assert.InEpsilon(t, 5*math.Pow(2, 1.0/6), p.LatRings, 1e-12)
	assert.InEpsilon(t, 5*math.Pow(2, 1.0/12), p.LatRingsRandom, 1e-12)
	assert.Zero(t, p.LatPingPong, "ping-pong not measured")
	assert.Zero(t, p.PingPongLmax)
	assert.Zero(t, p.Balance, "no Rmax")
	assert.Positive(t, p.Beff)
}

// shortcutRun measures the two largest of three sizes with one method
// (sendrecv) and, at the largest, reps.
func shortcutRun(reps int) synth {
	return synth{n: 2, sizes: []int64{1, 4096, 65536}, random: 1, patterns: ringsAndRandom01,
		meas: func(pat string, l int64, m beff.Method) (meas, bool) {
			x := meas{mbps: float64(l), msLoop: 1, looplen: 1}
			if l >= 4096 {
				if m != beff.Sendrecv {
					return x, false
				}
				if l == 65536 {
					x.reps = reps
				}
			}
			return x, true
		}}
}

func TestShortcut(t *testing.T) {
	p := mustFold(t, shortcutRun(2).text())[0]
	assert.True(t, p.Shortcut)
	assert.Contains(t, p.Notes, NoteShortcut)
	assert.Len(t, p.Patterns[0].Rows[2].Measured, 1)
	// Every pattern has 1, 4096 and 65536 MB/s: b_eff is their mean.
	assert.InEpsilon(t, (1+4096+65536)/3.0, p.Beff, 1e-12)

	// With 3 repetitions at the largest size it is not the shortcut.
	_, err := foldText(t, shortcutRun(3).text())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing 28 measurements: pat=ring2/L=4096/mthd=alltoallv, ")
}

func TestMultipleRuns(t *testing.T) {
	s := handRun()
	t.Run("count", func(t *testing.T) {
		// -test.count=2: each name twice in a row, the second with doubled bandwidths.
		double := s
		inner := s.meas
		double.meas = func(pat string, l int64, m beff.Method) (meas, bool) {
			v, ok := inner(pat, l, m)
			v.mbps *= 2
			return v, ok
		}
		var in strings.Builder
		in.WriteString(s.config())
		a, d := s.lines(), double.lines()
		for i := range a {
			in.WriteString(a[i] + "\n" + d[i] + "\n")
		}
		ps := mustFold(t, in.String())
		require.Len(t, ps, 2)
		assert.Equal(t, 1, ps[0].Run.Index)
		assert.Equal(t, 2, ps[1].Run.Index)
		first := strings.Count(s.config(), "\n") + 1
		assert.Equal(t, []int{first, first + 1}, []int{ps[0].Run.Line, ps[1].Run.Line})
		assert.InEpsilon(t, 20, ps[0].Beff, 1e-12)
		assert.InEpsilon(t, 40, ps[1].Beff, 1e-12)
	})
	t.Run("concatenated", func(t *testing.T) {
		four := synth{n: 4, sizes: []int64{1, 8192}, random: 1, patterns: ringsAndRandom01,
			meas: func(string, int64, beff.Method) (meas, bool) { return meas{mbps: 3, msLoop: 1, looplen: 1}, true }}
		ps := mustFold(t, s.text()+s.text()+four.text())
		require.Len(t, ps, 3)
		assert.Equal(t, []int{2, 2, 4}, []int{ps[0].Run.Config.N, ps[1].Run.Config.N, ps[2].Run.Config.N})
		assert.InEpsilon(t, 20, ps[1].Beff, 1e-12)
		assert.InEpsilon(t, 3, ps[2].Beff, 1e-12)
	})
}

func readShortNP2(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/short-np2.txt")
	require.NoError(t, err)
	return string(data)
}

func TestShortNP2(t *testing.T) {
	f, err := readText((readShortNP2(t)), "short-np2.txt")
	require.NoError(t, err)
	require.Len(t, f.Runs, 1)
	r := f.Runs[0]
	assert.Equal(t, 2, r.Config.N)
	assert.Equal(t, int64(65536), r.Config.Lmax)
	assert.Equal(t, []int64{1, 64, 4096, 16384, 65536}, r.Config.Sizes)
	assert.True(t, r.Config.Short())
	assert.Len(t, r.Measurements, 320)
	assert.Equal(t, 0, f.File.FoldedLines(r.Suite))
	p, err := Fold(r)
	require.NoError(t, err)
	// Checked against an independent computation from the MB/s column.
	assert.InDelta(t, 9954.0487, p.Beff, 1e-4)
	assert.InDelta(t, 31796.0282, p.BeffLmax, 1e-4)
	assert.Equal(t, 18760.02, p.PingPongLmax)
	// ping-pong at 1 byte: 0.8926 ms / 1440 iterations / 2.
	assert.InEpsilon(t, 0.8926e3/1440/2, p.LatPingPong, 1e-12)
}

// edit applies fn to every line of text.
func edit(text string, fn func(line string) []string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, fn(l)...)
	}
	return strings.Join(out, "\n")
}

// TestRoundedBandwidth: a best bandwidth that testing's two decimals print
// as 0.00 MB/s is taken from the loop time and folds as the printed one.
func TestRoundedBandwidth(t *testing.T) {
	mbps := regexp.MustCompile(`\s+[0-9.]+ MB/s`)
	text := edit(readShortNP2(t), func(l string) []string {
		if strings.HasPrefix(l, "BenchmarkBeff/pat=ring2/L=1/") {
			l = mbps.ReplaceAllString(l, "\t   0.00 MB/s")
		}
		return []string{l}
	})
	require.True(t, strings.Contains(text, "pat=ring2/L=1/mthd=sendrecv         \t       1\t   2716075 ns/op\t   0.00 MB/s\t"), "the line is edited")
	ps := mustFold(t, text)
	// 1 byte, 2 messages, 1881 iterations in 0.8688 ms (4.33 MB/s printed).
	assert.InEpsilon(t, 1*2*1881/0.8688e-3/1e6, ps[0].Run.Lookup("ring2", 1, beff.Sendrecv).MBps, 1e-12)
	assert.InEpsilon(t, 9954.0487, ps[0].Beff, 1e-4)
}

func TestRefusals(t *testing.T) {
	np2 := readShortNP2(t)
	const ring4 = "BenchmarkBeff/pat=ring4/L=4096/mthd=alltoallv"
	tests := []struct {
		name string
		in   string
		want string // the error message
	}{
		{"empty", "", "in.txt: not beff output: no BenchmarkBeff results"},
		{"other benchmarks", "goos: linux\nBenchmarkFoo 1 100 ns/op\nBenchmarkBeffIOX/x 1 1 ns/op\nBenchmarkBeffX/pat=ring2 1 1 ns/op\n",
			"in.txt: not beff output: no BenchmarkBeff results"},
		{"no config", "BenchmarkBeff/pat=ring2/L=1/mthd=sendrecv 1 1 ns/op 1 MB/s 1 min-MB/s 1 avg-MB/s 1 ms/loop 1 looplen 3 reps\n",
			"in.txt:1: not b_eff output: no mpi-procs configuration line"},
		{"missing config line",
			edit(np2, func(l string) []string {
				if strings.HasPrefix(l, "beff-sizes:") {
					return nil
				}
				return []string{l}
			}),
			"in.txt:26: not b_eff output: no beff-sizes configuration line"},
		{"deleted line",
			edit(np2, func(l string) []string {
				if strings.HasPrefix(l, ring4+" ") {
					return nil
				}
				return []string{l}
			}),
			"in.txt:27: run 1: missing 1 measurement: pat=ring4/L=4096/mthd=alltoallv"},
		{"partial run",
			edit(np2, func(l string) []string {
				if strings.HasPrefix(l, "beff-random-patterns:") {
					return []string{l, "beff-patterns: ring2,ring4,random01,pingpong"}
				}
				if name, _, ok := strings.Cut(l, " "); ok && strings.HasPrefix(name, "BenchmarkBeff/pat=") &&
					!slices.ContainsFunc([]string{"ring2", "ring4", "random01", "pingpong"}, func(p string) bool { return strings.HasPrefix(name, "BenchmarkBeff/pat="+p+"/") }) {
					return nil // a partial run has no lines of the patterns it leaves out
				}
				return []string{l}
			}),
			"in.txt:28: run 1: restricted run (beff-patterns: ring2,ring4,random01,pingpong): b_eff needs all ring and random patterns; not measured: ring8, ringquarter, ringhalf, ringall, random02, random03"},
		{"partial run holding lines it leaves out",
			edit(np2, func(l string) []string {
				if strings.HasPrefix(l, "beff-random-patterns:") {
					return []string{l, "beff-patterns: ring2,ring4,random01,pingpong"}
				}
				return []string{l}
			}),
			"in.txt:34: pat=ring8/L=1/mthd=sendrecv: run 1: pattern ring8 is not in beff-patterns"},
		{"truncated line",
			edit(np2, func(l string) []string {
				if strings.HasPrefix(l, ring4+" ") {
					return []string{l[:strings.Index(l, "MB/s")]}
				}
				return []string{l}
			}),
			"in.txt:159: missing units"},
		{"truncated metrics",
			edit(np2, func(l string) []string {
				if strings.HasPrefix(l, ring4+" ") {
					return []string{l[:strings.Index(l, "looplen")+len("looplen")]}
				}
				return []string{l}
			}),
			"in.txt:159: pat=ring4/L=4096/mthd=alltoallv: missing metric min-MB/s"},
		{"negative bandwidth",
			edit(np2, func(l string) []string {
				if strings.HasPrefix(l, ring4+" ") {
					return []string{strings.Replace(l, "3793.62 MB/s", "-3793.62 MB/s", 1)}
				}
				return []string{l}
			}),
			"in.txt:159: pat=ring4/L=4096/mthd=alltoallv: bandwidth -3793.62 MB/s is not positive and finite"},
		{"infinite bandwidth",
			edit(np2, func(l string) []string {
				if strings.HasPrefix(l, ring4+" ") {
					return []string{strings.Replace(l, "3793.62 MB/s", "+Inf MB/s", 1)}
				}
				return []string{l}
			}),
			"in.txt:159: pat=ring4/L=4096/mthd=alltoallv: bandwidth +Inf MB/s is not positive and finite"},
		{"wall time not a number",
			edit(np2, func(l string) []string {
				if strings.HasPrefix(l, ring4+" ") {
					f := strings.Fields(l)
					return []string{strings.Replace(l, " "+f[2]+" ns/op", " NaN ns/op", 1)}
				}
				return []string{l}
			}),
			"in.txt:159: Beff/pat=ring4/L=4096/mthd=alltoallv: NaN ns/op: testing writes a positive time or none; not written by beff, or edited"},
		{"wall time of 0",
			strings.Replace(np2, "254455 ns/op	3793.62 MB/s", "0 ns/op	3793.62 MB/s", 1),
			"in.txt:159: Beff/pat=ring4/L=4096/mthd=alltoallv: 0 ns/op: testing writes a positive time or none; not written by beff, or edited"},
		{"minimum above the mean",
			strings.Replace(np2, "3648 avg-MB/s	        36.00 looplen	      3486 min-MB/s", "3648 avg-MB/s	        36.00 looplen	      3700 min-MB/s", 1),
			"in.txt:159: pat=ring4/L=4096/mthd=alltoallv: its bandwidths are out of order (min 3700, mean 3648, best 3793.62 MB/s); not written by beff, or edited"},
		{"mean above the best",
			strings.Replace(np2, "3648 avg-MB/s", "3900 avg-MB/s", 1),
			"in.txt:159: pat=ring4/L=4096/mthd=alltoallv: its bandwidths are out of order (min 3486, mean 3900, best 3793.62 MB/s); not written by beff, or edited"},
		{"one repetition",
			strings.Replace(np2, "0.07774 ms/loop	         3.000 reps", "0.07774 ms/loop	         1.000 reps", 1),
			"in.txt:159: pat=ring4/L=4096/mthd=alltoallv: 1 repetitions: b_eff makes 3 (fewer only at the two largest sizes, under the shortcut); not written by beff, or edited"},
		{"wall time below the loops",
			strings.Replace(np2, "254455 ns/op	3793.62 MB/s", "200000 ns/op	3793.62 MB/s", 1),
			"in.txt:159: pat=ring4/L=4096/mthd=alltoallv: wall time 200000 ns/op is shorter than its 3 repetitions of 0.07774 ms/loop; not written by beff, or edited"},
		{"unknown pattern",
			strings.Replace(np2, "pat=cyclic-3dim-z/L=1/mthd=sendrecv", "pat=cart4d/L=1/mthd=sendrecv", 1),
			"in.txt:79: pat=cart4d/L=1/mthd=sendrecv: run 1: no pattern cart4d on 2 processes with 3 random patterns"},
		{"unknown size",
			strings.Replace(np2, "pat=ring2/L=64/mthd=sendrecv", "pat=ring2/L=65/mthd=sendrecv", 1),
			"in.txt:91: pat=ring2/L=65/mthd=sendrecv: run 1: size 65 is not in beff-sizes"},
		{"ping-pong method",
			strings.Replace(np2, "pat=pingpong/L=1/mthd=sendrecv", "pat=pingpong/L=1/mthd=alltoallv", 1),
			"in.txt:63: pat=pingpong/L=1/mthd=alltoallv: run 1: pattern pingpong is not measured with alltoallv"},
		{"bad name", strings.Replace(np2, "pat=ring2/L=64/mthd=sendrecv", "pat=ring2/mthd=sendrecv", 1),
			"in.txt:91: Beff/pat=ring2/mthd=sendrecv: not a b_eff measurement name (want pat=<pattern>/L=<bytes>/mthd=<method>)"},
		{"bad method", strings.Replace(np2, "pat=ring2/L=64/mthd=sendrecv", "pat=ring2/L=64/mthd=put", 1),
			"in.txt:91: Beff/pat=ring2/L=64/mthd=put: unknown method \"put\""},
		{"sizes without Lmax", strings.Replace(np2, "beff-sizes: 1,64,4096,16384,65536", "beff-sizes: 1,64,4096,16384", 1),
			"in.txt:27: beff-sizes: the largest size 16384 differs from beff-lmax 65536"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := foldText(t, tt.in)
			require.Error(t, err)
			var e *results.InputError
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

// TestOversubscribed: a run whose processes outnumbered a node's CPUs is not
// valid for comparisons, and the reason says so.
func TestOversubscribed(t *testing.T) {
	raw, err := os.ReadFile("testdata/short-np2.txt")
	require.NoError(t, err)
	in := strings.Replace(string(raw), "mpi-procs-per-node: 2\n", "mpi-procs-per-node: 2\nmpi-oversubscribed: yes: 4 processes on vm, which has 2 CPUs (figures check correctness, not speed)\n", 1)
	f, err := readText((in), "over.txt")
	require.NoError(t, err)
	require.NotEmpty(t, f.Runs)
	p, err := Fold(f.Runs[0])
	require.NoError(t, err)
	assert.False(t, p.Valid())
	assert.Contains(t, p.Reasons, "oversubscribed (4 processes on vm, which has 2 CPUs (figures check correctness, not speed))")
}

// TestRingPathsPage: beff-ring-paths is read back and the run page shows
// it as a table; a line that does not parse is refused with its key.
func TestRingPathsPage(t *testing.T) {
	text := handRun().text()
	with := strings.Replace(text, "beff-mode:", "beff-ring-paths: ring2 node=2; ring4 switch=1 spine=1\nbeff-mode:", 1)
	ps := mustFold(t, with)
	require.Len(t, ps, 1)
	assert.Equal(t, []beff.PatternPaths{{Name: "ring2", Count: map[string]int{"node": 2}}, {Name: "ring4", Count: map[string]int{"switch": 1, "spine": 1}}},
		ps[0].Run.Config.RingPaths)
	html, err := New().Section(ps[0])
	require.NoError(t, err)
	assert.Contains(t, string(html), `<tr><td>ring4</td><td class="num">0</td><td class="num">1</td><td class="num">1</td><td class="num">0</td></tr>`)
	plain, err := New().Section(mustFold(t, text)[0])
	require.NoError(t, err)
	assert.NotContains(t, string(plain), "beff-ring-paths", "one host: no table")

	_, err = readText(strings.Replace(text, "beff-mode:", "beff-ring-paths: ring9 node=1\nbeff-mode:", 1), "in.txt")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "beff-ring-paths")
}

// TestOneProcess: a run on one process (beff no longer starts one; older
// files and edited ones may hold one) is NOT VALID: nothing was
// communicated.
func TestOneProcess(t *testing.T) {
	s := synth{n: 1, sizes: beff.Sizes(65536), random: 1, mode: "full",
		meas: func(string, int64, beff.Method) (meas, bool) { return meas{mbps: 100, msLoop: 1, looplen: 10}, true }}
	p := mustFold(t, s.text())[0]
	assert.False(t, p.Valid())
	assert.Equal(t, []string{NoteOneProcess}, p.Reasons)
	assert.Contains(t, p.Notes, "1 process: no communication measured")
}
