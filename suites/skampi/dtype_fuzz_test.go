package skampi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/fuzzcount"
)

// FuzzParseType: any text either is refused or is a type whose written
// out description reads back the same, whose layouts on 1 to 3
// processes hold their size in their runs within their true bounds, and
// whose program the C side gets; nothing panics or runs away.
func FuzzParseType(f *testing.F) {
	suites, _, err := ParseSuites("default", DefaultSuites, Layers{Procs: 4, Base: map[string]Given{}})
	require.NoError(f, err)
	for _, s := range suites {
		if s.Typed() {
			f.Add(s.SendType.String())
			f.Add(s.recvType().String())
		}
	}
	for _, s := range []string{"vector(3,2,4,double)", "struct(1:0:int,1:8:double)", "subarray(4:2:1,4:2:1,int)",
		"resized(0,8,vector(2,1,4,int))", "indexed(2:0,1:5,float)", "indexed-block(2,0,3,double)", "hvector(2,1,12p,char)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzcount.One()
		ty, err := ParseType(s, nil)
		if err != nil {
			return
		}
		text := ty.String()
		back, err := ParseType(text, nil)
		require.NoError(t, err, "%s reads back", text)
		require.Equal(t, text, back.String())
		for procs := 1; procs <= 3; procs++ {
			l, err := Lay(ty, procs)
			if err != nil {
				continue
			}
			var bytes int64
			for _, r := range l.Runs {
				bytes += r.Bytes()
				assert.True(t, r.Off >= l.TrueLB && r.Off+r.Bytes() <= l.TrueUB, "%s: run %+v within %d..%d", text, r, l.TrueLB, l.TrueUB)
			}
			assert.Equal(t, l.Size, bytes, "%s: the runs hold the size", text)
			_, err = Program(ty, procs)
			assert.NoError(t, err, text)
		}
	})
}
