package fold

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
	"github.com/beff-suite/beff/suites/beffio"
)

// An ioSynth describes a synthetic BenchmarkBeffIO output. Every call moves
// one memory chunk L (reps = 1 for every pattern, so that the segment size
// follows from the table: r3 = min(1·L0/l, 10·1, 1) = 1), every pattern of
// a type has the type's bandwidth bw(n, a, t), and the type total is the
// sum of its patterns (so its MB/s is bw too).
type ioSynth struct {
	n          int
	partitions []int
	t          string // beffio-t-s
	mode       string // beff-mode
	memMiB     int64  // beffio-mem-per-proc-mib; MPART follows from it
	totalMiB   string // beffio-totalmem-mib, "" for none
	cacheMiB   string // beffio-cache-mib, "" for none
	rewrite    beffio.RewriteMode
	rules      beffio.Rules // beffio-rules, "" for none
	// deleteFactor > 0 adds delete-s = deleteFactor · s to the read totals.
	deleteFactor float64
	bw           func(n int, a beffio.Access, t beffio.PatternType) float64
	// errors are the validation errors of a read pattern line; sharedfp
	// the sharedfp metric of a type-shared pattern line.
	errors   func(n int, p beffio.AccessPattern) int64
	sharedfp func(n int, a beffio.Access, p beffio.AccessPattern) int
}

// ioHand is the run computed by hand in TestFoldByHand.
func ioHand() ioSynth {
	f := map[beffio.PatternType]float64{beffio.Scatter: 2, beffio.Shared: 1, beffio.Separated: 2, beffio.Segmented: 1, beffio.SegColl: 1}
	base := map[beffio.Access]float64{beffio.Write: 20, beffio.Rewrite: 15, beffio.Read: 80}
	return ioSynth{
		n: 2, partitions: []int{1, 2}, t: "1800", mode: "full",
		memMiB: 128, totalMiB: "256", cacheMiB: "4", rewrite: beffio.RewriteAll,
		bw: func(n int, a beffio.Access, t beffio.PatternType) float64 { return float64(n) * base[a] * f[t] },
	}
}

func (s ioSynth) config() string {
	var b strings.Builder
	fmt.Fprintf(&b, "beff-version: 0.1.0\ndate: 2026-11-22T10:00:00Z\nmpi-library: synthetic\nmpi-procs: %d\nmpi-hosts: vm (%d)\nbeff-mode: %s\n",
		s.n, s.n, s.mode)
	fmt.Fprintf(&b, "beffio-t-s: %s\nbeffio-partitions: %s\nbeffio-mem-per-proc-mib: %d\nbeffio-mpart: %d\n",
		s.t, results.JoinInts(s.partitions), s.memMiB, beffio.MPART(s.memMiB))
	if s.totalMiB != "" {
		fmt.Fprintf(&b, "beffio-totalmem-mib: %s\n", s.totalMiB)
	}
	if s.cacheMiB != "" {
		fmt.Fprintf(&b, "beffio-cache-mib: %s\n", s.cacheMiB)
	}
	if s.rules != "" {
		fmt.Fprintf(&b, "beffio-rules: %s\n", s.rules)
	}
	fmt.Fprintf(&b, "beffio-dir: /scratch/beffio\nbeffio-rewrite: %s\nbeffio-stop: geometric\nbeffio-dropcaches: off\n", s.rewrite)
	b.WriteString("Unit MB/s better=higher\nUnit reps assume=exact\nUnit s better=lower\ngoos: linux\ngoarch: amd64\npkg: github.com/beff-suite/beff\n")
	return b.String()
}

func g(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// lines returns the benchmark lines in the harness's order: each access
// method over all partitions, per type its patterns and its total, then
// the phase.
func (s ioSynth) lines() []string {
	mpart := beffio.MPART(s.memMiB)
	table := beffio.Table(mpart)
	ones := map[int]int64{}
	for no := 0; no < 25; no++ {
		ones[no] = 1
	}
	_, lseg, err := beffio.SegmentReps(table, ones)
	if err != nil {
		panic(err)
	}
	var fill int64 = lseg // per process: the segment minus the other patterns
	for _, p := range table {
		if p.Type == beffio.Segmented && !p.Fill {
			fill -= p.L
		}
	}
	var out []string
	line := func(k beffio.Key, metrics string, sec float64) {
		out = append(out, fmt.Sprintf("BenchmarkBeffIO/%s \t       1\t%.0f ns/op\t%s", k, sec*1e9, metrics))
	}
	for _, a := range beffio.Accesses {
		for _, n := range s.partitions {
			phase := s.phaseOverhead() // open, close, barriers, the time-driven waits
			for _, t := range beffio.Types {
				if !s.rewrite.Scheduled(a, t) {
					continue
				}
				bw := s.bw(n, a, t)
				var totMB, totS float64
				for _, p := range table {
					if p.Type != t {
						continue
					}
					mem := p.Mem
					if p.Fill {
						mem = fill
					}
					mb := float64(mem*int64(n)) / 1e6
					sec := mb / bw
					totMB += mb
					totS += sec
					m := fmt.Sprintf("%s MB/s\t1 reps\t%s MB\t%.6g s", g(bw), g(mb), sec)
					if a == beffio.Read {
						var e int64
						if s.errors != nil {
							e = s.errors(n, p)
						}
						m += fmt.Sprintf("\t%d errors", e)
					}
					if a == beffio.Write && t <= beffio.Separated {
						m += "\t2 decisions\t0.25 stop-ms"
					}
					if t == beffio.Shared {
						fp := 1
						if s.sharedfp != nil {
							fp = s.sharedfp(n, a, p)
						}
						m += fmt.Sprintf("\t%d sharedfp", fp)
					}
					line(beffio.PatternKey(n, a, p), m, sec)
				}
				tot := fmt.Sprintf("%s MB/s\t%s MB\t%.6g s", g(totMB/totS), g(totMB), totS)
				if a == beffio.Read && s.deleteFactor > 0 {
					tot += fmt.Sprintf("\t%.6g delete-s", s.deleteFactor*totS)
				}
				line(beffio.TotalKey(n, a, t), tot, totS)
				phase += totS
			}
			line(beffio.PhaseKey(n, a), fmt.Sprintf("%.6g s", phase), phase)
		}
	}
	return out
}

// phaseOverhead is the time of an access phase besides its types':
// 0.5 s and a third of the partition's scheduled time, so that the three
// phases of a partition fill its schedule as a real run's do (the fold
// marks a run whose phases took far less than scheduled).
func (s ioSynth) phaseOverhead() float64 {
	t, err := strconv.ParseFloat(s.t, 64)
	if err != nil {
		panic(err)
	}
	return 0.5 + t/float64(len(s.partitions))/3
}

func (s ioSynth) text() string { return s.config() + strings.Join(s.lines(), "\n") + "\nPASS\n" }

// foldText reads text and folds its only b_eff_io run.
func foldText(t *testing.T, text string) (*Folded, error) {
	t.Helper()
	f, err := readText(text, "io.txt")
	if err != nil {
		return nil, err
	}
	require.Len(t, f.Runs, 1)
	return Fold(f.Runs[0])
}

func mustFold(t *testing.T, text string) *Folded {
	t.Helper()
	p, err := foldText(t, text)
	require.NoError(t, err)
	return p
}

// TestFoldByHand folds ioHand: N = 2, partitions 1 and 2, T = 1800 s,
// M = 128 MiB (MPART = 2 MiB), MT = 256 MiB, cache 4 MiB.
//
// Pattern-type bandwidth = n · base(access) · f(type), base = 20, 15, 80
// MB/s for write, rewrite, read, f = 2, 1, 2, 1, 1 for the types 0..4:
//
//	access value  = n · base · (2·2 + 1 + 2 + 1 + 1)/6 = 1.5 · n · base
//	              = 30n (write), 22.5n (rewrite), 120n (read)
//	partition     = 0.25·30n + 0.25·22.5n + 0.5·120n = 73.125n
//	b_eff_io      = max(73.125, 146.25) = 146.25 MB/s on 2 processes
//	2.1 formula   = sqrt((40n + 20n + 40n + 20n + 20n + 30n)/6 · 120n)
//	              = sqrt(3400)·n → 116.62 MB/s on 2 (read without removal)
//
// Data per process and access (reps = 1): type 0 Σ L = 11 MiB + 256 + 8 KiB
// + 8 = 11542792 B; types 1, 2: 5 MiB + 66 KiB + 24 = 5310488 B each;
// types 3, 4: the segment, 5310488 B rounded up to 6 MiB = 6291456 B each
// (fill 980968 B). Per partition n · 34746680 B; over n = 1, 2:
// 104240040 B = 104.24004 MB per access method, 38.8 % of 256 MiB
// (268435456 B) and 24.85× the 4 MiB cache. Total memory / b_eff_io =
// 268.435456 MB / 146.25 MB/s = 1.8355 s = 0.030591 min.
// TestRoundedBandwidth: a bandwidth that testing's two decimals print as
// 0.00 MB/s is taken as MB / s, and folds as the exact one.
func TestRoundedBandwidth(t *testing.T) {
	text := ioEdit(func(l string) []string {
		if strings.HasPrefix(l, "BenchmarkBeffIO/n=1/acc=read/") { // 10^5 times slower
			l = scaleMetric(t, l, "s", 1e5)
			l = scaleMetric(t, l, "MB/s", 1e-5)
		}
		return []string{l}
	})
	require.Contains(t, text, "\t0.00 MB/s")
	p := mustFold(t, text)
	assert.InEpsilon(t, 146.25, p.BeffIO, 1e-5, "b_eff_io")
	assert.InEpsilon(t, 120e-5, p.Partitions[0].Access[beffio.Read], 1e-5)
}

// scaleMetric multiplies the metric unit of line l by f, printed as
// testing prints it (MB/s with two decimals).
func scaleMetric(t *testing.T, l, unit string, f float64) string {
	re := regexp.MustCompile(`\t([0-9.e+-]+) ` + regexp.QuoteMeta(unit) + `(\t|$)`)
	return re.ReplaceAllStringFunc(l, func(m string) string {
		sub := re.FindStringSubmatch(m)
		v, err := strconv.ParseFloat(sub[1], 64)
		require.NoError(t, err)
		if unit == "MB/s" {
			return fmt.Sprintf("\t%.2f %s%s", v*f, unit, sub[2])
		}
		return "\t" + g(v*f) + " " + unit + sub[2]
	})
}

func TestFoldByHand(t *testing.T) {
	p := mustFold(t, ioHand().text())
	assert.InEpsilon(t, 146.25, p.BeffIO, 1e-12, "b_eff_io")
	assert.Equal(t, 2, p.BestN)
	// the reference formula: √((80 + 40 + 80 + 40 + 40 + 60)/6 · 240), the
	// read without removal (not measured)
	assert.InEpsilon(t, math.Sqrt(340.0/6*240), p.Reference, 1e-12, "reference formula")
	assert.Equal(t, 2, p.ReferenceN)
	assert.Equal(t, RemovalNone, p.Removal)
	assert.Equal(t, p.BeffIO, p.Paper)
	assert.InEpsilon(t, 60, p.Access[beffio.Write], 1e-12)
	assert.InEpsilon(t, 45, p.Access[beffio.Rewrite], 1e-12)
	assert.InEpsilon(t, 240, p.Access[beffio.Read], 1e-12)
	require.Len(t, p.Partitions, 2)
	assert.InEpsilon(t, 73.125, p.Partitions[0].Value, 1e-12)
	assert.InEpsilon(t, 146.25, p.Partitions[1].Value, 1e-12)
	assert.InEpsilon(t, math.Sqrt(170.0/6*120), p.Partitions[0].Reference, 1e-12)
	assert.Equal(t, []float64{30, 22.5, 120}, roundAll(p.Partitions[0].Access[:]))
	for _, a := range beffio.Accesses {
		assert.InEpsilon(t, 104.24004, p.Data[a], 1e-12, "data %s", a)
		assert.InEpsilon(t, 104240040.0/268435456*100, p.DataPct[a], 1e-12)
		assert.InEpsilon(t, 104240040.0/4194304, p.CacheRatio[a], 1e-12)
	}
	assert.InEpsilon(t, 268435456/146.25e6/60, p.MemMinutes, 1e-12)
	assert.InDelta(t, 0.030591, p.MemMinutes, 1e-6)
	assert.Zero(t, p.Errors)
	assert.Equal(t, 2*3*8, p.SharedLines)
	assert.Zero(t, p.SharedSubstituted)
	// 25 write lines of types 0–2 per partition, 2 decisions and 0.25 ms each.
	assert.Equal(t, int64(100), p.Decisions)
	assert.InEpsilon(t, 12.5, p.StopMs, 1e-12)
	assert.Equal(t, 900.0, p.Partitions[0].Scheduled)
	assert.True(t, p.Valid(), "reasons: %v", p.Reasons)
	assert.Empty(t, p.Notes)
	// The phase is the sum of its types' times plus its overhead.
	part := p.Partitions[1]
	sum := 0.0
	for _, tot := range part.Totals[beffio.Read] {
		sum += tot.Seconds
	}
	assert.InDelta(t, sum+ioHand().phaseOverhead(), part.Phase[beffio.Read].Seconds, 1e-3)
	assert.InDelta(t, part.Phase[0].Seconds+part.Phase[1].Seconds+part.Phase[2].Seconds, part.Time, 1e-12)
	assert.Len(t, part.Patterns[beffio.Rewrite], 43)

	var names []string
	for _, f := range p.Figures() {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"beffio", "partition/n=1", "partition/n=2", "access/acc=write", "access/acc=rewrite",
		"access/acc=read", "reference", "totalmem-time"}, names)
}

func roundAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Round(x*1e9) / 1e9
	}
	return out
}

// TestFoldBestPartition: bandwidth falling with the partition size, so
// b_eff_io is the smaller partition's: type bandwidth = base(access)/n with
// base = 40, 40, 40 → every access value 40/n, partition value 40/n.
func TestFoldBestPartition(t *testing.T) {
	s := ioHand()
	s.n, s.partitions = 4, []int{2, 3, 4}
	s.bw = func(n int, a beffio.Access, t beffio.PatternType) float64 { return 40 / float64(n) }
	p := mustFold(t, s.text())
	assert.Equal(t, 2, p.BestN)
	assert.InEpsilon(t, 20, p.BeffIO, 1e-12)
	assert.Equal(t, 2, p.ReferenceN)
	assert.InEpsilon(t, 20, p.Reference, 1e-12)
	assert.Equal(t, 600.0, p.Partitions[0].Scheduled)
	assert.Equal(t, []string{"T per partition 600 s < 15 min"}, p.Reasons)
}

// TestFoldRemovalApart: a run by the paper's rules that timed the removal
// of each read file after its close, taking as long as the read itself:
// the read with removal is half the read, 60n; the 2.1 formula over it
// √((80 + 40 + 80 + 40 + 40 + 60)/6 · 120) on 2 processes; b_eff_io stays.
func TestFoldRemovalApart(t *testing.T) {
	s := ioHand()
	s.deleteFactor = 1
	p := mustFold(t, s.text())
	assert.Equal(t, RemovalApart, p.Removal)
	assert.InEpsilon(t, 146.25, p.BeffIO, 1e-12)
	assert.InEpsilon(t, 120, p.Partitions[1].ReadRemovalValue, 1e-5)
	assert.InEpsilon(t, 160, p.Partitions[1].ReadRemoval[beffio.Scatter], 1e-5)
	assert.InEpsilon(t, math.Sqrt(340.0/6*120), p.Reference, 1e-5)
	assert.Contains(t, p.ReferenceLabel(), "read incl. file removal")
	var b bytes.Buffer
	require.NoError(t, p.WriteText(&b))
	assert.Regexp(t, `(?m)^  total\+removal +160\.0 +80\.00 +160\.0 +80\.00 +80\.00$`, b.String())
	assert.Regexp(t, `(?m)^  2 +60\.000 +45\.000 +240\.00 +146\.25 +120\.00 +82\.462 `, b.String())
}

// TestFoldReferenceRules: a run by the reference code's rules (scatter
// rewrite only, the read's removal in its close): b_eff_io is the 2.1
// formula √((80 + 40 + 80 + 40 + 40 + 60)/6 · 240) on 2 processes, the
// paper's formula 0.25·60 + 0.25·60 + 0.5·240 = 150 the secondary figure,
// and validity needs 30 minutes per partition.
func TestFoldReferenceRules(t *testing.T) {
	s := ioHand()
	s.rules, s.rewrite, s.cacheMiB = beffio.RulesReference, beffio.RewriteScatter, "1"
	p := mustFold(t, s.text())
	assert.Equal(t, RemovalInClose, p.Removal)
	assert.InEpsilon(t, math.Sqrt(340.0/6*240), p.BeffIO, 1e-12)
	assert.Equal(t, p.Reference, p.BeffIO)
	assert.Equal(t, 2, p.BestN)
	assert.InEpsilon(t, 150, p.Paper, 1e-12)
	assert.Equal(t, p.Partitions[1].Access[beffio.Read], p.Partitions[1].ReadRemovalValue)
	assert.Equal(t, []string{"T per partition 900 s < 30 min (the reference code's limit)"}, p.Reasons)
	names := map[string]float64{}
	for _, f := range p.Figures() {
		names[f.Name] = f.Value
	}
	assert.InEpsilon(t, 150, names["paper"], 1e-12)
	assert.Equal(t, p.BeffIO, names["reference"], "runs of both rules compare on the 2.1 formula")
	var b bytes.Buffer
	require.NoError(t, p.WriteText(&b))
	assert.True(t, strings.HasPrefix(b.String(), "b_eff_io (reference code 2.1 rules) = 116.62 MB/s\n"), b.String()[:80])

	s.rules = "newest"
	_, err := foldText(t, s.text())
	assert.ErrorContains(t, err, `beffio-rules: unknown rules "newest"`)
}

// TestFoldRewriteScatter: the release-2 schedule rewrites the scatter
// type only; the rewrite value is the scatter total, 2·15n = 30n, so the
// partition value is 0.25·30n + 0.25·30n + 0.5·120n = 75n.
func TestFoldRewriteScatter(t *testing.T) {
	s := ioHand()
	s.rewrite = beffio.RewriteScatter
	p := mustFold(t, s.text())
	assert.InEpsilon(t, 150, p.BeffIO, 1e-12)
	assert.InEpsilon(t, 60, p.Access[beffio.Rewrite], 1e-12)
	assert.InEpsilon(t, math.Sqrt(340.0/6*240), p.Reference, 1e-12)
	// Rewrite data: type 0 only, 3 · 11542792 B.
	assert.InEpsilon(t, 3*11542792/1e6, p.Data[beffio.Rewrite], 1e-12)
	assert.InEpsilon(t, 104.24004, p.Data[beffio.Write], 1e-12)
	assert.Len(t, p.Partitions[0].Patterns[beffio.Rewrite], 9)
	assert.Nil(t, p.Partitions[0].Totals[beffio.Rewrite][beffio.Shared])
	// 34.628376 MB is 8.3× the 4 MiB cache.
	assert.Equal(t, []string{"data per access method < 20× the file-system cache of 4 MiB (write 24.9×, rewrite 8.3×, read 24.9×)"}, p.Reasons)
	require.Len(t, p.Notes, 1)
	assert.Contains(t, p.Notes[0], "beffio-rewrite: scatter")
}

func TestFoldValidity(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(s *ioSynth)
		reasons []string
	}{
		{"valid at 15 min per partition", func(s *ioSynth) {}, nil},
		{"T", func(s *ioSynth) { s.t = "60" }, []string{"T per partition 30 s < 15 min"}},
		{"T fraction", func(s *ioSynth) { s.t = "1799" }, []string{"T per partition 899.5 s < 15 min"}},
		{"errors", func(s *ioSynth) {
			s.errors = func(n int, p beffio.AccessPattern) int64 {
				if n == 2 && (p.No == 5 || p.No == 30) {
					return 2
				}
				return 0
			}
		}, []string{"4 validation errors"}},
		{"one error", func(s *ioSynth) {
			s.errors = func(n int, p beffio.AccessPattern) int64 {
				if n == 1 && p.Fill && p.Type == beffio.SegColl {
					return 1
				}
				return 0
			}
		}, []string{"1 validation error"}},
		{"shared file pointer", func(s *ioSynth) {
			s.sharedfp = func(n int, a beffio.Access, p beffio.AccessPattern) int {
				if a == beffio.Read && p.No == 13 {
					return 0
				}
				return 1
			}
		}, []string{"shared file pointer substituted by explicit offsets (2 of 48 type-shared pattern lines)"}},
		{"cache", func(s *ioSynth) { s.cacheMiB = "8" },
			[]string{"data per access method < 20× the file-system cache of 8 MiB (write 12.4×, rewrite 12.4×, read 12.4×)"}},
		{"no cache", func(s *ioSynth) { s.cacheMiB = "0" }, nil},
		{"short", func(s *ioSynth) { s.mode = "short (quick check, not a valid result)" }, []string{"short run"}},
		{"all", func(s *ioSynth) {
			s.t, s.cacheMiB, s.mode = "60", "8", "short (test)"
			s.errors = func(n int, p beffio.AccessPattern) int64 { return 1 }
			s.sharedfp = func(n int, a beffio.Access, p beffio.AccessPattern) int { return 0 }
		}, []string{
			"T per partition 30 s < 15 min",
			"shared file pointer substituted by explicit offsets (48 of 48 type-shared pattern lines)",
			"86 validation errors",
			"data per access method < 20× the file-system cache of 8 MiB (write 12.4×, rewrite 12.4×, read 12.4×)",
			"short run",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ioHand()
			tt.edit(&s)
			p := mustFold(t, s.text())
			assert.Equal(t, tt.reasons, p.Reasons)
			assert.Equal(t, tt.reasons == nil, p.Valid())
			var b bytes.Buffer
			require.NoError(t, p.WriteText(&b))
			lines := strings.SplitN(b.String(), "\n", 3)
			if tt.reasons == nil {
				assert.Equal(t, "VALID", lines[1])
			} else {
				assert.Equal(t, "NOT VALID: "+strings.Join(tt.reasons, "; "), lines[1])
			}
		})
	}
}

func TestFoldNotes(t *testing.T) {
	s := ioHand()
	s.totalMiB, s.cacheMiB = "", ""
	s.n = 3
	p := mustFold(t, s.text())
	assert.Equal(t, []string{
		"file-system cache unknown (no beffio-cache-mib): caching not checked",
		"total memory unknown (no beffio-totalmem-mib): no percentage of memory, no total memory / b_eff_io",
		"partitions 1,2 are not the default 1,2,3 for 3 processes",
	}, p.Notes)
	assert.True(t, p.Valid())
	assert.Zero(t, p.MemMinutes)
	assert.Zero(t, p.DataPct[0])
	assert.Zero(t, p.CacheRatio[0])
	for _, f := range p.Figures() {
		assert.NotEqual(t, "totalmem-time", f.Name)
	}

	text := strings.Replace(ioHand().text(), "beffio-mpart: 2097152", "beffio-mpart: 4194304", 1)
	text = strings.ReplaceAll(text, "pat=1/l=2097152/L=2097152", "pat=1/l=4194304/L=4194304")
	for _, no := range []int{10, 18, 26, 35} {
		text = strings.ReplaceAll(text, fmt.Sprintf("pat=%d/l=2097152/L=2097152", no), fmt.Sprintf("pat=%d/l=4194304/L=4194304", no))
	}
	p = mustFold(t, text)
	assert.Equal(t, []string{"MPART 4194304 bytes is not the rule's max(2 MiB, M/128) = 2097152 bytes for M = 128 MiB"}, p.Notes)
}

// ioEdit applies fn to every line of the hand run.
func ioEdit(fn func(line string) []string) string { return edit(ioHand().text(), fn) }

// drop leaves out the line of the benchmark name.
func drop(name string) string {
	return ioEdit(func(l string) []string {
		if strings.HasPrefix(l, "BenchmarkBeffIO/"+name+" ") {
			return nil
		}
		return []string{l}
	})
}

// replaceLine replaces old by new in the line of the benchmark name.
func replaceLine(name, old, new string) string {
	return ioEdit(func(l string) []string {
		if strings.HasPrefix(l, "BenchmarkBeffIO/"+name+" ") {
			return []string{strings.Replace(l, old, new, 1)}
		}
		return []string{l}
	})
}

func TestFoldRefusals(t *testing.T) {
	text := ioHand().text()
	// at returns the line number of the benchmark line name in text.
	at := func(name string) int {
		for i, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "BenchmarkBeffIO/"+name+" ") {
				return i + 1
			}
		}
		t.Fatalf("no line %s", name)
		return 0
	}
	first := at("n=1/acc=write/type=scatter/pat=0/l=1048576/L=1048576")
	require.Equal(t, 23, first)
	tests := []struct {
		name string
		in   string
		want string // a prefix of the error message
	}{
		{"missing total", drop("n=2/acc=read/type=segcoll/pat=total"),
			fmt.Sprintf("io.txt:%d: b_eff_io run 1: incomplete: missing 1 line: n=2/acc=read/type=segcoll/pat=total", first)},
		{"missing pattern", drop("n=1/acc=rewrite/type=scatter/pat=6/l=32776/L=1048832"),
			fmt.Sprintf("io.txt:%d: b_eff_io run 1: incomplete: missing 1 line: n=1/acc=rewrite/type=scatter/pat=6/l=32776/L=1048832", first)},
		{"missing phase", drop("n=1/acc=write/type=all/pat=phase"),
			fmt.Sprintf("io.txt:%d: b_eff_io run 1: incomplete: missing 1 line: n=1/acc=write/type=all/pat=phase", first)},
		{"missing fill", drop("n=2/acc=write/type=segmented/pat=33/l=fill/L=fill"),
			fmt.Sprintf("io.txt:%d: b_eff_io run 1: incomplete: missing 1 line: n=2/acc=write/type=segmented/pat=33/l=fill/L=fill", first)},
		// 3 access methods × (43 patterns + 5 totals + 1 phase).
		{"missing partition", ioEdit(func(l string) []string {
			if strings.HasPrefix(l, "BenchmarkBeffIO/n=2/") {
				return nil
			}
			return []string{l}
		}), fmt.Sprintf("io.txt:%d: b_eff_io run 1: incomplete: missing 147 lines: n=2/acc=write/type=scatter/pat=0/l=1048576/L=1048576, "+
			"n=2/acc=write/type=scatter/pat=1/l=2097152/L=2097152, n=2/acc=write/type=scatter/pat=2/l=1048576/L=2097152, "+
			"n=2/acc=write/type=scatter/pat=3/l=1048576/L=1048576, n=2/acc=write/type=scatter/pat=4/l=32768/L=1048576, ...", first)},
		// 294 lines, 101 kept.
		{"truncated", strings.Join(strings.Split(text, "\n")[:first+100], "\n"),
			fmt.Sprintf("io.txt:%d: b_eff_io run 1: incomplete: missing 193 lines: n=1/acc=rewrite/type=scatter/pat=3/l=1048576/L=1048576, ", first)},
		{"unknown partition", strings.Replace(text, "BenchmarkBeffIO/n=2/acc=read/type=all/pat=phase", "BenchmarkBeffIO/n=3/acc=read/type=all/pat=phase", 1),
			fmt.Sprintf("io.txt:%d: n=3/acc=read/type=all/pat=phase: b_eff_io run 1: no partition n=3 in beffio-partitions 1,2", at("n=2/acc=read/type=all/pat=phase"))},
		{"wrong chunk", strings.Replace(text, "n=1/acc=write/type=scatter/pat=1/l=2097152/L=2097152", "n=1/acc=write/type=scatter/pat=1/l=1048576/L=1048576", 1),
			fmt.Sprintf("io.txt:%d: n=1/acc=write/type=scatter/pat=1/l=1048576/L=1048576: b_eff_io run 1: pattern 1 is pat=1/l=2097152/L=2097152 with beffio-mpart: 2097152", first+1)},
		{"wrong type", strings.Replace(text, "n=1/acc=write/type=scatter/pat=1/", "n=1/acc=write/type=separated/pat=1/", 1),
			fmt.Sprintf("io.txt:%d: n=1/acc=write/type=separated/pat=1/l=2097152/L=2097152: b_eff_io run 1: pattern 1 is of type scatter, not separated", first+1)},
		{"no such pattern", strings.Replace(text, "n=1/acc=write/type=scatter/pat=1/", "n=1/acc=write/type=scatter/pat=43/", 1),
			fmt.Sprintf("io.txt:%d: n=1/acc=write/type=scatter/pat=43/l=2097152/L=2097152: b_eff_io run 1: no pattern 43 (the table has 43)", first+1)},
		{"not rewritten", strings.Replace(text, "beffio-rewrite: all", "beffio-rewrite: scatter", 1),
			fmt.Sprintf("io.txt:%d: n=1/acc=rewrite/type=shared/pat=9/l=1048576/L=1048576: b_eff_io run 1: type shared is not rewritten with beffio-rewrite: scatter",
				at("n=1/acc=rewrite/type=shared/pat=9/l=1048576/L=1048576"))},
		{"zero total", ioEdit(func(l string) []string {
			if strings.HasPrefix(l, "BenchmarkBeffIO/n=1/acc=read/type=shared/pat=total ") {
				l = strings.Replace(strings.Replace(l, "MB/s", "MB/s\t0 MB/s", 1), " MB\t", " MB\t0 MB\t", 1)
			}
			return []string{l}
		}),
			fmt.Sprintf("io.txt:%d: n=1/acc=read/type=shared/pat=total: pattern-type bandwidth 0 MB/s is not positive", at("n=1/acc=read/type=shared/pat=total"))},
		{"pattern bandwidth not MB over s", ioEdit(func(l string) []string {
			if strings.HasPrefix(l, "BenchmarkBeffIO/n=1/acc=write/type=scatter/pat=0/") {
				l = scaleMetric(t, l, "MB/s", 1.25)
			}
			return []string{l}
		}), fmt.Sprintf("io.txt:%d: n=1/acc=write/type=scatter/pat=0/l=1048576/L=1048576: 50 MB/s contradicts its 1.048576 MB in 0.0262144 s (40 MB/s); not written by beff, or edited", first)},
		{"total bandwidth not MB over s", ioEdit(func(l string) []string {
			if strings.HasPrefix(l, "BenchmarkBeffIO/n=2/acc=read/type=segcoll/pat=total ") {
				l = scaleMetric(t, l, "s", 2)
			}
			return []string{l}
		}), fmt.Sprintf("io.txt:%d: n=2/acc=read/type=segcoll/pat=total: ", at("n=2/acc=read/type=segcoll/pat=total"))},
		{"missing metric", replaceLine("n=1/acc=read/type=shared/pat=total", " MB\t", " GB\t"),
			fmt.Sprintf("io.txt:%d: n=1/acc=read/type=shared/pat=total: missing metric MB", at("n=1/acc=read/type=shared/pat=total"))},
		{"missing errors", replaceLine("n=1/acc=read/type=scatter/pat=3/l=1048576/L=1048576", "errors", "errs"),
			fmt.Sprintf("io.txt:%d: n=1/acc=read/type=scatter/pat=3/l=1048576/L=1048576: missing metric errors", at("n=1/acc=read/type=scatter/pat=3/l=1048576/L=1048576"))},
		{"missing sharedfp", replaceLine("n=1/acc=read/type=shared/pat=13/l=1024/L=1024", "sharedfp", "shared"),
			fmt.Sprintf("io.txt:%d: n=1/acc=read/type=shared/pat=13/l=1024/L=1024: missing metric sharedfp", at("n=1/acc=read/type=shared/pat=13/l=1024/L=1024"))},
		{"bad sharedfp", replaceLine("n=1/acc=read/type=shared/pat=13/l=1024/L=1024", "1 sharedfp", "2 sharedfp"),
			fmt.Sprintf("io.txt:%d: n=1/acc=read/type=shared/pat=13/l=1024/L=1024: sharedfp = 2 is neither 0 nor 1", at("n=1/acc=read/type=shared/pat=13/l=1024/L=1024"))},
		{"negative time", replaceLine("n=1/acc=read/type=all/pat=phase", " ns/op\t", " ns/op\t-"),
			fmt.Sprintf("io.txt:%d: n=1/acc=read/type=all/pat=phase: s = -", at("n=1/acc=read/type=all/pat=phase"))},
		{"bad name", strings.Replace(text, "/type=all/pat=phase", "/type=scatter/pat=phase", 1),
			fmt.Sprintf("io.txt:%d: BeffIO/n=1/acc=write/type=scatter/pat=phase: not a b_eff_io measurement name", at("n=1/acc=write/type=all/pat=phase"))},
		{"bad access", strings.Replace(text, "n=1/acc=write/", "n=1/acc=append/", 1),
			fmt.Sprintf("io.txt:%d: BeffIO/n=1/acc=append/type=scatter/pat=0/l=1048576/L=1048576: unknown access method \"append\"", first)},
		{"bad fill", strings.Replace(text, "l=fill/L=fill", "l=fill/L=1024", 1),
			fmt.Sprintf("io.txt:%d: BeffIO/n=1/acc=write/type=segmented/pat=33/l=fill/L=1024: chunk size \"fill\"", at("n=1/acc=write/type=segmented/pat=33/l=fill/L=fill"))},
		{"no config", strings.Replace(text, "beffio-mpart:", "beffio-mpart-x:", 1),
			fmt.Sprintf("io.txt:%d: not b_eff_io output: no beffio-mpart configuration line", first)},
		{"partition too large", strings.Replace(text, "beffio-partitions: 1,2", "beffio-partitions: 1,2,4", 1),
			fmt.Sprintf("io.txt:%d: beffio-partitions: partition 4 is larger than mpi-procs 2", first)},
		{"bad rewrite", strings.Replace(text, "beffio-rewrite: all", "beffio-rewrite: some", 1),
			fmt.Sprintf("io.txt:%d: beffio-rewrite: unknown mode \"some\" (want all or scatter)", first)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := readText(tt.in, "io.txt")
			if err == nil {
				require.Len(t, f.Runs, 1)
				_, err = Fold(f.Runs[0])
			}
			require.Error(t, err)
			var e *results.InputError
			require.ErrorAs(t, err, &e)
			assert.True(t, strings.HasPrefix(err.Error(), tt.want), "error:\n%s\nwant prefix:\n%s", err, tt.want)
		})
	}
}

// TestIOSyntheticFile keeps testdata/io-synthetic.txt equal to ioHand's
// text (BEFF_UPDATE=1 rewrites it and its copies in other packages).
func TestIOSyntheticFile(t *testing.T) {
	const path = "testdata/io-synthetic.txt"
	text := ioHand().text()
	if resultstest.Update() {
		resultstest.WriteShared(t, "io-synthetic.txt", []byte(text))
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err, "run BEFF_UPDATE=1 go test ./suites/beffio/fold -run TestIOSyntheticFile")
	assert.Equal(t, text, string(data))
}

func TestWriteText(t *testing.T) {
	p := mustFold(t, ioHand().text())
	var b bytes.Buffer
	require.NoError(t, p.WriteText(&b))
	text := b.String()
	lines := strings.Split(text, "\n")
	assert.Equal(t, "b_eff_io = 146.25 MB/s", lines[0])
	assert.Equal(t, "VALID", lines[1])
	for _, want := range []string{
		`(?m)^  b_eff_io +146\.25 MB/s on 2 processes, paper rules: for published \(2\.1\) results see the 2\.1 formula$`,
		`(?m)^  weighted average bandwidth for rewrite +45\.000 MB/s on 2 processes \(25%\)$`,
		`(?m)^  weighted average bandwidth for read +240\.00 MB/s on 2 processes \(50%\)$`,
		`(?m)^  b_eff_io 2\.1 formula +116\.62 MB/s on 2 processes \(secondary; read without file removal \(not measured\): not comparable with published results\)$`,
		`(?m)^  data per access method, write +104\.24 MB \(38\.8 % of the total memory\)$`,
		`(?m)^  total memory / b_eff_io +0\.03059 min$`,
		`(?m)^  file-system cache +4 MiB \(data per access method / cache: write 24\.9×, rewrite 24\.9×, read 24\.9×\)$`,
		`(?m)^  scheduled T +1800 s \(900 s per partition\)$`,
		`(?m)^  2 +60\.000 +45\.000 +240\.00 +146\.25 +- +116\.62 +[0-9.]+ +900 +b_eff_io$`,
		`(?m)^Partition n=2, read: 240\.00 MB/s \(access-method value\), phase [0-9.]+ s$`,
		// n = 2, read: 160 MB/s per type-0 pattern, 80 for shared, ...
		`(?m)^  32 KiB\+8 +1 MiB\+256 +320\.0 +160\.0 +320\.0 +160\.0 +160\.0$`,
		`(?m)^  1 MiB +2 MiB +320\.0 +- +- +- +-$`,
		`(?m)^  2 MiB \(MPART\) +2 MiB +320\.0 +160\.0 +320\.0 +160\.0 +160\.0$`,
		`(?m)^  1 MiB \(warm-up\) +1 MiB +320\.0 +160\.0 +320\.0 +160\.0 +160\.0$`,
		`(?m)^  fill +- +- +- +160\.0 +160\.0$`,
		`(?m)^  total +320\.0 +160\.0 +320\.0 +160\.0 +160\.0$`,
		`(?m)^  write +scatter +7 +1 KiB\+8 +1 MiB\+8 KiB +1 +1\.0568 +[0-9.]+ +40\.000 +- +2 +0\.2500 +-$`,
		`(?m)^  read +shared +13 +1 KiB +1 KiB +1 +0\.0010240 +[0-9.]+ +80\.000 +0 +- +- +1$`,
	} {
		assert.Regexp(t, want, text)
	}

	resultstest.NoBenchfmtLines(t, text)
}

func TestSummaryRoundTrip(t *testing.T) {
	in := ioHand().text()
	f, err := readText(in, "io.txt")
	require.NoError(t, err)
	require.Len(t, f.Runs, 1)
	assert.Equal(t, 1, f.Runs[0].Index)
	pio, err := Fold(f.Runs[0])
	require.NoError(t, err)
	assert.InEpsilon(t, 146.25, pio.BeffIO, 1e-12)

	var app bytes.Buffer
	require.NoError(t, results.WriteAppendix(&app, f.File, []results.Suite{New()}, []results.Folded{pio}))
	assert.Contains(t, app.String(), "\nbeffio-rewrite:\n", "the b_eff_io configuration is cleared")
	assert.True(t, strings.HasPrefix(app.String(), "\n"), "a blank line first")
	assert.Contains(t, app.String(), "Unit MB/s better=higher\nUnit min better=lower\nBenchmarkBeffIOFold/fig=beffio 1 146.25 MB/s\n")
	all := in + app.String()

	got := map[string]benchfmt.Value{}
	recs, units := resultstest.FoldResults(t, []byte(all), "all.txt", beffio.ID.FoldBench())
	for _, rec := range recs {
		_, parts := rec.Name.Parts()
		for _, part := range parts {
			assert.NotEqual(t, '-', rune(part[0]), "%s: a part read as GOMAXPROCS", rec.Name)
		}
		got[string(rec.Name)] = rec.Values[0]
	}
	require.Len(t, got, len(pio.Figures()))
	assert.InEpsilon(t, 146.25, got["BeffIOFold/fig=beffio"].OrigValue, 1e-12)
	assert.Equal(t, "MB/s", got["BeffIOFold/fig=beffio"].OrigUnit)
	assert.InEpsilon(t, 73.125, got["BeffIOFold/fig=partition/n=1"].OrigValue, 1e-12)
	assert.InEpsilon(t, 240, got["BeffIOFold/fig=access/acc=read"].OrigValue, 1e-12)
	assert.InEpsilon(t, math.Sqrt(340.0/6*240), got["BeffIOFold/fig=reference"].OrigValue, 1e-12)
	assert.Equal(t, "min", got["BeffIOFold/fig=totalmem-time"].Unit)
	assert.Equal(t, -1, units.GetBetter("min"))

	// Read back: the same run, the folded lines counted.
	f2, err := readText(all, "all.txt")
	require.NoError(t, err)
	assert.Equal(t, len(pio.Figures()), f2.File.FoldedLines(New()))
	require.Len(t, f2.Runs, 1)
	p2, err := Fold(f2.Runs[0])
	require.NoError(t, err)
	assert.Equal(t, pio.BeffIO, p2.BeffIO)
}

// TestCount2: a file written with -test.count=2 holds two b_eff_io runs.
func TestCount2(t *testing.T) {
	s := ioHand()
	var b strings.Builder
	b.WriteString(s.config())
	for _, l := range s.lines() { // each line, then twice as fast
		b.WriteString(l + "\n")
		b.WriteString(scaleMetric(t, scaleMetric(t, l, "s", 0.5), "MB/s", 2) + "\n")
	}
	f, err := readText(b.String(), "count2.txt")
	require.NoError(t, err)
	require.Len(t, f.Runs, 2)
	p1, err := Fold(f.Runs[0])
	require.NoError(t, err)
	p2, err := Fold(f.Runs[1])
	require.NoError(t, err)
	assert.InEpsilon(t, 146.25, p1.BeffIO, 1e-12)
	assert.InEpsilon(t, 292.5, p2.BeffIO, 1e-12)
	assert.Equal(t, 2, p2.Run.Index)
}

func TestSizeLabel(t *testing.T) {
	for _, tt := range []struct {
		b    int64
		want string
	}{
		{1 << 20, "1 MiB"}, {2 << 20, "2 MiB"}, {32 << 10, "32 KiB"}, {1024, "1 KiB"},
		{32<<10 + 8, "32 KiB+8"}, {1<<10 + 8, "1 KiB+8"}, {1<<20 + 8, "1 MiB+8"},
		{1<<20 + 256, "1 MiB+256"}, {1<<20 + 8<<10, "1 MiB+8 KiB"},
		{8192000, "7 MiB+832 KiB"}, {1 << 30, "1024 MiB"}, {8, "8"}, {0, "0"},
	} {
		assert.Equal(t, tt.want, sizeLabel(tt.b), "sizeLabel(%d)", tt.b)
	}
}

func TestMatrixRow(t *testing.T) {
	table := beffio.Table(2 * beffio.MiB)
	rows := map[int][]int{}
	for _, p := range table {
		r := matrixRow(table, p)
		rows[r] = append(rows[r], p.No)
		if !p.Fill {
			// Same disk chunk as the type-0 pattern of the row.
			assert.Equal(t, table[r].L, p.L, "pattern %d in row %d", p.No, r)
		}
	}
	assert.Equal(t, map[int][]int{
		0: {0, 9, 17, 25, 34}, 1: {1, 10, 18, 26, 35}, 2: {2}, 3: {3, 11, 19, 27, 36},
		4: {4, 12, 20, 28, 37}, 5: {5, 13, 21, 29, 38}, 6: {6, 14, 22, 30, 39},
		7: {7, 15, 23, 31, 40}, 8: {8, 16, 24, 32, 41}, 9: {33, 42},
	}, rows)
}

// TestGomaxprocs: a -GOMAXPROCS suffix on the names is ignored.
func TestGomaxprocs(t *testing.T) {
	text := ioEdit(func(l string) []string {
		if name, rest, ok := strings.Cut(l, " "); ok && strings.HasPrefix(name, "BenchmarkBeffIO/") {
			return []string{name + "-4 " + rest}
		}
		return []string{l}
	})
	require.Contains(t, text, "/pat=phase-4 ")
	p := mustFold(t, text)
	assert.InEpsilon(t, 146.25, p.BeffIO, 1e-12)
}

// TestFoldDeterministic folds a run whose pattern-type bandwidths round
// differently in different summation orders, many times: the figures must
// be the same to the last bit (beffio.AccessValue sums in map order, see
// accessValue).
func TestFoldDeterministic(t *testing.T) {
	s := ioHand()
	// The rewrite of vm-2026-11-21-np2-run11.txt, n = 2: 2 of the 120
	// orders of the sum give a different last bit.
	real := []float64{1576.57, 655.04, 841.67, 620.33, 564.87}
	s.bw = func(n int, a beffio.Access, ty beffio.PatternType) float64 { return real[ty] * float64(n) / 2 }
	text := s.text()
	first := mustFold(t, text)
	for range 40 {
		p := mustFold(t, text)
		require.Equal(t, first.Figures(), p.Figures())
	}
	vals := map[beffio.PatternType]float64{beffio.Scatter: 1e16, beffio.Shared: 1, beffio.Separated: 3, beffio.Segmented: 5, beffio.SegColl: 7}
	assert.Equal(t, (((2*1e16+1)+3)+5+7)/6, beffio.AccessValue(vals))
	assert.Equal(t, 80.0, beffio.AccessValue(map[beffio.PatternType]float64{beffio.Scatter: 80}))
	assert.Equal(t, 0.0, beffio.AccessValue(nil))
}

// TestFileSystemLine: beffio-fs is shown in the protocol and on the run
// page; a run without it shows neither.
func TestFileSystemLine(t *testing.T) {
	const fs = "fuse.glusterfs 10.77.0.3:/beff, servers n2"
	text := ioHand().text()
	p := mustFold(t, strings.Replace(text, "beffio-dir:", "beffio-fs: "+fs+"\nbeffio-dir:", 1))
	assert.Equal(t, fs, p.Run.Config.FS)
	var b strings.Builder
	p.writeRun(&b)
	assert.Contains(t, b.String(), "  file system      "+fs+"\n")
	html, err := New().Section(p)
	require.NoError(t, err)
	assert.Contains(t, string(html), `<p id="io-fs">File system: <code>`+fs+`</code></p>`)

	plain := mustFold(t, text)
	b.Reset()
	plain.writeRun(&b)
	assert.NotContains(t, b.String(), "file system")
}
