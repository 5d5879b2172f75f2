package fold

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/results"
)

// clockLine is the line of a run's clocks with the model's error errUs.
func clockLine(errUs float64) string {
	return fmt.Sprintf("BenchmarkSkampi/clock=run 1 %g clock-err-us %g clock-err-med-us -1 drift-min-ppm 10 drift-max-ppm 5 syncs 2 rounds 0.01 sync-s 0.02 window-spread-us 0.3 barrier-spread-us", errUs, errUs/2)
}

// TestFoldClocks: the line of the run's clocks is no point; a
// window-synchronised point whose window left less room than the
// clocks' error over the run (half the window beyond a repetition: the
// ping-pong's value is half a round trip) is NOT VALID and listed in the
// protocol and the JSON; below every margin nothing is; a second line
// or a broken one is refused.
func TestFoldClocks(t *testing.T) {
	p := foldText(t, synthText(synthConfig, append(slices.Clone(synthLines), clockLine(2))))
	require.NotNil(t, p.Clock)
	assert.Equal(t, len(synthLines), p.Points())
	var miss []string
	for _, m := range p.ClockMiss {
		miss = append(miss, m.Name)
	}
	// margins: pp-min L=1 (6 − 2·10·0.3)/2 = 0, barrier on 4 and 2 below 0, wtime (5 − 100·0.03)/2 = 1 µs
	assert.ElementsMatch(t, []string{"suite=pp-min/op=send-recv/pair=min/L=1", "suite=coll/op=barrier/procs=4",
		"suite=coll/op=barrier/procs=2", "suite=local/op=wtime"}, miss)
	assert.Contains(t, p.Reasons, "4 points whose window left less room than the clocks' model was off by over the run (2.000 µs; listed below)")
	var text strings.Builder
	require.NoError(t, p.WriteText(&text))
	assert.Contains(t, text.String(), "  suite=local/op=wtime: the clocks' model was off by up to 2.000 µs over the run, more than the 1.000 µs its window left")
	assert.Contains(t, text.String(), "the processes start 0.020 µs apart on the windows, 0.300 µs after MPI_Barrier")
	raw, err := json.Marshal(p.JSONDetail())
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"clock_miss":["suite=pp-min/op=send-recv/pair=min/L=1"`)
	assert.Contains(t, string(raw), `"clocks":{"err_us":2,`)

	exact := foldText(t, synthText(synthConfig, append(slices.Clone(synthLines), clockLine(0))))
	assert.Empty(t, exact.ClockMiss, "no error fails no window")
	for _, r := range exact.Reasons {
		assert.NotContains(t, r, "clocks")
	}

	f, err := results.Read(strings.NewReader(synthText(synthConfig, append(slices.Clone(synthLines), clockLine(1), clockLine(1)))), "two.txt", []results.Suite{New()})
	if err == nil { // the second line starts a run of its own, without points
		for _, r := range f.Runs {
			if _, err = Fold(r); err != nil {
				break
			}
		}
	}
	assert.Error(t, err, "two lines of the clocks")
	for _, edit := range [][2]string{{"2 rounds", "3 rounds"}, {"5 syncs", "0 syncs"}, {"5 syncs", "33 syncs"}} {
		ef, err := results.Read(strings.NewReader(synthText(synthConfig, append(slices.Clone(synthLines), strings.Replace(clockLine(1), edit[0], edit[1], 1)))), "edited.txt", []results.Suite{New()})
		if err == nil {
			_, err = Fold(ef.Runs[0])
		}
		assert.Error(t, err, "%s: a run of 4 processes estimates in 2 rounds, 1 to 32 times", edit[1])
	}
	bad := strings.Replace(clockLine(1), "5 syncs", "NaN syncs", 1)
	_, err = results.Read(strings.NewReader(synthText(synthConfig, append(slices.Clone(synthLines), bad))), "bad.txt", []results.Suite{New()})
	assert.ErrorContains(t, err, "clock=run")
}
