package driver

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/beff-suite/beff/suites/congestion"
)

// TestTimeLeft: the progress's model counts the phases left by their
// place in a repetition, each of the plan's time: 2 repetitions of 3
// canaries isolated, the congestors alone and the 3 canaries under load
// are 7 kinds of 2 phases each; after 9 phases (a repetition and 2) the
// first 2 kinds have none left.
func TestTimeLeft(t *testing.T) {
	plan := congestion.Plan{Canaries: []string{"rr-lat", "rr-bw", "allreduce"}, Congestors: []string{"incast", "bcast"},
		Mix: congestion.MixTogether, Reps: 2, Time: 0.25}
	r := &run{st: Settings{Plan: plan}}
	r.countPhases()
	assert.Equal(t, 7, r.perRep)
	left, kinds := r.timeLeft()
	assert.InDelta(t, 14*(0.25+congestion.PhaseSlack), left, 1e-12)
	assert.Equal(t, []int{2, 2, 2, 2, 2, 2, 2}, kinds)
	r.phases = 9
	left, kinds = r.timeLeft()
	assert.InDelta(t, 5*(0.25+congestion.PhaseSlack), left, 1e-12)
	assert.Equal(t, []int{0, 0, 1, 1, 1, 1, 1}, kinds)
	assert.Equal(t, 2, r.kind(9))
	r.phases = 14
	left, kinds = r.timeLeft()
	assert.Zero(t, left)
	assert.Equal(t, []int{0, 0, 0, 0, 0, 0, 0}, kinds, "none left")
	r.phases = 7
	_, kinds = r.timeLeft()
	assert.Equal(t, []int{1, 1, 1, 1, 1, 1, 1}, kinds, "a whole repetition left")
}
