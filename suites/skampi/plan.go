package skampi

// A Plan is what a run measures: the operations and the values of their
// parameters.
type Plan struct {
	Ops     []int // indexes in Ops
	Lengths Range
	Procs   []int // for collectives and master-worker
	Chunks  []int // for master-worker
	// Pairs are the ping-pong pairs measured: PairMax, and PairMin when
	// the fastest pair differs from the slowest.
	Pairs []string
}

// Points lists the plan's points in measurement order: operation by
// operation, then pair or process count, then chunks, then length.
func (pl Plan) Points() []Point {
	var out []Point
	for _, i := range pl.Ops {
		out = append(out, pl.opPoints(i)...)
	}
	return out
}

func (pl Plan) opPoints(i int) []Point {
	o := Ops[i]
	lengths := []int64{0}
	if o.Vary&VaryLength != 0 {
		lengths = pl.Lengths.Lengths(o.Elem)
	}
	var out []Point
	each := func(p Point) {
		for _, l := range lengths {
			p.Len = l
			out = append(out, p)
		}
	}
	switch o.Pattern {
	case PingPong:
		for _, pair := range pl.Pairs {
			each(Point{Op: i, Pair: pair, Procs: 2})
		}
	case Collective:
		for _, n := range pl.Procs {
			each(Point{Op: i, Procs: n})
		}
	case MasterWorker:
		for _, n := range pl.Procs {
			for _, c := range pl.Chunks {
				if n >= o.MinProcs() {
					each(Point{Op: i, Procs: n, Chunks: c})
				}
			}
		}
	case Simple:
		each(Point{Op: i, Procs: 1})
	}
	return out
}
