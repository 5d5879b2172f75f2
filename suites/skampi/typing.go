package skampi

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Methods of a typed point: how its messages travel (docs/skampi.md,
// "Datatypes"). An untyped point has none ("").
const (
	MethodDatatype = "datatype"   // the derived datatype handed to MPI
	MethodPack     = "pack"       // MPI_Pack, a contiguous MPI_PACKED message, MPI_Unpack
	MethodManual   = "manual"     // a copy loop over the runs into contiguous bytes and back
	MethodContig   = "contiguous" // the same payload as contiguous bytes: the reference
)

// MethodNames are the methods in the order of a suite's curves.
var MethodNames = []string{MethodDatatype, MethodPack, MethodManual, MethodContig}

// TypeBytes is the send type of an untyped suite, TypeSame the receive
// type that is the send type.
const (
	TypeBytes = "bytes"
	TypeSame  = "same"
)

// Typed says whether the suite moves a derived datatype.
func (s *Setup) Typed() bool { return s.SendType != nil }

// recvType is the receive type: RecvType, or the send type.
func (s *Setup) recvType() *Type {
	if s.RecvType != nil {
		return s.RecvType
	}
	return s.SendType
}

// Layouts are the suite's send and receive layouts on procs processes.
func (s *Setup) Layouts(procs int) (send, recv *TypeLayout, err error) {
	if send, err = cachedLay(s.SendType, procs); err == nil {
		recv, err = cachedLay(s.recvType(), procs)
	}
	return send, recv, err
}

// A small cache of layouts: a plan asks for the same ones at every point.
var layCache struct {
	sync.Mutex
	keys []string
	vals []*TypeLayout
}

func cachedLay(t *Type, procs int) (*TypeLayout, error) {
	key := fmt.Sprintf("%d %s", procs, t)
	layCache.Lock()
	defer layCache.Unlock()
	if i := slices.Index(layCache.keys, key); i >= 0 {
		return layCache.vals[i], nil
	}
	l, err := Lay(t, procs)
	if err != nil {
		return nil, err
	}
	if len(layCache.keys) == 8 {
		layCache.keys, layCache.vals = layCache.keys[1:], layCache.vals[1:]
	}
	layCache.keys, layCache.vals = append(layCache.keys, key), append(layCache.vals, l)
	return l, nil
}

// elem is the step of a point's lengths: the operation's element, and
// for a typed suite the payload of whole instances of both types.
func (s *Setup) elem(op, procs int) int64 {
	e := Ops[op].Elem
	if s.Typed() && Ops[op].Typed {
		if send, recv, err := s.Layouts(procs); err == nil {
			e = lcm(e, lcm(send.Size, recv.Size))
		}
	}
	return e
}

// typedPoint says whether the point moves the suite's datatypes (by
// itself, packed or copied by hand), not contiguous bytes.
func typedPoint(p Point) bool { return p.Method != "" && p.Method != MethodContig }

// Footprint is the bytes one call of the point uses of each buffer (the
// larger of send and receive): for a typed point the span of its
// instances, per process for the block operations.
func (s *Setup) Footprint(p Point) int64 {
	if Ops[p.Op].Family == FamilyPartitioned { // one block per partition
		return Footprint(p.Op, p.Len, p.Chunks)
	}
	if !typedPoint(p) || !s.Typed() {
		return max(rmaMin(p), Footprint(p.Op, p.Len, p.Procs))
	}
	send, recv, err := s.Layouts(p.Procs)
	if err != nil {
		return Footprint(p.Op, p.Len, p.Procs)
	}
	return max(rmaMin(p), sideFoot(p, send), sideFoot(p, recv))
}

// rmaMin is the least window of a one-sided point: the 8 bytes of an
// atomic (0 for the others).
func rmaMin(p Point) int64 {
	if Ops[p.Op].RMA() {
		return 8
	}
	return 0
}

func sideFoot(p Point, l *TypeLayout) int64 {
	count := p.Len / l.Size
	if Ops[p.Op].Blocks && p.Procs > 1 {
		return int64(p.Procs-1)*count*l.Extent + l.Span(count)
	}
	return l.Span(count)
}

// Scratch is the memory a point allocates besides its buffers: a pack or
// manual point a message (a block per process) each way contiguous.
// A one-sided point allocates its results and, from MPI_Win_allocate,
// its window (whole pages).
func (s *Setup) Scratch(p Point) int64 {
	if Ops[p.Op].RMA() {
		win := int64(0)
		if s.Window == WindowAllocate {
			win = (s.Footprint(p) + 4095) &^ 4095
		}
		return win + max(8, p.Len)
	}
	if p.Method != MethodPack && p.Method != MethodManual {
		return 0
	}
	return 2 * Footprint(p.Op, p.Len+BsendOverhead, p.Procs)
}

// checkTypes checks a typed suite before it runs: its layouts on every
// process count it uses, the signatures of send and receive, and its
// operations (named in errors by the field that gave them). A layout
// that depends on the processes and passes what an int holds only at
// some counts is no error: the plan leaves those points out (leaveOut).
func (s *Setup) checkTypes(given map[string]Given) error {
	if !s.Typed() {
		if s.RecvType != nil {
			return fmt.Errorf("%s: recv-type: suite %s has no send-type", given["recv-type"].At, s.Name)
		}
		return nil
	}
	where := given["send-type"].At
	if g, ok := given["recv-type"]; ok {
		where += ", " + g.At
	}
	for _, procs := range s.typeProcs() {
		send, recv, err := s.Layouts(procs)
		if err == nil {
			err = Matches(send, recv)
		} else if procs > 2 && errors.Is(err, errTooLarge) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: suite %s: on %d process%s: %v", where, s.Name, procs, plural(procs), err)
		}
	}
	if s.RecvType != nil && s.RecvType.String() != s.SendType.String() && slices.Contains(s.Ops, OpIndex("sendrecv-replace")) {
		return fmt.Errorf("%s: suite %s: sendrecv-replace has one buffer and one datatype: its send and receive types must be the same", where, s.Name)
	}
	return nil
}

// typeProcs are the process counts whose layouts a typed suite uses:
// 2 (ping-pong), 1 (type-create) and its counts; one when no number of
// its types is in processes.
func (s *Setup) typeProcs() []int {
	if !s.SendType.UsesProcs() && !s.recvType().UsesProcs() {
		return []int{2}
	}
	out := []int{1, 2}
	for _, p := range s.Procs {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// setType reads a type field: bytes (send-type) or same (recv-type) for
// none, else a description whose named types were written out by the
// suite file's reader.
func setType(p func(*Setup) **Type, none string) func(*Setup, string, int) error {
	return func(s *Setup, v string, _ int) error {
		if v == none {
			*p(s) = nil
			return nil
		}
		t, err := ParseType(v, nil)
		if err != nil {
			return err
		}
		*p(s) = t
		return nil
	}
}

func getType(p func(*Setup) **Type, none string) func(*Setup) string {
	return func(s *Setup) string {
		if *p(s) == nil {
			return none
		}
		return (*p(s)).String()
	}
}

// setMethods reads the methods of a typed suite: all, or a list of
// MethodNames.
func setMethods(s *Setup, v string, _ int) error {
	if v == "all" {
		s.Methods = slices.Clone(MethodNames)
		return nil
	}
	var out []string
	for _, w := range strings.Split(v, ",") {
		w = strings.TrimSpace(w)
		if !slices.Contains(MethodNames, w) {
			return fmt.Errorf("%q: want all or some of %s", w, strings.Join(MethodNames, ", "))
		}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	s.Methods = nil
	for _, m := range MethodNames { // in the order of MethodNames
		if slices.Contains(out, m) {
			s.Methods = append(s.Methods, m)
		}
	}
	return nil
}

func getMethods(s *Setup) string {
	if len(s.Methods) == 0 || slices.Equal(s.Methods, MethodNames) {
		return "all"
	}
	return strings.Join(s.Methods, ",")
}

// TypeLine describes the suite's types on procs processes for its
// configuration line KeyTypes+name: per side the size, extent, true
// extent and runs of one instance.
func (s *Setup) TypeLine(procs int) string {
	send, recv, err := s.Layouts(procs)
	if err != nil {
		return "invalid: " + err.Error()
	}
	side := func(name string, l *TypeLayout) string {
		return fmt.Sprintf("%s: size=%d extent=%d true-lb=%d true-extent=%d runs=%d", name, l.Size, l.Extent, l.TrueLB, l.TrueExtent(), len(l.Runs))
	}
	return fmt.Sprintf("at p=%d %s; %s", procs, side("send", send), side("recv", recv))
}

// CopyRuns are the layout's runs as (offset, bytes) pairs, neighbours of
// any kind merged: what a copy loop goes over.
func (l *TypeLayout) CopyRuns() []int64 {
	var out []int64
	for _, r := range l.Runs {
		if k := len(out) - 2; k >= 0 && out[k]+out[k+1] == r.Off {
			out[k+1] += r.Bytes()
			continue
		}
		out = append(out, r.Off, r.Bytes())
	}
	return out
}
