package harness

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestExplainFlagError(t *testing.T) {
	fs := flag.NewFlagSet("beff.test", flag.ContinueOnError)
	fs.Int64("beff.mem", 0, "b_eff: memory per process in MiB\nmore")
	fs.Int64("beffio.mem", 0, "b_eff_io: memory per process in MiB")
	fs.String("test.bench", "", "run benchmarks")
	fs.String("beff.resume", "", "resume")
	for _, tc := range []struct{ msg, want string }{
		{"flag provided but not defined: -beff.mme", "flag provided but not defined: -beff.mme (did you mean -beff.mem?); -h lists the flags"},
		{"flag provided but not defined: -mem", "flag provided but not defined: -mem (did you mean -beff.mem or -beffio.mem?); -h lists the flags"},
		{"flag provided but not defined: -bench", "flag provided but not defined: -bench (did you mean -test.bench?); -h lists the flags"},
		{"flag provided but not defined: -beff.resum", "flag provided but not defined: -beff.resum (did you mean -beff.resume?); -h lists the flags"},
		{"flag provided but not defined: -zzzzzzzzzzzz", "flag provided but not defined: -zzzzzzzzzzzz; -h lists the flags"},
		{`invalid value "abc" for flag -beff.mem: parse error`, `invalid value "abc" for flag -beff.mem: parse error (-beff.mem: b_eff: memory per process in MiB)`},
		{"bad flag syntax: ---x", "bad flag syntax: ---x"},
	} {
		assert.Equal(t, tc.want, explainFlagError(tc.msg, fs), tc.msg)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"mem", "mme", 2}, {"kitten", "sitting", 3}, {"beff.mem", "beff.mem", 0}} {
		assert.Equal(t, tc.d, editDistance(tc.a, tc.b), "%s %s", tc.a, tc.b)
		assert.Equal(t, tc.d, editDistance(tc.b, tc.a), "%s %s", tc.b, tc.a)
	}
}

// TestSeeds: a seed flag's value, or the clock; a resumed run's seed from
// its file unless the flag is given; anything but an unsigned integer
// refused with the flag or the key.
func TestSeeds(t *testing.T) {
	v, err := DecideSeed("x.seed", "42")
	assert.NoError(t, err)
	assert.Equal(t, uint64(42), v)
	_, err = DecideSeed("x.seed", "-1")
	assert.EqualError(t, err, `-x.seed="-1": the seed must be an unsigned integer`)

	file := map[string]string{"x-seed": "77"}
	seed, ok, err := ResumeSeed(file, "x-seed", "")
	assert.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, uint64(77), seed)
	_, ok, err = ResumeSeed(file, "x-seed", "5")
	assert.NoError(t, err)
	assert.False(t, ok, "the flag wins")
	_, ok, _ = ResumeSeed(map[string]string{}, "x-seed", "")
	assert.False(t, ok, "no seed in the file")
	_, _, err = ResumeSeed(map[string]string{"x-seed": "7x"}, "x-seed", "")
	assert.EqualError(t, err, `x-seed: "7x" is not a seed`)
}
