package fold

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/fuzzcount"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
	"github.com/beff-suite/beff/suites/links"
)

// synth writes a run of n nodes as the driver does: its configuration,
// a line per pair (full), the suspects' second measurements (again, of
// the values the first gave) and a line per member, the links'
// bandwidth bw(a, b) with a few percent of noise and a latency of 2 µs.
type synth struct {
	n     int
	full  bool
	bw    func(a, b int) float64
	skip  string                  // a line left out
	again func(v float64) float64 // a suspect's bandwidth the second time; nil: the same
	multi []int                   // the multi-pair ks: a node pair's aggregate is k·bw at k
}

// plan is the plan of the run's settings.
func (s synth) plan() links.Plan {
	meas := links.DefaultSettings
	meas.LatReps, meas.MultiKs = 100, s.multi
	return links.NewPlan(s.n, meas)
}

func (s synth) text() string {
	var b strings.Builder
	matrix := links.MatrixMembers
	if s.full {
		matrix = links.MatrixFull
	}
	plan := s.plan()
	for _, kv := range [][2]string{{"mpi-procs", fmt.Sprint(2 * s.n)}, {"beff-mode", "full"}, {links.KeyLevel, links.LevelNodes},
		{links.KeyMembers, fmt.Sprint(s.n)}, {links.KeyIdle, fmt.Sprint(s.n)}, {links.KeyLatReps, "100"}, {links.KeyLen, "1048576"},
		{links.KeyReps, "16"}, {links.KeyCap, "0.05"}, {links.KeyRounds, fmt.Sprint(plan.Rounds)}, {links.KeyPlan, fmt.Sprint(math.Ceil(s.plan().Seconds))}, {links.KeyMatrix, matrix}, {links.KeyPairs, links.PairsAtOnce}, {links.KeyMultiK, links.FormatKs(s.multi)}} {
		fmt.Fprintf(&b, "%s: %s\n", kv[0], kv[1])
	}
	for _, u := range links.ID.Units {
		fmt.Fprintf(&b, "Unit %s\n", u)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	own := make([][]links.Own, s.n)
	var lat, bw []links.Link
	for a := range s.n {
		for c := a + 1; c < s.n; c++ {
			v := s.bw(a, c) * (1 + 0.04*(rng.Float64()-0.5))
			l := links.Own{Lat: 2, Fw: v, Bk: v * 1.01, Both: 2 * v}
			la, lc := l, l
			la.To, lc.To = c, a
			own[a], own[c] = append(own[a], la), append(own[c], lc)
			lat, bw = append(lat, links.Link{A: a, B: c, Value: l.Lat}), append(bw, links.Link{A: a, B: c, Value: min(l.Fw, l.Bk)})
			if s.full && links.PairName(a, c) != s.skip {
				fmt.Fprintf(&b, "BenchmarkLinks/%s 1 %g us %g MB/s %g back-MB/s %g both-MB/s\n", links.PairName(a, c), l.Lat, l.Fw, l.Bk, l.Both)
			}
		}
	}
	for _, p := range links.Suspects(s.n, lat, bw) {
		if !s.full {
			break
		}
		v := bw[slices.IndexFunc(bw, func(l links.Link) bool { return l.A == p[0] && l.B == p[1] })].Value
		if s.again != nil {
			v = s.again(v)
		}
		fmt.Fprintf(&b, "BenchmarkLinks/%s 1 2 us %g MB/s %g back-MB/s %g both-MB/s\n", links.RecheckName(p[0], p[1]), v, v, 2*v)
	}
	for _, k := range s.multi {
		for a := range s.n {
			if c := links.Partner(s.n, 0, a); c > a {
				v := float64(k) * s.bw(a, c)
				fmt.Fprintf(&b, "BenchmarkLinks/%s 1 %g MB/s %g both-MB/s %g msg/s %g both-msg/s\n", links.MultiName(k, a, c), v, 1.9*v, float64(k)*1e6, float64(k)*1.8e6)
			}
		}
	}
	for i, ls := range own {
		m := links.Summarize(ls)
		fmt.Fprintf(&b, "BenchmarkLinks/%s 1 %g us %g MB/s %g both-MB/s %g worst-us %g min-MB/s %d worst-us-to %d min-MB/s-to %g mad-us %g mad-MB/s %d links\n",
			links.MemberName(fmt.Sprintf("node-%02d", i), "", i), m.Lat, m.Bw, m.Both, m.WorstLat, m.MinBw, m.WorstLatTo, m.MinBwTo, m.MADLat, m.MADBw, m.Links)
	}
	return b.String()
}

func (s synth) fold(t *testing.T) (*Folded, error) {
	t.Helper()
	return synthFold(t, s.text())
}

func synthFold(t *testing.T, text string) (*Folded, error) {
	t.Helper()
	f, err := results.Read(strings.NewReader(text), "l.txt", []results.Suite{New()})
	if err != nil {
		return nil, err
	}
	runs := f.RunsOf(New())
	require.Len(t, runs, 1)
	return Fold(runs[0])
}

func uniform(a, b int) float64 { return 1000 }

// TestFoldUniform: a uniform machine folds to nothing slow, with the
// medians as its figures, whether the run has every pair or a line per
// member.
func TestFoldUniform(t *testing.T) {
	for _, full := range []bool{true, false} {
		p, err := synth{n: 6, full: full, bw: uniform}.fold(t)
		require.NoError(t, err)
		assert.Empty(t, p.Findings, "full=%v", full)
		assert.True(t, p.Valid())
		assert.InDelta(t, 1000, p.Bw, 25)
		assert.InDelta(t, 2, p.Lat, 1e-9)
		assert.Equal(t, "links: 6 nodes, 15 links: nothing slow", p.head())
		var out strings.Builder
		require.NoError(t, p.WriteText(&out))
		assert.Contains(t, out.String(), "no slow node, no slow link")
		assert.Contains(t, out.String(), "node-05")
	}
}

// TestFoldSlowNodeAndLink: a node at a quarter is named as a node; one
// slow pair as a link; from the pairs and from the members' lines alike.
func TestFoldSlowNodeAndLink(t *testing.T) {
	node := func(a, b int) float64 {
		if a == 3 || b == 3 {
			return 250
		}
		return 1000
	}
	link := func(a, b int) float64 {
		if a == 1 && b == 4 {
			return 300
		}
		return 1000
	}
	for _, full := range []bool{true, false} {
		p, err := synth{n: 10, full: full, bw: node}.fold(t)
		require.NoError(t, err)
		require.Len(t, p.Findings, 1, "full=%v", full)
		assert.Equal(t, "bandwidth", p.Findings[0].Figure)
		assert.Regexp(t, `^slow node node-03: bandwidth 2\d % of the median of the nodes`, p.Findings[0].Line)
		p, err = synth{n: 10, full: full, bw: link}.fold(t)
		require.NoError(t, err)
		require.Len(t, p.Findings, 1, "full=%v", full)
		assert.Regexp(t, `^slow link node-01–node-04: bandwidth 3\d % of the median of its nodes' links`, p.Findings[0].Line)
	}
}

// TestFoldRecheck: a suspect link that was fast the second time is not
// named (noise); one whose second measurement is missing, or a second
// measurement of a link no verdict suspected, does not fold.
func TestFoldRecheck(t *testing.T) {
	link := func(a, b int) float64 {
		if a == 1 && b == 4 {
			return 300
		}
		return 1000
	}
	s := synth{n: 10, full: true, bw: link, again: func(float64) float64 { return 990 }}
	p, err := s.fold(t)
	require.NoError(t, err)
	assert.Empty(t, p.Findings, "fast the second time")
	require.Len(t, p.Again, 1)
	assert.Equal(t, [2]int{1, 4}, [2]int{p.Again[0].A, p.Again[0].B})
	assert.Contains(t, p.Notes, "1 suspect link measured again, 1 of them fast the second time: not named")
	text := s.text()
	cut := regexp.MustCompile(`(?m)^BenchmarkLinks/pass=2/.*\n`).ReplaceAllString(text, "")
	_, err = results.Read(strings.NewReader(cut), "l.txt", []results.Suite{New()})
	require.NoError(t, err)
	p, err = synthFold(t, cut)
	assert.ErrorContains(t, err, "0 pairs measured again, but the first measurements name 1 suspects")
	other := strings.Replace(text, "pass=2/a=1/b=4", "pass=2/a=2/b=4", 1)
	_, err = synthFold(t, other)
	assert.ErrorContains(t, err, "pair 2–4 measured again is not a suspect")
}

// TestFoldRefusesIncomplete: a run without one of its pairs, or of its
// members, does not fold.
func TestFoldRefusesIncomplete(t *testing.T) {
	_, err := synth{n: 6, full: true, bw: uniform, skip: links.PairName(2, 5)}.fold(t)
	assert.ErrorContains(t, err, "links: 14 pairs of the 15 of 6 members")
	s := synth{n: 6, full: false, bw: uniform}
	text := s.text()
	cut := strings.Replace(text, "BenchmarkLinks/host=node-04/member=4 ", "BenchmarkLinks/host=node-04/member=9 ", 1)
	f, err := results.Read(strings.NewReader(cut), "l.txt", []results.Suite{New()})
	require.NoError(t, err)
	_, err = Fold(f.RunsOf(New())[0])
	assert.ErrorContains(t, err, "member 9 of 6")
}

// TestFoldRefusesEdits: a member's line that does not say what its pairs
// do, a pair written twice (its second line starts another run: the
// first misses a pair) and a member on two hosts are refused.
func TestFoldRefusesEdits(t *testing.T) {
	text := synth{n: 6, full: true, bw: uniform}.text()
	for _, c := range []struct{ edited, want string }{
		{regexp.MustCompile(`(BenchmarkLinks/host=node-02/member=2 1 )[0-9.e+]+ us`).ReplaceAllString(text, "${1}9 us"), "member 2's latency is 9, its pairs' 2: the file was edited"},
		{strings.Replace(text, "BenchmarkLinks/a=0/b=1 ", "BenchmarkLinks/a=0/b=2 ", 1), "links: 14 pairs of the 15 of 6 members"},
		{strings.Replace(text, "BenchmarkLinks/host=node-03/member=3 ", "BenchmarkLinks/host=node-03/member=2 ", 1), "links: member 2 twice, on two hosts"},
	} {
		f, err := results.Read(strings.NewReader(c.edited), "l.txt", []results.Suite{New()})
		require.NoError(t, err)
		_, err = Fold(f.RunsOf(New())[0])
		assert.ErrorContains(t, err, c.want)
	}
}

// TestJSON: the detail holds the findings, the members and the pairs.
func TestJSON(t *testing.T) {
	p, err := synth{n: 4, full: true, bw: uniform}.fold(t)
	require.NoError(t, err)
	d := p.JSONDetail().(JSONLinks)
	assert.Equal(t, 4, d.Members)
	assert.Len(t, d.Nodes, 4)
	assert.Len(t, d.Pairs, 6)
	assert.Empty(t, d.Findings)
}

// TestFoldOversubscribed: a run with more processes than cores is not
// valid: its verdicts would weigh the scheduler.
func TestFoldOversubscribed(t *testing.T) {
	text := "mpi-oversubscribed: yes: 12 processes on 2 cores\n" + synth{n: 6, full: true, bw: uniform}.text()
	f, err := results.Read(strings.NewReader(text), "l.txt", []results.Suite{New()})
	require.NoError(t, err)
	p, err := Fold(f.RunsOf(New())[0])
	require.NoError(t, err)
	assert.False(t, p.Valid())
	assert.Contains(t, strings.Join(p.Reasons, "; "), "its verdicts weigh the scheduler, not the links")
}

// TestFoldMulti: the multi-pair lines fold to a row per k, medians over
// the node pairs, the least pair named; a line missing or of another k
// does not fold.
func TestFoldMulti(t *testing.T) {
	node := func(a, b int) float64 {
		if a == 3 || b == 3 {
			return 250
		}
		return 1000
	}
	s := synth{n: 10, full: true, bw: node, multi: []int{1, 2, 4}}
	p, err := s.fold(t)
	require.NoError(t, err)
	require.Len(t, p.Multi, 3)
	for i, k := range []int{1, 2, 4} {
		r := p.Multi[i]
		assert.Equal(t, k, r.K)
		assert.Equal(t, 5, r.Pairs)
		assert.InDelta(t, float64(k)*1000, r.MBps, 1e-9)
		assert.InDelta(t, 1.9*float64(k)*1000, r.Both, 1e-9)
		assert.InDelta(t, float64(k)*1e6, r.Rate, 1e-6)
		assert.InDelta(t, float64(k)*250, r.MinMBps, 1e-9, "the node pair with node 3")
		assert.Equal(t, 3, r.MinA+r.MinB-links.Partner(10, 0, 3), "node 3 is in the least pair")
	}
	var out strings.Builder
	require.NoError(t, p.WriteText(&out))
	assert.Contains(t, out.String(), "multi-pair")
	text := s.text()
	cut := regexp.MustCompile(`(?m)^BenchmarkLinks/k=2/a=0/.*\n`).ReplaceAllString(text, "")
	_, err = synthFold(t, cut)
	assert.ErrorContains(t, err, "14 multi-pair lines of the 15")
	other := strings.Replace(text, "BenchmarkLinks/k=2/a=0/", "BenchmarkLinks/k=3/a=0/", 1)
	_, err = synthFold(t, other)
	assert.ErrorContains(t, err, "not a k and a node pair of the run")
}

// FuzzFold: the reader and the fold take any file: they fold it or refuse
// it with an error, never panic, and a folded run writes its protocol,
// its JSON and its pages' data.
func FuzzFold(f *testing.F) {
	link := func(a, b int) float64 {
		if a == 1 && b == 4 {
			return 300
		}
		return 1000
	}
	f.Add([]byte(synth{n: 6, full: true, bw: link, multi: []int{1, 2}}.text()))
	f.Add([]byte(synth{n: 5, full: false, bw: uniform}.text()))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcount.One()
		resultstest.FoldEach(t, New(), data, func(f results.Folded) {
			p := f.(*Folded)
			newPlotData(p)
			if _, err := p.heatMaps(p.heatOrder()); err != nil {
				t.Fatal(err)
			}
		})
	})
}

// TestFoldRefusesContradictions: a plan that is not the plan of the
// run's settings, and a host under two switches, are refused.
func TestFoldRefusesContradictions(t *testing.T) {
	s := synth{n: 6, full: true, bw: uniform}
	text := s.text()
	want := fmt.Sprint(math.Ceil(s.plan().Seconds))
	_, err := synthFold(t, strings.Replace(text, links.KeyPlan+": "+want, links.KeyPlan+": 1", 1))
	assert.ErrorContains(t, err, "but the run's settings plan "+want+" s")
	procs := strings.NewReplacer(links.KeyLevel+": nodes", links.KeyLevel+": procs", "mpi-procs: 12", "mpi-procs: 6",
		"host=node-01/member=1", "host=node-00/switch=s1/member=1", "host=node-00/member=0", "host=node-00/switch=s0/member=0").Replace(text)
	_, err = synthFold(t, procs)
	assert.ErrorContains(t, err, "host node-00 under two switches")
}
