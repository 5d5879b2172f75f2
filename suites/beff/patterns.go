package beff

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// None marks a missing partner in a Step (MPI_PROC_NULL on the MPI side).
const None = -1

// A Step is one exchange of an iteration: send L bytes to Dest and receive L
// bytes from Src, either of which may be None. Steps of one iteration run in
// order with MPI_Sendrecv; the nonblocking and Alltoallv methods start them
// all at once. A message that Dest receives in step s is the one it
// receives in its own step s: the patterns pair their steps.
type Step struct{ Dest, Src int }

// Kind says how a pattern enters b_eff.
type Kind int

const (
	KindRing   Kind = iota // one of the 6 ring patterns, averaged into b_eff
	KindRandom             // one of the random rings, averaged into b_eff
	KindExtra              // additional pattern, reported only
)

func (k Kind) String() string {
	switch k {
	case KindRing:
		return "ring"
	case KindRandom:
		return "random"
	}
	return "extra"
}

// Method is a communication method.
type Method int

const (
	Sendrecv    Method = iota // MPI_Sendrecv per step (Send or Recv where a side is None)
	Alltoallv                 // one MPI_Alltoallv per iteration
	Nonblocking               // MPI_Irecv all, MPI_Isend all, MPI_Waitall
)

// Methods lists the three methods in measurement order.
var Methods = []Method{Sendrecv, Alltoallv, Nonblocking}

func (m Method) String() string {
	switch m {
	case Sendrecv:
		return "sendrecv"
	case Alltoallv:
		return "alltoallv"
	case Nonblocking:
		return "nonblocking"
	}
	return fmt.Sprintf("method%d", int(m))
}

// ParseMethod is the inverse of Method.String.
func ParseMethod(s string) (Method, bool) {
	for _, m := range Methods {
		if m.String() == s {
			return m, true
		}
	}
	return 0, false
}

// A Pattern is a communication pattern over the processes 0..N-1 of the
// 1-D periodic topology. Processes 0..CommSize-1 take part in its
// communicator (the Cartesian patterns use a smaller one); the others idle.
type Pattern struct {
	Name string
	Kind Kind
	// SendrecvOnly is set for the classic ping-pong, measured with
	// MPI_Sendrecv (plain Send/Recv) only.
	SendrecvOnly bool
	// CommSize is the size of the communicator the pattern runs on: the
	// first CommSize processes.
	CommSize int
	// Dims and Periodic describe the Cartesian topology of the Cartesian
	// patterns (nil otherwise); ranks are laid out row-major.
	Dims     []int
	Periodic bool
	// stepsOf computes a rank's steps (0 ≤ rank < CommSize) from the
	// pattern's definition: a pattern holds no table over the ranks.
	stepsOf func(rank int) []Step
	// messages and participants are counted on first use (−1 before);
	// a pattern made for one rank sets them when it is made.
	messages, participants int
}

// newPattern makes a pattern whose counts are taken on first use.
func newPattern(p Pattern) *Pattern {
	p.messages, p.participants = -1, -1
	return &p
}

// everyone makes a pattern every one of its processes takes part in (a
// ring through all of them): its participants are known without a count.
func everyone(p Pattern) *Pattern {
	q := newPattern(p)
	q.participants = p.CommSize
	return q
}

// pairs makes a pattern of the given number of disjoint pairs.
func pairs(p Pattern, n int) *Pattern {
	q := newPattern(p)
	q.participants, q.messages = 2*n, 2*n
	return q
}

// Steps returns the exchanges rank performs in one iteration (nil when the
// rank idles), computed for the call.
func (p *Pattern) Steps(rank int) []Step {
	if rank < 0 || rank >= p.CommSize {
		return nil
	}
	return p.stepsOf(rank)
}

// Methods returns the methods the pattern is measured with.
func (p *Pattern) Methods() []Method {
	if p.SendrecvOnly {
		return Methods[:1]
	}
	return Methods
}

// Messages is the number of messages the whole pattern sends per
// iteration (counted over the ranks on first use).
func (p *Pattern) Messages() int {
	if p.messages < 0 {
		p.count()
	}
	return p.messages
}

// Participants is the number of processes that send or receive.
func (p *Pattern) Participants() int {
	if p.participants < 0 {
		p.count()
	}
	return p.participants
}

// count counts the messages and participants rank by rank: time O(p),
// memory O(1).
func (p *Pattern) count() {
	p.messages, p.participants = 0, 0
	for r := range p.CommSize {
		st := p.Steps(r)
		if len(st) > 0 {
			p.participants++
		}
		for _, s := range st {
			if s.Dest != None {
				p.messages++
			}
		}
	}
}

// RingSizes returns the sizes of the rings of the ring pattern with standard
// ring size s on n processes, in the order the processes fill them
// (consecutively by rank). See docs/beff.md "Patterns".
func RingSizes(n, s int) []int {
	low, high, lowCount, highCount := ringShape(n, s)
	out := make([]int, 0, lowCount+highCount)
	add := func(size, count int) {
		for i := 0; i < count; i++ {
			out = append(out, size)
		}
	}
	if low%2 == 1 && highCount > 0 {
		add(high, highCount)
		add(low, lowCount)
	} else {
		add(low, lowCount)
		add(high, highCount)
	}
	return out
}

// StandardRingSizes are the standard ring sizes of the 6 ring patterns on n
// processes: 2, 4, 8, max(16, n/4), max(32, n/2), n, each capped at n.
func StandardRingSizes(n int) [6]int {
	s := [6]int{2, 4, 8, max(16, n/4), max(32, n/2), n}
	for i := range s {
		s[i] = min(s[i], n)
	}
	return s
}

// RingNames are the names of the 6 ring patterns.
var RingNames = [6]string{"ring2", "ring4", "ring8", "ringquarter", "ringhalf", "ringall"}

// ExtraNames are the names of the 13 additional patterns, in measurement order.
var ExtraNames = []string{
	"worstcycle", "bestbisect", "worstbisect", "pingpong",
	"cyclic-2dim-x", "cyclic-2dim-y", "cyclic-2dim-all",
	"cyclic-3dim-x", "cyclic-3dim-y", "cyclic-3dim-z", "cyclic-3dim-all",
	"acyclic-2dim-all", "acyclic-3dim-all",
}

// RandomName is the name of random pattern i (0-based).
func RandomName(i int) string { return fmt.Sprintf("random%02d", i+1) }

// ringStep is the steps of a process in a ring between left and right:
// ping to the right neighbour and receive from the left, then pong back;
// a ring of one or two processes drops the pong (it would go to the same
// partner).
func ringStep(left, right int) []Step {
	st := []Step{{Dest: right, Src: left}}
	if left != right {
		st = append(st, Step{Dest: left, Src: right})
	}
	return st
}

// ringAt is the ring of ring pattern s on n processes that rank r is in:
// its first process and size. The rings fill the processes consecutively
// by rank with the sizes of RingSizes, found in O(1).
func ringAt(n, s, r int) (first, size int) {
	low, high, lowCount, highCount := ringShape(n, s)
	a, na, b := low, lowCount, high // the first run of rings: na of size a
	if low%2 == 1 && highCount > 0 {
		a, na, b = high, highCount, low
	}
	if r < a*na {
		return r / a * a, a
	}
	r -= a * na
	return a*na + r/b*b, b
}

// ringShape is the rings of ring pattern s on n processes: lowCount rings
// of low processes and highCount of low+1 (docs/beff.md "Patterns").
func ringShape(n, s int) (low, high, lowCount, highCount int) {
	if s > n {
		s = n
	}
	rings := int(float64(n)/float64(s) + 0.4)
	if rings > n/2 {
		rings = n / 2
	}
	if rings < 1 {
		rings = 1
	}
	low = n / rings
	high = low + 1
	highCount = n - low*rings
	return low, high, rings - highCount, highCount
}

// orderRing is the steps of a ring through all n processes in an order:
// at(i) is the process at position i, pos(r) the position of process r.
func orderRing(n int, at, pos func(int) int) func(int) []Step {
	return func(r int) []Step {
		i := pos(r)
		return ringStep(at((i-1+n)%n), at((i+1)%n))
	}
}

// ringMessages is the messages of a ring of m processes per iteration.
func ringMessages(m int) int {
	if m <= 2 {
		return m
	}
	return 2 * m
}

// RingPattern returns ring pattern i (0..5) on n processes.
func RingPattern(n, i int) *Pattern {
	s := StandardRingSizes(n)[i]
	p := everyone(Pattern{Name: RingNames[i], Kind: KindRing, CommSize: n,
		stepsOf: func(r int) []Step {
			first, m := ringAt(n, s, r)
			return ringStep(first+(r-first-1+m)%m, first+(r-first+1)%m)
		}})
	low, high, lowCount, highCount := ringShape(n, s)
	p.messages = lowCount*ringMessages(low) + highCount*ringMessages(high)
	return p
}

// RandomPermutations returns count random permutations of 0..n-1 drawn from
// seed (the first count of PermStream). The function is pure so that a run
// can be repeated from its printed seed.
func RandomPermutations(n, count int, seed uint64) [][]int {
	next := PermStream(n, seed)
	out := make([][]int, count)
	for i := range out {
		out[i] = next()
	}
	return out
}

// PermStream returns the random permutations of 0..n-1 drawn from seed, one
// per call: every process draws them itself, one at a time, and keeps only
// its own neighbours (RandomPatternFor).
func PermStream(n int, seed uint64) func() []int {
	rng := rand.New(rand.NewPCG(seed, 0x62656666)) // "beff"
	return func() []int { return rng.Perm(n) }
}

// RandomPattern returns the random ring through the processes in order perm
// (it keeps perm and its inverse: for the fold and tests, on one process).
func RandomPattern(i int, perm []int) *Pattern {
	n := len(perm)
	pos := make([]int, n)
	for k, r := range perm {
		pos[r] = k
	}
	return everyone(Pattern{Name: RandomName(i), Kind: KindRandom, CommSize: n,
		stepsOf: orderRing(n, func(k int) int { return perm[k] }, func(r int) int { return pos[r] })})
}

// RandomPatternFor is random pattern i as process me runs it: its own
// steps in the ring through perm, and the counts; nothing that grows with
// the processes is kept. Steps of another rank are nil.
func RandomPatternFor(i int, perm []int, me int) *Pattern {
	n := len(perm)
	k := slices.Index(perm, me)
	own := ringStep(perm[(k-1+n)%n], perm[(k+1)%n])
	return &Pattern{Name: RandomName(i), Kind: KindRandom, CommSize: n, messages: ringMessages(n), participants: n,
		stepsOf: func(r int) []Step {
			if r != me {
				return nil
			}
			return own
		}}
}

// WorstCycleOrder is the order of the worst-case cycle: position i holds i/2
// for even i and n-1-i/2 for odd i.
func WorstCycleOrder(n int) []int {
	o := make([]int, n)
	for i := range o {
		if i%2 == 0 {
			o[i] = i / 2
		} else {
			o[i] = n - 1 - i/2
		}
	}
	return o
}

// worstCyclePos is the position of process r in WorstCycleOrder(n).
func worstCyclePos(n, r int) int {
	if r < (n+1)/2 {
		return 2 * r
	}
	return 2*(n-1-r) + 1
}

// worstCycleAt is the process at position i of WorstCycleOrder(n).
func worstCycleAt(n, i int) int {
	if i%2 == 0 {
		return i / 2
	}
	return n - 1 - i/2
}

// pairStepsOf builds ping-pong pairs: partner(r) is r's partner (None when
// it idles); the lower of each pair sends then receives, the other
// receives then sends.
func pairStepsOf(partner func(r int) int) func(int) []Step {
	return func(r int) []Step {
		q := partner(r)
		switch {
		case q == None:
			return nil
		case r < q:
			return []Step{{Dest: q, Src: None}, {Dest: None, Src: q}}
		}
		return []Step{{Dest: None, Src: q}, {Dest: q, Src: None}}
	}
}

// BestBisectPairs are the pairs (2k, 2k+1); with odd n the last process idles.
func BestBisectPairs(n int) [][2]int {
	var p [][2]int
	for k := 0; 2*k+1 < n; k++ {
		p = append(p, [2]int{2 * k, 2*k + 1})
	}
	return p
}

// WorstBisectPairs are the pairs (k, E-1-k) with E = n rounded down to even.
func WorstBisectPairs(n int) [][2]int {
	e := n &^ 1
	var p [][2]int
	for k := 0; k < e/2; k++ {
		p = append(p, [2]int{k, e - 1 - k})
	}
	return p
}

// DimsCreate is a pure-Go MPI_Dims_create for a dims array of zeros: the
// most balanced factorisation of n into nd factors (smallest difference
// between the largest and the smallest factor), in non-increasing order; of
// equally balanced ones (the first such n is 360 in 3-D: 10·6·6 and 9·8·5)
// it takes the one with the largest first factor. The harness uses the MPI
// library's own answer, which may be less balanced: Open MPI's greedy
// algorithm gives 12×6 for 72 and 18×10 for 180 where this gives 9×8 and
// 15×12. Both agree on whether the last dimension is 1, so CartCommSize
// does not depend on the choice.
func DimsCreate(n, nd int) []int {
	best := []int(nil)
	var rec func(rem, k, maxf int, cur []int)
	rec = func(rem, k, maxf int, cur []int) {
		if k == nd-1 {
			if rem > maxf {
				return
			}
			c := append(append([]int(nil), cur...), rem)
			if best == nil || c[0]-c[nd-1] < best[0]-best[nd-1] {
				best = c
			}
			return
		}
		for f := maxf; f >= 1; f-- {
			if rem%f == 0 {
				rec(rem/f, k+1, f, append(cur, f))
			}
		}
	}
	rec(n, 0, n, nil)
	return best
}

// CartCommSize returns the size c of the communicator of the nd-dimensional
// Cartesian patterns on n processes: the largest c ≤ n for which dims(c) has
// a last dimension > 1, or c < 4, or c < 8 and even.
func CartCommSize(n, nd int, dims func(c, nd int) []int) int {
	for c := n; c > 1; c-- {
		d := dims(c, nd)
		if d[nd-1] > 1 || c < 4 || (c < 8 && c%2 == 0) {
			return c
		}
	}
	return 1
}

// CartShift returns the ranks at displacement -1 (src) and +1 (dest) of rank
// along dimension dir in a row-major grid, None past a non-periodic edge.
func CartShift(dims []int, periodic bool, rank, dir int) (src, dest int) {
	stride := 1
	for _, d := range dims[dir+1:] {
		stride *= d
	}
	size := dims[dir]
	c := rank / stride % size
	at := func(delta int) int {
		k := c + delta
		if k < 0 || k >= size {
			if !periodic {
				return None
			}
			k = (k + size) % size
		}
		return rank + (k-c)*stride
	}
	return at(-1), at(+1)
}

// ShiftFunc returns the (src, dest) neighbours of a rank along a dimension;
// the harness passes MPI_Cart_shift, tests pass CartShift.
type ShiftFunc func(rank, dir int) (src, dest int)

// cartStepsOf: per listed direction, ping to the +1 neighbour (receive
// from -1), then pong back; the pong is dropped where both neighbours are
// one process.
func cartStepsOf(dirs []int, shift ShiftFunc) func(int) []Step {
	return func(r int) []Step {
		st := make([]Step, 0, 2*len(dirs))
		for _, d := range dirs {
			src, dest := shift(r, d)
			st = append(st, Step{Dest: dest, Src: src})
			if src != dest {
				st = append(st, Step{Dest: src, Src: dest})
			}
		}
		return st
	}
}

// cartCounts are the messages and participants of a Cartesian pattern
// along dirs of a grid of c processes (cartStepsOf), in O(1): every
// process takes part; along a dimension of d processes, periodic, each
// sends to both neighbours (to one where they are one process, d ≤ 2),
// not periodic, to both but past an edge (2(d−1) messages per line of d).
func cartCounts(c int, dims []int, periodic bool, dirs []int) (messages, participants int) {
	if c == 0 || len(dirs) == 0 {
		return 0, 0
	}
	for _, dir := range dirs {
		d := dims[dir]
		switch {
		case periodic && d <= 2:
			messages += c
		case periodic:
			messages += 2 * c
		default:
			messages += c / d * 2 * (d - 1)
		}
	}
	return messages, c
}

// Cart describes the Cartesian communicator of one dimensionality.
type Cart struct {
	Size  int   // communicator size c
	Dims  []int // from MPI_Dims_create(c, nd)
	Shift ShiftFunc
	// AShift is the shift of the non-periodic topology.
	AShift ShiftFunc
}

// PureCart returns the Cartesian layout computed in Go.
func PureCart(n, nd int) Cart {
	c := CartCommSize(n, nd, DimsCreate)
	dims := DimsCreate(c, nd)
	return Cart{Size: c, Dims: dims,
		Shift:  func(r, d int) (int, int) { return CartShift(dims, true, r, d) },
		AShift: func(r, d int) (int, int) { return CartShift(dims, false, r, d) },
	}
}

// ExtraPatterns returns the 13 additional patterns on n processes, using the
// 2-D and 3-D Cartesian layouts c2 and c3. Patterns in which no message
// would be sent (ping-pong and bi-sections on one process) are left out.
func ExtraPatterns(n int, c2, c3 Cart) []*Pattern {
	var out []*Pattern
	add := func(p *Pattern) {
		if p.Messages() > 0 {
			out = append(out, p)
		}
	}
	worst := everyone(Pattern{Name: "worstcycle", Kind: KindExtra, CommSize: n,
		stepsOf: orderRing(n, func(i int) int { return worstCycleAt(n, i) }, func(r int) int { return worstCyclePos(n, r) })})
	worst.messages = ringMessages(n)
	add(worst)
	add(pairs(Pattern{Name: "bestbisect", Kind: KindExtra, CommSize: n, stepsOf: pairStepsOf(func(r int) int {
		if q := r ^ 1; q < n {
			return q
		}
		return None
	})}, n/2))
	e := n &^ 1
	add(pairs(Pattern{Name: "worstbisect", Kind: KindExtra, CommSize: n, stepsOf: pairStepsOf(func(r int) int {
		if r < e {
			return e - 1 - r
		}
		return None
	})}, e/2))
	if n >= 2 {
		add(pairs(Pattern{Name: "pingpong", Kind: KindExtra, SendrecvOnly: true, CommSize: n, stepsOf: pairStepsOf(func(r int) int {
			if r < 2 {
				return 1 - r
			}
			return None
		})}, 1))
	}
	cart := func(name string, c Cart, periodic bool, dirs []int) {
		shift := c.Shift
		if !periodic {
			shift = c.AShift
		}
		q := newPattern(Pattern{Name: name, Kind: KindExtra, CommSize: c.Size, Dims: c.Dims, Periodic: periodic,
			stepsOf: cartStepsOf(dirs, shift)})
		q.messages, q.participants = cartCounts(c.Size, c.Dims, periodic, dirs)
		add(q)
	}
	cart("cyclic-2dim-x", c2, true, []int{0})
	cart("cyclic-2dim-y", c2, true, []int{1})
	cart("cyclic-2dim-all", c2, true, []int{0, 1})
	cart("cyclic-3dim-x", c3, true, []int{0})
	cart("cyclic-3dim-y", c3, true, []int{1})
	cart("cyclic-3dim-z", c3, true, []int{2})
	cart("cyclic-3dim-all", c3, true, []int{0, 1, 2})
	cart("acyclic-2dim-all", c2, false, []int{0, 1})
	cart("acyclic-3dim-all", c3, false, []int{0, 1, 2})
	return out
}

// Set is the full list of patterns of a run.
type Set struct {
	N        int
	Patterns []*Pattern
}

// NewSet builds the pattern list in measurement order: 6 rings, the random
// rings (RandomPattern or RandomPatternFor), then the additional patterns.
func NewSet(n int, random []*Pattern, c2, c3 Cart) *Set {
	s := &Set{N: n}
	for i := 0; i < 6; i++ {
		s.Patterns = append(s.Patterns, RingPattern(n, i))
	}
	s.Patterns = append(s.Patterns, random...)
	s.Patterns = append(s.Patterns, ExtraPatterns(n, c2, c3)...)
	return s
}

// Reference returns the set as the reference code b_eff 3.6.0.1 builds it:
// a Cartesian pattern leaves out the directions of a dimension of size 1,
// in which a process would exchange messages with itself (periodic) or
// with nobody (not periodic), and a pattern along such a direction alone
// does not exist; the non-periodic Cartesian patterns come before the
// periodic ones. The other patterns are the same, in the same order.
func (s *Set) Reference() *Set {
	out := &Set{N: s.N}
	order := slices.Clone(s.Patterns)
	slices.SortStableFunc(order, func(a, b *Pattern) int {
		cart := func(p *Pattern) int {
			switch {
			case p.Dims == nil:
				return 0
			case !p.Periodic:
				return 1
			}
			return 2
		}
		return cart(a) - cart(b)
	})
	for _, p := range order {
		if p.Dims != nil {
			q, orig := newPattern(*p), p.stepsOf
			q.stepsOf = func(r int) []Step {
				var out []Step
				for _, x := range orig(r) {
					if x.Dest != x.Src || (x.Dest != r && x.Dest != None) {
						out = append(out, x)
					}
				}
				return out
			}
			if q.Messages() == 0 {
				continue
			}
			p = q
		}
		out.Patterns = append(out.Patterns, p)
	}
	return out
}

// PureSet builds the pattern list without MPI (for tests and the fold).
func PureSet(n, random int, seed uint64) *Set {
	var rnd []*Pattern
	for i, perm := range RandomPermutations(n, random, seed) {
		rnd = append(rnd, RandomPattern(i, perm))
	}
	return NewSet(n, rnd, PureCart(n, 2), PureCart(n, 3))
}

// CountSet is the pattern list with the random rings reduced to their
// names and counts (no permutation is drawn): what the fold needs, in
// memory O(1) per pattern and time O(n) for the counts of the others.
func CountSet(n, random int) *Set {
	rnd := make([]*Pattern, random)
	for i := range rnd {
		rnd[i] = &Pattern{Name: RandomName(i), Kind: KindRandom, CommSize: n, messages: ringMessages(n), participants: n,
			stepsOf: func(int) []Step { return nil }}
	}
	return NewSet(n, rnd, PureCart(n, 2), PureCart(n, 3))
}

// Lookup returns the pattern with the given name, or nil.
func (s *Set) Lookup(name string) *Pattern {
	for _, p := range s.Patterns {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Check verifies that every pattern pairs its steps: whenever rank a sends
// to b in step k, b receives from a in its step k, and the other way round.
func (p *Pattern) Check() error {
	for a := range p.CommSize {
		for k, s := range p.Steps(a) {
			if s.Dest != None {
				bs := p.Steps(s.Dest)
				if k >= len(bs) || bs[k].Src != a {
					return fmt.Errorf("pattern %s: rank %d sends to %d in step %d, which does not receive from it there", p.Name, a, s.Dest, k)
				}
			}
			if s.Src != None {
				bs := p.Steps(s.Src)
				if k >= len(bs) || bs[k].Dest != a {
					return fmt.Errorf("pattern %s: rank %d receives from %d in step %d, which does not send to it there", p.Name, a, s.Src, k)
				}
			}
		}
	}
	return nil
}
