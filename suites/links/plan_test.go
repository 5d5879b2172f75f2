package links

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/beff-suite/beff/internal/results"
)

// TestPlanAtScale: the plan's time grows with the members, as the rounds
// do; at 10^3, 10^4 and 10^5 nodes under the default settings it is at
// most 3.6 minutes (with the second measurements of a full matrix's
// suspects, 13.6 s at most), 34 minutes and 5.6 hours; the full matrix
// stops at FullMatrix members.
func TestPlanAtScale(t *testing.T) {
	for _, c := range []struct {
		n     int
		most  float64
		pairs int64
		full  bool
	}{
		{2, 0.202 + 13.568, 1, true},
		{6, 1.01 + 13.568, 15, true},
		{1000, 201.8 + 13.568, 499_500, true},
		{1024, 206.6 + 13.568, 523_776, true},
		{1025, 207, 524_800, false},
		{10_000, 2020, 49_995_000, false},
		{100_000, 20_200, 4_999_950_000, false},
	} {
		p := NewPlan(c.n, DefaultSettings)
		assert.Equal(t, Rounds(c.n), p.Rounds, "n=%d", c.n)
		assert.Equal(t, c.pairs, p.Pairs, "n=%d", c.n)
		assert.InDelta(t, c.most, p.Seconds, c.most*0.01, "n=%d", c.n)
		assert.Equal(t, c.full, p.Full, "n=%d", c.n)
	}
	assert.Zero(t, NewPlan(1, DefaultSettings).Seconds, "one member: nothing to measure")
}

func TestSettingsCheck(t *testing.T) {
	assert.NoError(t, DefaultSettings.Check())
	for _, c := range []struct {
		edit func(*Settings)
		want string
	}{
		{func(s *Settings) { s.LatReps = 0 }, "0 ping-pongs"},
		{func(s *Settings) { s.BwLen = 1 << 31 }, "a bandwidth message of 2147483648 bytes"},
		{func(s *Settings) { s.BwReps = -1 }, "-1 bandwidth messages"},
		{func(s *Settings) { s.Cap = 0 }, "a cap of 0 s"},
		{func(s *Settings) { s.Cap = 1e9 }, "a cap of 1e+09 s"},
	} {
		s := DefaultSettings
		c.edit(&s)
		assert.ErrorContains(t, s.Check(), c.want)
	}
}

// TestNames: a pair's name and a member's, read back; a host ending in
// -<digits> stays inside the name, not at its end.
func TestNames(t *testing.T) {
	assert.Equal(t, "a=3/b=17", PairName(3, 17))
	assert.Equal(t, "host=node-12/member=4", MemberName("node-12", "", 4))
	assert.Equal(t, "host=a_b/member=0", MemberName("a/b", "", 0))
	assert.Equal(t, "host=n3/switch=spine.leaf1/member=3", MemberName("n3", "spine.leaf1", 3))
	a, b, err := ParsePair([]results.Part{{Key: "a", Value: "3"}, {Key: "b", Value: "17"}})
	assert.NoError(t, err)
	assert.Equal(t, [2]int{3, 17}, [2]int{a, b})
	for _, bad := range [][]results.Part{
		{{Key: "a", Value: "3"}},
		{{Key: "a", Value: "7"}, {Key: "b", Value: "3"}},
		{{Key: "a", Value: "x"}, {Key: "b", Value: "3"}},
		{{Key: "b", Value: "1"}, {Key: "a", Value: "3"}},
	} {
		_, _, err := ParsePair(bad)
		assert.Error(t, err, "%v", bad)
	}
}
