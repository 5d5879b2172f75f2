package harness

import (
	"flag"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestRange: a numeric flag outside its range, not finite or negative is
// refused with its name, its value and what it accepts; 0 only where it
// means something.
func TestRange(t *testing.T) {
	fs := flag.NewFlagSet("range", flag.ContinueOnError)
	f := fs.Float64("rangetest.f", 0, "")
	n := fs.Int64("rangetest.n", 0, "")
	d := fs.Duration("rangetest.d", 0, "")
	fr := FlagRange{Flag: "rangetest.f", Min: 1, Max: 100, Unit: "s"}
	nr := FlagRange{Flag: "rangetest.n", Min: 1, Max: 1 << 20, Unit: "MiB", Zero: "automatic"}
	dr := WatchdogRange("rangetest.d")
	for _, c := range []struct {
		set  func()
		r    FlagRange
		want string
	}{
		{func() { *f = 10 }, fr, ""},
		{func() { *f = 0 }, fr, "-rangetest.f=0: out of range; want a number of s from 1 to 100"},
		{func() { fs.Set("rangetest.f", "Inf") }, fr, "-rangetest.f=+Inf: out of range; want a number of s from 1 to 100"},
		{func() { fs.Set("rangetest.f", "NaN") }, fr, "-rangetest.f=NaN: out of range; want a number of s from 1 to 100"},
		{func() { *f = -1 }, fr, "-rangetest.f=-1: out of range; want a number of s from 1 to 100"},
		{func() { *f = 1e300 }, fr, "-rangetest.f=1e+300: out of range; want a number of s from 1 to 100"},
		{func() { *n = 0 }, nr, ""},
		{func() { *n = -5 }, nr, "-rangetest.n=-5: out of range; want a number of MiB from 1 to 1048576, or 0 (automatic)"},
		{func() { *n = 1 << 40 }, nr, "-rangetest.n=1099511627776: out of range; want a number of MiB from 1 to 1048576, or 0 (automatic)"},
		{func() { *d = 0 }, dr, ""},
		{func() { *d = time.Minute }, dr, ""},
		{func() { *d = -time.Second }, dr, "-rangetest.d=-1s: out of range; want a number of s from 0.001 to 604800, or 0 (off)"},
		{func() { *d = 1000 * time.Hour }, dr, "-rangetest.d=1000h0m0s: out of range; want a number of s from 0.001 to 604800, or 0 (off)"},
	} {
		c.set()
		err := c.r.Check(fs)
		if c.want == "" {
			assert.NoError(t, err)
		} else {
			assert.EqualError(t, err, c.want)
		}
	}
	assert.EqualError(t, FlagRange{Flag: "rangetest.none"}.Check(fs), "internal error: no flag -rangetest.none")
}
