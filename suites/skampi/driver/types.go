package driver

import (
	"fmt"

	"github.com/beff-suite/beff/suites/skampi"
	"github.com/beff-suite/beff/suites/skampi/loops"
)

// buildTypes builds and commits the point's datatypes on this rank (nil
// for an untyped point) and checks that MPI sees them as the layouts
// say: size, bounds and true bounds.
func buildTypes(su *skampi.Setup, pt skampi.Point) (*loops.Types, error) {
	if !su.Typed() || !skampi.Ops[pt.Op].Typed {
		return nil, nil
	}
	send, recv, err := su.Layouts(pt.Procs)
	if err != nil {
		return nil, err
	}
	var sides [2]loops.TypeSide
	for i, l := range []*skampi.TypeLayout{send, recv} {
		t := su.SendType
		if i == 1 && su.RecvType != nil {
			t = su.RecvType
		}
		prog, err := skampi.Program(t, pt.Procs)
		if err != nil {
			return nil, err
		}
		sides[i] = loops.TypeSide{Prog: prog, Runs: l.CopyRuns(), Count: max(1, pt.Len/l.Size), Extent: l.Extent}
	}
	ty, err := loops.NewTypes(sides[0], sides[1])
	if err != nil {
		return nil, err
	}
	for i, l := range []*skampi.TypeLayout{send, recv} {
		info, err := ty.Info(i)
		want := loops.TypeInfo{Size: l.Size, LB: l.LB, Extent: l.Extent, TrueLB: l.TrueLB, TrueExtent: l.TrueExtent()}
		if err == nil && info != want {
			err = fmt.Errorf("MPI sees the %s type %s as %+v, beff's layout as %+v", []string{"send", "receive"}[i], su.SendType, info, want)
		}
		if err != nil {
			ty.Free()
			return nil, err
		}
	}
	return ty, nil
}
