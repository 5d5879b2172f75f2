package driver

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/links"
	"github.com/beff-suite/beff/suites/links/loops"
)

// A multiPlace is a process's part in the multi-pair measurements: its
// node pair (the lower node's member number, −1 for none), its place j
// among its node's processes, its partner (the process at place j of the
// other node, a world rank; −1 for none) and whether its node is the
// lower.
type multiPlace struct {
	pair, j, partner int
	lower            bool
}

// multiPlaces are every rank's places (rank 0): hosts in the order of
// their first ranks are the members; node i pairs with node
// Partner(n, 0, i).
func multiPlaces(hosts []string) []multiPlace {
	index := map[string]int{}
	var ranks [][]int // per node, its ranks
	out := make([]multiPlace, len(hosts))
	for r, h := range hosts {
		i, ok := index[h]
		if !ok {
			i = len(ranks)
			index[h] = i
			ranks = append(ranks, nil)
		}
		out[r] = multiPlace{pair: -1, j: len(ranks[i]), partner: -1}
		ranks[i] = append(ranks[i], r)
	}
	n := len(ranks)
	for r, h := range hosts {
		i := index[h]
		p := links.Partner(n, 0, i)
		if p < 0 || out[r].j >= len(ranks[p]) {
			continue
		}
		out[r].pair, out[r].partner, out[r].lower = min(i, p), ranks[p][out[r].j], i < p
	}
	return out
}

// scatterPlaces hands every rank its place, decided on rank 0.
func (r *run) scatterPlaces() multiPlace {
	var pair, j, partner, lower []int64
	if r.s.IsRoot() {
		for _, p := range multiPlaces(r.s.Job.Hosts) {
			l := int64(0)
			if p.lower {
				l = 1
			}
			pair, j, partner, lower = append(pair, int64(p.pair)), append(j, int64(p.j)), append(partner, int64(p.partner)), append(lower, l)
		}
	}
	w := r.s.World()
	return multiPlace{pair: int(w.Scatter(pair)), j: int(w.Scatter(j)), partner: int(w.Scatter(partner)), lower: w.Scatter(lower) == 1}
}

// A multiMeas is one of the four measurements of a node pair at one k.
type multiMeas struct {
	both   bool
	len    int64
	window int
	reps   int
}

// multiMeasures are bandwidth one way and both ways, message rate one
// way and both ways.
func (r *run) multiMeasures() [links.PerMulti]multiMeas {
	s := r.st.Meas
	bw := multiMeas{len: s.BwLen, window: links.MultiWindow(s.BwLen), reps: s.BwReps}
	rate := multiMeas{len: links.LatLen, window: links.MultiRateWindow, reps: s.LatReps}
	bothBw, bothRate := bw, rate
	bothBw.both, bothRate.both = true, true
	return [links.PerMulti]multiMeas{bw, bothBw, rate, bothRate}
}

// multi measures every k of the settings and writes a line per node pair
// and k (rank 0). Every process of the job takes part.
func (r *run) multi(b *testing.B) {
	ks := r.st.Meas.MultiKs
	if len(ks) == 0 {
		return
	}
	me := r.scatterPlaces()
	kmax := ks[len(ks)-1]
	var send, recv *mpi.Buffer
	if me.pair >= 0 && me.j < kmax {
		var err error
		send, err = mpi.NewBuffer(r.st.Meas.BwLen)
		r.s.Must("allocating the multi-pair buffers", err)
		defer send.Free()
		recv, err = mpi.NewBuffer(max(int64(links.MultiWindow(r.st.Meas.BwLen))*r.st.Meas.BwLen, links.MultiRateWindow*links.LatLen))
		r.s.Must("allocating the multi-pair buffers", err)
		defer recv.Free()
	}
	ms := r.multiMeasures()
	for _, k := range ks {
		rec := []int64{int64(me.pair), 0, int64(me.j)}
		if me.lower {
			rec[1] = 1
		}
		done := r.s.Watch(fmt.Sprintf("links multi-pair, %d per node", k), time.Duration(links.MultiSeconds([]int{k}, r.st.Members, r.st.Meas)*float64(time.Second)),
			"links.watchdog", *r.f.watchdog)
		for _, m := range ms {
			res := r.multiTurn(me, k, m, send, recv)
			rec = append(rec, int64(math.Float64bits(res.Seconds)), int64(res.Count))
		}
		done()
		if all := r.s.World().Gather(rec); all != nil {
			writeMulti(b, k, multiLines(all, k, r.st.Members, ms))
		}
		if r.progress != nil {
			r.progress.Done()
			r.progress.Log()
		}
	}
}

// multiTurn runs measurement m at k per node: the node pairs at once, or
// in turn (serial), each start after a barrier waited for asleep and one
// that lines the pair's processes up.
func (r *run) multiTurn(me multiPlace, k int, m multiMeas, send, recv *mpi.Buffer) loops.Result {
	w := r.s.World()
	var res loops.Result
	turn := func(q int) {
		w.QuietBarrier()
		w.Barrier()
		if me.pair == q && me.j < k && me.partner >= 0 {
			var err error
			res, err = r.multiLoop(&loops.Multi{Comm: w.Comm, Partner: me.partner, Lower: me.lower, Both: m.both, Len: m.len,
				Window: m.window, Reps: m.reps, Cap: r.st.Meas.Cap, Send: send, Recv: recv})
			r.s.Must("measuring node pairs at once", err)
			if res.Faults > 0 {
				r.s.Fail("measuring node pairs at once", fmt.Errorf("%d received messages from rank %d held wrong data: the MPI library or the network corrupts messages", res.Faults, me.partner))
			}
		}
	}
	if !r.st.Meas.Serial {
		turn(me.pair)
		return res
	}
	n := r.st.Members
	for a := 0; a < n; a++ {
		if b := links.Partner(n, 0, a); b > a {
			turn(a)
		}
	}
	return res
}

// A multiLine is a node pair's aggregate at one k.
type multiLine struct {
	a, b           int
	mbps, both     float64
	rate, bothRate float64
}

// multiLines aggregate the records of every rank (rank 0): per node pair
// and measurement the bytes and messages its lower processes sent (both
// ways: twice), over the longest time of its processes.
func multiLines(all [][]int64, k, members int, ms [links.PerMulti]multiMeas) []multiLine {
	type agg struct{ bytes, msgs, secs [links.PerMulti]float64 }
	pairs := map[int]*agg{}
	for _, rec := range all {
		q, lower, j := int(rec[0]), rec[1] == 1, int(rec[2])
		if q < 0 || j >= k {
			continue
		}
		a := pairs[q]
		if a == nil {
			a = &agg{}
			pairs[q] = a
		}
		for i, m := range ms {
			sec, count := math.Float64frombits(uint64(rec[3+2*i])), float64(rec[4+2*i])
			a.secs[i] = max(a.secs[i], sec)
			if lower {
				f := 1.0
				if m.both {
					f = 2
				}
				a.msgs[i] += f * count * float64(m.window)
				a.bytes[i] += f * count * float64(m.window) * float64(m.len)
			}
		}
	}
	var out []multiLine
	for q := 0; q < members; q++ {
		a, ok := pairs[q]
		if !ok {
			continue
		}
		per := func(x, s float64) float64 {
			if s <= 0 {
				return math.NaN()
			}
			return x / s
		}
		out = append(out, multiLine{a: q, b: links.Partner(members, 0, q), mbps: per(a.bytes[0], a.secs[0]) / 1e6, both: per(a.bytes[1], a.secs[1]) / 1e6,
			rate: per(a.msgs[2], a.secs[2]), bothRate: per(a.msgs[3], a.secs[3])})
	}
	return out
}

// writeMulti writes a line for each node pair at k (rank 0).
func writeMulti(b *testing.B, k int, lines []multiLine) {
	for _, l := range lines {
		b.Run(links.MultiName(k, l.a, l.b), func(b *testing.B) {
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(l.mbps, links.MetricMBps)
			b.ReportMetric(l.both, links.MetricBothMBps)
			b.ReportMetric(l.rate, links.MetricRate)
			b.ReportMetric(l.bothRate, links.MetricBothRate)
		})
	}
}
