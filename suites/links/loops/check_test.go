package loops

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/mpi/mpitest"
)

// TestRefused: what the loop refuses before any C runs.
func TestRefused(t *testing.T) {
	s, r := mpitest.Buffers(t, 1024)
	ok := Pair{Partner: 1, Lower: true, Measure: Forth, Len: 1024, Reps: 4, Cap: 0.1, Send: s, Recv: r}
	require.NoError(t, ok.check())
	for _, c := range []struct {
		edit func(p *Pair)
		want string
	}{
		{func(p *Pair) { p.Measure = 4 }, "links: measurement 4: no such kind"},
		{func(p *Pair) { p.Len = 0 }, "links: messages of 0 bytes (1 to 2147483647)"},
		{func(p *Pair) { p.Len = mpi.MaxInt32 + 1 }, "links: messages of 2147483648 bytes"},
		{func(p *Pair) { p.Reps = 0 }, "links: 0 exchanges"},
		{func(p *Pair) { p.Cap = 0 }, "links: a cap of 0 s"},
		{func(p *Pair) { p.Partner = -1 }, "links: partner -1"},
		{func(p *Pair) { p.Len = 2048 }, "links: buffers of fewer than the 2048 bytes a message needs"},
		{func(p *Pair) { p.Recv = nil }, "links: buffers of fewer than the 1024 bytes"},
	} {
		p := ok
		c.edit(&p)
		_, err := Run(&p)
		assert.ErrorContains(t, err, c.want)
	}
}

// TestNames: the measurements' names in value order.
func TestNames(t *testing.T) {
	var got []string
	for i, m := range Measures {
		assert.Equal(t, Measure(i), m)
		got = append(got, m.String())
	}
	assert.Equal(t, []string{"lat", "forth", "back", "both"}, got)
}
