package skampi

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// A MeasurePattern is one of SKaMPI's four ways to coordinate and time an
// operation.
type MeasurePattern int

const (
	// PingPong runs between two processes; a repetition's value is the
	// initiator's time for a round trip / 2 (or for one exchange, see
	// Op.Exchange).
	PingPong MeasurePattern = iota
	// Collective runs on every process of a communicator; a repetition's
	// value is the maximum over the processes of their time.
	Collective
	// MasterWorker has rank 0 hand out work items and collect results; a
	// repetition's value is the master's time.
	MasterWorker
	// Simple is a local operation on one process.
	Simple
	// OneSided runs on a pair: rank 0 (the origin) reaches into rank 1's
	// window; a repetition's value is the origin's time per call (an
	// operation and the synchronisation that completes it).
	OneSided
)

var patternNames = [...]string{"ping-pong", "collective", "master-worker", "simple", "one-sided"}

func (p MeasurePattern) String() string {
	if p < 0 || int(p) >= len(patternNames) {
		return fmt.Sprintf("Pattern(%d)", int(p))
	}
	return patternNames[p]
}

// A Vary is a parameter an operation's points vary over.
type Vary int

const (
	VaryLength Vary = 1 << iota // message length, bytes
	VaryProcs                   // processes of the communicator
	VaryChunks                  // work items of a master-worker round
)

// VaryNone is a suite's one point at fixed parameters.
const VaryNone Vary = 0

// An Op is one row of the operation table: an operation, how it is timed
// and what its points vary. Its index in Ops is its number in C: the C
// table suites/skampi/loops/skampi_optab.c is written from Ops (optab.go).
type Op struct {
	Name    string
	Pattern MeasurePattern
	// Call says what one call is, in MPI terms.
	Call string
	// Vary is the parameters the operation's points vary.
	Vary Vary
	// Elem is the element size in bytes: message lengths are multiples
	// of it (4: MPI_FLOAT with MPI_SUM for the reductions).
	Elem int64
	// Ref names the library operation that a hand-built reference
	// implements ("" for the library's own operations).
	Ref string
	// Exchange marks a ping-pong whose repetition is one exchange in
	// both directions at once (MPI_Sendrecv), not a round trip.
	Exchange bool
	// Blocks marks an operation whose buffers hold one block of the
	// length per process of the communicator (Footprint).
	Blocks bool
	// Typed marks an operation that takes a typed suite's datatypes.
	Typed bool
	// Burst is the operations one call of a one-sided bandwidth operation
	// issues before its synchronisation (0: one).
	Burst int
	// OSU names the OSU micro-benchmark that measures the same, with
	// %s for the synchronisation (one-sided operations).
	OSU string
	// Family is a collective's or a ping-pong's form when it is not the
	// blocking one: FamilyNonblocking or FamilyPersistent ("" otherwise).
	Family string
	// Of is the blocking operation a non-blocking or persistent form
	// makes the same exchange as ("" for the others).
	Of string
	// Needs is the MPI 4.0 call the operation needs of the library ("":
	// MPI 3.1 has what it calls); without it the operation is left out.
	Needs string
	// Count64 marks an operation that passes its length as an MPI_Count
	// (the _c calls of MPI 4.0): the only ones that measure lengths above
	// 2^31−1 bytes.
	Count64 bool
}

// Families of operations besides the blocking ones.
const (
	// FamilyNonblocking: the MPI_I* collectives, each started, then
	// waited for; a point measures the plain time and, with a computation
	// as long as that placed between start and wait, the overlap.
	FamilyNonblocking = "nonblocking"
	// FamilyPersistent: requests made once by an init call (MPI_Send_init,
	// MPI 4's MPI_Bcast_init …), each call an MPI_Start and MPI_Wait.
	FamilyPersistent = "persistent"
	// FamilyNeighborhood: the neighborhood collectives (blocking and
	// non-blocking) on the suite's topology, and their hand-built
	// references.
	FamilyNeighborhood = "neighborhood"
	// FamilyPartitioned: MPI 4's partitioned point-to-point, a message of
	// chunks partitions of L bytes each.
	FamilyPartitioned = "partitioned"
	// FamilyLargeCount: MPI 4's large-count (_c) calls, whose lengths may
	// pass 2^31−1 bytes.
	FamilyLargeCount = "large-count"
)

// Families lists them, as ParseOps takes them.
var Families = []string{FamilyNonblocking, FamilyPersistent, FamilyNeighborhood, FamilyPartitioned, FamilyLargeCount}

// Persistent says whether the operation's requests are made once per
// batch of repetitions (persistent and partitioned): their init time is
// reported apart, and they reuse their buffers.
func (o Op) Persistent() bool { return o.Family == FamilyPersistent || o.Family == FamilyPartitioned }

// RMABurst is the puts or gets of a bandwidth call, as OSU's window size.
const RMABurst = 64

// Ops is the operation table, the one declaration of every operation:
// the C table that the timed loop runs them by is written from it
// (OpTableC), its order the operations' numbers.
var Ops = slices.Concat(baseOps, forms(FamilyNonblocking), forms(FamilyPersistent), neighborOps(), partitionedOps)

// baseOps are the operations written out one by one; forms adds the
// non-blocking and persistent collectives.
var baseOps = []Op{
	{Name: "send-recv", Pattern: PingPong, Call: "MPI_Send / MPI_Recv", Vary: VaryLength, Elem: 1, Typed: true},
	{Name: "send-recv-anytag", Pattern: PingPong, Call: "MPI_Send / MPI_Recv(MPI_ANY_TAG)", Vary: VaryLength, Elem: 1, Typed: true},
	{Name: "send-irecv", Pattern: PingPong, Call: "MPI_Send / MPI_Irecv posted before, MPI_Wait", Vary: VaryLength, Elem: 1, Typed: true},
	{Name: "send-iprobe-recv", Pattern: PingPong, Call: "MPI_Send / MPI_Iprobe until found, MPI_Recv", Vary: VaryLength, Elem: 1, Typed: true},
	{Name: "ssend-recv", Pattern: PingPong, Call: "MPI_Ssend / MPI_Recv", Vary: VaryLength, Elem: 1, Typed: true},
	{Name: "isend-recv", Pattern: PingPong, Call: "MPI_Isend, MPI_Wait / MPI_Recv", Vary: VaryLength, Elem: 1, Typed: true},
	{Name: "issend-recv", Pattern: PingPong, Call: "MPI_Issend, MPI_Wait / MPI_Recv", Vary: VaryLength, Elem: 1, Typed: true},
	{Name: "bsend-recv", Pattern: PingPong, Call: "MPI_Bsend (buffer attached) / MPI_Recv", Vary: VaryLength, Elem: 1, Typed: true},
	{Name: "sendrecv", Pattern: PingPong, Call: "MPI_Sendrecv on both sides", Vary: VaryLength, Elem: 1, Exchange: true, Typed: true},
	{Name: "sendrecv-replace", Pattern: PingPong, Call: "MPI_Sendrecv_replace on both sides", Vary: VaryLength, Elem: 1, Exchange: true, Typed: true},

	{Name: "barrier", Pattern: Collective, Call: "MPI_Barrier", Vary: VaryProcs, Elem: 1},
	{Name: "bcast", Pattern: Collective, Call: "MPI_Bcast from rank 0", Vary: VaryLength | VaryProcs, Elem: 1, Typed: true},
	{Name: "reduce", Pattern: Collective, Call: "MPI_Reduce (MPI_FLOAT, MPI_SUM) to rank 0", Vary: VaryLength | VaryProcs, Elem: 4},
	{Name: "allreduce", Pattern: Collective, Call: "MPI_Allreduce (MPI_FLOAT, MPI_SUM)", Vary: VaryLength | VaryProcs, Elem: 4},
	{Name: "reduce-scatter-block", Pattern: Collective, Call: "MPI_Reduce_scatter_block (MPI_FLOAT, MPI_SUM), L per process", Vary: VaryLength | VaryProcs, Elem: 4, Blocks: true},
	{Name: "scan", Pattern: Collective, Call: "MPI_Scan (MPI_FLOAT, MPI_SUM)", Vary: VaryLength | VaryProcs, Elem: 4},
	{Name: "exscan", Pattern: Collective, Call: "MPI_Exscan (MPI_FLOAT, MPI_SUM)", Vary: VaryLength | VaryProcs, Elem: 4},
	{Name: "gather", Pattern: Collective, Call: "MPI_Gather to rank 0, L per process", Vary: VaryLength | VaryProcs, Elem: 1, Blocks: true, Typed: true},
	{Name: "gatherv", Pattern: Collective, Call: "MPI_Gatherv to rank 0, L per process", Vary: VaryLength | VaryProcs, Elem: 1, Blocks: true},
	{Name: "scatter", Pattern: Collective, Call: "MPI_Scatter from rank 0, L per process", Vary: VaryLength | VaryProcs, Elem: 1, Blocks: true, Typed: true},
	{Name: "scatterv", Pattern: Collective, Call: "MPI_Scatterv from rank 0, L per process", Vary: VaryLength | VaryProcs, Elem: 1, Blocks: true},
	{Name: "allgather", Pattern: Collective, Call: "MPI_Allgather, L per process", Vary: VaryLength | VaryProcs, Elem: 1, Blocks: true, Typed: true},
	{Name: "allgatherv", Pattern: Collective, Call: "MPI_Allgatherv, L per process", Vary: VaryLength | VaryProcs, Elem: 1, Blocks: true},
	{Name: "alltoall", Pattern: Collective, Call: "MPI_Alltoall, L per pair", Vary: VaryLength | VaryProcs, Elem: 1, Blocks: true, Typed: true},
	{Name: "alltoallv", Pattern: Collective, Call: "MPI_Alltoallv, L per pair", Vary: VaryLength | VaryProcs, Elem: 1, Blocks: true},
	{Name: "comm-split", Pattern: Collective, Call: "MPI_Comm_split (one colour; freed after the repetition)", Vary: VaryProcs, Elem: 1},
	{Name: "comm-dup", Pattern: Collective, Call: "MPI_Comm_dup (freed after the repetition)", Vary: VaryProcs, Elem: 1},
	{Name: "memcpy", Pattern: Collective, Call: "memcpy of L bytes on every process at once", Vary: VaryLength | VaryProcs, Elem: 1},
	{Name: "bcast-sendrecv", Pattern: Collective, Call: "rank 0 MPI_Send to each, the others MPI_Recv", Vary: VaryLength | VaryProcs, Elem: 1, Ref: "bcast"},
	{Name: "gather-sendrecv", Pattern: Collective, Call: "each MPI_Send to rank 0, which MPI_Recv in rank order", Vary: VaryLength | VaryProcs, Elem: 1, Ref: "gather", Blocks: true},
	{Name: "gather-irecv", Pattern: Collective, Call: "each MPI_Send to rank 0, which MPI_Irecv from all, MPI_Waitall", Vary: VaryLength | VaryProcs, Elem: 1, Ref: "gather", Blocks: true},
	{Name: "allreduce-reduce-bcast", Pattern: Collective, Call: "MPI_Reduce to rank 0, then MPI_Bcast", Vary: VaryLength | VaryProcs, Elem: 4, Ref: "allreduce"},
	{Name: "alltoall-isend-irecv", Pattern: Collective, Call: "MPI_Irecv from all, MPI_Isend to all, MPI_Waitall", Vary: VaryLength | VaryProcs, Elem: 1, Ref: "alltoall", Blocks: true},

	{Name: "mw-wait", Pattern: MasterWorker, Call: "master MPI_Irecv per worker, MPI_Wait in turn, MPI_Send", Vary: VaryLength | VaryProcs | VaryChunks, Elem: 1, Blocks: true},
	{Name: "mw-waitany", Pattern: MasterWorker, Call: "master MPI_Irecv per worker, MPI_Waitany, MPI_Send", Vary: VaryLength | VaryProcs | VaryChunks, Elem: 1, Blocks: true},
	{Name: "mw-recv-any", Pattern: MasterWorker, Call: "master MPI_Recv(MPI_ANY_SOURCE), MPI_Send", Vary: VaryLength | VaryProcs | VaryChunks, Elem: 1, Blocks: true},
	{Name: "mw-send", Pattern: MasterWorker, Call: "master MPI_Send, MPI_Recv(MPI_ANY_SOURCE)", Vary: VaryLength | VaryProcs | VaryChunks, Elem: 1, Blocks: true},
	{Name: "mw-ssend", Pattern: MasterWorker, Call: "master MPI_Ssend, MPI_Recv(MPI_ANY_SOURCE)", Vary: VaryLength | VaryProcs | VaryChunks, Elem: 1, Blocks: true},
	{Name: "mw-isend", Pattern: MasterWorker, Call: "master MPI_Isend, MPI_Wait, MPI_Recv(MPI_ANY_SOURCE)", Vary: VaryLength | VaryProcs | VaryChunks, Elem: 1, Blocks: true},
	{Name: "mw-bsend", Pattern: MasterWorker, Call: "master MPI_Bsend (buffer attached), MPI_Recv(MPI_ANY_SOURCE)", Vary: VaryLength | VaryProcs | VaryChunks, Elem: 1, Blocks: true},

	{Name: "wtime", Pattern: Simple, Call: "MPI_Wtime"},
	{Name: "comm-rank", Pattern: Simple, Call: "MPI_Comm_rank"},
	{Name: "comm-size", Pattern: Simple, Call: "MPI_Comm_size"},
	{Name: "iprobe", Pattern: Simple, Call: "MPI_Iprobe that finds nothing"},
	{Name: "improbe", Pattern: Simple, Call: "MPI_Improbe that finds nothing"},
	{Name: "buffer-attach", Pattern: Simple, Call: "MPI_Buffer_attach, MPI_Buffer_detach"},
	{Name: "type-create", Pattern: Simple, Call: "MPI_Type_* building the send type, MPI_Type_commit, MPI_Type_free", Typed: true},

	{Name: "put", Pattern: OneSided, Call: "MPI_Put of L bytes, then the suite's synchronisation", Vary: VaryLength, Elem: 1, Typed: true, OSU: "osu_put_latency -s %s"},
	{Name: "get", Pattern: OneSided, Call: "MPI_Get of L bytes, then the suite's synchronisation", Vary: VaryLength, Elem: 1, OSU: "osu_get_latency -s %s"},
	{Name: "acc-sum", Pattern: OneSided, Call: "MPI_Accumulate (MPI_INT, MPI_SUM), then the synchronisation", Vary: VaryLength, Elem: 4, OSU: "osu_acc_latency -s %s"},
	{Name: "acc-replace", Pattern: OneSided, Call: "MPI_Accumulate (MPI_INT, MPI_REPLACE), then the synchronisation", Vary: VaryLength, Elem: 4},
	{Name: "acc-max", Pattern: OneSided, Call: "MPI_Accumulate (MPI_INT, MPI_MAX), then the synchronisation", Vary: VaryLength, Elem: 4},
	{Name: "get-acc", Pattern: OneSided, Call: "MPI_Get_accumulate (MPI_INT, MPI_SUM), then the synchronisation", Vary: VaryLength, Elem: 4, OSU: "osu_get_acc_latency -s %s"},
	{Name: "fetch-and-op", Pattern: OneSided, Call: "MPI_Fetch_and_op (MPI_INT64_T, MPI_SUM), then the synchronisation", OSU: "osu_fop_latency -s %s"},
	{Name: "compare-and-swap", Pattern: OneSided, Call: "MPI_Compare_and_swap (MPI_INT64_T), then the synchronisation", OSU: "osu_cas_latency -s %s"},
	{Name: "put-bw", Pattern: OneSided, Call: "64 MPI_Put of L bytes, then the synchronisation", Vary: VaryLength, Elem: 1, Burst: RMABurst, OSU: "osu_put_bw -s %s"},
	{Name: "get-bw", Pattern: OneSided, Call: "64 MPI_Get of L bytes, then the synchronisation", Vary: VaryLength, Elem: 1, Burst: RMABurst, OSU: "osu_get_bw -s %s"},
	{Name: "win-fence", Pattern: OneSided, Call: "MPI_Win_fence on both, an empty epoch"},
	{Name: "win-pscw", Pattern: OneSided, Call: "MPI_Win_start, MPI_Win_complete / MPI_Win_post, MPI_Win_wait, an empty epoch"},
	{Name: "win-lock", Pattern: OneSided, Call: "MPI_Win_lock, MPI_Win_unlock of the partner's window, an empty epoch"},
	{Name: "win-fence-delayed", Pattern: OneSided, Call: "MPI_Win_fence, the partner 100 µs late"},
	{Name: "win-pscw-delayed", Pattern: OneSided, Call: "MPI_Win_start, MPI_Win_complete, the partner's post 100 µs late"},
	{Name: "win-lock-delayed", Pattern: OneSided, Call: "MPI_Win_lock, MPI_Win_unlock, the partner busy for 100 µs outside MPI"},
	{Name: "put-all-one", Pattern: Collective, Call: "every process MPI_Put L bytes into rank 0's window, then the synchronisation", Vary: VaryLength | VaryProcs, Elem: 1, Blocks: true},
	{Name: "put-all-own", Pattern: Collective, Call: "every process MPI_Put L bytes into the next one's window, then the synchronisation", Vary: VaryLength | VaryProcs, Elem: 1},

	{Name: "reduce-scatter", Pattern: Collective, Call: "MPI_Reduce_scatter (MPI_FLOAT, MPI_SUM), L per process", Vary: VaryLength | VaryProcs, Elem: 4, Blocks: true},
	{Name: "alltoallw", Pattern: Collective, Call: "MPI_Alltoallw (MPI_BYTE for each peer), L per pair", Vary: VaryLength | VaryProcs, Elem: 1, Blocks: true},
	{Name: "send-recv-persistent", Pattern: PingPong, Call: "MPI_Start, MPI_Wait of MPI_Send_init / MPI_Recv_init requests", Vary: VaryLength, Elem: 1, Family: FamilyPersistent, Of: "send-recv", OSU: "osu_latency_persistent"},
	{Name: "isendrecv", Pattern: PingPong, Call: "MPI_Isendrecv, MPI_Wait on both sides", Vary: VaryLength, Elem: 1, Exchange: true, Of: "sendrecv", Needs: "MPI_Isendrecv"},
	{Name: "isendrecv-replace", Pattern: PingPong, Call: "MPI_Isendrecv_replace, MPI_Wait on both sides", Vary: VaryLength, Elem: 1, Exchange: true, Of: "sendrecv-replace", Needs: "MPI_Isendrecv_replace"},
}

// partitionedOps are MPI 4's partitioned point-to-point operations and
// the large-count ping-pong (after the neighborhood collectives).
var partitionedOps = []Op{
	{Name: "psend-precv", Pattern: PingPong, Call: "MPI_Psend_init / MPI_Precv_init requests; MPI_Start, MPI_Pready of every partition (by the threads of the line) / MPI_Parrived until the last, MPI_Wait; chunks partitions of L bytes",
		Vary: VaryLength | VaryChunks, Elem: 1, Blocks: true, Family: FamilyPartitioned, Needs: "MPI_Psend_init"},
	{Name: "send-recv-c", Pattern: PingPong, Call: "MPI_Send_c / MPI_Recv_c (the length an MPI_Count)", Vary: VaryLength, Elem: 1,
		Family: FamilyLargeCount, Of: "send-recv", Needs: "MPI_Send_c", Count64: true},
}

// formOf are the blocking collectives with a non-blocking and a
// persistent form, in the order of their forms in Ops.
var formOf = []string{"barrier", "bcast", "reduce", "allreduce", "reduce-scatter-block", "reduce-scatter",
	"scan", "exscan", "gather", "gatherv", "scatter", "scatterv", "allgather", "allgatherv", "alltoall",
	"alltoallv", "alltoallw"}

// neighborOps are the neighborhood collectives on a suite's topology,
// each neighbor one block of L bytes: the five of MPI 3.1, their
// non-blocking forms (Family stays neighborhood, Of names the blocking
// one), and two hand-built references.
func neighborOps() []Op {
	row := func(name, call string) Op {
		return Op{Name: name, Pattern: Collective, Call: call, Vary: VaryLength | VaryProcs, Elem: 1, Blocks: true,
			Family: FamilyNeighborhood, OSU: "osu_" + strings.ReplaceAll(name, "-", "_")}
	}
	var out []Op
	for _, n := range []string{"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"} {
		out = append(out, row("neighbor-"+n, "MPI_Neighbor_"+n+" on the suite's topology, L per neighbor"))
	}
	for _, o := range slices.Clone(out) {
		o.Of, o.Name, o.OSU = o.Name, "i"+o.Name, "osu_i"+o.OSU[4:]
		o.Call = "MPI_Ineighbor_" + strings.TrimPrefix(o.Of, "neighbor-") + " on the suite's topology, L per neighbor; MPI_Wait"
		out = append(out, o)
	}
	for _, n := range []string{"allgather", "alltoall"} {
		o := row("neighbor-"+n+"-isend-irecv", "MPI_Irecv from every neighbor, MPI_Isend to every one, MPI_Waitall")
		o.Ref, o.OSU = "neighbor-"+n, ""
		out = append(out, o)
	}
	return out
}

// mpiCall is the MPI function a blocking row's Call begins with.
var mpiCall = regexp.MustCompile(`^MPI_[A-Za-z_]+`)

// forms are the operations of family f (FamilyNonblocking: i<op>;
// FamilyPersistent: <op>-persistent), one per entry of formOf: the
// blocking row with the family's call, name and MPI 4 need.
func forms(f string) []Op {
	var out []Op
	for _, of := range formOf {
		o := baseOps[slices.IndexFunc(baseOps, func(o Op) bool { return o.Name == of })]
		mpiName := mpiCall.FindString(o.Call)
		rest := o.Call[len(mpiName):]
		o.Family, o.Of, o.Typed = f, of, false
		if f == FamilyNonblocking {
			o.Name = "i" + of
			o.Call = "MPI_I" + strings.ToLower(mpiName[4:5]) + mpiName[5:] + rest + "; MPI_Wait"
			o.OSU = "osu_i" + strings.ReplaceAll(of, "-", "_")
		} else {
			o.Name = of + "-persistent"
			o.Needs = mpiName + "_init"
			o.Call = "MPI_Start, MPI_Wait of an " + o.Needs + " request: " + mpiName + rest
			o.OSU = "osu_" + strings.ReplaceAll(of, "-", "_") + "_persistent"
		}
		out = append(out, o)
	}
	return out
}

// RMADelay is the partner's delay of the delayed synchronisations, seconds.
const RMADelay = 100e-6

// OnPair says whether the operation runs on a pair of processes.
func (o Op) OnPair() bool { return o.Pattern == PingPong || o.Pattern == OneSided }

// RMA says whether the operation uses a window (one-sided).
func (o Op) RMA() bool { return o.Pattern == OneSided || strings.HasPrefix(o.Name, "put-all-") }

// OpIndex returns the index of the named operation in Ops, or -1.
func OpIndex(name string) int {
	for i, o := range Ops {
		if o.Name == name {
			return i
		}
	}
	return -1
}

// OpNames returns the names of the operations, in table order.
func OpNames() []string {
	out := make([]string, len(Ops))
	for i, o := range Ops {
		out[i] = o.Name
	}
	return out
}

// ParseOps reads a comma-separated list of operation names, "all",
// pattern names (ping-pong, collective, master-worker, simple,
// one-sided) or families (nonblocking, persistent), and returns the
// indexes in table order, each once. The one-sided collectives
// (put-all-*) come with one-sided, not collective; the non-blocking and
// persistent collectives with their family, not collective.
func ParseOps(s string) ([]int, error) {
	seen := map[int]bool{}
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(w)
		found := false
		for i, o := range Ops {
			if w == "all" || w == o.Name || w == o.Family || w == o.patternWord() {
				seen[i], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("no operation %q: want all, a pattern (%s), a family (%s) or one of %s",
				w, strings.Join(patternNames[:], ", "), strings.Join(Families, ", "), strings.Join(OpNames(), ", "))
		}
	}
	out := make([]int, 0, len(seen))
	for i := range seen {
		out = append(out, i)
	}
	sort.Ints(out)
	return out, nil
}

// NonBlocking says whether the operation is a non-blocking collective
// (of FamilyNonblocking, or a neighborhood one's MPI_Ineighbor_* form):
// its points also measure the overlap.
func (o Op) NonBlocking() bool {
	return o.Family == FamilyNonblocking || o.Family == FamilyNeighborhood && o.Of != ""
}

// patternWord is the pattern name that brings the operation into a list
// of ParseOps: one-sided for the operations on windows; none for the
// collectives of a family and the partitioned ping-pong.
func (o Op) patternWord() string {
	switch {
	case o.RMA():
		return OneSided.String()
	case o.Family != "" && o.Pattern == Collective, o.Family == FamilyPartitioned, o.Family == FamilyLargeCount:
		return ""
	}
	return o.Pattern.String()
}

// MinProcs is the fewest processes the operation's pattern needs.
func (o Op) MinProcs() int {
	switch o.Pattern {
	case PingPong, MasterWorker, OneSided:
		return 2
	}
	return 1
}

// Answers says whether the processes other than rank 0 only answer rank
// 0's messages (a ping-pong responder, a master-worker worker): the time
// is rank 0's, so under window synchronisation they need not wait for
// the windows, and a clock offset estimated too late cannot make them
// start after rank 0 and lengthen its time.
func (o Op) Answers() bool {
	return o.Pattern == MasterWorker || o.Pattern == OneSided || o.Pattern == PingPong && !o.Exchange
}

// Cold says whether a point of pattern p cycles its buffers under cache
// mode mode. In the default mode (auto) the ping-pong family reuses one
// buffer, as the latency and bandwidth of OSU, IMB, SKaMPI and b_eff's
// own ping-pong are defined; the other patterns move data that does not
// come from cache.
func Cold(mode string, p MeasurePattern) bool {
	if mode == CacheAuto {
		return p != PingPong && p != OneSided
	}
	return mode == CacheCold
}
