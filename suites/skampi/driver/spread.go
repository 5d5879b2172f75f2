package driver

import (
	"math"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/suites/skampi"
	"github.com/beff-suite/beff/suites/skampi/loops"
)

// spreadReps is the repetitions behind each start spread.
const spreadReps = 100

// spreadWindow is the least window of the start spreads' schedule: room
// for the processes to come back from a clock read and the loop.
const spreadWindow = 10e-6

// startSpreads measures on every process of the world how far apart the
// processes start a repetition (collective): spreadReps repetitions of
// an empty operation (a clock read) on the window schedule, then as many
// right after MPI_Barrier, each start taken on rank 0's time by the
// model. It returns on rank 0 the medians over the repetitions of the
// latest start minus the earliest, seconds (0 elsewhere): what a
// collective's time may owe to its start under each synchronisation.
func (r *run) startSpreads() (window, barrier float64) {
	w := r.s.World()
	m := r.clock.Map()
	b := loops.Batch{Op: loopOp(skampi.OpIndex("wtime")), Comm: w.Comm, Calls: 1, Reps: spreadReps,
		Send: r.send, Recv: r.recv, Yield: r.st.Yield, Clock: [3]float64{m.At, m.Offset, m.Drift}}
	b.Window = true
	b.WindowLen = math.Max(spreadWindow, skampi.FirstWindow(r.st.Prep.Timer, r.clockError()))
	b.Lead = skampi.Lead(r.st.Prep.Bcast, b.WindowLen)
	onWindows := r.spreadBatch(&b)
	b.Window = false // MPI_Barrier before each repetition
	afterBarrier := r.spreadBatch(&b)
	ref := onWindows.First // rank 0's start of the schedule, the same on every process
	return spread(w, onWindows.Start, ref), spread(w, afterBarrier.Start, ref)
}

// spreadBatch runs a batch of the start spreads.
func (r *run) spreadBatch(b *loops.Batch) loops.Times {
	t, _, err := r.loop(b)
	r.s.Must("measuring the start spreads", err)
	return t
}

// spread is, on rank 0, the median over the repetitions of the latest
// process's start minus the earliest's (starts taken relative to ref, so
// that the reduction keeps their digits); 0 elsewhere.
func spread(g *harness.Group, start []float64, ref float64) float64 {
	n := len(start)
	v := make([]float64, 2*n)
	for k, s := range start {
		v[k], v[n+k] = s-ref, ref-s
	}
	m := g.MaxTo0(v)
	if m == nil || n == 0 {
		return 0
	}
	sp := make([]float64, n)
	for k := range n {
		sp[k] = m[k] + m[n+k]
	}
	return skampi.Median(sp)
}
