package skampi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGroupOf: every collective of a suite of many falls into a group, a
// reference and a form into their operation's.
func TestGroupOf(t *testing.T) {
	byName := map[string]Op{}
	for _, o := range Ops {
		byName[o.Name] = o
	}
	for name, want := range map[string]string{
		"bcast": "one to all", "bcast-sendrecv": "one to all", "ibcast": "one to all", "bcast-persistent": "one to all",
		"gather-irecv": "all to one", "alltoall-isend-irecv": "all to all", "allreduce-reduce-bcast": "all to all",
		"ineighbor-alltoall": "neighborhood", "barrier": "synchronisation and communicators", "memcpy": "local copy",
		"scan": "prefix reductions", "send-recv": "",
	} {
		o, ok := byName[name]
		require.True(t, ok, name)
		assert.Equal(t, want, GroupOf(o), name)
	}
	for _, o := range Ops {
		if o.Pattern == Collective {
			assert.NotEmpty(t, GroupOf(o), "collective %s has a group", o.Name)
		}
	}
}
