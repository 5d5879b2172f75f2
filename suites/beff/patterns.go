package beff

import (
	"fmt"
	"slices"

	"github.com/beff-suite/beff/internal/ring"
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
		stepsOf: orderRing(n, func(i int) int { return ring.WorstAt(n, i) }, func(r int) int { return ring.WorstPos(n, r) })})
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

// PatternSet is the full list of patterns of a run.
type PatternSet struct {
	N        int
	Patterns []*Pattern
}

// NewPatternSet builds the pattern list in measurement order: 6 rings, the random
// rings (RandomPattern or RandomPatternFor), then the additional patterns.
func NewPatternSet(n int, random []*Pattern, c2, c3 Cart) *PatternSet {
	s := &PatternSet{N: n}
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
func (s *PatternSet) Reference() *PatternSet {
	out := &PatternSet{N: s.N}
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
func PureSet(n, random int, seed uint64) *PatternSet {
	var rnd []*Pattern
	for i, perm := range RandomPermutations(n, random, seed) {
		rnd = append(rnd, RandomPattern(i, perm))
	}
	return NewPatternSet(n, rnd, PureCart(n, 2), PureCart(n, 3))
}

// CountSet is the pattern list with the random rings reduced to their
// names and counts (no permutation is drawn): what the fold needs, in
// memory O(1) per pattern and time O(n) for the counts of the others.
func CountSet(n, random int) *PatternSet {
	rnd := make([]*Pattern, random)
	for i := range rnd {
		rnd[i] = &Pattern{Name: RandomName(i), Kind: KindRandom, CommSize: n, messages: ringMessages(n), participants: n,
			stepsOf: func(int) []Step { return nil }}
	}
	return NewPatternSet(n, rnd, PureCart(n, 2), PureCart(n, 3))
}

// Lookup returns the pattern with the given name, or nil.
func (s *PatternSet) Lookup(name string) *Pattern {
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
