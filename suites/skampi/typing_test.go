package skampi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const typedFile = `
types:
  pair: struct(1:0:int,1:8:double)
  face: vector(4,1,8,pair)
defaults:
  send-type: face
suites:
  - name: halo
    ops: ping-pong
    vary: length
    lengths: 1:200
    step: 4
    methods: [manual, datatype]
  - name: into-contig
    ops: bcast
    recv-type: contiguous(8,struct(1:0:int,1:4:double))
    vary: procs
    procs: 2:N
    length: 1
  - name: build
    ops: simple
  - name: plain
    ops: send-recv
    send-type: bytes
    lengths: 1:4
`

// TestTypedSuites: types from the file's types: and defaults:, the
// points of every method, lengths in whole instances, operations that
// take no datatype left out where a pattern brought them in, and the
// configuration line read back the same.
func TestTypedSuites(t *testing.T) {
	suites, _ := parse(t, typedFile, Layers{Procs: 3})
	require.Len(t, suites, 4)
	halo := suites[0]
	assert.Equal(t, "vector(4,1,8,struct(1:0:int,1:8:double))", halo.SendType.String())
	assert.Nil(t, halo.RecvType)
	assert.Equal(t, []string{MethodDatatype, MethodManual}, halo.Methods, "in the order of MethodNames")
	names := pointNames(halo)
	assert.Contains(t, names, "suite=halo/op=send-recv/method=datatype/pair=max/L=48", "one instance: 4 × (int, double)")
	assert.Contains(t, names, "suite=halo/op=sendrecv-replace/method=manual/pair=max/L=240")
	assert.NotContains(t, names, "suite=halo/op=send-recv/method=pack/pair=max/L=48")
	assert.Equal(t, []string{"suite=into-contig/op=bcast/method=datatype/procs=2/L=96", "suite=into-contig/op=bcast/method=datatype/procs=3/L=96"},
		pointNames(suites[1])[:2])
	assert.Equal(t, []string{"suite=build/op=type-create"}, pointNames(suites[2]), "of the local operations only type-create takes a type")
	assert.False(t, suites[3].Typed())
	assert.Equal(t, []string{"suite=plain/op=send-recv/pair=max/L=1", "suite=plain/op=send-recv/pair=max/L=2", "suite=plain/op=send-recv/pair=max/L=4"}, pointNames(suites[3]))
	roundTrip(t, suites)
	_, v := suites[3].ConfigLine()
	assert.NotContains(t, v, "type", "an untyped suite's line is as before types existed")
	assert.NotContains(t, v, "methods")
	assert.Equal(t, "at p=2 send: size=48 extent=400 true-lb=0 true-extent=400 runs=8; recv: size=48 extent=400 true-lb=0 true-extent=400 runs=8", halo.TypeLine(2))
}

// TestTypedSuiteFootprint: a typed point's buffers hold the span of its
// instances (per process for the block operations), a pack or manual
// point's scratch its payload both ways.
func TestTypedSuiteFootprint(t *testing.T) {
	suites, _ := parse(t, "suites:\n  - name: v\n    ops: [send-recv, gather]\n    send-type: vector(2,1,4,double)\n    lengths: 16:32\n", Layers{Procs: 4})
	s := suites[0]
	pp := Point{Op: OpIndex("send-recv"), Procs: 2, Len: 32, Method: MethodDatatype}
	assert.Equal(t, int64(80), s.Footprint(pp), "2 instances of extent 40")
	pp.Method = MethodContig
	assert.Equal(t, int64(32), s.Footprint(pp))
	g := Point{Op: OpIndex("gather"), Procs: 4, Len: 32, Method: MethodPack}
	assert.Equal(t, int64(3*80+80), s.Footprint(g))
	assert.Equal(t, 2*4*int64(32+BsendOverhead), s.Scratch(g))
	g.Method = MethodDatatype
	assert.Zero(t, s.Scratch(g))
}

// TestTypedSuiteErrors: a typed suite that cannot run is refused with
// file:line and the suite's name before anything runs.
func TestTypedSuiteErrors(t *testing.T) {
	cases := []struct{ name, text, msg string }{
		{"signature", "suites:\n  - name: a\n    ops: send-recv\n    send-type: int\n    recv-type: float\n",
			"f.yaml:4, f.yaml:5: suite a: on 2 processes: the send data is 1 int, the receive data 1 float"},
		{"recv alone", "suites:\n  - name: a\n    ops: send-recv\n    recv-type: int\n", "f.yaml:4: recv-type: suite a has no send-type"},
		{"replace", "suites:\n  - name: a\n    ops: sendrecv-replace\n    send-type: vector(2,1,2,int)\n    recv-type: contiguous(2,int)\n",
			"suite a: sendrecv-replace has one buffer and one datatype"},
		{"untyped op", "suites:\n  - name: a\n    ops: reduce\n    send-type: int\n", "f.yaml:3: ops: reduce takes no datatype (suite a has send-type int)"},
		{"create untyped", "suites:\n  - name: a\n    ops: type-create\n", "f.yaml:3: ops: type-create needs a send-type"},
		{"description", "suites:\n  - name: a\n    ops: send-recv\n    send-type: vector(2,1,int)\n", "f.yaml:4: type vector(2,1,int): at character 12: want a whole number"},
		{"unknown name", "suites:\n  - name: a\n    ops: send-recv\n    send-type: face\n", `f.yaml:4: type face: at character 5: no type "face"`},
		{"later name", "types:\n  a: b\n  b: int\nsuites:\n  - name: a\n    ops: send-recv\n", `f.yaml:2: type b: at character 2: no type "b"`},
		{"kind name", "types:\n  double: int\nsuites:\n  - name: a\n    ops: send-recv\n", `f.yaml:2: type name "double" is a word of the type language`},
		{"ctor name", "types:\n  vector: int\nsuites:\n  - name: a\n    ops: send-recv\n", `is a word of the type language`},
		{"types list", "types: [int]\nsuites:\n  - name: a\n    ops: send-recv\n", "f.yaml:1: types: want a mapping"},
		{"no data at p", "suites:\n  - name: a\n    ops: bcast\n    vary: procs\n    send-type: contiguous(1,subarray(4:2p:1,int))\n",
			"suite a: on 2 processes: type contiguous(1,subarray(4:2p:1,int)): dimension 1: size 4, subsize 4, start 1"},
		{"method", "suites:\n  - name: a\n    ops: send-recv\n    send-type: int\n    methods: [copy]\n", `f.yaml:5: methods: "copy": want all or some of datatype, pack, manual, contiguous`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := ParseSuites("f.yaml", []byte(c.text), Layers{Procs: 4, Base: base})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.msg)
		})
	}
}
