package congestion

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// SplitOptions are what decides the split of the processes into canaries
// and congestor sets.
type SplitOptions struct {
	By          string   // "auto", SplitNodes or SplitProcs (ignored with CanaryNodes)
	Share       float64  // the share of the nodes (or of each node's processes) that runs canaries
	CanaryNodes []string // the hosts whose processes run canaries (SplitList), nil: decided
	Congestors  int      // congestors of the run
	Mix         string   // "auto", MixTogether or MixEach
	Only        bool     // congestors only: no canaries
	Seed        uint64
}

// A Split is who runs what: Role[r] is 0 for a canary process, 1+i for a
// process of congestor set i; Order[r] orders the processes within their
// role (a set's first is its root).
type Split struct {
	By          string
	Mix         string
	Nodes       int
	CanaryProcs int
	CanaryNodes int
	SetProcs    []int // per set
	SetNodes    []int
	Role, Order []int
	canaryHosts []string
}

// MinNodes is the fewest nodes a run needs to be valid: canaries on one
// node or more, congestors on two.
const MinNodes = 3

// nodesOf groups the ranks by host, in the order the hosts first appear.
func nodesOf(hosts []string) (names []string, ranks [][]int) {
	at := map[string]int{}
	for r, h := range hosts {
		i, ok := at[h]
		if !ok {
			i = len(names)
			at[h] = i
			names = append(names, h)
			ranks = append(ranks, nil)
		}
		ranks[i] = append(ranks[i], r)
	}
	return names, ranks
}

// DecideSplit splits the processes on hosts (one per rank). The nodes are
// taken in an order shuffled with the seed (GPCNeT's: a busy system puts
// a job's nodes anywhere). By nodes, the first max(2, ⌈Share·nodes⌉)
// nodes run canaries and at least two others remain; by processes (the
// default below 4 nodes), every node gives ⌈Share·its processes⌉ of its
// first processes to the canaries. MixTogether deals them into one set per
// congestor — whole blocks of nodes when there are at least two
// congestor nodes per set and the split is by nodes, else in turn — and
// MixEach keeps them in one set that runs each congestor in turn.
func DecideSplit(hosts []string, o SplitOptions) (*Split, error) {
	names, ranks := nodesOf(hosts)
	order := shuffled(len(names), o.Seed)
	s := &Split{Nodes: len(names), By: o.By, Role: make([]int, len(hosts)), Order: make([]int, len(hosts))}
	canary := make([]bool, len(hosts))
	var congestorNodes []int // in shuffled order
	var err error
	if !o.Only {
		if congestorNodes, err = s.pickCanaries(o, names, ranks, order, canary); err != nil {
			return nil, err
		}
	} else {
		s.By, congestorNodes = "", order
	}
	congestors := congestorProcs(ranks, congestorNodes, canary)
	if err := s.decideMix(o, len(congestors)); err != nil {
		return nil, err
	}
	s.deal(o, ranks, congestorNodes, congestors)
	k := 0
	for _, n := range order {
		for _, r := range ranks[n] {
			if canary[r] {
				s.Order[r] = k
				k++
			}
		}
	}
	return s, nil
}

// shuffled is 0…n−1 in the order of the seed.
func shuffled(n int, seed uint64) []int {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)).Perm(n)
}

// pickCanaries marks the canary processes and returns the nodes left to
// the congestors.
func (s *Split) pickCanaries(o SplitOptions, names []string, ranks [][]int, order []int, canary []bool) ([]int, error) {
	if len(o.CanaryNodes) > 0 {
		s.By = SplitList
	} else if s.By == "" || s.By == "auto" {
		s.By = SplitProcs
		if len(names) >= 4 {
			s.By = SplitNodes
		}
	}
	var rest []int
	pick := func(n, k int) {
		for _, r := range ranks[n][:k] {
			canary[r] = true
			s.CanaryProcs++
		}
		s.CanaryNodes++
		if k < len(ranks[n]) {
			rest = append(rest, n)
		}
	}
	switch s.By {
	case SplitList:
		for _, h := range o.CanaryNodes {
			i := slices.Index(names, h)
			if i < 0 {
				return nil, fmt.Errorf("canary node %q runs none of the job's processes (its nodes: %s)", h, shortList(names))
			}
		}
		for _, n := range order {
			if slices.Contains(o.CanaryNodes, names[n]) {
				pick(n, len(ranks[n]))
			} else {
				rest = append(rest, n)
			}
		}
	case SplitNodes:
		k := max(2, int(math.Ceil(o.Share*float64(len(names))-1e-9)))
		if len(names)-k < 2 {
			return nil, fmt.Errorf("a split by nodes needs 2 canary nodes and 2 congestor nodes: the job has %d nodes", len(names))
		}
		for i, n := range order {
			if i < k {
				pick(n, len(ranks[n]))
			} else {
				rest = append(rest, n)
			}
		}
	case SplitProcs:
		least := 1
		if len(names) == 1 {
			least = 2 // a ring on one node: for trying a run, not valid
		}
		for _, n := range order {
			pick(n, min(len(ranks[n]), max(least, int(math.Ceil(o.Share*float64(len(ranks[n]))-1e-9)))))
		}
	default:
		return nil, fmt.Errorf("split %q: want auto, %s or %s", s.By, SplitNodes, SplitProcs)
	}
	s.canaryHosts = nil
	for _, n := range order {
		if len(ranks[n]) > 0 && canary[ranks[n][0]] {
			s.canaryHosts = append(s.canaryHosts, names[n])
		}
	}
	if s.CanaryProcs < 2 {
		return nil, fmt.Errorf("%s: a ring needs 2 (start more processes per node or name more canary nodes)", Count(s.CanaryProcs, "canary process"))
	}
	return rest, nil
}

// congestorProcs lists the processes of nodes that are not canaries,
// node by node: dealt in turn into the sets, each set's processes are
// then as far apart as the nodes allow.
func congestorProcs(ranks [][]int, nodes []int, canary []bool) []int {
	var out []int
	for _, n := range nodes {
		for _, r := range ranks[n] {
			if !canary[r] {
				out = append(out, r)
			}
		}
	}
	return out
}

// decideMix decides whether the congestors run together.
func (s *Split) decideMix(o SplitOptions, procs int) error {
	if procs < 2 {
		return fmt.Errorf("%d congestor processes: a congestor needs 2 (the job has %d processes on %s)", procs, len(s.Role), Count(s.Nodes, "node"))
	}
	s.Mix = o.Mix
	if s.Mix == "" || s.Mix == "auto" {
		s.Mix = MixEach
		if procs >= 2*o.Congestors {
			s.Mix = MixTogether
		}
	}
	switch {
	case s.Mix != MixTogether && s.Mix != MixEach:
		return fmt.Errorf("mix %q: want auto, %s or %s", s.Mix, MixTogether, MixEach)
	case s.Mix == MixTogether && procs < 2*o.Congestors:
		return fmt.Errorf("%d congestors together need 2 processes each: there are %d congestor processes (run them one at a time: mix %s)", o.Congestors, procs, MixEach)
	}
	return nil
}

// deal deals the congestor processes into their sets.
func (s *Split) deal(o SplitOptions, ranks [][]int, nodes, procs []int) {
	sets := 1
	if s.Mix == MixTogether {
		sets = o.Congestors
	}
	s.SetProcs, s.SetNodes = make([]int, sets), make([]int, sets)
	seen := make([]map[int]bool, sets)
	for i := range seen {
		seen[i] = map[int]bool{}
	}
	nodeOf := map[int]int{}
	for _, n := range nodes {
		for _, r := range ranks[n] {
			nodeOf[r] = n
		}
	}
	blocks := s.By != SplitProcs && len(nodes) >= 2*sets
	at := map[int]int{} // node → its position in nodes
	for i, n := range nodes {
		at[n] = i
	}
	for k, r := range procs {
		set := k % sets
		if blocks {
			set = at[nodeOf[r]] * sets / len(nodes)
		}
		s.Role[r] = 1 + set
		s.Order[r] = s.SetProcs[set]
		s.SetProcs[set]++
		if !seen[set][nodeOf[r]] {
			seen[set][nodeOf[r]] = true
			s.SetNodes[set]++
		}
	}
}

// Details says in a line which nodes run canaries: "canaries on node3,
// node1 (1 of 2 processes each)".
func (s *Split) Details() string {
	if s.CanaryProcs == 0 {
		return "no canaries: every process runs a congestor"
	}
	return fmt.Sprintf("canaries on %s", shortList(s.canaryHosts))
}

// shortList is a list of names, its middle left out beyond 8.
func shortList(names []string) string {
	if len(names) <= 8 {
		return strings.Join(names, ",")
	}
	return strings.Join(names[:4], ",") + ",…(" + strconv.Itoa(len(names)-8) + " more)…," + strings.Join(names[len(names)-4:], ",")
}

// Count is "1 node", "3 nodes", "1 canary process", "0 canary processes".
func Count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "s") {
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Ints formats counts as a comma-separated list.
func Ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
