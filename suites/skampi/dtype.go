package skampi

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A BaseType is a base type of the data: one of MPI's built-in types.
type BaseType int

const (
	KindByte BaseType = iota
	KindChar
	KindInt
	KindFloat
	KindDouble
)

var kindNames = [...]string{"byte", "char", "int", "float", "double"}

// kindSizes are the bytes of each kind on the platforms beff builds on
// (the C side checks them against MPI_Type_size).
var kindSizes = [...]int64{1, 1, 4, 4, 8}

func (k BaseType) String() string { return kindNames[k] }

// Size is the bytes of one element of the kind.
func (k BaseType) Size() int64 { return kindSizes[k] }

// A Ctor is how a type is made: a base kind, or one of MPI's type
// constructors.
type Ctor int

const (
	CtorBase Ctor = iota
	CtorContiguous
	CtorVector
	CtorHvector
	CtorIndexed
	CtorIndexedBlock
	CtorStruct
	CtorSubarray
	CtorResized
)

var ctorNames = [...]string{"", "contiguous", "vector", "hvector", "indexed", "indexed-block", "struct", "subarray", "resized"}

// A Num is a whole number of a type's description, or that many times
// the processes of the point (written with a trailing p, e.g. 16p).
type Num struct {
	V int64
	P bool
}

// At is the number on procs processes.
func (n Num) At(procs int) int64 {
	if n.P {
		return n.V * int64(procs)
	}
	return n.V
}

func (n Num) String() string {
	s := strconv.FormatInt(n.V, 10)
	if n.P {
		s += "p"
	}
	return s
}

// A Type is the description of an MPI datatype (docs/skampi.md,
// "Datatypes"): a base kind, or a constructor over inner types.
type Type struct {
	Ctor   Ctor
	Kind   BaseType // CtorBase
	Count  Num      // contiguous, vector, hvector: count
	Block  Num      // vector, hvector, indexed-block: block length
	Stride Num      // vector: in extents of the inner type; hvector: bytes
	Blocks []Num    // indexed: block lengths; struct: counts
	Displs []Num    // indexed, indexed-block: in extents of the inner type; struct: bytes
	Dims   [][3]Num // subarray: size, subsize, start per dimension (C order)
	LB     Num      // resized
	Extent Num      // resized
	Of     []*Type  // the inner type; struct: one per field
}

// Limits of a type description.
const (
	MaxTypeRuns  = 1 << 20 // contiguous runs of one instance
	MaxTypeDepth = 16      // nesting of constructors
	MaxTypeText  = 4096    // bytes of a description
)

// Bytes is the type of an untyped suite: MPI_BYTE.
var Bytes = &Type{Ctor: CtorBase, Kind: KindByte}

// ParseType reads a type description, e.g. vector(64,1,128,double);
// named are the types of the suite file by name, usable inside.
func ParseType(s string, named map[string]*Type) (*Type, error) {
	if len(s) > MaxTypeText {
		return nil, fmt.Errorf("a type description of %d bytes: at most %d", len(s), MaxTypeText)
	}
	p := &typeParser{s: strings.Join(strings.Fields(s), ""), named: named}
	t, err := p.typ(0)
	if err == nil && p.i < len(p.s) {
		err = p.fail("unexpected %q", p.s[p.i:])
	}
	if err != nil {
		return nil, err
	}
	if n := t.textLen(map[*Type]int{}); n > MaxTypeText {
		return nil, fmt.Errorf("type %.60s…: %d bytes with its named types written out: at most %d", p.s, n, MaxTypeText)
	}
	return t, nil
}

// textLen is the length of String() without writing it (named types
// shared by reference would make that exponential), capped past
// MaxTypeText.
func (t *Type) textLen(seen map[*Type]int) int {
	if n, ok := seen[t]; ok {
		return n
	}
	if t.Ctor == CtorBase {
		return len(t.Kind.String())
	}
	n := len(ctorNames[t.Ctor]) + 2
	for _, a := range t.ownArgs() {
		n += len(a) + 1 // and a comma, or the field's colon
	}
	for _, in := range t.Of {
		n = min(n+in.textLen(seen), 2*MaxTypeText)
	}
	if t.Ctor == CtorStruct || len(t.ownArgs()) == 0 {
		n-- // a struct's fields have one comma fewer than parts
	}
	seen[t] = n
	return n
}

type typeParser struct {
	s     string
	i     int
	named map[string]*Type
}

func (p *typeParser) fail(format string, args ...any) error {
	return fmt.Errorf("type %s: at character %d: %s", p.s, p.i+1, fmt.Sprintf(format, args...))
}

func (p *typeParser) word() string {
	j := p.i
	for j < len(p.s) && (p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= '0' && p.s[j] <= '9' || p.s[j] == '-') {
		j++
	}
	w := p.s[p.i:j]
	p.i = j
	return w
}

func (p *typeParser) eat(c byte) error {
	if p.i >= len(p.s) || p.s[p.i] != c {
		return p.fail("want %q", string(c))
	}
	p.i++
	return nil
}

func (p *typeParser) peek(c byte) bool { return p.i < len(p.s) && p.s[p.i] == c }

// typ reads a type at nesting depth d.
func (p *typeParser) typ(d int) (*Type, error) {
	if d > MaxTypeDepth {
		return nil, p.fail("nested deeper than %d", MaxTypeDepth)
	}
	w := p.word()
	for k, n := range kindNames {
		if w == n {
			return &Type{Ctor: CtorBase, Kind: BaseType(k)}, nil
		}
	}
	if !p.peek('(') {
		if t, ok := p.named[w]; ok {
			return t, nil
		}
		return nil, p.fail("no type %q: want %s, a named type or a constructor (%s)", w, strings.Join(kindNames[:], ", "), strings.Join(ctorNames[1:], ", "))
	}
	c := Ctor(slices.Index(ctorNames[:], w))
	if c <= CtorBase {
		return nil, p.fail("no constructor %q: want one of %s", w, strings.Join(ctorNames[1:], ", "))
	}
	p.i++ // (
	t := &Type{Ctor: c}
	if err := p.args(t, d); err != nil {
		return nil, err
	}
	return t, p.eat(')')
}

// args reads a constructor's arguments up to its closing parenthesis.
func (p *typeParser) args(t *Type, d int) error {
	var err error
	switch t.Ctor {
	case CtorContiguous:
		err = p.nums(&t.Count)
	case CtorVector, CtorHvector:
		err = p.nums(&t.Count, &t.Block, &t.Stride)
	case CtorIndexed:
		t.Blocks, t.Displs, err = p.pairs()
	case CtorIndexedBlock:
		if err = p.nums(&t.Block); err == nil {
			t.Displs, err = p.list()
		}
	case CtorSubarray:
		t.Dims, err = p.triples()
	case CtorResized:
		err = p.nums(&t.LB, &t.Extent)
	case CtorStruct:
		return p.fields(t, d)
	}
	if err != nil {
		return err
	}
	in, err := p.typ(d + 1)
	t.Of = []*Type{in}
	return err
}

// num reads a number: digits, then p for times the processes.
func (p *typeParser) num() (Num, error) {
	j := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	v, err := strconv.ParseInt(p.s[j:p.i], 10, 64)
	if err != nil || v > math.MaxInt32 {
		p.i = j
		return Num{}, p.fail("want a whole number from 0 to %d", math.MaxInt32)
	}
	n := Num{V: v}
	if p.peek('p') && !(p.i+1 < len(p.s) && p.s[p.i+1] >= 'a' && p.s[p.i+1] <= 'z') {
		n.P = true
		p.i++
	}
	return n, nil
}

// nums reads numbers, each followed by a comma.
func (p *typeParser) nums(out ...*Num) error {
	for _, o := range out {
		n, err := p.num()
		if err != nil {
			return err
		}
		*o = n
		if err := p.eat(','); err != nil {
			return err
		}
	}
	return nil
}

// list reads numbers up to the last comma before the inner type.
func (p *typeParser) list() ([]Num, error) {
	var out []Num
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		n, err := p.num()
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		if err := p.eat(','); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, p.fail("want at least one displacement")
	}
	return out, nil
}

// pairs reads indexed blocks: length:displacement, each then a comma.
func (p *typeParser) pairs() (blocks, displs []Num, err error) {
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		b, err := p.num()
		if err == nil {
			err = p.eat(':')
		}
		var d Num
		if err == nil {
			d, err = p.num()
		}
		if err == nil {
			err = p.eat(',')
		}
		if err != nil {
			return nil, nil, err
		}
		blocks, displs = append(blocks, b), append(displs, d)
	}
	if len(blocks) == 0 {
		return nil, nil, p.fail("want blocks as length:displacement")
	}
	return blocks, displs, nil
}

// triples reads subarray dimensions: size:subsize:start, each then a comma.
func (p *typeParser) triples() ([][3]Num, error) {
	var out [][3]Num
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		var d [3]Num
		for k := range d {
			n, err := p.num()
			if err != nil {
				return nil, err
			}
			d[k] = n
			sep := byte(':')
			if k == 2 {
				sep = ','
			}
			if err := p.eat(sep); err != nil {
				return nil, err
			}
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, p.fail("want dimensions as size:subsize:start")
	}
	return out, nil
}

// fields reads a struct's fields: count:offset:type, separated by commas.
func (p *typeParser) fields(t *Type, d int) error {
	for {
		b, err := p.num()
		if err == nil {
			err = p.eat(':')
		}
		var off Num
		if err == nil {
			off, err = p.num()
		}
		if err == nil {
			err = p.eat(':')
		}
		if err != nil {
			return err
		}
		in, err := p.typ(d + 1)
		if err != nil {
			return err
		}
		t.Blocks, t.Displs, t.Of = append(t.Blocks, b), append(t.Displs, off), append(t.Of, in)
		if !p.peek(',') {
			return nil
		}
		p.i++
	}
}

// String is the canonical description: no blanks, named types written
// out.
func (t *Type) String() string {
	if t.Ctor == CtorBase {
		return t.Kind.String()
	}
	a := t.ownArgs()
	if t.Ctor == CtorStruct {
		for i, in := range t.Of {
			a[i] += in.String()
		}
	} else {
		a = append(a, t.Of[0].String())
	}
	return ctorNames[t.Ctor] + "(" + strings.Join(a, ",") + ")"
}

// ownArgs are the constructor's arguments but its inner types; a
// struct's are its fields' count:offset: prefixes.
func (t *Type) ownArgs() []string {
	var a []string
	nums := func(ns ...Num) {
		for _, n := range ns {
			a = append(a, n.String())
		}
	}
	switch t.Ctor {
	case CtorContiguous:
		nums(t.Count)
	case CtorVector, CtorHvector:
		nums(t.Count, t.Block, t.Stride)
	case CtorIndexed:
		for i := range t.Blocks {
			a = append(a, t.Blocks[i].String()+":"+t.Displs[i].String())
		}
	case CtorIndexedBlock:
		nums(t.Block)
		nums(t.Displs...)
	case CtorSubarray:
		for _, d := range t.Dims {
			a = append(a, d[0].String()+":"+d[1].String()+":"+d[2].String())
		}
	case CtorResized:
		nums(t.LB, t.Extent)
	case CtorStruct:
		for i := range t.Blocks {
			a = append(a, t.Blocks[i].String()+":"+t.Displs[i].String()+":")
		}
	}
	return a
}
