package skampi

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// base is what the driver's flag defaults give.
var base = map[string]Given{
	"lengths": {"1:4Mi", "-skampi.L"}, "step": {"2", "-skampi.step"}, "refine": {"false", "-skampi.refine"},
	"points": {"0", "-skampi.points"}, "length": {"256", "-skampi.length"}, "procs": {"N", "-skampi.procs"},
	"chunks": {"16", "-skampi.chunks"}, "pair": {"max", "-skampi.pair"}, "eps": {"0.03", "-skampi.eps"},
	"min-reps": {"8", "-skampi.min"}, "max-reps": {"1000", "-skampi.max"}, "budget": {"1s", "-skampi.budget"},
	"time": {"0s", "-skampi.time"}, "sync": {"window", "-skampi.sync"}, "cache": {"auto", "-skampi.cache"},
	"warmup": {"2", "-skampi.warmup"}, "procs-step": {"1", "-skampi.procs-step"}, "max-buffer": {"64Mi", "-skampi.max-buffer"},
}

func parse(t *testing.T, text string, l Layers) ([]*Setup, []string) {
	t.Helper()
	if l.Base == nil {
		l.Base = base
	}
	s, notes, err := ParseSuites("f.yaml", []byte(text), l)
	require.NoError(t, err)
	return s, notes
}

// roundTrip: every suite's configuration line reads back the same suite.
func roundTrip(t *testing.T, suites []*Setup) {
	t.Helper()
	for _, s := range suites {
		k, v := s.ConfigLine()
		back, err := ParseSuiteLine(k, v)
		require.NoError(t, err, "%s: %s", k, v)
		assert.Equal(t, s, back, "%s: %s", k, v)
	}
}

func pointNames(s *Setup) []string {
	var out []string
	for _, c := range s.Curves() {
		for _, p := range c.Grid() {
			out = append(out, p.Name())
		}
	}
	return out
}

func TestSuitePoints(t *testing.T) {
	suites, notes := parse(t, `
suites:
  - name: pp
    ops: [send-recv]
    lengths: 1:4
    pair: min
  - name: by-procs
    ops: barrier, mw-send, reduce
    vary: procs
    procs: 1:N
    length: 3
    chunks: 4
  - name: local
    ops: simple
`, Layers{Procs: 2})
	assert.Empty(t, notes)
	require.Len(t, suites, 3)
	assert.Equal(t, []string{"suite=pp/op=send-recv/pair=min/L=1", "suite=pp/op=send-recv/pair=min/L=2", "suite=pp/op=send-recv/pair=min/L=4"}, pointNames(suites[0]))
	assert.Equal(t, []string{"suite=by-procs/op=barrier/procs=1", "suite=by-procs/op=barrier/procs=2",
		"suite=by-procs/op=reduce/procs=1/L=4", "suite=by-procs/op=reduce/procs=2/L=4",
		"suite=by-procs/op=mw-send/procs=2/chunks=4/L=3"}, pointNames(suites[1]), "master-worker needs 2 processes; floats are 4 bytes")
	assert.Equal(t, VaryNone, suites[2].Vary, "local operations vary nothing")
	assert.Len(t, pointNames(suites[2]), 6, "the local operations but type-create, which needs a send-type")
	assert.Equal(t, "suite=local/op=wtime", pointNames(suites[2])[0])
}

// TestSuiteLayers: a field comes from the command line, the suite, the
// file's defaults or the base, in that order; -test.short shortens what
// the command line did not set.
func TestSuiteLayers(t *testing.T) {
	text := `
defaults:
  eps: 0.1
  max-reps: 500
suites:
  - name: a
    ops: allreduce
    eps: 0.05
    lengths: 1:1Mi
`
	s, _ := parse(t, text, Layers{Procs: 4})
	assert.Equal(t, Rule{Eps: 0.05, Min: 8, Max: 500, Budget: 1}, s[0].Rule)
	assert.Equal(t, []int{4}, s[0].Procs, "N")
	s, _ = parse(t, text, Layers{Procs: 4, Over: map[string]Given{"eps": {"0.2", "-skampi.eps"}}})
	assert.Equal(t, 0.2, s[0].Rule.Eps)
	s, _ = parse(t, text, Layers{Procs: 4, Short: true})
	assert.Equal(t, Sweep{From: 1, To: ShortTo, Step: ShortStep}, s[0].Lengths)
	assert.Equal(t, Rule{Eps: 0.05, Min: 8, Max: ShortMax, Budget: ShortBudget}, s[0].Rule)
	s, _ = parse(t, text, Layers{Procs: 4, Short: true, Over: map[string]Given{"lengths": {"1:64Ki", "-skampi.L"}}})
	assert.Equal(t, int64(64<<10), s[0].Lengths.To, "the command line beats -test.short")
}

// TestDefaultSuites: the shipped file parses on 1 to 64 processes, and
// every suite's configuration line reads back to the same suite.
func TestDefaultSuites(t *testing.T) {
	for _, n := range []int{1, 2, 4, 64} {
		suites, notes := parse(t, string(DefaultSuites), Layers{Procs: n})
		names := map[string]bool{}
		for _, s := range suites {
			names[s.Name] = true
		}
		roundTrip(t, suites)
		assert.True(t, names["coll-length"] && names["simple"], "np %d", n)
		assert.Equal(t, n > 1, names["pingpong"], "np %d: ping-pong needs 2 processes", n)
		if n == 1 {
			assert.Contains(t, strings.Join(notes, "\n"), "suite pingpong: send-recv is a ping-pong operation and needs 2 processes; the job has 1")
		}
	}
	// A results file's suite line must name the suite as a suite file
	// does: the name goes into pages and plots.
	first, _ := parse(t, string(DefaultSuites), Layers{Procs: 2})
	k, v := first[0].ConfigLine()
	_, err := ParseSuiteLine(KeySuite+"<img_src=x_onerror=alert(1)>", v)
	assert.ErrorContains(t, err, "suite name")
	_, err = ParseSuiteLine(k, v+" eps=0.1")
	assert.ErrorContains(t, err, "eps again")
	suites, _ := parse(t, string(DefaultSuites), Layers{Procs: 2})
	assert.True(t, suites[0].Refine)
	assert.Equal(t, 6.0, suites[0].Time)
}

// TestSuiteCallsTimerSync: the fields calls, timer and sync none (SKaMPI 5's
// settings) read from a suite file and back from the configuration line,
// which leaves out calls and timer at their usual values, so that lines
// written before they existed read back the same.
func TestSuiteCallsTimerSync(t *testing.T) {
	suites, _ := parse(t, "defaults:\n  calls: 1\n  timer: keep\n  span: 2Mi\nsuites:\n  - name: pp\n    ops: send-recv\n    sync: none\n  - name: b\n    ops: barrier\n    vary: none\n    calls: auto\n    timer: subtract\n", Layers{Procs: 2})
	require.Len(t, suites, 2)
	assert.Equal(t, 1, suites[0].Calls)
	assert.Equal(t, TimerKeep, suites[0].Timer)
	assert.Equal(t, SyncNone, suites[0].Sync)
	assert.Equal(t, 0, suites[1].Calls)
	assert.Equal(t, int64(2<<20), suites[0].Span)
	roundTrip(t, suites)
	_, v := suites[0].ConfigLine()
	assert.Contains(t, v, "sync=none cache=auto warmup=2 calls=1 timer=keep span=2097152")
	_, v = suites[1].ConfigLine()
	assert.NotContains(t, v, "calls=")
	assert.NotContains(t, v, "timer=")
	assert.True(t, strings.HasSuffix(v, "warmup=2 span=2097152 max-buffer=67108864"), v)
	for _, c := range []struct{ text, msg string }{
		{"suites:\n  - name: a\n    ops: barrier\n    vary: none\n    calls: 0\n", `f.yaml:5: calls: "0": want auto or a whole number from 1 to 1000`},
		{"suites:\n  - name: a\n    ops: barrier\n    vary: none\n    timer: off\n", `f.yaml:5: timer: "off": want subtract or keep`},
		{"suites:\n  - name: a\n    ops: barrier\n    vary: none\n    span: 8\n", `f.yaml:5: span: "8": want all or a length of at least 64 bytes (e.g. 2Mi)`},
	} {
		_, _, err := ParseSuites("f.yaml", []byte(c.text), Layers{Procs: 2, Base: base})
		assert.EqualError(t, err, c.msg)
	}
}

// TestSuiteFileErrors: every mistake is reported as file:line: what is
// wrong.
func TestSuiteFileErrors(t *testing.T) {
	cases := []struct{ name, text, msg string }{
		{"yaml", "suites:\n  - name: a\n    ops: [x\n", "f.yaml:2: did not find expected ',' or ']'"},
		{"empty", "", "f.yaml: empty"},
		{"top", "- a\n", "f.yaml:1: want a mapping with suites:"},
		{"top key", "suite:\n  - name: a\n", `f.yaml:1: unknown key "suite": want defaults, types or suites`},
		{"no list", "defaults:\n  eps: 0.1\n", "f.yaml:1: no suites: list"},
		{"list", "suites: 3\n", "f.yaml:1: suites: want a list"},
		{"field", "suites:\n  - name: a\n    ops: bcast\n    epsilon: 0.1\n", `f.yaml:4: unknown field "epsilon": want one of name, ops,`},
		{"name in defaults", "defaults:\n  name: x\nsuites:\n  - name: a\n    ops: bcast\n", `f.yaml:2: unknown field "name"`},
		{"no name", "suites:\n  - ops: bcast\n", "f.yaml:2: a suite without a name"},
		{"bad name", "suites:\n  - name: Ping\n    ops: bcast\n", "f.yaml:2: name: \"Ping\": want lowercase"},
		{"digits", "suites:\n  - name: run-2\n    ops: bcast\n", "not ending in -<digits>"},
		{"twice", "suites:\n  - name: a\n    ops: bcast\n  - name: a\n    ops: reduce\n", "f.yaml:4: suite a again (first at f.yaml:2)"},
		{"field twice", "suites:\n  - name: a\n    ops: bcast\n    ops: reduce\n", "f.yaml:4: ops again"},
		{"no ops", "suites:\n  - name: a\n", "f.yaml:2: suite a: no ops"},
		{"op", "suites:\n  - name: a\n    ops: allreduse\n", `f.yaml:3: ops: no operation "allreduse"`},
		{"eps", "suites:\n  - name: a\n    ops: bcast\n    eps: 2\n", "f.yaml:4: eps: 2: want a relative error between 0 and 1"},
		{"default eps", "defaults:\n  eps: 0\nsuites:\n  - name: a\n    ops: bcast\n", "f.yaml:2: eps: 0: want a relative error"},
		{"reps", "suites:\n  - name: a\n    ops: bcast\n    min-reps: 50\n    max-reps: 10\n", "f.yaml:4: min-reps: 50 is above max-reps 10 (f.yaml:5)"},
		{"lengths", "suites:\n  - name: a\n    ops: bcast\n    lengths: 64:1\n", "f.yaml:4: lengths: \"64:1\": the start 64 is above the end 1"},
		{"step", "suites:\n  - name: a\n    ops: bcast\n    step: 1\n", "f.yaml:4: step: 1: want a factor above 1"},
		{"procs", "suites:\n  - name: a\n    ops: bcast\n    procs: 9\n", "f.yaml:4: procs: 9: want a count from 1 to 4"},
		{"procs list", "suites:\n  - name: a\n    ops: bcast\n    procs: 1:N\n", "f.yaml:4: procs: a list of counts needs vary: procs"},
		{"refine", "suites:\n  - name: a\n    ops: bcast\n    vary: procs\n    refine: true\n", "f.yaml:5: refine: refinement is over the message length"},
		{"vary", "suites:\n  - name: a\n    ops: bcast\n    vary: size\n", `f.yaml:4: vary: "size": want length, procs, chunks or none`},
		{"cannot vary", "suites:\n  - name: a\n    ops: barrier\n", "f.yaml:3: ops: barrier has no length to vary"},
		{"sync", "suites:\n  - name: a\n    ops: bcast\n    sync: fence\n", `f.yaml:4: sync: "fence": want window or barrier`},
		{"budget", "suites:\n  - name: a\n    ops: bcast\n    budget: 5\n", `f.yaml:4: budget: "5": want a duration`},
		{"mapping", "suites:\n  - name: a\n    ops: {x: 1}\n", "f.yaml:3: ops: want a value or a list"},
		{"flag", "suites:\n  - name: a\n    ops: bcast\n", "-skampi.eps: eps: 7: want a relative error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := Layers{Procs: 4, Base: base}
			if c.name == "flag" {
				l.Over = map[string]Given{"eps": {"7", "-skampi.eps"}}
			}
			_, _, err := ParseSuites("f.yaml", []byte(c.text), l)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.msg)
		})
	}
	_, _, err := ParseSuites("f.yaml", []byte("suites:\n  - name: a\n    ops: ping-pong\n"), Layers{Procs: 1, Base: base})
	assert.ErrorContains(t, err, "f.yaml:2: no suite left to measure on 1 process")
}
