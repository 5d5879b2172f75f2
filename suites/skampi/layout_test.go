package skampi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLay(t *testing.T) {
	d, i, f := KindDouble, KindInt, KindFloat
	tests := []struct {
		desc                string
		runs                []Stretch
		size, ext, tlb, tub int64
	}{
		{"double", []Stretch{{0, d, 1}}, 8, 8, 0, 8},
		{"vector(3,2,4,double)", []Stretch{{0, d, 2}, {32, d, 2}, {64, d, 2}}, 48, 80, 0, 80},
		{"hvector(2,1,12,int)", []Stretch{{0, i, 1}, {12, i, 1}}, 8, 16, 0, 16},
		{"contiguous(1000000,double)", []Stretch{{0, d, 1000000}}, 8e6, 8e6, 0, 8e6},
		{"contiguous(3,vector(2,1,2,int))", []Stretch{{0, i, 1}, {8, i, 2}, {20, i, 2}, {32, i, 1}}, 24, 36, 0, 36},
		{"indexed(2:0,1:5,float)", []Stretch{{0, f, 2}, {20, f, 1}}, 12, 24, 0, 24},
		{"indexed-block(2,0,3,double)", []Stretch{{0, d, 2}, {24, d, 2}}, 32, 40, 0, 40},
		{"struct(1:0:int,1:8:double)", []Stretch{{0, i, 1}, {8, d, 1}}, 12, 16, 0, 16},
		{"struct(3:0:int,2:12:float)", []Stretch{{0, i, 3}, {12, f, 2}}, 20, 20, 0, 20},
		{"subarray(4:2:1,4:2:1,int)", []Stretch{{20, i, 2}, {36, i, 2}}, 16, 64, 20, 44},
		{"resized(0,8,vector(2,1,4,int))", []Stretch{{0, i, 1}, {16, i, 1}}, 8, 8, 0, 20},
		{"vector(2,1,2p,double)", []Stretch{{0, d, 1}, {64, d, 1}}, 16, 72, 0, 72},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			ty, err := ParseType(tt.desc, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.desc, ty.String())
			l, err := Lay(ty, 4)
			require.NoError(t, err)
			assert.Equal(t, tt.runs, l.Runs)
			assert.Equal(t, []int64{tt.size, tt.ext, tt.tlb, tt.tub}, []int64{l.Size, l.Extent, l.TrueLB, l.TrueUB})
		})
	}
}

func TestParseTypeNamedAndBlanks(t *testing.T) {
	su3, err := ParseType("contiguous(6, double)", nil)
	require.NoError(t, err)
	ty, err := ParseType(" vector( 4, 1, 8, su3 )", map[string]*Type{"su3": su3})
	require.NoError(t, err)
	assert.Equal(t, "vector(4,1,8,contiguous(6,double))", ty.String())
	assert.False(t, ty.UsesProcs())
	ty, err = ParseType("struct(1:0:vector(2,1,2p,int),1:4:byte)", nil)
	require.NoError(t, err)
	assert.True(t, ty.UsesProcs())
}

func TestParseTypeRefuses(t *testing.T) {
	for desc, want := range map[string]string{
		"":                           "no type",
		"long":                       `no type "long"`,
		"matrix(2,double)":           `no constructor "matrix"`,
		"vector(2,1,double)":         "want a whole number",
		"vector(2,1,4,double":        `want ")"`,
		"contiguous(3000000000,int)": "from 0 to 2147483647",
		"indexed(double)":            "want blocks",
		"double)":                    "unexpected",
		strings.Repeat("contiguous(1,", 20) + "int" + strings.Repeat(")", 20): "nested deeper",
	} {
		_, err := ParseType(desc, nil)
		if assert.Error(t, err, desc) {
			assert.Contains(t, err.Error(), want, desc)
		}
	}
}

func TestLayRefuses(t *testing.T) {
	for desc, want := range map[string]string{
		"contiguous(0,int)":                        "no data",
		"vector(2,1,3,resized(0,0,int))":           "extent 0",
		"subarray(4:3:2,int)":                      "start+subsize",
		"vector(2000000,1,2,byte)":                 "more than 1048576 runs",
		"contiguous(2,contiguous(2000000000,int))": "at most 2^31",
	} {
		ty, err := ParseType(desc, nil)
		require.NoError(t, err, desc)
		_, err = Lay(ty, 2)
		if assert.Error(t, err, desc) {
			assert.Contains(t, err.Error(), want, desc)
		}
	}
}

func TestMatches(t *testing.T) {
	lay := func(s string) *TypeLayout {
		ty, err := ParseType(s, nil)
		require.NoError(t, err)
		l, err := Lay(ty, 2)
		require.NoError(t, err)
		return l
	}
	assert.NoError(t, Matches(lay("vector(2,1,2,double)"), lay("double")))
	assert.NoError(t, Matches(lay("struct(1:0:int,1:8:double)"), lay("struct(1:0:int,1:4:double)")))
	assert.NoError(t, Matches(lay("byte"), lay("contiguous(7,byte)")))
	err := Matches(lay("int"), lay("float"))
	if assert.Error(t, err) {
		assert.Contains(t, err.Error(), "the send data is 1 int, the receive data 1 float")
	}
	assert.Error(t, Matches(lay("struct(1:0:int,1:8:double)"), lay("struct(1:0:double,1:8:int)")))
	assert.Error(t, Matches(lay("byte"), lay("char")))
}

func TestProgram(t *testing.T) {
	ty, err := ParseType("struct(2:0:int,1:8:vector(2,1,3p,double))", nil)
	require.NoError(t, err)
	p, err := Program(ty, 2)
	require.NoError(t, err)
	// struct, 2 fields, lb 0, extent 8+56, counts, displacements, int, vector(2,1,6,double)
	assert.Equal(t, []int64{int64(CtorStruct), 2, 0, 64, 2, 1, 0, 8, int64(CtorBase), int64(KindInt),
		int64(CtorVector), 2, 1, 6, int64(CtorBase), int64(KindDouble)}, p)
}

// TestTextLen: the length ParseType caps is that of the description
// written out, computed without writing it.
func TestTextLen(t *testing.T) {
	for _, desc := range []string{"int", "vector(3,2,4,double)", "struct(1:0:int,1:8:double)", "indexed(2:0,1:5,float)",
		"contiguous(3,vector(2,1,2p,int))", "subarray(4:2:1,4:2:1,int)", "resized(0,8,struct(3:0:int,2:12:float))", "indexed-block(2,0,3,double)"} {
		ty, err := ParseType(desc, nil)
		require.NoError(t, err)
		assert.Equal(t, len(ty.String()), ty.textLen(map[*Type]int{}), desc)
	}
	// Named types shared by reference double at each level: refused from
	// their size written out, in no time.
	named := map[string]*Type{}
	prev := "int"
	for i := range 40 {
		ty, err := ParseType("struct(1:0:"+prev+",1:64:"+prev+")", named)
		if err != nil {
			assert.Contains(t, err.Error(), "with its named types written out: at most 4096")
			assert.Greater(t, i, 4)
			return
		}
		name := fmt.Sprintf("t%c", 'a'+i)
		named[name], prev = ty, name
	}
	t.Fatal("a description that doubles 40 times was accepted")
}
