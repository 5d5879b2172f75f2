package driver

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/links"
	"github.com/beff-suite/beff/suites/links/loops"
)

// A run is one rank's part of a links job.
type run struct {
	f      *flags // the suite's flags (the watchdog)
	s      *harness.Session
	st     Settings
	member int            // this rank's member number, −1 when it measures nothing
	group  *harness.Group // the members (nil elsewhere)
	own    []links.Own    // every link of this member, as measured
	// lat and bw are every pair's latency and lesser bandwidth of a full
	// matrix, on rank 0 (at most FullMatrix members: 12.6 MB), for the
	// suspects
	lat, bw  []links.Link
	progress *harness.Progress
	// The loop and the split (fakes in the tests of the driver's
	// decisions).
	pair      func(p *loops.Pair) (loops.Result, error)
	multiLoop func(m *loops.Multi) (loops.Result, error)
	share     func(c mpi.Comm, partner int, lower bool, v *loops.Values) error
	split     func(color, key int) (mpi.Comm, error)
	newGroup  func(c mpi.Comm) *harness.Group
	comm      mpi.Comm
	bufs      [2]*mpi.Buffer
}

// Benchmark is the body of BenchmarkLinks: every pair of members
// measured round by round; a line per pair (full matrix) or per member.
func (d *Driver) Benchmark(b *testing.B) {
	s := harness.Current(b)
	st, err := d.settings.Of(s)
	if err != nil {
		b.Fatal(err)
	}
	r := &run{f: d.f, s: s, st: st, pair: loops.Run, multiLoop: loops.RunMulti, share: loops.Share, split: s.World().Comm.Split, newGroup: s.Group}
	r.prepare()
	defer r.close()
	defer s.Watch("links", 0, "links.watchdog", *r.f.watchdog)() // between rounds
	if r.group != nil {
		for k := range r.st.Plan.Rounds {
			writePairs(b, r.round(k), links.PairName)
			r.settle()
		}
		if r.st.Full {
			writePairs(b, r.recheck(), links.RecheckName)
		}
		writeMembers(b, r.members())
		s.World().QuietBarrier()
	} else {
		// a node's other processes wait for the members asleep, watched
		// for the whole plan
		plan := time.Duration(r.st.Plan.Seconds * float64(time.Second))
		done := s.Watch("links (a process that measures no link, waiting for the others)", plan, "links.watchdog", *r.f.watchdog)
		s.World().QuietBarrier()
		done()
	}
	r.multi(b)
	if r.progress != nil {
		r.progress.Finish()
	}
}

// prepare gives every rank its member number (decided on rank 0), the
// members their communicator and buffers, rank 0 its progress.
func (r *run) prepare() {
	var all []int64
	if r.s.IsRoot() {
		for _, m := range memberRanks(r.s.Job.Hosts, r.st.Level) {
			all = append(all, int64(m))
		}
	}
	r.member = int(r.s.World().Scatter(all))
	color := 0
	if r.member < 0 {
		color = -1
	}
	var err error
	r.comm, err = r.split(color, r.member)
	r.s.Must("MPI_Comm_split of the members", err)
	if r.member < 0 {
		return
	}
	r.group = r.newGroup(r.comm)
	n := max(r.st.Meas.BwLen, links.LatLen)
	for i := range r.bufs {
		r.bufs[i], err = mpi.NewBuffer(n)
		r.s.Must("allocating the message buffers", err)
	}
	if r.s.IsRoot() {
		p := r.st.Plan
		r.progress = r.s.NewProgress("links", p.Rounds+len(r.st.Meas.MultiKs)) // the rounds, then each k of the multi-pair
		r.progress.Plan(p.Seconds)
		r.s.Logf("links: %d %s, %d rounds of disjoint pairs, each measurement at most %g s: at most %.0f s (%s)",
			p.Members, r.st.Level, p.Rounds, r.st.Meas.Cap, math.Ceil(p.Seconds), links.KeyPlan) // the configuration line's figure
		per, root := memory(r.st, r.s.Size)
		r.s.LogMemory("links", harness.BaseBytes+per, harness.BaseBytes+per+root,
			fmt.Sprintf("base %d MiB, a pair's two buffers, the multi-pair buffers, %d bytes per link of a member; rank 0 %d bytes per process and %d per pair of a full matrix",
				harness.BaseBytes>>20, ownBytes, rootBytesPerProc, rootBytesPerPair))
	}
}

func (r *run) close() {
	for _, b := range r.bufs {
		b.Free()
	}
	r.comm.Free() // CommNull on a rank that is no member: nothing to free
}

// roundTime is the most one round takes, for the watchdog.
func (r *run) roundTime() time.Duration {
	return time.Duration(r.st.Plan.Seconds / float64(r.st.Plan.Rounds) * float64(time.Second))
}

// round measures this member's pair of round k, if it has one; with the
// full matrix rank 0 gathers the round's pairs and returns them.
func (r *run) round(k int) []pairLine {
	defer r.s.Watch(fmt.Sprintf("links round %d", k+1), r.roundTime(), "links.watchdog", *r.f.watchdog)()
	me := r.group.Rank
	partner := links.Partner(r.st.Members, k, me)
	var v loops.Values
	switch {
	case r.st.Meas.Serial:
		v = r.serialRound(k, me, partner)
	case partner >= 0:
		v = r.measure(partner, links.Lower(me, partner))
	}
	if partner >= 0 {
		r.own = append(r.own, links.Own{To: partner, Lat: v[loops.Latency], Fw: v[loops.Forth], Bk: v[loops.Back], Both: v[loops.Both]})
	}
	var out []pairLine
	if r.st.Full {
		rec := []int64{int64(partner), 0, 0, 0, 0}
		for i, x := range v {
			rec[1+i] = int64(math.Float64bits(x))
		}
		if all := r.group.Gather(rec); all != nil {
			out = pairLines(all)
			r.keep(out)
		}
	}
	if r.progress != nil {
		r.progress.Done()
		r.progress.Log()
	}
	return out
}

// settle lets the launcher forward what rank 0 just wrote before the
// next pair measures, in a serial run (the others wait for rank 0 in the
// next pair's barrier, asleep).
func (r *run) settle() {
	if r.st.Meas.Serial && r.s.IsRoot() {
		time.Sleep(time.Duration(links.Settle * float64(time.Second)))
	}
}

// keep holds a round's pairs' latency and bandwidth for the suspects
// (rank 0).
func (r *run) keep(pairs []pairLine) {
	for _, p := range pairs {
		r.lat = append(r.lat, links.Link{A: p.a, B: p.b, Value: p.v[loops.Latency]})
		r.bw = append(r.bw, links.Link{A: p.a, B: p.b, Value: min(p.v[loops.Forth], p.v[loops.Back])})
	}
}

// recheck measures the suspects of a full matrix again, decided on rank
// 0 and broadcast, one pair at a time after a barrier waited for asleep;
// rank 0 gets their lines.
func (r *run) recheck() []pairLine {
	list := make([]int64, 1+2*links.MaxRecheck)
	if r.s.IsRoot() {
		sus := links.Suspects(r.st.Members, r.lat, r.bw)
		list[0] = int64(len(sus))
		for i, p := range sus {
			list[1+2*i], list[2+2*i] = int64(p[0]), int64(p[1])
		}
		r.lat, r.bw = nil, nil
		if len(sus) > 0 {
			r.s.Logf("links: %d suspect links, measured again one at a time", len(sus))
		}
	}
	r.group.Bcast(list)
	n := int(min(max(list[0], 0), links.MaxRecheck))
	defer r.s.Watch("links: the suspects measured again", time.Duration(float64(n)*(links.PerPair*r.st.Meas.Cap+links.PairSync)*float64(time.Second)),
		"links.watchdog", *r.f.watchdog)()
	var out []pairLine
	me := r.group.Rank
	for i := range n {
		a, b := int(list[1+2*i]), int(list[2+2*i])
		r.group.QuietBarrier()
		rec := []int64{-1, 0, 0, 0, 0}
		if me == a || me == b {
			partner := a + b - me
			v := r.measure(partner, links.Lower(me, partner))
			rec[0] = int64(partner)
			for k, x := range v {
				rec[1+k] = int64(math.Float64bits(x))
			}
		}
		if all := r.group.Gather(rec); all != nil {
			out = append(out, pairLines(all)...)
		}
	}
	return out
}

// serialRound measures this member's pair of round k in its turn: the
// round's pairs go in the order of their lower members, each after a
// barrier of all members waited for asleep, so that one pair measures at
// a time; a last such barrier waits out the last pair (else the others
// would poll in the round's gather beside it).
func (r *run) serialRound(k, me, partner int) loops.Values {
	var v loops.Values
	n := r.st.Members
	for a := 0; a < n; a++ {
		if b := links.Partner(n, k, a); b > a {
			r.group.QuietBarrier()
			if a == me || b == me {
				v = r.measure(partner, links.Lower(me, partner))
			}
		}
	}
	r.group.QuietBarrier()
	return v
}

// measure runs the four measurements of this member's pair and hands
// the values to the higher member; a wrong stamp ends the job.
func (r *run) measure(partner int, lower bool) loops.Values {
	var v loops.Values
	for _, m := range loops.Measures {
		p := &loops.Pair{Comm: r.comm, Partner: partner, Lower: lower, Measure: m, Len: r.st.Meas.BwLen,
			Reps: r.st.Meas.BwReps, Cap: r.st.Meas.Cap, Send: r.bufs[0], Recv: r.bufs[1]}
		if m == loops.Latency {
			p.Len, p.Reps = links.LatLen, r.st.Meas.LatReps
		}
		res, err := r.pair(p)
		r.s.Must("measuring a link", err)
		if res.Faults > 0 {
			r.s.Fail("measuring a link", fmt.Errorf("%d received messages from member %d held wrong data: the MPI library or the network corrupts messages", res.Faults, partner))
		}
		if lower {
			v[m] = value(m, p.Len, res)
		}
	}
	r.s.Must("handing a link's values over", r.share(r.comm, partner, lower, &v))
	return v
}

// value is a measurement's figure: half a round trip in µs (of the
// median block of ping-pongs), or MB/s (both ways: the bytes of both
// directions).
func value(m loops.Measure, n int64, res loops.Result) float64 {
	if res.Seconds <= 0 || res.Count < 1 {
		return math.NaN()
	}
	switch m {
	case loops.Latency:
		if res.Typical > 0 {
			return res.Typical / 2 * 1e6 // the median block's ping-pong
		}
		return res.Seconds / float64(2*res.Count) * 1e6
	case loops.Both:
		return float64(2*n) * float64(res.Count) / res.Seconds / 1e6
	}
	return float64(n) * float64(res.Count) / res.Seconds / 1e6
}

// A pairLine is a pair of a round as rank 0 writes it.
type pairLine struct {
	a, b int
	v    loops.Values
}

// pairLines are the pairs of a round from the lower members' records
// (rank 0), in the order of their lower members.
func pairLines(all [][]int64) []pairLine {
	var out []pairLine
	for a, rec := range all {
		p := int(rec[0])
		if p <= a {
			continue // no pair, or the higher member
		}
		l := pairLine{a: a, b: p}
		for i := range l.v {
			l.v[i] = math.Float64frombits(uint64(rec[1+i]))
		}
		out = append(out, l)
	}
	return out
}

// writePairs writes a line for each pair (rank 0), named by name.
func writePairs(b *testing.B, lines []pairLine, name func(a, b int) string) {
	for _, l := range lines {
		b.Run(name(l.a, l.b), func(b *testing.B) {
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(l.v[loops.Latency], links.MetricUs)
			b.ReportMetric(l.v[loops.Forth], links.MetricMBps)
			b.ReportMetric(l.v[loops.Back], links.MetricBackMBps)
			b.ReportMetric(l.v[loops.Both], links.MetricBothMBps)
		})
	}
}

// A memberLine is a member's summary as rank 0 writes it.
type memberLine struct {
	host, sw string // its host, its switch ("" unknown)
	links.MemberSummary
}

// members gathers every member's summary to rank 0 and returns them
// there, in member order (nil elsewhere).
func (r *run) members() []memberLine {
	s := links.Summarize(r.own)
	vals := []float64{s.Lat, s.Bw, s.Both, s.WorstLat, s.MinBw, s.MADLat, s.MADBw}
	rec := []int64{int64(s.WorstLatTo), int64(s.MinBwTo), int64(s.Links), int64(r.s.Rank)}
	for _, x := range vals {
		rec = append(rec, int64(math.Float64bits(x)))
	}
	all := r.group.Gather(rec)
	if all == nil {
		return nil
	}
	out := make([]memberLine, len(all))
	for i, rec := range all {
		f := make([]float64, len(vals))
		for k := range f {
			f[k] = math.Float64frombits(uint64(rec[4+k]))
		}
		out[i] = memberLine{host: r.s.Job.Hosts[int(rec[3])], sw: r.switchOf(int(rec[3])), MemberSummary: links.MemberSummary{Lat: f[0], Bw: f[1], Both: f[2],
			WorstLat: f[3], MinBw: f[4], MADLat: f[5], MADBw: f[6], WorstLatTo: int(rec[0]), MinBwTo: int(rec[1]), Links: int(rec[2])}}
	}
	return out
}

// switchOf is rank's switch: its topology address under Slurm without
// the node ("" elsewhere).
func (r *run) switchOf(rank int) string {
	if rank < len(r.s.Job.TopoAddrs) {
		return results.SwitchOf(r.s.Job.TopoAddrs[rank])
	}
	return ""
}

// writeMembers writes a line for each member (rank 0).
func writeMembers(b *testing.B, lines []memberLine) {
	for i, m := range lines {
		b.Run(links.MemberName(m.host, m.sw, i), func(b *testing.B) {
			for _, x := range []struct {
				v    float64
				unit string
			}{{0, "ns/op"}, {m.Lat, links.MetricUs}, {m.Bw, links.MetricMBps}, {m.Both, links.MetricBothMBps},
				{m.WorstLat, links.MetricWorstUs}, {m.MinBw, links.MetricMinMBps}, {float64(m.WorstLatTo), links.MetricWorstLatTo},
				{float64(m.MinBwTo), links.MetricMinBwTo}, {m.MADLat, links.MetricMADUs}, {m.MADBw, links.MetricMADMBps},
				{float64(m.Links), links.MetricLinks}} {
				b.ReportMetric(x.v, x.unit)
			}
		})
	}
}

// What the memory model counts per link of a member (its links.Own and
// the copies Summarize sorts), per process on rank 0 (the hosts' tables,
// the member numbers and multi-pair places it scatters, a round's
// gather) and per pair of a full matrix on rank 0 (the latency and
// bandwidth it keeps for the suspects, and the verdicts' copies).
const (
	ownBytes         = 40 + 3*8
	rootBytesPerProc = 256
	rootBytesPerPair = 2*24 + 2*8
)

// memory is the suite's memory model beyond the base: a member's two
// message buffers and its links, the multi-pair buffers; rank 0's tables.
func memory(st Settings, procs int) (per, root int64) {
	s := st.Meas
	per = 2*max(s.BwLen, links.LatLen) + int64(st.Members)*ownBytes
	if len(s.MultiKs) > 0 {
		per += s.BwLen + max(int64(links.MultiWindow(s.BwLen))*s.BwLen, links.MultiRateWindow*links.LatLen)
	}
	root = int64(procs) * rootBytesPerProc
	if st.Full {
		root += st.Plan.Pairs * rootBytesPerPair
	}
	return per, root
}
