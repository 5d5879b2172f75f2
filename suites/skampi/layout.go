package skampi

import (
	"errors"
	"fmt"
	"math"
)

// A Stretch is a stretch of consecutive elements of one kind in a type's
// data: at byte Off of an instance, N elements.
type Stretch struct {
	Off  int64
	Kind BaseType
	N    int64
}

// Bytes is the run's length in bytes.
func (r Stretch) Bytes() int64 { return r.N * r.Kind.Size() }

// A TypeLayout is a type at one process count, as MPI sees it: its data in
// typemap order (the order MPI packs it), its bounds and its size.
type TypeLayout struct {
	Runs           []Stretch // in typemap order, adjacent runs of one kind merged
	Size           int64     // bytes of data (MPI_Type_size)
	LB, Extent     int64     // MPI_Type_get_extent
	TrueLB, TrueUB int64     // the lowest and one past the highest byte of data
}

// TrueExtent is MPI_Type_get_true_extent's extent.
func (l *TypeLayout) TrueExtent() int64 { return l.TrueUB - l.TrueLB }

// Span is the bytes a message of count instances covers from the
// buffer's start (lower bounds are not negative, see Lay).
func (l *TypeLayout) Span(count int64) int64 {
	if count <= 0 {
		return 0
	}
	return (count-1)*l.Extent + l.TrueUB
}

// errTooLarge marks a layout whose numbers pass what MPI's ints hold.
var errTooLarge = errors.New("at most 2^31−1")

// Lay makes the layout of t on procs processes. It refuses what MPI
// could not take in an int (every count, displacement and size below
// 2^31), negative bounds, an extent below 1, more than MaxTypeRuns runs
// and a type without data.
func Lay(t *Type, procs int) (*TypeLayout, error) {
	l, err := lay(t, procs)
	if err != nil {
		return nil, fmt.Errorf("type %s: %w", t, err)
	}
	switch {
	case l.Size == 0:
		return nil, fmt.Errorf("type %s: no data", t)
	case l.LB < 0 || l.TrueLB < 0:
		return nil, fmt.Errorf("type %s: a negative lower bound (%d): displacements must not be negative", t, min(l.LB, l.TrueLB))
	case l.Extent < 1:
		return nil, fmt.Errorf("type %s: extent %d: want at least 1", t, l.Extent)
	case l.Size > MaxInt || l.TrueUB > MaxInt || l.Extent > MaxInt:
		return nil, fmt.Errorf("type %s: %d bytes of data over %d: %w", t, l.Size, l.TrueUB, errTooLarge)
	}
	return l, nil
}

func lay(t *Type, procs int) (*TypeLayout, error) {
	at := func(n Num) int64 { return n.At(procs) }
	if t.Ctor == CtorBase {
		s := t.Kind.Size()
		return &TypeLayout{Runs: []Stretch{{0, t.Kind, 1}}, Size: s, Extent: s, TrueUB: s}, nil
	}
	if t.Ctor == CtorStruct {
		return layStruct(t, procs)
	}
	in, err := lay(t.Of[0], procs)
	if err != nil {
		return nil, err
	}
	ext := in.Extent
	var b placer
	switch t.Ctor {
	case CtorContiguous:
		b.place(in, 0, at(t.Count))
	case CtorVector, CtorHvector:
		stride := at(t.Stride)
		if t.Ctor == CtorVector {
			stride *= ext
		}
		for i := int64(0); i < at(t.Count) && b.err == nil; i++ {
			b.place(in, i*stride, at(t.Block))
			if len(in.Runs) == 0 && i+1 < at(t.Count)-1 {
				i = at(t.Count) - 2 // no data: the bounds are those of the first and last block
			}
		}
	case CtorIndexed:
		for i := range t.Blocks {
			b.place(in, at(t.Displs[i])*ext, at(t.Blocks[i]))
		}
	case CtorIndexedBlock:
		for _, d := range t.Displs {
			b.place(in, at(d)*ext, at(t.Block))
		}
	case CtorSubarray:
		return laySubarray(t, in, procs)
	case CtorResized:
		l := *in
		l.LB, l.Extent = at(t.LB), at(t.Extent)
		return &l, nil
	}
	return b.done()
}

// A placer builds a layout from blocks of an inner type.
type placer struct {
	l      TypeLayout
	bounds bool // some block placed
	err    error
}

// place puts n consecutive instances of in at byte off.
func (b *placer) place(in *TypeLayout, off, n int64) {
	if b.err != nil || n <= 0 {
		return
	}
	if n > MaxInt || math.Abs(float64(off)) > MaxInt {
		b.err = fmt.Errorf("a count or displacement of %d: %w", max(n, off), errTooLarge)
		return
	}
	switch {
	case len(in.Runs) == 0: // no data, bounds only
	case len(in.Runs) == 1 && in.Runs[0].Bytes() == in.Extent:
		r := in.Runs[0]
		b.add(Stretch{off + r.Off, r.Kind, r.N * n}) // dense: n instances are one run
	default:
		for k := range n {
			base := off + k*in.Extent
			for _, r := range in.Runs {
				b.add(Stretch{base + r.Off, r.Kind, r.N})
			}
			if len(b.l.Runs) > MaxTypeRuns {
				break
			}
		}
	}
	if len(b.l.Runs) > MaxTypeRuns {
		b.err = fmt.Errorf("more than %d runs of data", MaxTypeRuns)
		return
	}
	lb, ub := off+in.LB, off+(n-1)*in.Extent+in.LB+in.Extent
	tlb, tub := off+in.TrueLB, off+(n-1)*in.Extent+in.TrueUB
	if !b.bounds {
		b.l.LB, b.l.Extent, b.l.TrueLB, b.l.TrueUB, b.bounds = lb, ub-lb, tlb, tub, true
	} else {
		hi := max(b.l.LB+b.l.Extent, ub)
		b.l.LB = min(b.l.LB, lb)
		b.l.Extent = hi - b.l.LB
		b.l.TrueLB, b.l.TrueUB = min(b.l.TrueLB, tlb), max(b.l.TrueUB, tub)
	}
	b.l.Size += n * in.Size
}

// add appends a run, merged with the last when it continues it.
func (b *placer) add(r Stretch) {
	if k := len(b.l.Runs) - 1; k >= 0 {
		last := &b.l.Runs[k]
		if last.Kind == r.Kind && last.Off+last.Bytes() == r.Off {
			last.N += r.N
			return
		}
	}
	b.l.Runs = append(b.l.Runs, r)
}

func (b *placer) done() (*TypeLayout, error) {
	if b.err != nil {
		return nil, b.err
	}
	return &b.l, nil
}

// layStruct places the fields; the extent is the highest byte, with no
// padding for alignment (the C side resizes the MPI type to it, so both
// libraries agree).
func layStruct(t *Type, procs int) (*TypeLayout, error) {
	var b placer
	for i, f := range t.Of {
		in, err := lay(f, procs)
		if err != nil {
			return nil, err
		}
		b.place(in, t.Displs[i].At(procs), t.Blocks[i].At(procs))
	}
	return b.done()
}

// laySubarray is the block of a multi-dimensional array (C order) whose
// extent is the whole array.
func laySubarray(t *Type, in *TypeLayout, procs int) (*TypeLayout, error) {
	n := len(t.Dims)
	size, sub, start := make([]int64, n), make([]int64, n), make([]int64, n)
	total := int64(1)
	for i, d := range t.Dims {
		size[i], sub[i], start[i] = d[0].At(procs), d[1].At(procs), d[2].At(procs)
		if sub[i] < 1 || start[i] < 0 || start[i]+sub[i] > size[i] {
			return nil, fmt.Errorf("dimension %d: size %d, subsize %d, start %d: want 1 ≤ subsize and start+subsize ≤ size", i+1, size[i], sub[i], start[i])
		}
		total *= size[i]
		if total > MaxInt {
			return nil, fmt.Errorf("an array of more elements than an int holds: %w", errTooLarge)
		}
	}
	// stride[i] is the elements between neighbours in dimension i
	stride := make([]int64, n)
	s := int64(1)
	for i := n - 1; i >= 0; i-- {
		stride[i], s = s, s*size[i]
	}
	var b placer
	idx := make([]int64, n-1) // over all but the last dimension
	for {
		off := start[n-1]
		for i := 0; i < n-1; i++ {
			off += (start[i] + idx[i]) * stride[i]
		}
		b.place(in, off*in.Extent, sub[n-1])
		if b.err != nil || !next(idx, sub[:n-1]) {
			break
		}
	}
	l, err := b.done()
	if err != nil {
		return nil, err
	}
	l.LB, l.Extent = 0, total*in.Extent
	return l, nil
}

// next advances a C-order index over the counts; false after the last.
func next(idx, counts []int64) bool {
	for i := len(idx) - 1; i >= 0; i-- {
		if idx[i]++; idx[i] < counts[i] {
			return true
		}
		idx[i] = 0
	}
	return false
}

// Signature is the type's sequence of kinds, run-length coded: what must
// match between a send and a receive.
func (l *TypeLayout) Signature() []Stretch {
	var out []Stretch
	for _, r := range l.Runs {
		if k := len(out) - 1; k >= 0 && out[k].Kind == r.Kind {
			out[k].N += r.N
			continue
		}
		out = append(out, Stretch{Kind: r.Kind, N: r.N})
	}
	return out
}

// Matches says whether a message of send instances can be received as
// receive instances of equal payload: the signatures over the least
// common multiple of the two sizes are the same.
func Matches(send, recv *TypeLayout) error {
	l := lcm(send.Size, recv.Size)
	a, b := repeat(send.Signature(), l/send.Size), repeat(recv.Signature(), l/recv.Size)
	if a == nil || b == nil {
		return fmt.Errorf("the signatures of %d and %d bytes repeat too often to compare", send.Size, recv.Size)
	}
	if len(a) != len(b) {
		return fmt.Errorf("the send data is %s, the receive data %s", sigText(a), sigText(b))
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].N != b[i].N {
			return fmt.Errorf("the send data is %s, the receive data %s (they differ at run %d)", sigText(a), sigText(b), i+1)
		}
	}
	return nil
}

// repeat is sig n times, merged; nil when that passes MaxTypeRuns runs.
func repeat(sig []Stretch, n int64) []Stretch {
	if n*int64(len(sig)) > MaxTypeRuns {
		return nil
	}
	var out []Stretch
	for range n {
		for _, r := range sig {
			if k := len(out) - 1; k >= 0 && out[k].Kind == r.Kind {
				out[k].N += r.N
				continue
			}
			out = append(out, r)
		}
	}
	return out
}

// sigText writes a signature briefly: 3 int, 1 double, … (the first 4 runs).
func sigText(sig []Stretch) string {
	s := ""
	for i, r := range sig {
		if i == 4 {
			return s + fmt.Sprintf(", … (%d runs)", len(sig))
		}
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%d %s", r.N, r.Kind)
	}
	return s
}

func lcm(a, b int64) int64 {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// Program encodes t on procs processes for the C side, which builds the
// MPI datatype from it (skampi_type_build): per node its constructor,
// then its numbers, then its inner types. A struct carries its bounds, to
// which the C side resizes it.
func Program(t *Type, procs int) ([]int64, error) {
	var out []int64
	err := program(t, procs, &out)
	return out, err
}

func program(t *Type, procs int, out *[]int64) error {
	at := func(ns ...Num) {
		for _, n := range ns {
			*out = append(*out, n.At(procs))
		}
	}
	*out = append(*out, int64(t.Ctor))
	switch t.Ctor {
	case CtorBase:
		*out = append(*out, int64(t.Kind))
		return nil
	case CtorContiguous:
		at(t.Count)
	case CtorVector, CtorHvector:
		at(t.Count, t.Block, t.Stride)
	case CtorIndexed:
		*out = append(*out, int64(len(t.Blocks)))
		at(t.Blocks...)
		at(t.Displs...)
	case CtorIndexedBlock:
		*out = append(*out, int64(len(t.Displs)))
		at(t.Block)
		at(t.Displs...)
	case CtorSubarray:
		*out = append(*out, int64(len(t.Dims)))
		for k := range 3 {
			for _, d := range t.Dims {
				at(d[k])
			}
		}
	case CtorResized:
		at(t.LB, t.Extent)
	case CtorStruct:
		l, err := lay(t, procs)
		if err != nil {
			return err
		}
		*out = append(*out, int64(len(t.Blocks)), l.LB, l.Extent)
		at(t.Blocks...)
		at(t.Displs...)
		for _, f := range t.Of {
			if err := program(f, procs, out); err != nil {
				return err
			}
		}
		return nil
	}
	return program(t.Of[0], procs, out)
}

// UsesProcs says whether a number of the description is in processes.
func (t *Type) UsesProcs() bool {
	nums := append(append([]Num{t.Count, t.Block, t.Stride, t.LB, t.Extent}, t.Blocks...), t.Displs...)
	for _, d := range t.Dims {
		nums = append(nums, d[:]...)
	}
	for _, n := range nums {
		if n.P {
			return true
		}
	}
	for _, in := range t.Of {
		if in.UsesProcs() {
			return true
		}
	}
	return false
}
