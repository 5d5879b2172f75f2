package fold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/beff-suite/beff/internal/fuzzcount"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
	"github.com/beff-suite/beff/suites/congestion"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A synth is a congestion run written by the test: its configuration
// lines and, per line name, its value (the canaries' quantiles follow
// from it).
type synth struct {
	config map[string]string
	plan   congestion.Plan
	value  func(name string) float64
	skip   string // a line left out
}

// newSynth is a run of 6 processes on 3 nodes, 2 repetitions, the three
// canaries beside incast and alltoall together; every value 10.
func newSynth() *synth {
	s := &synth{plan: congestion.Plan{Canaries: congestion.CanaryNames, Congestors: []string{"incast", "alltoall"},
		Mix: congestion.MixTogether, Reps: 2, Time: 1}, value: func(string) float64 { return 10 }}
	s.config = map[string]string{
		"mpi-procs": "6", "beff-mode": "full", "mpi-oversubscribed": "no",
		congestion.KeyMode: congestion.ModeCanaries, congestion.KeyTime: "1", congestion.KeyReps: "2",
		congestion.KeyCanaries: "rr-lat,rr-bw,allreduce", congestion.KeyCongestors: "incast,alltoall",
		congestion.KeyMix: "together", congestion.KeyNodes: "3", congestion.KeySplit: "procs",
		congestion.KeyCanaryProcs: "2", congestion.KeyCanaryNodes: "2", congestion.KeySetProcs: "2,2",
		congestion.KeySetNodes: "2,2", congestion.KeyLen: "4096", congestion.KeyBwLen: "131072",
		congestion.KeyMinLoad: "0.25", congestion.KeySeed: "1", congestion.KeyPlan: "20",
		congestion.KeySplitDetails: "canaries on a,b",
	}
	return s
}

func (s *synth) text() string {
	var b strings.Builder
	for k, v := range s.config {
		fmt.Fprintf(&b, "%s: %s\n", k, v)
	}
	for _, u := range congestion.ID.Units {
		fmt.Fprintf(&b, "Unit %s\n", u)
	}
	for _, n := range s.plan.Names() {
		if n == s.skip {
			continue
		}
		v := s.value(n)
		fmt.Fprintf(&b, "Benchmark%s/%s 1", congestion.Bench, n)
		if strings.HasPrefix(n, "congestor=") {
			fmt.Fprintf(&b, " %g MB/s 2 procs 100 calls 1 s\n", v)
			continue
		}
		bw := strings.HasPrefix(n, "canary=rr-bw/")
		unit := "us"
		if bw {
			unit = "MB/s"
		}
		fmt.Fprintf(&b, " %g %s", v, unit)
		for i, q := range congestion.Quantiles {
			x := v * float64(i+1)
			if bw {
				x = v / float64(i+1)
			}
			fmt.Fprintf(&b, " %g %s", x, congestion.QuantileMetric(q, bw))
		}
		if bw {
			fmt.Fprintf(&b, " %g min-MB/s", v/10)
		} else {
			fmt.Fprintf(&b, " %g max-us", v*10)
		}
		fmt.Fprintf(&b, " 1000 samples 1 s\n")
	}
	return b.String()
}

// fold reads and folds the run.
func (s *synth) fold(t *testing.T) (*Folded, error) {
	t.Helper()
	f, err := results.Read(strings.NewReader(s.text()), "c.txt", []results.Suite{New()})
	if err != nil {
		return nil, err
	}
	runs := f.RunsOf(New())
	require.Len(t, runs, 1)
	return Fold(runs[0])
}

func TestFoldCIF(t *testing.T) {
	s := newSynth()
	s.value = func(n string) float64 {
		switch n {
		case "canary=rr-lat/load=congested/rep=1":
			return 30
		case "canary=rr-lat/load=congested/rep=2":
			return 20
		case "canary=rr-bw/load=congested/rep=1", "canary=rr-bw/load=congested/rep=2":
			return 4 // of 10: CIF 2.5
		case "congestor=incast/load=rr-bw/rep=1", "congestor=incast/load=rr-bw/rep=2":
			return 3 // of 10: share 0.3
		}
		return 10
	}
	p, err := s.fold(t)
	require.NoError(t, err)
	assert.True(t, p.Valid(), "reasons: %v", p.Reasons)
	lat := p.Canaries[0]
	assert.Equal(t, "rr-lat", lat.Canary)
	assert.Equal(t, Spread{2.5, 2, 3}, lat.CIF, "median and range of 3 and 2")
	assert.Equal(t, Spread{2.5, 2, 3}, lat.CIFP99, "the p99 scales alike")
	bw := p.Canaries[1]
	assert.InDelta(t, 2.5, bw.CIF.Median, 1e-12, "bandwidth: isolated over congested")
	assert.Equal(t, "MB/s", bw.Unit)
	assert.InDelta(t, 0.3, p.Congestors[1].Share.Median, 1e-12)
	assert.Empty(t, p.Notes, "0.3 is above the least load of 0.25")
	assert.Equal(t, "incast", p.Congestors[1].Congestor)
	assert.Equal(t, "rr-bw", p.Congestors[1].Load)
	largest := p.Figures()[0]
	assert.Equal(t, FigureLargest, largest.Name)
	assert.InDelta(t, 2.5, largest.Value, 1e-12)
	var names []string
	for _, f := range p.Figures() {
		names = append(names, f.Name)
		assert.NotRegexp(t, `-\d+$`, f.Name, "no name ends in -<digits>")
	}
	assert.Contains(t, names, "cif-p99-allreduce")
	assert.Contains(t, names, "alltoall-rr-lat")
}

func TestFoldVerdict(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(s *synth)
		reason string
		note   string
	}{
		{"a congestor that did not load", func(s *synth) {
			s.value = func(n string) float64 {
				if strings.HasPrefix(n, "congestor=alltoall/load=allreduce/") {
					return 2
				}
				return 10
			}
		}, "the alltoall congestor delivered 2.00 MB/s beside the allreduce canary, 0.200 of the 10.0 MB/s it delivered without canaries (less than the 0.25 asked)", ""},
		{"the bandwidth canary is a note", func(s *synth) {
			s.value = func(n string) float64 {
				switch {
				case strings.HasPrefix(n, "congestor=alltoall/load=rr-bw/"):
					return 1
				case strings.HasPrefix(n, "congestor=incast/load=rr-lat/"):
					return 2
				}
				return 10
			}
		}, "the incast congestor delivered 2.00 MB/s beside the rr-lat canary", "beside the rr-bw canary the alltoall congestor delivered 0.100 of its 10.0 MB/s without it"},
		{"one node", func(s *synth) {
			s.config[congestion.KeyNodes], s.config[congestion.KeyCanaryNodes], s.config[congestion.KeySetNodes] = "1", "1", "1,1"
		},
			"on 1 node: congestion needs at least 3 nodes", "the canaries ran on one node"},
		{"short", func(s *synth) { s.config["beff-mode"] = "short (quick check, not a valid result)" }, results.ShortReason, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSynth()
			tc.edit(s)
			p, err := s.fold(t)
			require.NoError(t, err)
			assert.False(t, p.Valid())
			assert.Contains(t, strings.Join(p.Reasons, "; "), tc.reason)
			if tc.note != "" {
				assert.Contains(t, strings.Join(p.Notes, "; "), tc.note)
			}
		})
	}
}

func TestFoldEach(t *testing.T) {
	s := newSynth()
	s.plan.Mix = congestion.MixEach
	s.config[congestion.KeyMix] = "each"
	s.config[congestion.KeySetProcs], s.config[congestion.KeySetNodes] = "4", "3"
	p, err := s.fold(t)
	require.NoError(t, err)
	require.Len(t, p.Canaries, 6, "3 canaries × 2 congestors")
	assert.Equal(t, "incast", p.Canaries[0].Load)
	assert.Contains(t, strings.Join(p.Notes, ";"), "one at a time")
	var names []string
	for _, f := range p.Figures() {
		names = append(names, f.Name)
	}
	assert.Contains(t, names, "cif-rr-lat-alltoall")
	assert.Contains(t, names, "rr-lat-alltoall-loaded")
}

func TestFoldCongestorsOnly(t *testing.T) {
	s := newSynth()
	s.plan = congestion.Plan{Congestors: []string{"incast", "alltoall"}, Mix: congestion.MixTogether, Only: true, Reps: 2, Time: 1}
	s.config[congestion.KeyMode] = congestion.ModeCongestorsOnly
	for _, k := range []string{congestion.KeyCanaries, congestion.KeySplit, congestion.KeyCanaryProcs, congestion.KeyCanaryNodes, congestion.KeyBwLen} {
		delete(s.config, k)
	}
	s.config[congestion.KeySetProcs] = "3,3"
	p, err := s.fold(t)
	require.NoError(t, err)
	assert.Empty(t, p.Canaries)
	require.Len(t, p.Congestors, 2)
	assert.Equal(t, congestion.LoadTogether, p.Congestors[0].Load)
	var b bytes.Buffer
	require.NoError(t, p.WriteText(&b))
	assert.True(t, strings.HasPrefix(b.String(), "congestion: congestors only"))
}

func TestFoldRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(s *synth)
		want string
	}{
		{"a line missing", func(s *synth) { s.skip = "canary=rr-bw/load=congested/rep=2" }, "missing 1 of the 28 lines"},
		{"processes that do not add up", func(s *synth) { s.config[congestion.KeySetProcs] = "2,3" }, "7 processes in all, but the job has 6"},
		{"a set too many", func(s *synth) { s.config[congestion.KeySetProcs] = "1,1,2" }, "3 values, want 2"},
		{"an unknown canary", func(s *synth) { s.config[congestion.KeyCanaries] = "rr-lat,ping" }, `unknown name "ping"`},
		{"repetitions beyond reason", func(s *synth) { s.config[congestion.KeyReps] = "100000" }, "more than 1000"},
		{"a mix unknown", func(s *synth) { s.config[congestion.KeyMix] = "both" }, `"both"`},
		{"more nodes than the hosts", func(s *synth) { s.config["mpi-hosts"] = "a (3), b (3)" },
			"congestion-nodes: 3 nodes, but mpi-hosts names 2: the configuration contradicts itself"},
		{"quantiles out of order", func(s *synth) {
			s.value = func(n string) float64 {
				if n == "canary=allreduce/load=isolated/rep=1" {
					return -1
				}
				return 10
			}
		}, "not a positive number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSynth()
			tc.edit(s)
			_, err := s.fold(t)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "c.txt", "names the file")
		})
	}
}

func TestParseLineRefuses(t *testing.T) {
	good := "BenchmarkCongestion/canary=rr-lat/load=isolated/rep=1 1 10 us 10 p50-us 20 p90-us 30 p99-us 40 p99.9-us 100 max-us 1000 samples 1 s"
	for _, tc := range []struct{ line, want string }{
		{strings.Replace(good, "20 p90-us", "5 p90-us", 1), "out of order"},
		{strings.Replace(good, "100 max-us", "39 max-us", 1), "out of order"},
		{strings.Replace(good, "1000 samples", "10.5 samples", 1), "not a whole number"},
		{strings.Replace(good, " 10 us", " 2 us", 1), "its mean 2 us is impossible beside its quantiles [10 20 30 40] and its extreme 100 (1000 samples)"},
		{strings.Replace(good, " 10 us", " 20 us", 1), "its mean 20 us is impossible beside its quantiles"},
		{strings.Replace(good, "load=isolated", "load=rr-bw", 1), "not a load of rr-lat"},
		{strings.Replace(good, "rep=1", "rep=0", 1), "not a repetition"},
		{strings.Replace(good, " 1000 samples", "", 1), "no samples metric"},
		{strings.Replace(good, "canary=rr-lat", "canary=ping", 1), "no such canary"},
		{strings.Replace(good, "/rep=1", "", 1), "not a congestion measurement name"},
	} {
		s := newSynth()
		text := strings.Split(s.text(), "Benchmark")[0] + tc.line + "\n"
		_, err := results.Read(strings.NewReader(text), "c.txt", []results.Suite{New()})
		if assert.Error(t, err, tc.line) {
			assert.Contains(t, err.Error(), tc.want, tc.line)
		}
	}
	// the bounds of the mean: at least 6.1 µs, at most 16.2 µs
	for _, mean := range []string{" 6.2 us", " 16.1 us"} {
		s := newSynth()
		text := strings.Split(s.text(), "Benchmark")[0] + strings.Replace(good, " 10 us", mean, 1) + "\n"
		_, err := results.Read(strings.NewReader(text), "c.txt", []results.Suite{New()})
		assert.NoError(t, err, mean)
	}
	// a bandwidth canary's mean is checked as the time it stands for
	bw := "BenchmarkCongestion/canary=rr-bw/load=isolated/rep=1 1 10 MB/s 10 p50-MB/s 5 p90-MB/s 3 p99-MB/s 2 p99.9-MB/s 1 min-MB/s 1000 samples 1 s"
	for mean, ok := range map[string]bool{" 10 MB/s": true, " 30 MB/s": false, " 2 MB/s": false} {
		s := newSynth()
		text := strings.Split(s.text(), "Benchmark")[0] + strings.Replace(bw, " 10 MB/s", mean, 1) + "\n"
		_, err := results.Read(strings.NewReader(text), "c.txt", []results.Suite{New()})
		assert.Equal(t, ok, err == nil, "%s: %v", mean, err)
	}
	// the bin's half: a quantile may lie up to half a bin beyond the slowest sample
	s := newSynth()
	text := strings.Split(s.text(), "Benchmark")[0] + strings.Replace(good, "100 max-us", "39.9 max-us", 1) + "\n"
	_, err := results.Read(strings.NewReader(text), "c.txt", []results.Suite{New()})
	assert.NoError(t, err)
}

func TestJSONAndPlot(t *testing.T) {
	p, err := newSynth().fold(t)
	require.NoError(t, err)
	d := p.JSONDetail().(JSONCongestion)
	assert.Len(t, d.Canaries, 3)
	assert.Len(t, d.Congestors, 6)
	assert.Equal(t, "together", d.Mix)
	pd := newPlotData(p)
	assert.Equal(t, []string{"p50", "p90", "p99", "p99.9", "slowest"}, pd.Points)
	require.Len(t, pd.Canaries, 3)
	assert.Equal(t, []string{"isolated", "congested"}, []string{pd.Canaries[0].Loads[0].Load, pd.Canaries[0].Loads[1].Load})
	assert.InDelta(t, 40.0, float64(pd.Canaries[0].Loads[0].Values[3]), 1e-9, "rr-lat's p99.9")
	assert.False(t, math.IsNaN(float64(pd.Canaries[1].Loads[1].Values[4])))
}

// FuzzFold: the reader and the fold take any file: they fold it or refuse
// it with an error, never panic, and a folded run writes its protocol.
func FuzzFold(f *testing.F) {
	f.Add([]byte(newSynth().text()))
	s := newSynth()
	s.plan.Mix, s.config[congestion.KeyMix], s.config[congestion.KeySetProcs], s.config[congestion.KeySetNodes] = congestion.MixEach, "each", "4", "3"
	f.Add([]byte(s.text()))
	f.Add([]byte(newSynth().text() + "BenchmarkCongestion/clock=run 1 3 clock-err-us 1 clock-err-med-us -2 drift-min-ppm 4 drift-max-ppm 6 syncs 3 rounds 0.01 sync-s\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcount.One()
		resultstest.FoldEach(t, New(), data, func(p results.Folded) { newPlotData(p.(*Folded)) })
	})
}

// TestFoldClocks: the line of the run's clocks is no measurement of the
// plan, no experiment to compare; the fold says it in a note and the
// JSON; a second one is refused.
func TestFoldClocks(t *testing.T) {
	s := newSynth()
	line := "BenchmarkCongestion/clock=run 1 3 clock-err-us 1 clock-err-med-us -2 drift-min-ppm 4 drift-max-ppm 6 syncs 3 rounds 0.01 sync-s\n" // 6 processes: 3 rounds
	f, err := results.Read(strings.NewReader(s.text()+line), "c.txt", []results.Suite{New()})
	require.NoError(t, err)
	runs := f.RunsOf(New())
	require.Len(t, runs, 1)
	p, err := Fold(runs[0])
	require.NoError(t, err)
	require.NotNil(t, p.Clock)
	assert.InDelta(t, 3e-6, p.Clock.Err, 1e-12)
	assert.Contains(t, strings.Join(p.Notes, "\n"), "clocks: model error over the run 3.000 µs largest")
	for _, e := range New().Experiments(runs[0]) {
		assert.NotContains(t, e.Name, "clock", "an experiment of the clocks")
	}
	raw, err := json.Marshal(p.JSONDetail())
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"clocks":{"err_us":3,`)
	f, err = results.Read(strings.NewReader(s.text()+line+line), "c.txt", []results.Suite{New()})
	if err == nil { // the second line starts a run of its own, which lacks its plan
		for _, r := range f.RunsOf(New()) {
			if _, err = Fold(r); err != nil {
				break
			}
		}
	}
	assert.Error(t, err, "two lines of the clocks")
}
