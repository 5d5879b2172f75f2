package beffio_test

import (
	"strings"
	"testing"

	"github.com/beff-suite/beff/suites/beffio"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAndSelectHints(t *testing.T) {
	const file = `# comment
cb_buffer_size=1048576
partition=2 access=read type=scatter cb_nodes=2
type=shared l=1024 striping_unit=65536
partition=* access=* type=* l=* cb_buffer_size=4194304
`
	rules, err := beffio.ParseHints(strings.NewReader(file), "h.txt")
	require.NoError(t, err)
	require.Len(t, rules, 4)
	assert.Equal(t, map[string]string{"cb_buffer_size": "4194304"},
		beffio.SelectHints(rules, 1, beffio.Write, beffio.Scatter, 0), "later rules override earlier ones")
	assert.Equal(t, map[string]string{"cb_buffer_size": "4194304", "cb_nodes": "2"},
		beffio.SelectHints(rules, 2, beffio.Read, beffio.Scatter, 0))
	assert.Equal(t, map[string]string{"striping_unit": "65536"},
		beffio.SelectHints(rules, 4, beffio.Write, beffio.Shared, 1024), "chunk-size rules apply per pattern only")
	assert.Nil(t, beffio.SelectHints(rules, 4, beffio.Write, beffio.Shared, 2048))
}

func TestParseHintsErrors(t *testing.T) {
	for in, msg := range map[string]string{
		"type=bogus a=b":  "h.txt:1: type=bogus",
		"\naccess=x a=b":  "h.txt:2: access=x",
		"partition=0 a=b": "partition=0",
		"l=abc a=b":       "l=abc",
		"justaword":       `"justaword" is not key=value`,
		"type=shared":     "no hint",
	} {
		_, err := beffio.ParseHints(strings.NewReader(in), "h.txt")
		if assert.Error(t, err, in) {
			assert.Contains(t, err.Error(), msg)
		}
	}
}

func TestFormatHints(t *testing.T) {
	assert.Equal(t, "a=1, b=2", beffio.FormatHints([]string{"b=2", "a=1"}))
	assert.Equal(t, "", beffio.FormatHints(nil))
}

func TestCheckHintLimits(t *testing.T) {
	rules, err := beffio.ParseHints(strings.NewReader("cb_nodes=2\n"+strings.Repeat("k", 300)+"=1\nstriping_unit="+strings.Repeat("9", 2000)+"\n"), "h.txt")
	require.NoError(t, err)
	assert.NoError(t, beffio.CheckHintLimits(rules[:1], "h.txt", 36, 256))
	assert.NoError(t, beffio.CheckHintLimits(rules, "h.txt", 0, 0), "limits not known")
	err = beffio.CheckHintLimits(rules, "h.txt", 255, 1024)
	assert.ErrorContains(t, err, "h.txt:2: hint key ")
	assert.ErrorContains(t, err, "has 300 bytes, more than the 255 of this MPI library's MPI_MAX_INFO_KEY")
	err = beffio.CheckHintLimits(rules[2:], "h.txt", 255, 1024)
	assert.EqualError(t, err, "h.txt:3: the value of hint striping_unit has 2000 bytes, more than the 1024 of this MPI library's MPI_MAX_INFO_VAL")
}
