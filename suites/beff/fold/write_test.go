package fold

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
	"github.com/beff-suite/beff/suites/beff"
)

func TestWriteText(t *testing.T) {
	s := handRun()
	p := mustFold(t, s.text())[0]
	var b bytes.Buffer
	require.NoError(t, p.WriteText(&b))
	text := b.String()
	first, rest, _ := strings.Cut(text, "\n")
	assert.Equal(t, "b_eff = 20.000 MB/s", first)
	assert.Regexp(t, regexp.MustCompile(`(?m)^b_eff = [0-9.]+ MB/s$`), first)
	second, _, _ := strings.Cut(rest, "\n")
	assert.Equal(t, "NOT VALID: short run", second, "the verdict, as b_eff_io's protocol states it")
	for _, want := range []string{
		`(?m)^  latency, ping-pong +1\.000 µs$`,
		`(?m)^  balance factor b_eff/Rmax +0\.001000 byte/flop \(Rmax = 20 GFlop/s\)$`,
		`(?m)^  total measurement time +` + regexp.QuoteMeta(results.Num(s.wall().Seconds(), 4, 1)) + ` s$`,
		`(?m)^  - ` + regexp.QuoteMeta(NoteShort) + `$`,
		`(?m)^Pattern ring4 \(ring; 2 processes, 2 messages per iteration\)$`,
		`(?m)^ +1 +1\.000 +2\.000 +1\.000 +alltoallv +100 +0\.1000 +1\.000 +1\.500 +2\.000$`,
	} {
		assert.Regexp(t, want, text)
	}

	resultstest.NoBenchfmtLines(t, text)
}

func TestSummaryRoundTrip(t *testing.T) {
	in := handRun().text()
	f, err := readText((in), "in.txt")
	require.NoError(t, err)
	p, err := Fold(f.Runs[0])
	require.NoError(t, err)

	var app bytes.Buffer
	require.NoError(t, results.WriteAppendix(&app, f.File, []results.Suite{New()}, []results.Folded{p}))
	all := in + app.String()

	// benchfmt reads the appended lines without complaint, with no
	// configuration and the units' directions.
	got := map[string]benchfmt.Value{}
	recs, units := resultstest.FoldResults(t, []byte(all), "all.txt", beff.ID.FoldBench())
	for _, rec := range recs {
		assert.Equal(t, 1, rec.Iters)
		require.Len(t, rec.Values, 1)
		got[string(rec.Name)] = rec.Values[0]
	}
	require.Len(t, got, len(p.Figures()))
	beffV := got["BeffFold/fig=beff"]
	assert.Equal(t, "MB/s", beffV.OrigUnit)
	assert.InEpsilon(t, 20, beffV.OrigValue, 1e-12)
	assert.Equal(t, "us", got["BeffFold/fig=lat-pingpong"].Unit)
	assert.InEpsilon(t, 1, got["BeffFold/fig=lat-pingpong"].Value, 1e-12)
	assert.Equal(t, "B/F", got["BeffFold/fig=balance"].Unit)
	assert.Equal(t, -1, units.GetBetter("us"))
	assert.Equal(t, 1, units.GetBetter("B/F"))
	assert.Equal(t, 1, units.GetBetter("MB/s"))

	// The fold reads its own output back: same runs, figures counted.
	f2, err := readText((all), "all.txt")
	require.NoError(t, err)
	assert.Equal(t, len(p.Figures()), f2.File.FoldedLines(f2.File.Runs[0].Suite))
	require.Len(t, f2.Runs, 1)
	p2, err := Fold(f2.Runs[0])
	require.NoError(t, err)
	assert.Equal(t, p.Beff, p2.Beff)
}
