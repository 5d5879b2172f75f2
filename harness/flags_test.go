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
