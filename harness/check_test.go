package harness

import (
	"bytes"
	"errors"
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/launch"
	"github.com/beff-suite/beff/internal/results"
)

// TestCheckOnly: the check before a launch runs the selected suites'
// CheckFlags (not the others'), says what the binary was built against
// and loads, and gives the verdict as its last line with the exit code.
func TestCheckOnly(t *testing.T) {
	bad := &Driver{ID: &results.Identity{Key: "toy", Name: "toy", Bench: "Toy"}, CheckFlags: func() error { return errors.New("-toy.x=1: out of range") }}
	other := &Driver{ID: &results.Identity{Key: "other", Name: "other", Bench: "Other"}, CheckFlags: func() error { return errors.New("never asked") }}
	old := flag.Lookup("test.bench").Value.String()
	t.Cleanup(func() { flag.Set("test.bench", old) })

	require.NoError(t, flag.Set("test.bench", "^BenchmarkToy$"))
	var out bytes.Buffer
	assert.Equal(t, ExitBadInput, checkOnly(&out, testFlags(), []*Driver{bad, other}))
	assert.Contains(t, out.String(), launch.CheckKey+": -toy.x=1: out of range\n")
	assert.Contains(t, out.String(), launch.BuiltKey+": ")
	assert.Contains(t, out.String(), launch.LoadedKey+": ")

	require.NoError(t, flag.Set("test.bench", "^BenchmarkNothing$"))
	out.Reset()
	assert.Equal(t, 0, checkOnly(&out, testFlags(), []*Driver{bad, other}), "the other suite's check is not asked")
	assert.Contains(t, out.String(), launch.CheckKey+": "+launch.CheckOK+"\n")
}
