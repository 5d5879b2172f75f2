package skampi

import (
	"fmt"
	"slices"
	"strings"
)

// Topologies of the neighborhood collectives (a suite's field topology):
// cart-<n>d is MPI_Cart_create's grid of n dimensions (2n neighbors, some
// MPI_PROC_NULL at a non-periodic edge), stencil-<n>d the same grid with
// every process within one step in each dimension a neighbor (8 or 26,
// fewer at a non-periodic edge) as a distributed graph; -periodic wraps
// every dimension around.
var Topologies = []string{"cart-2d", "cart-2d-periodic", "cart-3d", "cart-3d-periodic",
	"stencil-2d", "stencil-2d-periodic", "stencil-3d", "stencil-3d-periodic"}

// TopologyDefault is a suite's topology where it names none.
const TopologyDefault = "cart-2d-periodic"

// A Topology is one of Topologies, read.
type Topology struct {
	Stencil  bool // the full stencil as a graph (else Cartesian)
	NDims    int  // 2 or 3
	Periodic bool
}

// ParseTopology reads one of Topologies.
func ParseTopology(s string) (Topology, error) {
	if !slices.Contains(Topologies, s) {
		return Topology{}, fmt.Errorf("%q: want one of %s", s, strings.Join(Topologies, ", "))
	}
	return Topology{Stencil: strings.HasPrefix(s, "stencil"), NDims: int(s[strings.Index(s, "-")+1] - '0'),
		Periodic: strings.HasSuffix(s, "-periodic")}, nil
}

// Grid is the grid of p processes: NDims factors of p as close to each
// other as can be, the largest first (what MPI_Dims_create gives where
// it balances them; computed here so that every library gets the same).
func (t Topology) Grid(p int) []int {
	divs := divisors(p)
	best := []int(nil)
	var try func(left int, dims []int)
	try = func(left int, dims []int) {
		if len(dims) == t.NDims-1 {
			if len(dims) == 0 || left <= dims[len(dims)-1] {
				d := append(slices.Clone(dims), left)
				if best == nil || spread(d) < spread(best) {
					best = d
				}
			}
			return
		}
		for _, f := range divs { // descending
			if left%f == 0 && (len(dims) == 0 || f <= dims[len(dims)-1]) {
				try(left/f, append(dims, f))
			}
		}
	}
	try(p, nil)
	return best
}

// divisors are p's divisors, largest first (trial division to √p).
func divisors(p int) []int {
	var lo, hi []int
	for f := 1; f*f <= p; f++ {
		if p%f == 0 {
			lo = append(lo, f)
			if f != p/f {
				hi = append(hi, p/f)
			}
		}
	}
	slices.Reverse(lo)
	return append(hi, lo...)
}

// spread is the largest factor over the smallest.
func spread(d []int) float64 { return float64(slices.Max(d)) / float64(slices.Min(d)) }

// PartitionThreads is the most threads that mark a partitioned
// message's partitions ready (under MPI_THREAD_MULTIPLE; at most one per
// partition).
const PartitionThreads = 4

// MaxDegree is the most neighbors a process has (its blocks of a
// neighborhood collective).
func (t Topology) MaxDegree() int {
	if t.Stencil {
		if t.NDims == 2 {
			return 8
		}
		return 26
	}
	return 2 * t.NDims
}

// Degrees are the fewest and the most neighbors a process of the grid
// has, MPI_PROC_NULL not counted (a Cartesian process always has 2n
// entries; at a non-periodic edge some are MPI_PROC_NULL).
func (t Topology) Degrees(grid []int) (lo, hi int) {
	if t.Periodic {
		return t.MaxDegree(), t.MaxDegree()
	}
	lo, hi = 1<<30, 0
	corner, inner := 1, 1 // a corner's reach and an interior process's, per dimension
	for _, d := range grid {
		corner *= min(d, 2)
		inner *= min(d, 3)
	}
	if !t.Stencil {
		corner, inner = 0, 0
		for _, d := range grid {
			corner += min(d-1, 1)
			inner += min(d-1, 2)
		}
		return corner, inner
	}
	return corner - 1, inner - 1
}

// HasNeighborhood says whether the suite measures a neighborhood collective.
func (s *Setup) HasNeighborhood() bool {
	return slices.ContainsFunc(s.Ops, func(i int) bool { return Ops[i].Family == FamilyNeighborhood })
}

// TopologyLine is the configuration line KeyTopology+name of a suite with
// neighborhood collectives: its topology, then per process count of the
// suite (up to n) its grid and neighbors; of more than TopologyCounts
// counts the first ones and the largest (the line stays short: a grid
// follows from the topology and the count).
func (s *Setup) TopologyLine(n int) string {
	t, err := ParseTopology(s.Topology)
	if err != nil {
		return s.Topology
	}
	var counts []int
	for _, p := range s.Procs {
		if p <= n {
			counts = append(counts, p)
		}
	}
	parts := []string{}
	for i, p := range counts {
		switch {
		case i < TopologyCounts-1 || i == len(counts)-1:
			parts = append(parts, fmt.Sprintf("%d: %s", p, t.Describe(p)))
		case i == TopologyCounts-1:
			parts = append(parts, "…")
		}
	}
	return s.Topology + "; " + strings.Join(parts, "; ")
}

// TopologyCounts is the most process counts a topology line describes.
const TopologyCounts = 16

// Describe is the topology on p processes for a configuration line:
// "2×2, 4 neighbors" (or "2–4 neighbors" where they differ).
func (t Topology) Describe(p int) string {
	g := t.Grid(p)
	parts := make([]string, len(g))
	for i, d := range g {
		parts[i] = fmt.Sprint(d)
	}
	lo, hi := t.Degrees(g)
	deg := fmt.Sprint(hi) + " neighbor"
	if lo != hi {
		deg = fmt.Sprintf("%d–%d neighbor", lo, hi)
	}
	if hi != 1 {
		deg += "s"
	}
	return strings.Join(parts, "×") + ", " + deg
}
