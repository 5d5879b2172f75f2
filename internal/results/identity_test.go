package results

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestIdentityNames: a suite's benchmark, folded-figure and direction
// names come from its one record.
func TestIdentityNames(t *testing.T) {
	id := &Identity{Bench: "BeffIO", FoldUnits: []Unit{{Name: "MB/s", Better: "higher"}, {Name: "min", Better: "lower"}}}
	assert.Equal(t, "BenchmarkBeffIO", id.Benchmark())
	assert.Equal(t, "BeffIOFold", id.FoldBench())
	assert.Equal(t, "higher", id.FoldBetter("MB/s"))
	assert.Equal(t, "lower", id.FoldBetter("min"))
	assert.Equal(t, "", id.FoldBetter("ns/call"), "not a unit of its figures")
}
